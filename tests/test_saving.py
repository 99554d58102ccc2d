"""Saving at the table: a failed save is told once, the game goes on, and the next
round saves every round so far."""

from __future__ import annotations

import errno
import json

from helpers import fast_game, simulate

from companion.app.simulator import Simulator
from companion.app.sinks import Saver
from companion.storage import FileOps, StateDir
from companion.table import Phase
from companion.table.events import SaveFailed


class Disk:
    """File operations whose renames fail while ``full`` is set (as a full card does)."""

    def __init__(self):
        self.full = False

    def ops(self) -> FileOps:
        real = FileOps()

        def replace(src, dst):
            if self.full:
                raise OSError(errno.ENOSPC, "No space left on device")
            real.replace(src, dst)

        return FileOps(replace=replace)


def test_a_failed_save_is_told_once_and_the_next_round_saves_them_all(tmp_path):
    disk, said, put = Disk(), [], []
    saver = Saver(StateDir(tmp_path, ops=disk.ops()), put.append, said.append)
    table = fast_game(4)
    saver(table.effects[-1])  # the new game
    disk.full = True
    for _ in range(3):
        table.play([(1,), (2,), (3,), (4,)] if table.flow.game.state.round == 0 else [(8,)] * 4)
        saver(table.effects[-1])
    assert put == [SaveFailed("No space left on device")]  # on the screen once
    assert len(said) == 1 and "No space left on device" in said[0]
    saved = json.loads((tmp_path / "game.json").read_text())
    assert saved["rounds"] == []  # the files are as the last good save left them
    disk.full = False
    table.play([(8,)] * 4)
    saver(table.effects[-1])
    saved = json.loads((tmp_path / "game.json").read_text())
    assert len(saved["rounds"]) == 4 and said[-1] == "the game is saved again"


def test_the_simulated_table_plays_on_when_it_cannot_save(tmp_path):
    (tmp_path / "game.json").mkdir()  # a folder in the way of the game file
    sim = Simulator(players=3, fast=True, store=StateDir(tmp_path))
    try:
        for seat, cards in enumerate([(1, 2), (3, 4), (5, 6)]):
            for card in cards:
                sim.press(seat, card)
        assert sim.flow.phase is Phase.SELECT and sim.flow.game.state.round == 1
    finally:
        sim.close()
    cannot = [e for e in sim.errors if e.startswith("cannot save the game")]
    assert len(cannot) == 1 and (tmp_path / "game.json").is_dir()


THREE_ROUNDS = "".join(
    f"press P{seat} {card}\n"
    for seat, card in [
        *[(1, 1), (1, 2), (2, 3), (2, 4), (3, 5), (3, 6)],
        *[(1, 3), (1, 4), (2, 1), (2, 2), (3, 1), (3, 2)],
        *[(1, 5), (1, 6), (2, 5), (2, 6), (3, 3), (3, 4)],
    ]
)

ONE_ROUND = "".join(THREE_ROUNDS.splitlines(keepends=True)[:6])


class ReadOnly:
    """File operations on a card that turns read-only after ``writes`` files written."""

    def __init__(self, writes: int):
        self.writes = writes

    def ops(self) -> FileOps:
        def open_file(path, mode="r", *args, **kwargs):
            if set(mode) & set("wax+"):
                if self.writes == 0:
                    raise OSError(errno.EROFS, "Read-only file system")
                self.writes -= 1
            return open(path, mode, *args, **kwargs)

        return FileOps(open_file=open_file)


def played(tmp_path, monkeypatch, writes: int, script: str = THREE_ROUNDS):
    """Three rounds scripted with ``--state-dir``, the folder read-only after ``writes``
    saves (the new game is the first): (status, stderr, the rounds in game.json)."""
    card = ReadOnly(writes)
    tmp_path.mkdir(exist_ok=True)
    monkeypatch.setattr(
        "companion.cli.simulate.StateDir", lambda path: StateDir(path, ops=card.ops())
    )
    (tmp_path / "script.txt").write_text(script)
    folder = tmp_path / "state"
    argv = ["--players", "3", "--fast", "--script", str(tmp_path / "script.txt")]
    code, _, err = simulate(*argv, "--state-dir", str(folder))
    game = folder / "game.json"
    rounds = len(json.loads(game.read_text())["rounds"]) if game.exists() else None
    return code, err, rounds


def test_quitting_says_which_rounds_were_not_saved(tmp_path, monkeypatch):
    code, err, rounds = played(tmp_path, monkeypatch, writes=2)
    assert code == 0 and rounds == 1
    lines = err.splitlines()
    assert sum("cannot save the game" in line for line in lines) == 1  # told once, as it failed
    assert lines[-1] == (
        f"companion simulate: the game in {tmp_path / 'state'} is saved up to round 1; "
        "rounds 2 to 3 were not saved (Read-only file system)"
    )


def test_one_round_not_saved_and_a_game_never_saved(tmp_path, monkeypatch):
    _, err, rounds = played(tmp_path, monkeypatch, writes=1, script=ONE_ROUND)
    assert rounds == 0 and err.splitlines()[-1].endswith(
        "is saved as it began; round 1 was not saved (Read-only file system)"
    )
    _, err, rounds = played(tmp_path / "2", monkeypatch, writes=0, script=ONE_ROUND)
    assert rounds is None and err.splitlines()[-1] == (
        f"companion simulate: the game in {tmp_path / '2' / 'state'} was not saved "
        "(Read-only file system)"
    )


def test_nothing_is_said_when_the_saves_worked_again_or_always(tmp_path, monkeypatch):
    code, err, rounds = played(tmp_path, monkeypatch, writes=1000)
    assert (code, rounds) == (0, 3) and "saved" not in err


def test_sigterm_still_says_which_rounds_were_not_saved(tmp_path, monkeypatch):
    """Stopped by SIGTERM (a closed terminal, a service manager) after three rounds of
    which only the first was saved: the rounds lost are said, as on quitting."""
    import os
    import signal

    import companion.cli.simulate as module

    play = module._play

    def then_killed(*args, **kwargs):
        play(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGTERM)
        raise AssertionError("SIGTERM did not stop the simulator")  # pragma: no cover

    monkeypatch.setattr(module, "_play", then_killed)
    code, err, rounds = played(tmp_path, monkeypatch, writes=2)
    assert code == 128 + signal.SIGTERM and rounds == 1, err
    assert err.splitlines()[-1].endswith("rounds 2 to 3 were not saved (Read-only file system)")
