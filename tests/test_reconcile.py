"""``reconcile()``, the pure function that keeps the state folder and the history in step,
as a table of cases: what the folder holds, what the history holds, what must be done."""

from __future__ import annotations

import pytest

from companion.game.record import GameRecord
from companion.storage.history import Held
from companion.storage.reconcile import FileGame, Forget, Put, reconcile

ROUNDS = [
    {"plays": [[1, 3], [2, 5], [4, 8]], "trades": [0, 0, 0]},
    {"plays": [[7, 6], [7, 1], [3, 5]], "trades": [9, 4, 0]},
]


def game(game_id: str, rounds: int, target: int = 30, **more) -> GameRecord:
    data = {"id": game_id, "players": 3, "target": target, "rounds": ROUNDS[:rounds], **more}
    return GameRecord.from_dict(data)


def kept(name: str, record: GameRecord, *also: str) -> FileGame:
    return FileGame(name, record, record.replay().finished, True, "2026-11-28T10:00:00+00:00", also)


def playing(record: GameRecord, before: GameRecord | None = None) -> FileGame:
    return FileGame("game.json", record, record.replay().finished, False, None, (), before)


def row(record: GameRecord) -> Held:
    return Held(record.replay().finished, record)


FINISHED = game("g1", 2, target=6)
ANOTHER_SECOND = {"plays": [[2, 4], [1, 3], [3, 5]], "trades": [0, 0, 0]}
OTHERWISE = GameRecord.from_dict(
    {"id": "g1", "players": 3, "target": 30, "rounds": [ROUNDS[0], ANOTHER_SECOND]}
)
DATE = "2026-11-28T10:00:00+00:00"

CASES = {
    "a game set aside the history lacks is written": (
        [kept("a.json", game("g1", 1))],
        {},
        [Put(game("g1", 1), DATE)],
    ),
    "a game set aside the history holds is left": (
        [kept("a.json", game("g1", 1))],
        {"g1": row(game("g1", 1))},
        [],
    ),
    "a game set aside with no round played is no row": (
        [kept("a.json", game("g1", 0))],
        {},
        [],
    ),
    "the game in progress is no row yet": (
        [playing(game("g1", 1))],
        {},
        [],
    ),
    "a game file that ended and the history lacks is written": (
        [playing(FINISHED)],
        {},
        [Put(FINISHED, None)],
    ),
    "a game file that ended after the history's row updates it": (
        [playing(FINISHED)],
        {"g1": row(game("g1", 1))},
        [Put(FINISHED, None)],
    ),
    "a copy set aside of the game in progress is a resume cut short": (
        [kept("a.json", game("g1", 1), "a.prev.json"), playing(game("g1", 1))],
        {"g1": row(game("g1", 1))},
        [Forget(("a.json", "a.prev.json"))],
    ),
    "a copy set aside ahead of the game file is kept": (
        [kept("a.json", game("g1", 2)), playing(game("g1", 1))],
        {},
        [],
    ),
    "of two copies set aside the newest is the game": (
        [kept("a.json", game("g1", 1)), kept("b.json", game("g1", 2))],
        {"g1": row(game("g1", 1))},
        [Put(game("g1", 2), DATE), Forget(("a.json",))],
    ),
    "the game file undone after it finished writes its row as it is now": (
        [playing(game("g1", 1, target=6), before=FINISHED)],
        {"g1": row(FINISHED)},
        [Put(game("g1", 1, target=6), None)],
    ),
    "a game file behind its finished row, its save at the end failed, is left": (
        [playing(game("g1", 1, target=6), before=game("g1", 0, target=6))],
        {"g1": row(FINISHED)},
        [],
    ),
    "a copy set aside behind a finished row was resumed and finished": (
        [kept("a.json", game("g1", 1, target=6))],
        {"g1": row(FINISHED)},
        [Forget(("a.json",))],
    ),
    "a copy set aside behind an abandoned row stays, unwritten": (
        [kept("a.json", game("g1", 1))],
        {"g1": row(game("g1", 2))},
        [],
    ),
    "a game played on otherwise after an undo, then set aside, is written as it is now": (
        [kept("a.json", OTHERWISE)],
        {"g1": row(game("g1", 2, ended=True))},
        [Put(OTHERWISE, DATE)],
    ),
    "two games of the same keys are two games": (
        [kept("a.json", game("g1", 1)), kept("b.json", game("g2", 1))],
        {"g1": row(game("g1", 1))},
        [Put(game("g2", 1), DATE)],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_reconcile(case):
    files, rows, actions = CASES[case]
    assert reconcile(files, rows, keep=20) == actions


def test_the_ended_games_the_history_holds_are_pruned_to_the_last_n_oldest_first():
    files = [kept(f"{n}.json", game(f"g{n}", 1, ended=True)) for n in range(5)]
    files.insert(1, kept("set-aside.json", game("u", 1)))  # unfinished: stays to be resumed
    rows = {f"g{n}": row(game(f"g{n}", 1, ended=True)) for n in (0, 1, 3, 4)}  # g2 is not
    rows["u"] = row(game("u", 1))  # held
    assert reconcile(files, rows, keep=2) == [
        Put(game("g2", 1, ended=True), DATE),
        Forget(("0.json",)),
        Forget(("1.json",)),
        Forget(("2.json",)),  # written first, by the Put before it
    ]


def test_copies_that_went_two_ways_are_both_kept_and_the_clock_is_no_guide():
    """After an undo a game may go on otherwise; a Pi's clock may go back after a cut:
    a copy is dropped only when another is ahead of it."""
    ahead, behind_it = game("g1", 2), game("g1", 1)
    files = [kept("new-clock.json", behind_it), kept("old-clock.json", ahead)]
    assert reconcile(files, {"g1": row(ahead)}, keep=20) == [Forget(("new-clock.json",))]
    files = [kept("a.json", ahead), kept("b.json", OTHERWISE)]
    assert reconcile(files, {}, keep=20) == [Put(OTHERWISE, DATE)]  # a kept, unwritten


def test_every_action_done_twice_is_as_good_as_once():
    """After the actions are done, the same look finds nothing left to do."""
    files = [
        kept("a.json", game("g1", 1)),
        kept("b.json", game("g1", 2)),
        kept("c.json", game("g2", 1)),
        playing(game("g2", 2)),
    ]
    rows: dict[str, Held] = {}
    actions = reconcile(files, rows, keep=20)
    gone = {name for a in actions if isinstance(a, Forget) for name in a.names}
    for a in actions:
        if isinstance(a, Put):
            rows[a.record.game_id] = row(a.record)
    left = [f for f in files if f.name not in gone]
    assert gone == {"a.json", "c.json"} and reconcile(left, rows, keep=20) == []
