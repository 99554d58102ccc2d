"""What `companion simulate` says: counts that read right for 1, no help for typing at a
pipe, and an empty ``--web`` refused."""

from __future__ import annotations

import io
import os

import pytest
from helpers import simulate

from companion.cli import main
from companion.ui.catalog import catalog


def test_an_empty_web_address_is_refused_with_one_line(capsys):
    code = main(["simulate", "--players", "3", "--fast", "--web", ""])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == ("companion simulate: --web: give HOST:PORT, e.g. 127.0.0.1:8080 (got '')\n")


@pytest.mark.parametrize("source", ["pipe", "null"])
def test_no_typing_help_when_standard_input_is_not_a_terminal(monkeypatch, source):
    typed = "press P1 1\npress P1 3\npress P2 2\npress P2 5\npress P3 4\npress P3 8\n"
    stdin = io.StringIO(typed) if source == "pipe" else open(os.devnull)  # noqa: SIM115
    monkeypatch.setattr("sys.stdin", stdin)
    try:
        code, _, err = simulate("--players", "3", "--fast", "--json")
    finally:
        stdin.close()
    assert code == 0 and err == ""


def test_a_saved_game_of_one_round_is_one_round(tmp_path):
    (tmp_path / "one.txt").write_text(
        "press P1 1\npress P1 3\npress P2 2\npress P2 5\npress P3 4\npress P3 8\n"
    )
    state = ("--state-dir", str(tmp_path / "s"))
    assert (
        simulate("--players", "3", "--fast", "--script", str(tmp_path / "one.txt"), *state)[0] == 0
    )
    code, _, err = simulate(
        "--players", "3", "--fast", "--script", str(tmp_path / "one.txt"), *state
    )
    assert code == 2 and "holds an unfinished game (3 seats, 1 round): leave out" in err


@pytest.mark.parametrize(
    ("key", "values", "says"),
    [
        ("screen.resume_game", {"players": 3, "n": 1}, "3 seats, 1 round"),
        ("screen.resume_game", {"players": 3, "n": 2}, "3 seats, 2 rounds"),
        ("narrate.beggar_hand", {"n": 1, "goods": 2}, "1 card left in hand: +2"),
        (
            "narrate.score",
            {"seat": "P1", "vp": 1, "goods": 1, "cards": 1},
            "P1 1 VP, 1 good, 1 card",
        ),
        (
            "narrate.place",
            {"place": 1, "seats": "P2", "vp": 9, "goods": 0, "cards": 1},
            "1. P2: 9 VP, 0 goods left, 1 card in hand",
        ),
    ],
)
def test_english_counts_of_one_are_singular(key, values, says):
    assert catalog("en").t(key, **values) == says


@pytest.mark.parametrize(
    ("lang", "key", "values", "says"),
    [
        ("nl", "screen.trade_offer", {"spent": 1}, "ruil 1 goed"),
        ("nl", "screen.trade_offer", {"spent": 3}, "ruil 3 goederen"),
        ("fr", "web.placed", {"n": 1, "need": 2}, "1/2 posée"),
        ("fr", "web.placed", {"n": 3, "need": 3}, "3/3 posées"),
    ],
)
def test_dutch_and_french_counts_take_their_forms(lang, key, values, says):
    assert catalog(lang).t(key, **values) == says
