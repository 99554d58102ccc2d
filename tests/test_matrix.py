"""The pad matrix on gpiozero's MockFactory pins wired as a real diode matrix."""

from __future__ import annotations

import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.hw.matrix import PadMatrix
from companion.hw.simmatrix import SimulatedMatrix
from companion.table.events import PadDown, PadUp

ROWS = [5, 6, 13, 19, 26, 16]
COLUMNS = [4, 17, 27, 22, 23, 24, 25, 12]


@pytest.fixture
def pads():
    factory = MockFactory()
    sim = SimulatedMatrix(factory, ROWS, COLUMNS)
    events: queue.SimpleQueue = queue.SimpleQueue()
    matrix = PadMatrix(ROWS, COLUMNS, events, pin_factory=factory)
    yield sim, matrix, events
    matrix.close()
    factory.reset()


def take(events, n, timeout=2.0):
    got = [events.get(timeout=timeout) for _ in range(n)]
    time.sleep(0.03)  # nothing else may follow
    assert events.empty(), f"unexpected {events.get()}"
    return got


def test_one_press(pads):
    sim, _, events = pads
    sim.press(2, 5)
    assert take(events, 1) == [PadDown(2, 5)]
    sim.release(2, 5)
    assert take(events, 1) == [PadUp(2, 5)]


def test_any_number_of_simultaneous_presses(pads):
    sim, _, events = pads
    # Same column on several rows, several columns on one row: the diodes keep them apart.
    keys = [(0, 1), (1, 1), (5, 1), (3, 2), (3, 7), (3, 8), (4, 4)]
    for key in keys:
        sim.press(*key)
    assert sorted(take(events, len(keys)), key=lambda e: (e.seat, e.card)) == [
        PadDown(*k) for k in sorted(keys)
    ]
    for key in keys:
        sim.release(*key)
    assert {(e.seat, e.card) for e in take(events, len(keys))} == set(keys)


def test_bouncing_contacts_count_once(pads):
    sim, _, events = pads
    sim.press(1, 3, bounce=6)
    assert take(events, 1) == [PadDown(1, 3)]
    sim.release(1, 3, bounce=6)
    assert take(events, 1) == [PadUp(1, 3)]


def test_presses_while_another_key_is_held(pads):
    sim, _, events = pads
    sim.press(0, 8)
    assert take(events, 1) == [PadDown(0, 8)]
    sim.press(4, 2)
    sim.release(0, 8)
    assert set(take(events, 2)) == {PadDown(4, 2), PadUp(0, 8)}
    sim.release(4, 2)
    assert take(events, 1) == [PadUp(4, 2)]


def test_idle_table_reads_no_pin(pads):
    sim, _, events = pads
    before = quiet(sim)
    time.sleep(0.2)
    assert sim.reads == before
    sim.press(1, 1)
    time.sleep(0.03)  # a person holds a key far longer than the debounce time
    sim.release(1, 1)
    take(events, 2)
    settled = quiet(sim)
    assert settled > before  # it scanned while the key was down
    time.sleep(0.2)
    assert sim.reads == settled  # and stopped once every key was up


def quiet(sim, patience=0.05, limit=100):
    """The read count once it has stopped changing (a busy machine may lag)."""
    reads = sim.reads
    for _ in range(limit):
        time.sleep(patience)
        if sim.reads == reads:
            return reads
        reads = sim.reads
    raise AssertionError("the scanner never went quiet")


def test_idle_rows_are_all_driven(pads):
    sim, _, _ = pads
    time.sleep(0.02)
    assert all(row.driving for row in sim.rows)


def test_a_press_leaves_no_extra_scan_behind(pads):
    sim, _, events = pads
    sim.press(0, 3)
    take(events, 1)
    sim.release(0, 3)
    take(events, 1)
    settled = quiet(sim)
    sim.press(0, 3)  # the next press is still seen: the wake was not lost
    assert take(events, 1) == [PadDown(0, 3)]
    sim.release(0, 3)
    take(events, 1)
    assert quiet(sim) > settled


def test_a_tap_shorter_than_the_debounce_is_noise(pads):
    sim, _, events = pads
    sim.press(2, 2)
    sim.release(2, 2)
    time.sleep(0.05)
    assert events.empty()


def test_close_is_idempotent():
    factory = MockFactory()
    SimulatedMatrix(factory, ROWS, COLUMNS)
    matrix = PadMatrix(ROWS, COLUMNS, queue.SimpleQueue(), pin_factory=factory)
    matrix.close()
    matrix.close()
    factory.reset()
