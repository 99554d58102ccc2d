"""Simulated pins keep no history: the simulator's memory stays flat however long it runs."""

from __future__ import annotations

import gc
import tracemalloc

import pytest
from gpiozero.pins.mock import MockPin

from companion.hw.buttons import Beeper, HostButtons
from companion.sim.pins import SimFactory, SimPin
from companion.table.events import HostDown, HostKey, HostUp, PadDown, PadUp

BUTTONS = {"left": 20, "ok": 21, "right": 15}
BUZZER = 18
OK = HostKey.OK


def test_a_sim_pin_remembers_no_transition():
    factory = SimFactory()
    pin = factory.pin(4)
    for _ in range(100):
        pin.drive_low()
        pin.drive_high()
    assert isinstance(pin, SimPin) and pin.states == [] and pin.state
    factory.reset()


def test_the_factory_refuses_pins_that_keep_a_history():
    with pytest.raises(TypeError, match="keeps a history"):
        SimFactory().pin(4, pin_class=MockPin)


@pytest.mark.slow
def test_thousands_of_presses_keep_memory_flat(make_pads):
    """Every simulated pin (rows, columns, buttons, buzzer) on one factory; the pin
    histories stay empty, and allocations do not grow with the presses."""
    pads = make_pads(scan_interval=0, debounce=1)
    buttons = HostButtons(BUTTONS, pin_factory=pads.factory)
    buttons.start(pads.events.put)
    beeper = Beeper(BUZZER, volume=5, pin_factory=pads.factory)
    ok = pads.factory.pin(BUTTONS["ok"])

    def presses(n: int) -> None:
        for i in range(n):
            key = (i % 6, 1 + i % 8)
            pads.sim.tap(*key, reads=2)
            ok.drive_low()
            ok.drive_high()
            assert set(pads.take(4)) == {PadDown(*key), PadUp(*key), HostDown(OK), HostUp(OK)}
        assert pads.rest() == []

    beeper.beep("locked")
    presses(100)  # warm up: caches, lazily built tables
    gc.collect()
    tracemalloc.start()
    try:
        presses(1000)
        gc.collect()
        after_n = tracemalloc.get_traced_memory()[0]
        presses(1000)
        gc.collect()
        after_2n = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert sum(len(pin.states) for pin in pads.factory.pins.values()) == 0
    assert after_2n - after_n < 4096, f"{after_2n - after_n} bytes more for 1000 presses"
    buttons.close()
    beeper.close()
