"""A game set aside is never a dead end: the seats' screen lists the games set aside and
resumes one, and so does ``simulate --resume FILE``; the game keeps its one row in the
history, and its file is the game in progress again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import simulate

from companion.app.script import parse_script
from companion.app.simulator import Simulator
from companion.game.record import GameRecord
from companion.storage import StateDir
from companion.storage.history import History
from companion.table import Phase

DEMO = Path(__file__).parent.parent / "companion" / "examples" / "demo-script.txt"
LINES = DEMO.read_text().splitlines(keepends=True)
SPLIT = next(i for i, line in enumerate(LINES) if line.startswith("# round 4"))
FIRST, REST = "".join(LINES[:SPLIT]), "".join(LINES[SPLIT:])  # three rounds, six more


def rows(folder: Path) -> list[tuple[int, bool]]:
    history = History.read_only(folder)
    try:
        return [(len(g.record.rounds), g.finished) for g in history.games()]
    finally:
        history.close()


def kept_files(folder: Path) -> list[Path]:
    return StateDir(folder).kept_games()


@pytest.fixture
def set_aside(tmp_path) -> Path:
    """A state folder whose game of three rounds was set aside for a new game of two."""
    folder = tmp_path / "state"
    (tmp_path / "first.txt").write_text(FIRST)
    game = ("--fast", "--state-dir", str(folder), "--script")
    assert simulate("--players", "3", *game, str(tmp_path / "first.txt"))[0] == 0
    assert simulate("--players", "2", "--new", *game, "/dev/null")[0] == 0
    (kept,) = kept_files(folder)
    assert len(GameRecord.from_json(kept.read_bytes()).rounds) == 3
    return folder


def test_simulate_resume_goes_on_with_a_game_set_aside_as_one_game(tmp_path, set_aside):
    (kept,) = kept_files(set_aside)
    (tmp_path / "rest.txt").write_text(REST)
    game = (
        "--fast",
        "--json",
        "--state-dir",
        str(set_aside),
        "--script",
        str(tmp_path / "rest.txt"),
    )
    code, out, err = simulate("--resume", kept.name, *game)
    assert code == 0, err
    whole = simulate("--players", "3", "--fast", "--json", "--script", str(DEMO))[1]
    assert json.loads(out) == json.loads(whole)  # the same game as played in one go
    # One row, finished; the game of two set aside with no round played is no game to keep.
    assert rows(set_aside) == [(9, True)]
    assert not kept.exists()  # the game file holds it now
    assert [len(GameRecord.from_json(p.read_bytes()).rounds) for p in kept_files(set_aside)] == [0]


def test_the_seats_screen_resumes_a_game_set_aside(set_aside):
    sim = Simulator(fast=True, store=StateDir(set_aside))
    try:
        assert sim.flow.phase is Phase.RESUME  # the game of two, at power-on
        sim.run(parse_script("press LEFT\npress OK\n"))  # set it aside: the seats join
        assert sim.flow.phase is Phase.JOIN and len(sim.flow.kept) == 2
        sim.run(parse_script("press LEFT\npress RIGHT\npress OK\n"))  # the older
        assert sim.flow.phase is Phase.SELECT and len(sim.flow.game.record.rounds) == 3
        sim.run(parse_script(REST))
        assert sim.flow.game.over
    finally:
        sim.close()
    assert rows(set_aside) == [(9, True)]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("--resume", "nowhere.json"), "--resume nowhere.json: is missing"),
        (("--resume", "x.json", "--players", "3"), "--resume goes on with a game: leave out"),
    ],
)
def test_resume_what_cannot_be_resumed_is_one_line(tmp_path, argv, says):
    code, out, err = simulate(*argv, "--fast", "--script", "/dev/null")
    assert (code, out) == (2, "") and says in err and err.count("\n") == 1


def test_a_finished_game_is_not_resumed(tmp_path):
    folder = tmp_path / "s"
    assert (
        simulate("--players", "3", "--fast", "--state-dir", str(folder), "--script", str(DEMO))[0]
        == 0
    )
    code, _, err = simulate(
        "--resume", str(folder / "game.json"), "--fast", "--script", "/dev/null"
    )
    assert code == 2 and "that game has ended; nothing to go on with" in err


def test_simulate_resume_of_a_game_with_bots_asks_them_at_once(tmp_path):
    """``--resume FILE`` as from the seats' screen: the bot seats choose again, the round
    reveals, and the game keeps its id (one row, one file)."""
    folder = tmp_path / "s"
    (tmp_path / "round.txt").write_text("press P1 1\npress P1 2\n")
    game = ("--fast", "--json", "--state-dir", str(folder), "--script")
    bots = ("--players", "1", "--bots", "easy,strong")
    assert simulate(*bots, *game, str(tmp_path / "round.txt"))[0] == 0
    assert simulate(*bots, "--new", *game, "/dev/null")[0] == 0
    (kept,) = kept_files(folder)
    before = GameRecord.from_json(kept.read_bytes())
    (tmp_path / "next.txt").write_text("press P1 3\npress P1 4\n")
    code, out, err = simulate("--resume", kept.name, *game, str(tmp_path / "next.txt"))
    assert code == 0, err
    assert json.loads(out)["round"] == 2  # the bots chose: the round was revealed
    saved = StateDir(folder).load().record
    assert saved.game_id == before.game_id is not None and len(saved.rounds) == 2
    assert not kept.exists() and saved.bots == (None, "easy", "strong")


def test_resume_of_an_earlier_copy_of_the_game_in_progress_goes_on_from_the_later(tmp_path):
    """``--resume`` of a copy of the very game the folder has in progress (by its id), a
    round behind: nothing is set aside, nothing removed, the later moment goes on."""
    folder = tmp_path / "s"
    two = "".join(LINES[: next(i for i, x in enumerate(LINES) if x.startswith("# round 3"))])
    (tmp_path / "two.txt").write_text(two)
    game = ("--fast", "--state-dir", str(folder), "--script")
    assert simulate("--players", "3", *game, str(tmp_path / "two.txt"))[0] == 0
    earlier = tmp_path / "earlier.json"
    earlier.write_bytes((folder / "game.prev.json").read_bytes())  # the same game, round 1
    code, _, err = simulate("--resume", str(earlier), *game, "/dev/null")
    assert code == 0 and "kept as" not in err, err
    saved = StateDir(folder).load().record
    assert len(saved.rounds) == 2 and kept_files(folder) == []
    assert saved.game_id == GameRecord.from_json(earlier.read_bytes()).game_id
