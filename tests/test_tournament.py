"""Bot tournaments (``companion bench --bots``): the counts add up and the intervals hold
the rates. The strong bot's clock is fake (1 ms a read): the games are the same on any
machine and take little time."""

from __future__ import annotations

import io
import itertools
import json

import pytest

from companion.cli import main
from companion.cli.bench import bots_command
from companion.game.tournament import ORDERS, PAIRINGS, SEATS, play_pairing, tournament, wilson


def _fake_clock():
    return itertools.count(0, 0.001).__next__


def test_the_seat_orders_give_each_side_every_seat_and_both_counts_equally_often() -> None:
    assert all(len(order) == SEATS for order in ORDERS)
    for seat in range(SEATS):
        assert [order[seat] for order in ORDERS].count("A") == len(ORDERS) // 2
    assert sorted(order.count("A") for order in ORDERS) == [1, 1, 1, 2, 2, 2]


def test_wilson_interval_matches_the_formula_and_holds_the_rate() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 6)[0] == 0.0 and wilson(6, 6)[1] == 1.0
    assert wilson(0, 6)[1] > 0 and wilson(6, 6)[0] < 1  # never a zero-width interval
    for wins in (0, 0.5, 3, 5.5, 6):
        low, high = wilson(wins, 6)
        assert 0 <= low <= wins / 6 <= high <= 1


@pytest.mark.slow
def test_a_tiny_tournament_adds_up() -> None:
    pairings = tournament(6, seed=4, budget_ms=30, clock=_fake_clock)
    assert [(p.first, p.second) for p in pairings] == list(PAIRINGS)
    for p in pairings:
        assert p.games == 6 and p.wins + p.losses == 6
        assert 0 <= p.shared <= 6 and (2 * p.wins) % 1 == 0  # whole or half wins
        low, high = p.interval
        assert 0 <= low <= p.rate <= high <= 1
        doc = p.as_dict()
        assert doc["win_rate"] == round(p.wins / 6, 4) and doc["ci95"][0] <= doc["win_rate"]
    # the same seed and the same (fake) clock give the same games
    again = play_pairing("normal", "easy", 6, seed=4, budget_ms=30, clock=_fake_clock)
    assert again == pairings[1]


@pytest.mark.slow
def test_bench_bots_json_and_text(capsys) -> None:
    argv = ["bench", "--bots", "--games", "6", "--seed", "2", "--budget-ms", "1"]
    assert main([*argv, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["seats"] == 3 and doc["games"] == 6 and doc["budget_ms"] == 1
    assert [(p["first"], p["second"]) for p in doc["pairings"]] == list(PAIRINGS)
    for p in doc["pairings"]:
        assert p["wins"] + p["losses"] == 6
        assert p["ci95"][0] <= p["win_rate"] <= p["ci95"][1]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "3-seat games" in text and "strong vs normal" in text and "95% CI" in text


def test_bench_bots_refuses_games_that_cannot_rotate_the_seats(capsys) -> None:
    assert main(["bench", "--bots", "--games", "7"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--games 7" in err and "multiple of 6" in err


def test_bench_bots_writes_its_refusal_on_the_err_it_is_given() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = bots_command(games=5, seed=0, budget_ms=1, as_json=True, out=out, err=err)
    assert code == 2 and out.getvalue() == ""
    assert err.getvalue() == (
        "companion bench --bots: --games 5: give a multiple of 6, so that each side holds "
        "every seat equally often\n"
    )
