"""The pads' names in the state folder (``names.json``) and in the history, and the
history's summary for the device's screen: real files, a real SQLite database, the
simulated table played by a script."""

from __future__ import annotations

import errno
import json
import random
from datetime import UTC, datetime

import pytest
from helpers import model_script, simulate
from test_history import ROUNDS, record
from test_settings import Said, failing

from companion.app.simulator import Simulator
from companion.app.sinks import HistoryRecorder, NamesSaver
from companion.game.boards import profile
from companion.game.names import NO_NAMES, PastGame, Tally
from companion.storage import FileOps, StateDir
from companion.storage.history import History
from companion.storage.settings import NamesFile
from companion.table import GameChanged, GameFinished, KeepAside
from companion.table.effects import NamesChanged
from companion.table.events import HistoryKnown

NOON = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
NAMES = (None, "ANNA", "ZOÉ", None, None, None)


# --- names.json ---------------------------------------------------------------------------


def test_names_are_saved_whole_and_read_back(tmp_path):
    NamesFile(tmp_path).save_names(NAMES)
    assert json.loads((tmp_path / "names.json").read_text("utf-8"))["names"][2] == "ZOÉ"
    assert NamesFile(tmp_path).names(Said()) == NAMES


def test_no_file_is_no_names(tmp_path):
    said = Said()
    assert NamesFile(tmp_path).names(said) == NO_NAMES and said == []


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{", "not valid JSON"),
        ('{"names": ["ANNABELLE", null, null, null, null, null]}', "at most 8 letters"),
        ('{"names": ["anna", null]}', "list of 6"),
        ("[1]", 'JSON object {"names"'),
    ],
)
def test_a_bad_names_file_is_set_aside_in_one_line(tmp_path, text, why):
    (tmp_path / "names.json").write_text(text, "utf-8")
    said = Said()
    assert NamesFile(tmp_path).names(said) == NO_NAMES
    assert (
        len(said) == 1 and "is not usable names" in said[0] and "kept as names.bad.json" in said[0]
    )
    assert why.lower() in said[0].lower()
    assert said[0].endswith("the pads have no names")
    assert (tmp_path / "names.bad.json").read_text("utf-8") == text


def test_a_failed_names_save_is_said_once_then_saved_again(tmp_path):
    said = Said()
    sink = NamesSaver(NamesFile(tmp_path, ops=failing("replace", errno.EROFS)), said)
    sink(NamesChanged(NAMES))
    sink(NamesChanged(NAMES))
    assert len(said) == 1 and said[0].startswith("cannot save the names: ")
    assert not (tmp_path / "names.json").exists()
    sink.file.ops = FileOps()
    sink(NamesChanged(NAMES))
    assert said[-1] == "the names are saved again"
    assert NamesFile(tmp_path).names(said) == NAMES


# --- the history --------------------------------------------------------------------------


def test_a_finished_game_keeps_its_seats_names_and_the_summary_follows(tmp_path):
    told = []
    recorder = HistoryRecorder(History(tmp_path, clock=lambda: NOON), Said(), told=told.append)
    recorder(GameChanged(record(rounds=[])))
    recorder(GameFinished(record(), ("ANNA", "BRAM", None)))  # target 6: P2 (BRAM) wins
    (game,) = recorder.history.games()
    assert game.names == ("ANNA", "BRAM", None)
    assert told == [HistoryKnown(recorder.history.summary())]
    summary = told[0].summary
    vp = game.result["vp"][1]
    assert summary.games == (PastGame(23, 11, "BRAM", 1, vp),)
    assert summary.tally == (Tally("BRAM", 1, 1), Tally("ANNA", 0, 1))  # P3: nobody known
    assert summary.recent == ("ANNA", "BRAM")


def test_a_game_of_unnamed_seats_has_no_names_and_an_abandoned_one_no_winner(tmp_path):
    told = []
    recorder = HistoryRecorder(History(tmp_path, clock=lambda: NOON), Said(), told=told.append)
    recorder(GameFinished(record(), (None,) * 3))
    recorder(GameChanged(record(target=30, rounds=ROUNDS[:1])))
    recorder(KeepAside(record(target=30, rounds=ROUNDS[:1]), (None,) * 3))
    _newest, finished = recorder.history.games()
    assert finished.names is None
    assert told[-1].summary.games[0] == PastGame(23, 11, None, None, None)
    assert told[-1].summary.recent == ()


def test_an_abandoned_game_is_listed_so_and_never_counts_as_a_win(tmp_path):
    store = History(tmp_path, clock=lambda: NOON)
    store.put(record(), names=("ANNA", "BRAM", None))  # finished: BRAM wins
    store.put(record(target=30, ended=True), names=("ANNA", "BRAM", None))  # ended, BRAM ahead
    store.put(record(target=30, rounds=ROUNDS[:1]), names=("ANNA", "BRAM", None))  # set aside
    summary = store.summary()
    vp = summary.games[2].vp
    assert summary.games == (
        PastGame(23, 11, None, None, None),
        PastGame(23, 11, None, None, None),
        PastGame(23, 11, "BRAM", 1, vp),
    )
    assert summary.tally == (Tally("BRAM", 1, 1), Tally("ANNA", 0, 1))


def test_unnamed_seats_of_different_games_are_not_one_person(tmp_path):
    store = History(tmp_path, clock=lambda: NOON)
    for _ in range(3):  # P2 wins each game, unnamed: three people, none of them known
        store.put(record(), names=("ANNA", None, None))
    summary = store.summary()
    assert summary.tally == (Tally("ANNA", 0, 3),)
    assert [g.winner for g in summary.games] == [None] * 3
    assert {g.seat for g in summary.games} == {1}  # each game's winner is its own P2


# --- on the simulated table ---------------------------------------------------------------


def test_names_set_by_a_script_reach_the_history_and_survive_a_restart(tmp_path):
    script, expected = model_script(random.Random(3), 3, profile("standard").to_rates(), 12)
    (tmp_path / "game.txt").write_text("name P1 anna\nname P3 Zoé\n" + script)
    state = str(tmp_path / "s")
    code, _, err = simulate(
        *("--players", "3", "--target", "12", "--fast", "--json"),
        *("--script", str(tmp_path / "game.txt"), "--state-dir", state),
    )
    assert code == 0, err
    (game,) = History(tmp_path / "s").games()
    assert game.names == ("ANNA", None, "ZOÉ")
    assert list(game.winners) == expected["result"]["winners"]
    sim = Simulator(fast=True, store=StateDir(tmp_path / "s"))
    try:  # switched on again: the names are the pads', the history screen knows the game
        assert sim.flow.names == ("ANNA", None, "ZOÉ", None, None, None)
        assert sim.flow.past.recent == ("ANNA", "ZOÉ")
        assert len(sim.flow.past.games) == 1
    finally:
        sim.close()


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("name P1 ANNABELLE", ":2: a name has at most 8 letters, got 9"),
        ("name P2 R2D2", ":2: '2' is not a letter a name may have"),
        ("name P7 ANNA", ":2: cannot read"),
    ],
)
def test_a_bad_name_in_a_script_is_one_line_and_exit_2(tmp_path, line, said):
    (tmp_path / "game.txt").write_text(f"# names\n{line}\n")  # a long path is cut short
    code, _, err = simulate("--fast", "--script", str(tmp_path / "game.txt"))
    assert code == 2 and said in err and err.count("\n") == 1
    assert not list(tmp_path.glob("*.json"))


def test_a_bot_is_tallied_by_its_strength_never_with_the_unnamed_seat_of_its_number(tmp_path):
    store = History(tmp_path, clock=lambda: NOON)
    store.put(record(), names=("ANNA", None, None))  # P2 wins; P3 a person
    store.put(record(bots=[None, "strong", "strong"]), names=("ANNA", None, None))
    summary = store.summary()
    vp = summary.games[0].vp
    assert summary.games[0] == PastGame(23, 11, None, 1, vp, False, "strong")
    assert summary.games[1] == PastGame(23, 11, None, 1, vp)
    assert set(summary.tally) == {
        Tally(None, 1, 2, "strong"),  # two bot seats in one game: each seat counts
        Tally("ANNA", 0, 2),  # the unnamed P2 who won the first game: nobody known
    }


def test_a_game_set_aside_at_power_on_keeps_its_seats_names(tmp_path):
    # A round played (a game of no rounds is no game for the history), then a power cut.
    (tmp_path / "names.txt").write_text("name P1 anna\npress P1 3\npress P1 4\n")
    (tmp_path / "left.txt").write_text("press LEFT\npress OK\n")  # resume screen: a new game
    state = str(tmp_path / "s")
    start = ("--players", "1", "--bots", "easy,normal", "--state-dir", state)
    code, _, err = simulate(*start, "--fast", "--script", str(tmp_path / "names.txt"))
    assert code == 0, err
    code, _, err = simulate("--state-dir", state, "--fast", "--script", str(tmp_path / "left.txt"))
    assert code == 0, err
    (game,) = History(tmp_path / "s").games()
    assert not game.finished and game.names == ("ANNA", None, None)
