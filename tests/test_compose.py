"""The one composition: the sinks' order does not matter (each effect carries what its
sink needs, and no sink reads the table or the state folder back), and a new input is
one source beside the table's."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from helpers import model_script

from companion.app.script import parse_script
from companion.app.simulator import Simulator
from companion.game.boards import profile
from companion.storage import StateDir
from companion.storage.history import History
from companion.table import Phase
from companion.table.events import HostKey, PadDown

TARGET = 12


def arranged(how: str):
    """The sinks in the order they are listed, reversed, or shuffled by a seed."""
    if how == "listed":
        return lambda sinks: sinks
    if how == "reversed":
        return lambda sinks: sinks[::-1]
    rng = random.Random(int(how))
    return lambda sinks: rng.sample(sinks, len(sinks))


def evening(folder, how: str):
    """A named game played to its end, a new one begun at the ranking and left after a
    round, and, after a power cut, set aside from the resume screen: what the state
    folder keeps of it."""
    script, _ = model_script(random.Random(3), 3, profile("standard").to_rates(), TARGET)
    first_round = script.split("# round 2")[0]
    store = StateDir(folder)
    sim = Simulator(players=3, target=TARGET, fast=True, store=store, arrange=arranged(how))
    try:
        sim.run(parse_script("name P1 anna\nname P3 zoe\n" + script, "evening"))
        while sim.flow.phase in (Phase.OVER, Phase.CONFIRM, Phase.JOIN, Phase.OPTIONS):
            sim.button(HostKey.OK)
        sim.run(parse_script(first_round, "the next game"))
    finally:
        sim.close()
    sim = Simulator(fast=True, store=store, arrange=arranged(how))
    try:
        assert sim.flow.phase is Phase.RESUME
        sim.run(parse_script("press LEFT\npress OK\n", "set aside"))
    finally:
        sim.close()
    with History(folder) as history:
        rows = list(history.games())
    assert len({g.game_id for g in rows}) == len(rows)  # a game a row, each its own id
    assert all(g.record.game_id == g.game_id for g in rows)
    # Ids are drawn at power-on: the evenings are compared by what was played.
    games = [(g.finished, g.names, replace(g.record, game_id=None), g.result) for g in rows]
    files = sorted(p.name.split("-")[0] for p in folder.iterdir() if p.suffix == ".json")
    return games, files


@pytest.mark.slow
def test_the_sinks_may_run_in_any_order(tmp_path):
    kept = {}
    for how in ("listed", "reversed", "1", "2"):
        (tmp_path / how).mkdir()
        kept[how] = evening(tmp_path / how, how)
    games, files = kept["listed"]
    assert [finished for finished, *_ in games] == [False, True]  # newest first
    assert all(names == ("ANNA", None, "ZOE") for _, names, *_ in games)
    assert len(games[0][2].rounds) == 1 and files.count("game") >= 2
    assert all(kept[how] == kept["listed"] for how in kept)


class Pressing:
    """A source of the test's own, plugged in beside the pads and buttons: one module
    (here, one class) and one entry in the spec make a new input."""

    def __init__(self):
        self.put = None
        self.closed = False

    def __call__(self, stack, factory, report):
        return stack.enter_context(self)

    def start(self, put) -> None:
        self.put = put

    def close(self) -> None:
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def test_a_new_input_is_one_source_in_the_spec():
    pressing = Pressing()
    sim = Simulator(fast=True, inputs=(pressing,))
    try:
        pressing.put(PadDown(0, 1))  # a seat joins from the new input, as from its pad
        pressing.put(PadDown(1, 1))
        sim.settle(0)
        assert sim.flow.pads == (0, 1)
    finally:
        sim.close()
    assert pressing.closed
