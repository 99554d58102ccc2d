"""Every screen against a reference PNG (``UPDATE_SCREENS=1 pytest`` rewrites them).

The references in ``tests/screens/`` were checked by eye; a change to a screen shows
up here as a failing test and a new picture to look at.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image
from test_flow import BOARDS, Driver

from companion.table.events import HostKey, HostPress, PadDown
from companion.table.flow import FAST, Flow, Phase, Timing, offer_resume, start
from companion.ui.screens import model, render, splash

REFERENCES = Path(__file__).parent / "screens"
SLOW = Timing(supply=5, countdown=3, reveal=5, step=5, scores=5, message=5)


def play(driver: Driver, plays) -> None:
    for seat, cards in enumerate(plays):
        for card in cards:
            driver.press(seat, card)


def until(driver: Driver, phase: Phase, step_type=None) -> None:
    for _ in range(50):
        flow = driver.flow
        if flow.phase is phase and (
            step_type is None or type(flow.steps[flow.step_index]).__name__ == step_type
        ):
            return
        driver.ok()
    raise AssertionError(f"never reached {phase} {step_type}")


def build() -> dict[str, object]:
    shots: dict[str, object] = {"splash": splash()}
    shots["resume"] = model(offer_resume(Flow(BOARDS, FAST), _played()), 0)
    setup = Driver(Flow(BOARDS, FAST))
    setup.press(0, 1)
    setup.press(2, 4)
    shots["join"] = model(setup.flow, 0)
    setup.ok()
    setup.send(HostPress(HostKey.RIGHT))
    shots["options"] = model(setup.flow, 0)

    table = Driver(start(Flow(BOARDS, SLOW), 3, BOARDS[0], 30, 0.0))
    shots["supply"] = model(table.flow, 0)
    table.wait(5)
    table.press(0, 1)
    table.press(0, 7)
    table.press(1, 3)
    shots["select"] = model(table.flow, table.now)
    table.press(1, 8)
    table.send(PadDown(1, 2))  # a third card in a 2-card game: refused
    shots["refused"] = model(table.flow, table.now)
    table.wait(5)  # the notice clears by itself
    assert table.flow.message is None
    table.press(2, 4)
    table.press(2, 8)
    shots["countdown"] = model(table.flow, table.now + 0.5)
    table.wait(3)
    shots["reveal"] = model(table.flow, table.now)
    until(table, Phase.STEP, "Share")
    shots["step-share"] = model(table.flow, table.now)
    until(table, Phase.STEP, "Bonus")
    shots["step-bonus"] = model(table.flow, table.now)
    until(table, Phase.STEP, "Trade")
    shots["step-trade"] = model(table.flow, table.now)
    until(table, Phase.STEP, "Beggar")
    shots["step-beggar"] = model(table.flow, table.now)
    until(table, Phase.STEP, "Discard")
    shots["step-discard"] = model(table.flow, table.now)
    until(table, Phase.SCORES)
    shots["scores"] = model(table.flow, table.now)
    table.send(HostPress(HostKey.OK, long=True))
    shots["menu"] = model(table.flow, table.now)

    six = Driver(start(Flow(BOARDS, FAST), 6, BOARDS[1], 30, 0.0))
    play(six, [[3], [4], [5], [6], [1], [2]])
    play(six, [[7], [7], [1], [2], [5], [8]])
    shots["trade"] = model(six.flow, six.now)
    reveal = Driver(start(Flow(BOARDS, SLOW), 6, BOARDS[0], 30, 0.0))
    reveal.wait(5)
    play(reveal, [[1], [2], [3], [4], [7], [8]])
    reveal.wait(3)
    shots["reveal-6"] = model(reveal.flow, reveal.now)
    six.flow = replace(six.flow, game=replace(six.flow.game, vp=(31, 12, 31, 9, 20, 3)))
    six.flow = replace(six.flow, phase=Phase.OVER, deadline=None)
    shots["over"] = model(six.flow, six.now)
    return shots


def _played():
    """The record after three rounds of a 4-seat game (no Trader: no dialog to answer)."""
    table = Driver(start(Flow(BOARDS, FAST), 4, BOARDS[0], 30, 0.0))
    for plays in ([[1], [2], [3], [4]], [[5], [6], [8], [2]], [[2], [1], [4], [3]]):
        play(table, plays)
    assert len(table.flow.record.rounds) == 3
    return table.flow.record


SHOTS = build()


@pytest.mark.parametrize("name", sorted(SHOTS))
def test_screen_matches_its_reference(name):
    image = render(SHOTS[name])
    path = REFERENCES / f"{name}.png"
    if os.environ.get("UPDATE_SCREENS"):
        REFERENCES.mkdir(exist_ok=True)
        image.save(path)
    assert path.exists(), f"no reference for {name}: run UPDATE_SCREENS=1 pytest {__file__}"
    reference = Image.open(path).convert("1")
    assert reference.size == image.size == (128, 64)
    assert reference.tobytes() == image.tobytes(), f"{name} differs from {path}"


def test_screens_before_the_reveal_never_name_a_card():
    from companion.ui.catalog import catalog

    names = {catalog().card(c) for c in range(1, 9)} | {
        catalog().short_card(c) for c in range(1, 9)
    }
    for name in ("supply", "select", "refused", "countdown"):
        shown = " ".join((SHOTS[name].title, *SHOTS[name].lines, SHOTS[name].notice or ""))
        assert not any(card in shown for card in names), name
