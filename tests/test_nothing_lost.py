"""A finished game is never deleted, whatever the history does (issue 16): it is kept as a
file of its own until the history holds it, and written into the history when it can be.
The history is written off the table's thread; read commands never change the folder."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import model_script, simulate

from companion.app.sinks import HistoryRecorder, Saver
from companion.game.boards import profile
from companion.game.record import GameRecord
from companion.storage import StateDir
from companion.storage import history as history_module
from companion.storage.history import VERSION, History
from companion.table import GameChanged, GameFinished, KeepAside

NOON = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
ROUNDS = [
    {"plays": [[1, 3], [2, 5], [4, 8]], "trades": [0, 0, 0]},
    {"plays": [[7, 6], [7, 1], [3, 5]], "trades": [9, 4, 0]},
]
UNNAMED = (None, None, None)


def record(target: int = 6, rounds=ROUNDS, **more) -> GameRecord:
    return GameRecord.from_dict({"players": 3, "target": target, "rounds": rounds, **more})


def games_in(folder: Path) -> list[GameRecord]:
    """The records the history of ``folder`` holds, read as a read command reads them."""
    history = History.read_only(folder)
    try:
        return [g.record for g in history.games()]
    finally:
        history.close()


def played(folder: Path) -> list[str]:
    """What each game in the history of ``folder`` played, without its id (a simulator
    draws its games' ids), as JSON text."""
    return [without_id(r) for r in games_in(folder)]


def without_id(record: GameRecord) -> str:
    return replace(record, game_id=None).to_json()


def files_of(folder: Path) -> dict[str, GameRecord]:
    """Every game file in ``folder`` (kept or in progress, not their previous versions)."""
    return {
        p.name: GameRecord.from_json(p.read_bytes())
        for p in folder.glob("game*.json")
        if ".prev" not in p.name
    }


class Locked:
    """Another process's connection holding ``history.sqlite``'s write lock (EXCLUSIVE: not
    even a read gets in), until released."""

    def __init__(self, folder: Path):
        self.db = sqlite3.connect(folder / "history.sqlite", isolation_level=None, timeout=0)
        self.db.execute("BEGIN EXCLUSIVE")

    def release(self) -> None:
        self.db.execute("ROLLBACK")
        self.db.close()


def newer_schema(folder: Path) -> None:
    db = sqlite3.connect(folder / "history.sqlite")
    db.execute(f"PRAGMA user_version = {VERSION + 7}")
    db.close()


def schema_back(folder: Path) -> None:
    db = sqlite3.connect(folder / "history.sqlite")
    db.execute(f"PRAGMA user_version = {VERSION}")
    db.close()


@pytest.fixture
def read_only_history(monkeypatch):
    """Every history opened read-only, as on a card mounted read-only: each write fails with
    "attempt to write a readonly database"."""
    connect = sqlite3.connect

    def opened(path, *args, **kwargs):
        if isinstance(path, Path):
            kwargs["uri"] = True
            path = path.resolve().as_uri() + "?mode=ro"
        return connect(path, *args, **kwargs)

    state = {"on": False}

    def maybe(path, *args, **kwargs):
        return (opened if state["on"] else connect)(path, *args, **kwargs)

    monkeypatch.setattr(history_module.sqlite3, "connect", maybe)
    return state


# --- the state folder ---------------------------------------------------------------------


def test_a_new_game_saved_over_a_finished_one_sets_it_aside(tmp_path):
    store = StateDir(tmp_path, clock=lambda: NOON.replace(tzinfo=None))
    store.save(record())  # finished: the target reached
    store.save(record(rounds=[]))  # a new game, at power-on (no KeepAside came)
    kept = tmp_path / "game-2026-11-23T12-00-00.json"
    assert store.kept == kept
    assert store.notes == ("the game that ended is kept as game-2026-11-23T12-00-00.json",)
    store.save(record(rounds=ROUNDS[:1]))  # its second save
    assert store.kept is None and store.notes == ()
    assert GameRecord.from_json(kept.read_bytes()) == record()
    assert store.load().record == record(rounds=ROUNDS[:1])


def test_a_game_ended_from_the_menu_is_set_aside_too_even_by_a_fresh_store(tmp_path):
    StateDir(tmp_path).save(record(target=30, ended=True))
    store = StateDir(tmp_path)  # after a restart: it did not write the file itself
    store.save(record(target=30, rounds=[]))  # another game of the same setup
    assert store.kept is not None
    assert GameRecord.from_json(store.kept.read_bytes()) == record(target=30, ended=True)


def test_undoing_the_last_round_of_a_finished_game_keeps_it_the_same_game(tmp_path):
    store = StateDir(tmp_path)
    store.save(record())
    store.save(record(rounds=ROUNDS[:1]))  # the last round undone
    assert store.kept is None
    assert files_of(tmp_path) == {"game.json": record(rounds=ROUNDS[:1])}
    assert GameRecord.from_json((tmp_path / "game.prev.json").read_bytes()) == record()


def test_an_unfinished_game_is_still_continued_by_its_saves(tmp_path):
    store = StateDir(tmp_path)
    for n in range(3):
        store.save(record(target=30, rounds=ROUNDS[:n]))
    assert store.kept is None and sorted(p.name for p in tmp_path.iterdir()) == [
        "game.json",
        "game.prev.json",
    ]


def test_a_save_of_another_game_sets_the_unfinished_one_aside_by_its_id(tmp_path):
    """A game is its id: another game's save never pushes an unfinished one out through
    the backup, and the same game's saves (a round on, or undone) continue it."""
    store = StateDir(tmp_path, clock=lambda: NOON.replace(tzinfo=None))
    store.save(record(target=30, rounds=ROUNDS[:1], id="g1"))
    store.save(record(target=30, rounds=[], id="g1"))  # undone: the same game
    assert store.kept is None
    store.save(record(target=30, rounds=ROUNDS[:1], id="g2"))  # the same keys, another game
    assert store.notes == ("the game before it is kept as game-2026-11-23T12-00-00.json",)
    assert files_of(tmp_path) == {
        "game.json": record(target=30, rounds=ROUNDS[:1], id="g2"),
        "game-2026-11-23T12-00-00.json": record(target=30, rounds=[], id="g1"),
    }


# --- the recorder: a failed write waits, and is written when the history is back ---------


def recorder(
    folder: Path, said: list[str], store: StateDir | None = None, **options
) -> tuple[HistoryRecorder, Saver]:
    history = History(folder, clock=lambda: NOON, report=said.append)
    store = store or StateDir(folder)
    return HistoryRecorder(history, said.append, store=store, **options), Saver(
        store, lambda _e: None, said.append
    )


def play(sinks, *effects) -> None:
    for effect in effects:
        for sink in sinks:
            sink(effect)


def a_game(target: int = 6, rounds=ROUNDS, game: str = "g1") -> tuple:
    """A game's effects, from its first save to its end; ``game``: its id."""
    changes = tuple(GameChanged(record(target, rounds[:n], id=game)) for n in range(len(rounds)))
    return (*changes, GameFinished(record(target, rounds, id=game), UNNAMED))


@pytest.mark.parametrize("order", ["recorder first", "saver first"])
def test_a_game_whose_write_fails_is_written_at_the_next_write(tmp_path, order):
    said: list[str] = []
    table = recorder(tmp_path, said)
    sinks = table if order == "recorder first" else table[::-1]
    locked = Locked(tmp_path)
    play(sinks, *a_game())
    play(sinks, GameChanged(record(target=30, rounds=[], id="g2")))  # a new game over it
    locked.release()
    play(sinks, GameChanged(record(target=30, rounds=ROUNDS[:1], id="g2")))
    assert games_in(tmp_path) == [record(id="g1")]
    assert [line for line in said if "locked" in line] == [said[0]]  # said once
    assert said[-1] == "the history is written again"


def test_a_game_whose_write_failed_before_a_power_cut_is_written_at_power_on(tmp_path):
    said: list[str] = []
    locked = Locked(tmp_path)
    table = recorder(tmp_path, said)
    play(table, *a_game())
    table[0].close()  # the power cut: what waited in memory is gone
    locked.release()
    restarted, _saver = recorder(tmp_path, said)
    restarted.start()  # at power-on
    assert games_in(tmp_path) == [record(id="g1")]
    assert "1 game kept in" in said[-1]


@pytest.mark.parametrize("order", ["recorder first", "saver first"])
def test_a_round_undone_after_the_end_is_no_longer_shown_finished(tmp_path, order):
    """The history showed the game finished; the last round undone, its row is the game as
    it is now (abandoned, if it goes no further), its seats' names kept."""

    def rows() -> list[tuple]:
        with History.read_only(tmp_path) as history:
            return [(g.record, g.finished, g.names) for g in history.games()]

    said: list[str] = []
    table = recorder(tmp_path, said)
    sinks = table if order == "recorder first" else table[::-1]
    *changes, end = a_game()
    names = ("ANN", None, "CY")
    play(sinks, *changes, replace(end, names=names))
    assert rows() == [(record(id="g1"), True, names)]
    undone = record(rounds=ROUNDS[:1], id="g1")
    play(sinks, GameChanged(undone))
    assert rows() == [(undone, False, names)]
    play(sinks, GameChanged(record(id="g1")))  # the round again: its end not yet said
    assert rows() == [(undone, False, names)]


def test_the_history_is_said_back_only_once_a_row_is_written(tmp_path, read_only_history):
    """A look with nothing to write proves nothing: the failure is not ended by it (and so
    never said twice over one streak, as when a look met a game being set aside)."""
    said: list[str] = []
    store = StateDir(tmp_path)
    History(tmp_path).connect().close()
    store.save(record(id="g1"))  # ended; the history lacks it
    read_only_history["on"] = True
    table = recorder(tmp_path, said, store=store)
    table[0].start()  # the look: g1 to write, refused
    for path in tmp_path.glob("game*.json"):
        path.unlink()  # gone another way: the next look has nothing to write
    play(table, GameChanged(record(rounds=[], id="g2")))
    assert [line for line in said if "without its history" in line] == [said[0]]
    assert "the history is written again" not in said
    read_only_history["on"] = False
    play(table, *a_game(game="g3"), GameChanged(record(rounds=[], id="g4")))
    assert said.count("the history is written again") == 1  # with g3's row, at a next write
    assert [r.game_id for r in games_in(tmp_path)] == ["g3"]
    assert [line for line in said if "without its history" in line] == [said[0]]


def test_a_wrong_tables_history_is_set_aside_by_the_writer_once_and_a_new_one_started(
    tmp_path,
):
    db = sqlite3.connect(tmp_path / "history.sqlite")
    db.executescript("CREATE TABLE games (x); PRAGMA user_version = 2;")
    db.close()
    said: list[str] = []
    table = recorder(tmp_path, said)
    play(table, *a_game())
    play(table, *a_game(target=30, game="g2"))
    assert games_in(tmp_path) == [record(target=30, id="g2"), record(id="g1")]
    aside = [line for line in said if "not a usable history" in line]
    assert len(aside) == 1 and "kept as history.bad.sqlite" in aside[0]
    assert (tmp_path / "history.bad.sqlite").exists()


def test_kept_games_in_the_history_are_pruned_to_the_last_n_never_one_it_lacks(tmp_path):
    said: list[str] = []
    table = recorder(tmp_path, said, keep=2)
    targets = (6, 7, 8, 9, 10)
    for target in targets[:3]:  # each game set aside over the one before: in the history
        play(table, *a_game(target, game=f"t{target}"), KeepAside(record(target), UNNAMED))
    table[0].start()  # looked through again, as after the next game
    assert sorted(r.target for r in files_of(tmp_path).values()) == [7, 8]  # the oldest
    # pruned: the history holds it
    locked = Locked(tmp_path)
    for target in targets[3:]:  # two games the history cannot take
        play(table, *a_game(target, game=f"t{target}"), KeepAside(record(target), UNNAMED))
    table[0].close()  # and lost from memory: only their files keep them
    assert {r.target for r in files_of(tmp_path).values()} >= {9, 10}
    locked.release()
    restarted, _saver = recorder(tmp_path, said, keep=2)
    restarted.start()
    assert sorted(r.target for r in games_in(tmp_path)) == list(targets)
    # 9 and 10 were set aside before their ends (P2 has 8 VP): kept, to be resumed; of
    # the games that ended, the last two.
    assert sorted(r.target for r in files_of(tmp_path).values()) == [7, 8, 9, 10]


def test_a_kept_file_of_the_same_record_as_another_game_is_a_game_of_its_own(tmp_path):
    said: list[str] = []
    table = recorder(tmp_path, said)
    play(table, *a_game(), KeepAside(record(id="g1"), UNNAMED))  # written
    locked = Locked(tmp_path)
    play(table, *a_game(game="g2"), KeepAside(record(id="g2"), UNNAMED))  # the same keys
    table[0].close()  # pressed, another game: not written
    locked.release()
    restarted, _saver = recorder(tmp_path, said)
    restarted.start()
    restarted.start()  # looked through again: nothing more
    assert sorted(r.game_id for r in games_in(tmp_path)) == ["g1", "g2"]
    assert played(tmp_path) == [without_id(record())] * 2


@pytest.mark.parametrize("failing", [(1,), (1, 2), (1, 2, 3)])
@pytest.mark.parametrize("how", ["locked", "read-only"])
def test_evenings_of_the_same_game_with_the_history_failing_are_each_kept(
    tmp_path, failing, how, read_only_history
):
    """The same keys pressed game after game (each a session: power on, play, power off),
    the history refusing the games in ``failing`` (locked: not even read; read-only: read,
    never written): every game ends up in it once."""
    History(tmp_path).connect().close()
    said: list[str] = []
    evenings = 5
    for evening in range(evenings):
        locked = Locked(tmp_path) if evening in failing and how == "locked" else None
        read_only_history["on"] = evening in failing and how == "read-only"
        table = recorder(tmp_path, said)
        table[0].start()
        play(table, *a_game(game=f"evening{evening}"))
        table[0].close()
        if locked is not None:
            locked.release()
    read_only_history["on"] = False
    restarted, _saver = recorder(tmp_path, said)
    restarted.start()
    assert played(tmp_path) == [without_id(record())] * evenings
    assert len({r.game_id for r in games_in(tmp_path)}) == evenings
    assert len(files_of(tmp_path)) == evenings  # four kept (fewer than KEEP), one in play


# --- the simulator and `companion simulate` ---------------------------------------------

BREAKS = {
    "locked": (Locked, lambda locked: locked.release()),
    "newer schema": (newer_schema, lambda _folder: None),
    "read-only": (None, None),
}


def scripts(tmp_path: Path, n: int) -> list[Path]:
    """``n`` different games of three people to target 30, as scripts."""
    rates = profile("standard").to_rates()
    paths = []
    for i in range(n):
        script, _end = model_script(random.Random(160 + i), 3, rates, 30)
        path = tmp_path / f"game{i}.txt"
        path.write_text(script)
        paths.append(path)
    return paths


@pytest.mark.slow
@pytest.mark.parametrize("broken", sorted(BREAKS))
@pytest.mark.parametrize("keys", ["other games", "the same game"])
def test_simulate_a_finished_game_whose_history_fails_then_new_games_nothing_lost(
    tmp_path, broken, keys, read_only_history
):
    folder = tmp_path / "state"
    plays = scripts(tmp_path, 4) if keys == "other games" else scripts(tmp_path, 1) * 4
    game = ("--players", "3", "--target", "30", "--fast", "--state-dir", str(folder), "--script")
    assert simulate(*game, str(plays[0]))[0] == 0
    first = files_of(folder)["game.json"]
    if broken == "locked":
        hold = Locked(folder)
    elif broken == "newer schema":
        newer_schema(folder)
    else:
        read_only_history["on"] = True
    ended: list[GameRecord] = [first]
    for script in plays[1:3]:  # a finished game the history refuses, then another
        code, _out, err = simulate(*game, str(script))
        assert code == 0 and "Traceback" not in err, err
        ended.append(files_of(folder)["game.json"])
        assert err.count("without its history") == 1  # said once
    if broken == "locked":
        hold.release()
    elif broken == "newer schema":
        schema_back(folder)
    else:
        read_only_history["on"] = False
    code, _out, err = simulate(*game, str(plays[3]))
    assert code == 0, err
    ended.append(files_of(folder)["game.json"])
    assert len({without_id(r) for r in ended}) == (4 if keys == "other games" else 1)
    assert len({r.game_id for r in ended}) == 4  # each a game of its own
    assert sorted(r.to_json() for r in games_in(folder)) == sorted(r.to_json() for r in ended)
    assert sorted(r.to_json() for r in files_of(folder).values()) == sorted(
        r.to_json() for r in ended
    )  # nothing lost, nothing pruned yet: fewer than KEEP


def test_simulate_with_a_history_locked_the_whole_game_plays_to_the_end(tmp_path):
    folder = tmp_path / "state"
    (script,) = scripts(tmp_path, 1)
    folder.mkdir()
    History(folder).connect()
    hold = Locked(folder)
    try:
        args = ("--players", "3", "--target", "30", "--fast", "--state-dir", str(folder))
        code, out, err = simulate(*args, "--script", str(script), "--json")
    finally:
        hold.release()
    assert code == 0 and "Traceback" not in err, err
    assert json.loads(out)["finished"] is True
    assert err.count("database is locked") <= 2  # the screen's read at power-on, the writes
    # and when the lock is gone, the next power-on writes it
    said: list[str] = []
    at_power_on, _saver = recorder(folder, said)
    at_power_on.start()
    assert [r.to_json() for r in games_in(folder)] == [files_of(folder)["game.json"].to_json()]


# --- off the table's thread ---------------------------------------------------------------


def test_a_locked_history_never_holds_up_the_table_and_is_written_when_back(tmp_path):
    """The table's thread never touches the history (so a locked one cannot hold up a
    round: each access may wait its busy timeout); the game is written when it is back."""
    History(tmp_path).connect().close()
    said: list[str] = []
    table = recorder(tmp_path, said, threaded=True)
    touched: set[str] = set()
    connect = table[0].history.connect
    table[0].history.connect = lambda: touched.add(threading.current_thread().name) or connect()
    locked = Locked(tmp_path)
    play(table, *a_game())
    locked.release()
    table[1](GameChanged(record(target=30, rounds=[], id="g2")))  # the next game: the saver
    table[0](GameChanged(record(target=30, rounds=[], id="g2")))  # sets the finished one aside
    table[0].close()
    assert touched == {"history"}  # the recorder's own thread, never the caller's
    assert games_in(tmp_path) == [record(id="g1")]
    assert sum("without its history" in line for line in said) <= 1


# --- read commands change nothing -------------------------------------------------------


def history_cli(verb: str, folder: Path) -> tuple[int, str, str]:
    import io

    from companion.cli.history import history_command

    out, err = io.StringIO(), io.StringIO()
    code = history_command(verb, None, str(folder), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def wrong_tables(path: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE games (x); PRAGMA user_version = 2;")
    db.close()


def newer(path: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE future (x); PRAGMA user_version = 99;")
    db.close()


@pytest.mark.parametrize(
    "make",
    [
        lambda path: path.write_bytes(b"not a database at all" * 100),
        lambda path: path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 2000),
        wrong_tables,
        newer,
    ],
    ids=["garbage", "damaged header", "wrong tables", "newer"],
)
@pytest.mark.parametrize("verb", ["list", "export", "stats"])
def test_read_commands_never_change_the_folder(tmp_path, make, verb):
    make(tmp_path / "history.sqlite")
    before = snapshot(tmp_path)
    code, out, err = history_cli(verb, tmp_path)
    assert snapshot(tmp_path) == before
    assert code == 2 and out == "" and err.count("\n") == 1 and "history.sqlite" in err


def test_a_read_command_on_a_folder_without_history_makes_none(tmp_path):
    assert history_cli("list", tmp_path)[0] == 0
    assert list(tmp_path.iterdir()) == []


def bad_rows(folder: Path) -> None:
    """Two good games, then rows another program wrote that cannot be read."""
    history = History(folder, clock=lambda: NOON)
    history.put(record(), names=("ANN", None, "CY"))
    history.put(record(target=30, rounds=ROUNDS[:1], ended=True))
    db = history.connect()
    for values in (
        ("a", NOON.isoformat(), 1, "not json", None, None, '"standard"', record().to_json()),
        ("b", "yesterday", 1, "[0]", None, None, '"standard"', record().to_json()),
        ("c", NOON.isoformat(), 1, "[0]", '{"vp": "x"}', None, '"standard"', "{broken"),
        ("d", NOON.isoformat(), 1, "[9]", '{"vp": [1]}', "[1]", '"standard"', "{}"),
        ("e", NOON.isoformat(), 1, "[0]", "{}", None, '"standard"', record().to_json()),
        ("f", NOON.isoformat(), 1, "[5]", None, None, '"standard"', record().to_json()),
        ("g", NOON.isoformat(), 1, "[0]", None, '["X"]', '"standard"', record().to_json()),
    ):
        db.execute(
            "INSERT INTO games (game_id, date, finished, winners, result, names, board, record)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            values,
        )
    history.close()


def test_rows_that_cannot_be_read_are_skipped_and_counted_by_the_commands(tmp_path):
    bad_rows(tmp_path)
    before = snapshot(tmp_path)
    code, out, err = history_cli("list", tmp_path)
    assert code == 0 and len(out.splitlines()) == 3  # the heads, two games
    assert err.count("7 games in") == 1 and "cannot be read" in err
    code, out, err = history_cli("export", tmp_path)
    assert code == 0 and len(out.splitlines()) == 2 and "7 games in" in err
    code, out, err = history_cli("stats", tmp_path)
    assert code == 0 and "P1" in out and "7 games in" in err
    assert snapshot(tmp_path) == before


def test_a_history_of_unreadable_rows_alone_is_not_said_empty(tmp_path):
    """ "No games kept yet" over rows it could not read would contradict the line that
    counts them: the (empty) list is printed, and the rows said."""
    bad_rows(tmp_path)
    db = History(tmp_path).connect()
    db.execute("DELETE FROM games WHERE game_id NOT IN ('a', 'b', 'c', 'd', 'e', 'f', 'g')")
    db.close()
    code, out, err = history_cli("list", tmp_path)
    assert code == 0 and "No games kept yet" not in out and "7 games in" in err


def test_rows_that_cannot_be_read_leave_the_rest_on_the_history_screen(tmp_path):
    from companion.app.memory import remembered
    from companion.storage.settings import NamesFile
    from companion.table.state import new_flow

    bad_rows(tmp_path)
    said: list[str] = []
    start = new_flow((profile("standard"),))
    flow = remembered(start, NamesFile(tmp_path), History(tmp_path), said.append)
    assert len(flow.past.games) == 2
    assert len(said) == 1 and "cannot be read" in said[0]


def test_history_import_into_a_history_that_says_no_is_one_line(tmp_path, read_only_history):
    import io

    from companion.cli.history import history_command

    History(tmp_path).connect().close()
    lines = tmp_path / "games.jsonl"
    lines.write_text(record().to_json() + "\n")
    read_only_history["on"] = True
    out, err = io.StringIO(), io.StringIO()
    code = history_command("import", None, str(tmp_path), file=str(lines), out=out, err=err)
    assert code == 2 and err.getvalue().count("\n") == 1 and "readonly" in err.getvalue()


def test_the_folder_is_looked_through_at_power_on_a_start_and_a_game_end_not_every_round(
    tmp_path,
):
    said: list[str] = []
    store = StateDir(tmp_path)
    table, _saver = recorder(tmp_path, said, store)
    looks = []
    games = store.games
    store.games = lambda: looks.append(1) or games()
    table.start()  # power-on
    table(GameChanged(record(target=30, rounds=[], id="g1")))  # a game starts: its first
    assert len(looks) == 2  # save may have set an ended one aside
    for n in (1, 0, 1, 2):  # rounds played, and undone to none: the same game
        table(GameChanged(record(target=30, rounds=ROUNDS[:n], id="g1")))
    assert len(looks) == 2
    table(GameFinished(record(id="g1"), UNNAMED))
    assert len(looks) == 3 and said == []


MOMENTS = ("before the look", "between the game file and the kept ones", "after the look")


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_new_game_setting_an_ended_one_aside_during_the_look_never_hides_it(tmp_path, moment):
    """At power-on the history is looked through on its own thread while the table's
    first save may set the ended game aside (a rename): whenever the rename falls, the
    ended game reaches the history, once."""
    StateDir(tmp_path).save(record(id="g1"))  # finished while the history was not written
    said: list[str] = []
    store = StateDir(tmp_path)
    table, saver = recorder(tmp_path, said, store)
    new_game = GameChanged(record(target=30, rounds=[], id="g2"))
    if moment == "before the look":
        saver(new_game)
    elif moment == "between the game file and the kept ones":
        reads: list[str] = []

        def reading(name: str, read):
            def wrapped():
                reads.append(name)
                if len(reads) == 2:  # whichever of the two is read second
                    saver(new_game)
                return read()

            return wrapped

        store.load = reading("game file", store.load)
        store.kept_games = reading("kept games", store.kept_games)
    table.start()
    if moment == "after the look":
        saver(new_game)
    table(new_game)
    assert games_in(tmp_path) == [record(id="g1")]
    assert sorted(r.target for r in files_of(tmp_path).values()) == [6, 30]


def test_a_game_of_no_rounds_set_aside_while_the_folder_is_looked_through_is_no_row(
    tmp_path,
):
    """``simulate --new`` over a game that has no rounds yet: its file is set aside
    before the history hears of it; nothing was played, so neither the look nor the
    set-aside makes a row of it (and its file stays, to be resumed)."""
    said: list[str] = []
    table, saver = recorder(tmp_path, said)
    empty = record(target=30, rounds=[], id="g1")
    play((saver, table), GameChanged(empty))
    saver(KeepAside(empty, UNNAMED))  # the file renamed first ...
    table.start()  # ... the look finds it ...
    table(KeepAside(empty, UNNAMED))  # ... then the history hears of it
    play((saver, table), GameChanged(record(target=30, rounds=[], id="g2")))  # the new game
    assert games_in(tmp_path) == [] and not any("history" in line for line in said)
    assert sorted(r.game_id for r in files_of(tmp_path).values()) == ["g1", "g2"]


@pytest.mark.slow
def test_the_device_join_path_after_a_finished_game_whose_history_failed(tmp_path):
    """Power on with a finished game whose history write failed, seat people through the
    pads and start: the new game's saves set the finished one aside, whole."""
    folder = tmp_path / "state"
    (script,) = scripts(tmp_path, 1)
    folder.mkdir()
    History(folder).connect().close()
    hold = Locked(folder)
    game = ("--target", "30", "--fast", "--state-dir", str(folder), "--script")
    assert simulate("--players", "3", *game, str(script))[0] == 0
    finished = files_of(folder)["game.json"]
    setup = tmp_path / "setup.txt"
    setup.write_text("press P2 1\npress P4 8\n" + "press OK\n" * 5)  # seated, options, start
    for _ in range(2):  # two new games on the same folder, still without the history
        code, _out, err = simulate(*game, str(setup))
        assert code == 0 and "Traceback" not in err, err
    hold.release()
    kept = [r for name, r in files_of(folder).items() if name != "game.json"]
    assert finished in kept
    said: list[str] = []
    at_power_on, _saver = recorder(folder, said)
    at_power_on.start()
    assert finished.to_json() in {r.to_json() for r in games_in(folder)}


def test_the_configs_keep_games_is_what_the_state_folder_keeps(tmp_path):
    """``[paths] keep_games`` reaches the table: of the games the history holds, only the
    last that many stay as files of their own."""
    (tmp_path / "c.toml").write_text("[paths]\nkeep_games = 1\n")
    state = tmp_path / "s"
    for seed in (1, 2, 3):  # three whole games, each begun over the one that ended
        script, _ = model_script(random.Random(seed), 2, profile("standard").to_rates(), 12)
        (tmp_path / "g.txt").write_text(script)
        code, _, err = simulate(
            *("--players", "2", "--target", "12", "--fast", "--config", str(tmp_path / "c.toml")),
            *("--script", str(tmp_path / "g.txt"), "--state-dir", str(state)),
        )
        assert code == 0, err
    assert len(games_in(state)) == 3  # every game in the history
    kept = [p.name for p in state.glob("game-*.json") if not p.name.endswith(".prev.json")]
    assert len(kept) == 1, kept


def test_a_bug_in_the_history_writer_is_said_once_and_the_writer_lives_on(tmp_path):
    said: list[str] = []
    failed = threading.Event()

    def report(line: str) -> None:
        said.append(line)
        if "failed" in line:
            failed.set()

    history = History(tmp_path, clock=lambda: NOON, report=report)
    table = (HistoryRecorder(history, report, store=StateDir(tmp_path), threaded=True),)
    put, bugs = history.put, [1]

    def buggy(*args, **kwargs):
        if bugs:
            bugs.pop()
            raise TypeError("a bug")
        return put(*args, **kwargs)

    history.put = buggy
    play(table, *a_game())  # its end cannot be written: the bug
    assert failed.wait(10)  # (a hang's limit, not a time measured)
    play(table, GameChanged(record(target=30, rounds=[], id="g2")))  # the next write works
    table[0].close()
    assert games_in(tmp_path) == [record(id="g1")]
    first, *trace = said[0].splitlines()
    assert first.startswith("the history's writer failed (TypeError); the game goes on")
    assert trace[-1] == "TypeError: a bug" and said[-1] == "the history is written again"


def test_a_game_file_of_the_same_keys_as_one_written_is_written_at_the_next_power_on(
    tmp_path, read_only_history
):
    """The game file's name is every game's: a game in it that ended while the history
    was read-only is not taken for the game of the same keys written from it before."""
    said: list[str] = []
    for failing in (False, True):
        read_only_history["on"] = failing
        table = recorder(tmp_path, said)
        table[0].start()
        game = "second" if failing else "first"
        play(table[::-1], *a_game(game=game))  # saved first: the look after the game sees it
        table[0].close()  # ended
    read_only_history["on"] = False
    at_power_on, _saver = recorder(tmp_path, said)
    at_power_on.start()  # the first power-on with the history back
    assert sorted(r.game_id for r in games_in(tmp_path)) == ["first", "second"]


CUT_IN_COMMIT = """
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA cache_size = 1")  # the changes reach the file before the commit
db.execute("BEGIN")
db.execute("UPDATE games SET names = ?", ('["' + "X" * 2000 + '"]',))
for n in range(300):
    db.execute("INSERT INTO games SELECT ?, date, finished, winners, result, names, board,"
               " record, earned, played FROM games LIMIT 1", (f"cut{n}",))
os._exit(0)  # the power cut: the journal stays, hot
"""


@pytest.mark.parametrize("verb", ["list", "export", "stats"])
def test_a_history_cut_in_mid_commit_is_read_as_it_was_last_committed(tmp_path, verb):
    """A writer cut in the middle of a commit leaves a hot journal, which a read-only
    opening cannot roll back: the read commands read a copy that SQLite brings back to
    the last commit, and leave the folder as it is."""
    import subprocess
    import sys

    history = History(tmp_path, clock=lambda: NOON)
    history.put(record(id="g1"), names=("ANN", None, "CY"))
    history.close()
    subprocess.run([sys.executable, "-c", CUT_IN_COMMIT, str(tmp_path / "history.sqlite")])
    assert (tmp_path / "history.sqlite-journal").stat().st_size > 0
    before = snapshot(tmp_path)
    code, out, err = history_cli(verb, tmp_path)
    assert (code, err) == (0, "") and "cut" not in out and "ANN" in out
    assert snapshot(tmp_path) == before


def test_a_file_given_the_same_name_since_the_look_is_never_removed_by_it(tmp_path):
    """The look (the history's thread) decides to remove a copy; before it does, the table
    sets another game aside under the same name (names are by the second): that file
    stays, and only a file still as the look found it goes."""
    store = StateDir(tmp_path, clock=lambda: NOON.replace(tzinfo=None))
    store.save(record(target=30, rounds=ROUNDS[:1], id="g1"))
    store.set_aside()
    (name,) = [f.name for f in store.games()]  # looked at
    (tmp_path / name).unlink()  # resumed meanwhile, its copy gone; another game set aside
    store.save(record(target=30, rounds=ROUNDS[:1], id="g2"))  # under the same name
    store.set_aside()
    assert files_of(tmp_path)[name].game_id == "g2"
    store.forget([name], as_looked=True)
    assert files_of(tmp_path)[name].game_id == "g2"  # not the file that was looked at
    store.games()
    store.forget([name], as_looked=True)
    assert name not in files_of(tmp_path)
