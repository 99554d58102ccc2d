"""The batch replay's fast path against the path it skips: ``replay_json`` against
``json.dumps(state_to_dict(...))`` of ``GameRecord.from_dict`` and its replay (the same
text, the same refusal), ``Table.play_rounds`` against ``play`` round by round,
``Table.start`` against ``new_game``, ``final_scores`` against ``outcome``."""

from __future__ import annotations

import copy
import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.boards import profile
from companion.game.randgame import random_game
from companion.game.record import GameRecord, replay_json, state_to_dict
from companion.rules import ALL_CARDS, GameState, Setup, new_game, outcome, play_round
from companion.rules.ending import final_scores
from companion.rules.table import Table


def slow_json(doc: object) -> str:
    """What ``replay --json`` printed before the fast path: parse, play each round on
    the checked path, dump."""
    record = GameRecord.from_dict(doc)
    state = record.start()
    for r in record.rounds:
        state = play_round(state, r.plays, r.trades)
    return json.dumps(state_to_dict(state, record.ended))


def answer(replay, doc: object) -> tuple[str, str]:
    """(the text, "") or (the error's type, its message): what a replay line reports."""
    try:
        return replay(doc), ""
    except Exception as e:  # every failure is compared, whatever it is
        return type(e).__name__, str(e)


def games(seed: int, count: int) -> list[dict]:
    rng = random.Random(seed)
    return [json.loads(random_game(rng).to_json()) for _ in range(count)]


def test_replay_json_writes_what_json_dumps_writes_of_every_game_and_prefix():
    rng = random.Random(3)
    docs = 0
    for doc in games(1, 40):
        for cut in sorted({0, 1, len(doc["rounds"]) // 2, len(doc["rounds"])}):
            part = dict(doc, rounds=doc["rounds"][:cut])
            if rng.random() < 0.3:
                part["ended"] = True
            if rng.random() < 0.3:
                part["bots"] = [None] + ["strong"] * (doc["players"] - 1)
            assert replay_json(part) == slow_json(part)
            docs += 1
    assert docs > 100


def mutations(doc: dict, rng: random.Random) -> list[dict]:
    """Records that go wrong, or oddly right, somewhere inside: each one change."""
    rounds = doc["rounds"]
    at = rng.randrange(len(rounds))
    seat = rng.randrange(doc["players"])
    out = []

    def changed(change) -> None:
        new = copy.deepcopy(doc)
        change(new["rounds"][at])
        out.append(new)

    def set_card(value):
        return lambda r: r["plays"][seat].__setitem__(0, value)

    for value in (True, 1.0, 0, 9, "3", None, [1]):
        changed(set_card(value))
    changed(lambda r: r["plays"][seat].append(r["plays"][seat][0]))  # repeated / too many
    changed(lambda r: r["plays"][seat].pop())  # too few
    changed(lambda r: r["plays"].pop())  # a seat missing
    changed(lambda r: r["plays"].__setitem__(seat, tuple(r["plays"][seat])))
    changed(lambda r: r["plays"].__setitem__(seat, 7))
    changed(lambda r: r.pop("plays"))
    changed(lambda r: r.__setitem__("trades", [-1] * doc["players"]))
    changed(lambda r: r.__setitem__("trades", [True] * doc["players"]))
    changed(lambda r: r.__setitem__("trades", [None] * doc["players"]))  # null: no offer
    changed(lambda r: r.__setitem__("trades", [3] * (doc["players"] + 1)))
    changed(lambda r: r.__setitem__("trades", 5))
    changed(lambda r: r.__setitem__("trades", None))  # null: no offers, as missing
    changed(lambda r: r.pop("trades"))
    # a card already played: not in hand (unless a Beggar brought it back)
    earlier = rounds[rng.randrange(at + 1)]["plays"][seat]
    changed(lambda r: r["plays"].__setitem__(seat, list(earlier)))
    extra = copy.deepcopy(doc)
    extra["rounds"].append(copy.deepcopy(rounds[-1]))  # a round after the end
    out.append(extra)
    bad_bots = dict(doc, bots=["strong"] + [None] * (doc["players"] - 1))
    out.append(bad_bots)
    out.append(dict(doc, rounds="none"))
    out.append(dict(doc, ended=1))
    out.append(dict(doc, players=7))
    return out


def test_replay_json_refuses_what_from_dict_and_replay_refuse_with_the_same_words():
    rng = random.Random(8)
    refused = 0
    for doc in games(2, 25):
        for bad in mutations(doc, rng):
            fast, slow = answer(replay_json, bad), answer(slow_json, bad)
            assert fast == slow
            refused += bool(slow[1])
    assert refused > 25 * 15  # most of them are refusals, not games that still replay


def test_play_rounds_plays_each_round_as_play_does_up_to_the_first_refusal():
    rng = random.Random(4)
    for doc in games(5, 30):
        for bad in [doc, *mutations(doc, rng)[:14]]:
            rounds = bad["rounds"]
            usual = type(rounds) is list and all(type(r) is dict and "plays" in r for r in rounds)
            if not usual:
                continue
            plays = [r["plays"] for r in rounds]
            offers = [r.get("trades") or [] for r in rounds]
            board = profile(bad["board"]) if isinstance(bad["board"], str) else None
            if board is None or bad["players"] not in range(2, 7):
                continue
            state = new_game(bad["players"], board, bad["target"])
            fast, slow = Table(state), Table(state)
            fast_error = slow_error = None
            try:
                fast.play_rounds(plays, offers)
            except Exception as e:
                fast_error = (type(e), str(e))
            try:
                for cards, offered in zip(plays, offers, strict=True):
                    slow.play(cards, offered)
            except Exception as e:
                slow_error = (type(e), str(e))
            assert fast_error == slow_error
            assert fast.state() == slow.state() and fast.round == slow.round


@pytest.mark.parametrize("players", range(2, 7))
def test_a_table_started_from_a_setup_is_the_table_of_new_game(players):
    setup = Setup(players, profile("winter"), 45)
    started, made = Table.start(setup), Table(new_game(players, setup.board, 45))
    assert started.state() == made.state()
    assert [started.rows, started.hands, started.discards] == [made.rows, made.hands, made.discards]


@settings(max_examples=300, deadline=None)
@given(
    seats=st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 6), st.integers(0, 8)), min_size=2, max_size=6
    )
)
def test_final_scores_convert_and_crown_as_the_outcome_does(seats):
    """Small numbers: ties on VP, on goods and on cards, all three, are common."""
    vp, goods, cards = (tuple(column) for column in zip(*seats, strict=True))
    hands = tuple(frozenset(itertools.islice(sorted(ALL_CARDS), n)) for n in cards)
    setup = Setup(len(seats), profile("standard"), 30)
    state = GameState(setup, vp, goods, hands, (frozenset(),) * len(seats))
    end, scores = outcome(state), final_scores(vp, goods, cards)
    assert (scores.vp, scores.goods, scores.cards) == (end.vp, end.goods, end.cards)
    assert scores.winners == end.winners
