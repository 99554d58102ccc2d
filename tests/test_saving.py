"""Saving at the table: a failed save is told once, the game goes on, and the next
round saves every round so far."""

from __future__ import annotations

import errno
import json

from helpers import fast_game

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
