"""The appliance tests' fingers (companion/sim/wire.py): lines on a FIFO drive mock pins,
or hand real pins' levels to their edge handlers where no interrupt reports an edge, and
the real host buttons on them say what a finger on them would."""

from __future__ import annotations

import os
import queue
import time
from contextlib import ExitStack

import pytest
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPin

from companion.app.effective import effective
from companion.cli.run import wired_pins
from companion.hw.buttons import HostButtons
from companion.sim.wire import VARIABLE, PinWire, done_path
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


def test_companion_run_s_pins_get_the_wire_only_with_the_variable(tmp_path):
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


class Edgeless(MockPin):
    """A pin whose level is set from outside and read back, whose edges no interrupt
    reports: QEMU's BCM2835 GPIO block, as the emulated Pi's kernel sees it."""

    def _call_when_changed(self, ticks=None, state=None) -> None:
        pass


class EmulatedPi(Factory):
    """Real pins (no ``MockFactory``) of an emulated Pi: ``level`` sets one from outside."""

    def __init__(self):
        super().__init__()
        self.mock = MockFactory(pin_class=Edgeless)

    def pin(self, name):
        return self.mock.pin(name)

    def ticks(self):
        return self.mock.ticks()

    def ticks_diff(self, later, earlier):
        return self.mock.ticks_diff(later, earlier)

    def _get_board_info(self):
        return self.mock.board_info


def test_on_real_pins_without_edges_an_edge_line_hands_over_the_level_read_now(tmp_path):
    factory, said = EmulatedPi(), []
    path = tmp_path / "pins"
    with HostButtons(PINS, pin_factory=factory, bounce_time=None) as buttons:
        events: queue.SimpleQueue = queue.SimpleQueue()
        buttons.start(events.put)
        with PinWire(factory, path, said.append):
            factory.pin(21).drive_low()  # the finger, from outside: no edge is reported
            assert events.empty()
            write(path, "edge 21\n")
            assert events.get(timeout=WAIT) == HostDown(HostKey.OK)
            factory.pin(21).drive_high()
            write(path, "low 21\nedge 21\nedge 4\n")  # a real pin is not driven from here
            assert events.get(timeout=WAIT) == HostUp(HostKey.OK)
            write(path, "edge 20\n")  # the level unchanged: gpiozero takes it for no press
    factory.mock.close()
    assert events.empty()
    assert said == [
        "COMPANION_TEST_PINS: not 'edge PIN': low 21",
        "COMPANION_TEST_PINS: GPIO 4 waits for no edge",
    ]


def test_each_line_done_is_counted_beside_the_fifo_and_a_bad_pin_is_said(wired):
    path, events, said, wire = wired
    done = done_path(path)
    assert done.read_text() == "0\n"  # made with the FIFO: a finger reads it before its line
    write(path, "low 21\nlow 99\n")
    assert events.get(timeout=WAIT) == HostDown(HostKey.OK)
    deadline = time.monotonic() + WAIT
    while done.read_text() != "2\n":  # the bad line is done too: said, and skipped
        assert time.monotonic() < deadline, "the wire never counted its lines"
        time.sleep(0.01)
    assert len(said) == 1 and said[0].startswith("COMPANION_TEST_PINS: GPIO 99: ")
    wire.close()
    assert not done.exists()


def test_an_edge_line_never_makes_a_pin_the_table_does_not_hold(tmp_path):
    """A new pin on lgpio would claim and reconfigure its line (GPIO 2 is the display's SDA)."""
    factory, said = EmulatedPi(), []
    factory.pin(21)
    factory.pins = factory.mock.pins  # a gpiozero factory's pins made, by their info
    with PinWire(factory, tmp_path / "pins", said.append) as wire:
        wire.apply("edge 2")
    assert said == ["COMPANION_TEST_PINS: GPIO 2 is none of the table's pins"]
    assert 2 not in factory.mock.pins
    factory.mock.close()
