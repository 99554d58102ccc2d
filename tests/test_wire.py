"""The appliance test's fingers (companion/sim/wire.py): lines on a FIFO drive mock pins,
and the real host buttons on them say what a finger on them would."""

from __future__ import annotations

import os
import queue
from contextlib import ExitStack

import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.effective import effective
from companion.cli.run import wired_pins
from companion.hw.buttons import HostButtons
from companion.sim.wire import VARIABLE, PinWire
from companion.table.events import HostDown, HostKey, HostUp

PINS = {"left": 20, "ok": 21, "right": 15}
WAIT = 10.0  # seconds: far beyond a healthy answer, short of a hung test


@pytest.fixture
def wired(tmp_path):
    factory = MockFactory()
    said: list[str] = []
    path = tmp_path / "pins"
    with HostButtons(PINS, pin_factory=factory, bounce_time=None) as buttons:
        events: queue.SimpleQueue = queue.SimpleQueue()
        buttons.start(events.put)
        with PinWire(factory, path, said.append) as wire:
            yield path, events, said, wire
    factory.close()


def write(path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)  # as the test writes it: open, write, close
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def test_a_line_presses_and_releases_a_host_button(wired):
    path, events, said, _ = wired
    write(path, "low 21\nhigh 21\n")
    assert events.get(timeout=WAIT) == HostDown(HostKey.OK)
    assert events.get(timeout=WAIT) == HostUp(HostKey.OK)
    write(path, "low 20\n")  # a second writer: the FIFO did not end with the first
    assert events.get(timeout=WAIT) == HostDown(HostKey.LEFT)
    assert said == []


def test_a_line_it_cannot_use_is_said_and_skipped(wired):
    path, events, said, wire = wired
    write(path, "press OK\nlow 15\n")
    assert events.get(timeout=WAIT) == HostDown(HostKey.RIGHT)
    assert said == ["COMPANION_TEST_PINS: not 'low PIN' or 'high PIN': press OK"]
    wire.close()
    assert not path.exists()
    wire.close()  # twice is safe


def test_companion_run_s_mock_pins_get_the_wire_only_with_the_variable(tmp_path):
    config = tmp_path / "companion.toml"
    config.write_text(f'[gpio]\npin_factory = "mock"\n[paths]\nstate_dir = "{tmp_path}"\n')
    found = effective(config, report=print)
    path = tmp_path / "pins"
    for environ, made in (({}, False), ({VARIABLE: str(path)}, True)):
        with ExitStack() as stack:
            factory = wired_pins(found, environ)(stack, print)
            assert isinstance(factory, MockFactory)
            assert path.exists() == made
        assert not path.exists()  # closed with the pins
