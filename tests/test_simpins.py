"""Simulated pins keep no history: the simulator's memory stays flat however long it runs."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockPin

from companion.hw.simpins import SimFactory, SimPin


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
