"""The history of games: the SQLite database, its migrations, and the table writing to it."""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from helpers import model_script, simulate

from companion.errors import where
from companion.game.boards import profile
from companion.game.record import GameRecord, legacy_id
from companion.storage import StateDir, StorageError
from companion.storage.history import MIGRATIONS, VERSION, Held, History

NOON = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
# Two rounds of docs/record-format.md; with target 6 the game is finished, P2 wins.
ROUNDS = [
    {"plays": [[1, 3], [2, 5], [4, 8]], "trades": [0, 0, 0]},
    {"plays": [[7, 6], [7, 1], [3, 5]], "trades": [9, 4, 0]},
]


def record(target: int = 6, rounds=ROUNDS, **more) -> GameRecord:
    return GameRecord.from_dict({"players": 3, "target": target, "rounds": rounds, **more})


def history(tmp_path, said: list | None = None) -> History:
    return History(tmp_path, clock=lambda: NOON, report=(said.append if said is not None else None))


def test_a_finished_game_is_stored_with_its_result(tmp_path):
    store = history(tmp_path)
    store.put(record(), names=("Ann", None, "Cy"))
    store.close()
    (game,) = history(tmp_path).games()
    assert game.finished and game.winners == (1,)
    assert game.result == {"vp": [6, 9, 5], "goods": [0, 0, 0], "winners": [1]}
    assert game.date == "2026-11-23T12:00:00+00:00"
    assert game.names == ("Ann", None, "Cy") and game.board == "standard"
    assert replace(game.record, game_id=None) == record()  # a record without an id: given one
    assert game.record.game_id == game.game_id


def test_an_ended_game_is_stored_abandoned_with_its_ranking(tmp_path):
    store = history(tmp_path)
    store.put(record(target=30, ended=True))
    (game,) = store.games()
    assert not game.finished and game.winners == (1,) and game.record.ended


def test_the_same_game_saved_again_updates_its_row(tmp_path):
    store = history(tmp_path)
    store.put(record(target=30, id="g1"))  # set aside
    store.put(record(id="g1"))  # resumed and finished
    store.put(record(rounds=ROUNDS[:1], id="g1"))  # its last round undone
    store.put(record(id="g1"))  # and finished again
    (game,) = store.games()
    assert game.game_id == "g1" and game.finished and game.record == record(id="g1")


def test_two_games_of_the_same_keys_are_two_rows_by_their_ids(tmp_path):
    store = history(tmp_path)
    store.put(record(id="monday"))
    store.put(record(id="tuesday"))
    assert sorted(g.game_id for g in store.games()) == ["monday", "tuesday"]
    assert store.held(["monday", "sunday"]) == {"monday": Held(True, record(id="monday"))}


def test_games_are_listed_newest_first(tmp_path):
    times = iter([NOON, NOON.replace(hour=14), NOON.replace(hour=13)])
    store = History(tmp_path, clock=lambda: next(times))
    for target in (6, 7, 8):
        store.put(record(target=target))
    assert [g.record.target for g in store.games()] == [7, 8, 6]


def test_a_version_1_database_is_migrated(tmp_path):
    db = sqlite3.connect(tmp_path / "history.sqlite")
    db.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
    db.execute(
        "INSERT INTO games VALUES ('old', '2025-01-01T00:00:00+00:00', 1, '[1]', NULL, NULL,"
        " '\"standard\"', ?)",
        (record().to_json(),),
    )
    db.commit()
    db.close()
    store = history(tmp_path)
    assert store.connect().execute("PRAGMA user_version").fetchone()[0] == VERSION == 7
    # A game written before ids: keyed now by the id its record makes, as its files are.
    assert [g.game_id for g in store.games()] == [legacy_id(record())]


def test_a_version_4_database_keys_its_games_by_their_records_ids(tmp_path):
    db = sqlite3.connect(tmp_path / "history.sqlite")
    db.executescript("".join(MIGRATIONS[:4]) + "PRAGMA user_version = 4;")
    for game_id, date in (("a", "2025-01-01"), ("b", "2025-01-02")):  # the same keys twice
        db.execute(
            "INSERT INTO games VALUES (?, ?, 1, '[1]', NULL, NULL, '\"standard\"', ?)",
            (game_id, f"{date}T00:00:00+00:00", record().to_json()),
        )
    # The game in progress: set aside at round 1 (its row), resumed and saved at round 2.
    playing = record(target=30, rounds=ROUNDS[:1])
    db.execute(
        "INSERT INTO games VALUES ('c', '2025-01-03T00:00:00+00:00', 0, '[]', NULL, NULL,"
        " '\"standard\"', ?)",
        (playing.to_json(),),
    )
    db.execute("INSERT INTO current VALUES (0, 'c', ?)", (record(target=30).to_json(),))
    db.execute(
        "INSERT INTO games VALUES ('d', '2025-01-04T00:00:00+00:00', 0, '[]', NULL, NULL,"
        " '\"standard\"', '{\"players\": 9}')"
    )  # a row another program wrote: it keeps its id
    db.commit()
    db.close()
    store = history(tmp_path)
    ids = {r[0] for r in store.connect().execute("SELECT game_id FROM games")}
    # Of the two games of the same keys, one takes the id they make, the other keeps its
    # own; the game in progress takes the id its game file (round 2) is known by.
    assert len(ids & {"a", "b"}) == 1
    assert ids - {"a", "b"} == {legacy_id(record()), legacy_id(record(target=30)), "d"}
    tables = {n for (n,) in store.connect().execute("SELECT name FROM sqlite_master")}
    assert "current" not in tables and "kept" not in tables


def test_a_newer_database_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "history.sqlite"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE future (x); PRAGMA user_version = 99;")
    db.close()
    before = path.read_bytes()
    with pytest.raises(StorageError) as e:
        history(tmp_path).connect()
    assert str(e.value) == (
        f"history {where(path)} has schema version 99, newer than this companion knows (7);"
        " it is left as it is"
    )
    assert path.read_bytes() == before


def test_a_corrupt_database_is_set_aside_never_overwritten(tmp_path):
    (tmp_path / "history.sqlite").write_bytes(b"not a database at all" * 100)
    (tmp_path / "history.bad.sqlite").write_bytes(b"an older bad one")
    said: list[str] = []
    store = history(tmp_path, said)
    store.put(record())
    assert len(list(store.games())) == 1
    assert (tmp_path / "history.bad.sqlite").read_bytes() == b"an older bad one"
    assert (tmp_path / "history.bad-2.sqlite").read_bytes().startswith(b"not a database")
    assert len(said) == 1 and "kept as history.bad-2.sqlite" in said[0]


# --- the table writes to it -------------------------------------------------------------


def play(tmp_path, seed: int, players: int = 3, target: int = 12) -> dict:
    script, expected = model_script(
        random.Random(seed), players, profile("standard").to_rates(), target
    )
    (tmp_path / "game.txt").write_text(script)
    code, out, err = simulate(
        *("--players", str(players), "--target", str(target), "--fast"),
        *("--script", str(tmp_path / "game.txt"), "--json", "--state-dir", str(tmp_path / "s")),
    )
    assert code == 0, err
    assert json.loads(out) == expected
    return expected


def test_a_game_played_to_the_end_on_the_simulator_is_in_the_history(tmp_path):
    expected = play(tmp_path, 1)
    (game,) = History(tmp_path / "s").games()
    assert game.finished and game.result == expected["result"]
    assert list(game.winners) == expected["result"]["winners"]
    saved = StateDir(tmp_path / "s").load().record
    assert game.record == saved


@pytest.mark.slow
def test_two_games_in_the_same_folder_are_two_rows(tmp_path):
    play(tmp_path, 1)
    second = play(tmp_path, 2, players=2)
    games = list(History(tmp_path / "s").games())
    assert [g.record.players for g in games] == [2, 3]
    assert games[0].result == second["result"]


def test_an_unfinished_game_set_aside_for_a_new_one_is_stored_abandoned(tmp_path):
    from companion.app.sinks import HistoryRecorder, Saver
    from companion.table import GameChanged, KeepAside

    state = StateDir(tmp_path)
    said: list[str] = []
    sinks = [Saver(state, None, said.append), HistoryRecorder(history(tmp_path, said), said.append)]
    aside = KeepAside(record(30), (None,) * 3)  # as the table sets it aside: any sink first
    for effect in (GameChanged(record(30, [])), GameChanged(record(30)), aside):
        for sink in sinks:
            sink(effect)
    (game,) = history(tmp_path).games()
    assert not game.finished and game.result is None
    assert replace(game.record, game_id=None) == record(30)
    assert said[-1].startswith("the saved game is kept as")


def test_a_game_the_simulator_sets_aside_with_new_is_stored_abandoned(tmp_path):
    script, _ = model_script(random.Random(5), 3, profile("standard").to_rates(), 30)
    first_round = "\n".join(script.split("# round 2")[0].splitlines()) + "\n"
    (tmp_path / "part.txt").write_text(first_round)
    state = str(tmp_path / "s")
    code, _, err = simulate(
        "--players", "3", "--fast", "--script", str(tmp_path / "part.txt"), "--state-dir", state
    )
    assert code == 0, err
    assert list(History(tmp_path / "s").games()) == []  # unfinished: not history yet
    (tmp_path / "none.txt").write_text("# a new game, no round played\n")
    code, _, err = simulate(
        *("--players", "3", "--new", "--fast", "--script", str(tmp_path / "none.txt")),
        *("--state-dir", state),
    )
    assert code == 0, err
    (game,) = History(tmp_path / "s").games()
    assert not game.finished and len(game.record.rounds) == 1 and game.result is None


def test_the_table_goes_on_when_the_history_cannot_be_used(tmp_path):
    from companion.app.sinks import HistoryRecorder, Saver
    from companion.table import GameChanged, GameFinished

    db = sqlite3.connect(tmp_path / "history.sqlite")
    db.execute("PRAGMA user_version = 8")
    db.close()
    state = StateDir(tmp_path)
    said: list[str] = []
    sinks = [HistoryRecorder(history(tmp_path), said.append), Saver(state, None, said.append)]
    for effect in (GameChanged(record(rounds=[])), GameFinished(record(), (None,) * 3)):
        for sink in sinks:
            sink(effect)
    assert said == [
        f"history {where(tmp_path / 'history.sqlite')} has schema version 8, newer than this"
        " companion knows (7); it is left as it is; the game goes on without its history,"
        " which is written when it can be"
    ]
    assert state.load().record == record()


def test_a_game_finished_undone_resumed_after_a_restart_and_finished_again_is_one_row(tmp_path):
    from companion.app.sinks import HistoryRecorder
    from companion.table import GameChanged, GameFinished, KeepAside

    said: list[str] = []
    table = HistoryRecorder(history(tmp_path), said.append)
    unnamed = (None,) * 3
    for effect in (
        GameChanged(record(rounds=[], id="g1")),
        GameChanged(record(rounds=ROUNDS[:1], id="g1")),
        GameFinished(record(id="g1"), unnamed),
        GameChanged(record(rounds=ROUNDS[:1], id="g1")),  # the last round undone, power cut
    ):
        table(effect)
    table.history.close()
    restarted = HistoryRecorder(history(tmp_path), said.append)
    finished = record(id="g1")
    restarted(GameFinished(finished, unnamed))  # resumed and finished again
    for effect in (KeepAside(finished, unnamed), GameChanged(record(rounds=[], id="g2"))):  # a
        restarted(effect)  # new game, as the table starts one after a game over: its own row
    restarted(GameFinished(record(id="g2"), unnamed))
    games = list(restarted.history.games())
    assert sorted(g.game_id for g in games) == ["g1", "g2"] and said == []
