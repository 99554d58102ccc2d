"""The host buttons and the buzzer on simulated pins, and the threads the inputs keep."""

from __future__ import annotations

import queue
import threading

import pytest
from gpiozero.threads import GPIOThread
from helpers import PAD_COLUMNS, PAD_ROWS

from companion.errors import CompanionError
from companion.hw.buttons import Beeper, HostButtons, WiringError
from companion.hw.matrix import PadMatrix
from companion.sim.matrix import SimulatedMatrix
from companion.sim.pins import SimFactory
from companion.table.events import HostDown, HostKey, HostUp, PadDown, PadUp

PINS = {"left": 20, "ok": 21, "right": 15}


@pytest.fixture
def factory():
    made = SimFactory()
    yield made
    made.reset()


def test_each_edge_is_one_raw_event(factory):
    events: list = []
    buttons = HostButtons(PINS, pin_factory=factory)
    buttons.start(events.append)
    for key in (HostKey.OK, HostKey.LEFT, HostKey.RIGHT):
        pin = factory.pin(PINS[key.value])
        pin.drive_low()
        pin.drive_low()  # no edge: nothing
        pin.drive_high()
    assert events == [
        HostDown(HostKey.OK),
        HostUp(HostKey.OK),
        HostDown(HostKey.LEFT),
        HostUp(HostKey.LEFT),
        HostDown(HostKey.RIGHT),
        HostUp(HostKey.RIGHT),
    ]
    buttons.close()
    buttons.close()


def test_nothing_is_sent_before_start(factory):
    buttons = HostButtons(PINS, pin_factory=factory)
    factory.pin(21).drive_low()  # no put yet: the edge goes nowhere, and nothing breaks
    factory.pin(21).drive_high()
    events: list = []
    buttons.start(events.append)
    with pytest.raises(RuntimeError, match="start once"):
        buttons.start(events.append)
    factory.pin(21).drive_low()
    assert events == [HostDown(HostKey.OK)]
    buttons.close()


def test_a_missing_button_pin_is_one_line():
    with pytest.raises(WiringError) as caught:
        HostButtons({"left": 20, "right": 15}, pin_factory=SimFactory())
    assert isinstance(caught.value, CompanionError)
    assert str(caught.value) == "host buttons: no pin for ok (left, ok and right need one)"


def test_inputs_wake_no_thread_but_the_scanner(factory):
    """Started and used, the inputs keep one thread: the matrix scanner, idle. No
    gpiozero thread (a ``Button``'s hold thread polls ten times a second, forever)."""
    before = set(threading.enumerate())
    sim = SimulatedMatrix(factory, PAD_ROWS, PAD_COLUMNS)
    events: queue.SimpleQueue = queue.SimpleQueue()
    matrix = PadMatrix(PAD_ROWS, PAD_COLUMNS, pin_factory=factory, debounce=0)
    buttons = HostButtons(PINS, pin_factory=factory)
    beeper = Beeper(18, volume=5, pin_factory=factory)
    try:
        matrix.start(events.put)
        buttons.start(events.put)
        factory.pin(PINS["ok"]).drive_low()  # held, as long as you like: no timer starts
        sim.press(2, 2)
        assert events.get(timeout=10) == HostDown(HostKey.OK)
        assert events.get(timeout=10) == PadDown(2, 2)
        sim.release(2, 2)
        assert events.get(timeout=10) == PadUp(2, 2)
        assert matrix.wait_idle(timeout=10)
        new = set(threading.enumerate()) - before
        assert [t.name for t in new] == ["pad-matrix"]
        assert not any(isinstance(t, GPIOThread) for t in new)
    finally:
        matrix.close()
        buttons.close()
        beeper.close()


def test_beeper_close_is_idempotent(factory):
    beeper = Beeper(18, volume=5, pin_factory=factory)
    beeper.beep("locked")
    beeper.close()
    beeper.close()
    beeper.beep("refused")  # after close: silent, still counted
    silent = Beeper(None, volume=5, pin_factory=factory)
    silent.beep("locked")
    silent.close()
    silent.close()
    assert (beeper.count, silent.count) == (2, 1)
