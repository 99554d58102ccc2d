"""The pad matrix: its debounce on a fake clock, then the whole of it on simulated pins
wired as a real diode matrix (the ``pads`` fixture: a clock that steps once a scan)."""

from __future__ import annotations

import queue
import threading
import time

import pytest
from helpers import PAD_COLUMNS, PAD_ROWS
from hypothesis import given
from hypothesis import strategies as st

from companion.hw.matrix import Debouncer, PadMatrix
from companion.sim.matrix import SimulatedMatrix
from companion.sim.pins import SimFactory
from companion.table.events import PadDown, PadUp

# --- the debounce, on its own ------------------------------------------------------------


def feed(debouncer: Debouncer, scans: list[tuple[float, set]]) -> list[tuple[float, object]]:
    return [(now, event) for now, seen in scans for event in debouncer.feed(now, seen)]


def test_a_steady_contact_counts_once_the_debounce_has_passed():
    debouncer = Debouncer(5)
    key = (2, 4)
    got = feed(debouncer, [(t, {key}) for t in range(10)] + [(t, set()) for t in range(10, 20)])
    assert got == [(5, PadDown(2, 4)), (15, PadUp(2, 4))]
    assert debouncer.quiet and not debouncer.down


def test_a_chattering_contact_never_counts_until_it_holds_still():
    debouncer = Debouncer(5)
    chatter = [(t, {(0, 1)} if t % 2 == 0 else set()) for t in range(30)]
    assert feed(debouncer, chatter) == []
    assert not debouncer.quiet  # still watching the key
    assert feed(debouncer, [(t, {(0, 1)}) for t in range(30, 40)]) == [(35, PadDown(0, 1))]


def test_a_tap_shorter_than_the_debounce_is_noise():
    debouncer = Debouncer(5)
    assert feed(debouncer, [(t, {(1, 1)}) for t in range(4)] + [(4, set()), (20, set())]) == []
    assert debouncer.quiet


def test_far_apart_scans_of_a_chattering_contact_still_do_not_count():
    """A late scan (a busy machine) sees a change, and a change restarts the count."""
    debouncer = Debouncer(5)
    assert feed(debouncer, [(0, {(3, 3)}), (50, set()), (100, {(3, 3)}), (150, set())]) == []


keys = st.sampled_from([(0, 1), (0, 2), (5, 8)])


@given(st.lists(st.tuples(st.integers(1, 7), st.frozensets(keys)), max_size=60))
def test_pad_events_follow_the_contacts(scans):
    """Per key, downs and ups alternate, each one after its contact held still for the
    debounce, and the keys end down exactly as their contacts end closed."""
    debouncer, now, history, got = Debouncer(5), 0, [], []
    for gap, seen in [*scans, (10, frozenset()), (10, frozenset())]:
        now += gap
        history.append((now, seen))
        got += [(now, event) for event in debouncer.feed(now, seen)]
    for key in {(e.seat, e.card) for _, e in got}:
        kinds = [type(e) for _, e in got if (e.seat, e.card) == key]
        assert kinds == [PadDown, PadUp] * (len(kinds) // 2)
    for at, event in got:
        key, closed = (event.seat, event.card), isinstance(event, PadDown)
        # Some scan at least a debounce before saw it so, and every scan since.
        since = [i for i, (t, _) in enumerate(history) if t <= at - 5][-1]
        assert all((key in seen) == closed for t, seen in history[since:] if t <= at)
    assert debouncer.quiet and not debouncer.down


# --- the matrix on simulated pins --------------------------------------------------------


def test_one_press(pads):
    pads.sim.press(2, 5)
    assert pads.take(1) == [PadDown(2, 5)]
    pads.sim.release(2, 5)
    assert pads.take(1) == [PadUp(2, 5)]
    assert pads.rest() == []


def test_any_number_of_simultaneous_presses(pads):
    # Same column on several rows, several columns on one row: the diodes keep them apart.
    keys = [(0, 1), (1, 1), (5, 1), (3, 2), (3, 7), (3, 8), (4, 4)]
    for key in keys:
        pads.sim.press(*key)
    assert set(pads.take(len(keys))) == {PadDown(*k) for k in keys}
    for key in keys:
        pads.sim.release(*key)
    assert set(pads.take(len(keys))) == {PadUp(*k) for k in keys}
    assert pads.rest() == []


@pytest.mark.parametrize("clock", ["scans", "seconds"])
def test_bouncing_contacts_count_once(make_pads, clock):
    """The contact changes at every reading while it bounces: no scan, early or late,
    can see it hold still, on the scan-stepping clock and on the real one alike."""
    pads = make_pads() if clock == "scans" else make_pads(debounce=0.005, clock=time.monotonic)
    pads.sim.press(1, 3, bounce=6)
    assert pads.take(1) == [PadDown(1, 3)]
    pads.sim.release(1, 3, bounce=6)
    assert pads.take(1) == [PadUp(1, 3)]
    assert pads.rest() == []


def test_presses_while_another_key_is_held(pads):
    pads.sim.press(0, 8)
    assert pads.take(1) == [PadDown(0, 8)]
    pads.sim.press(4, 2)
    pads.sim.release(0, 8)
    assert set(pads.take(2)) == {PadDown(4, 2), PadUp(0, 8)}
    pads.sim.release(4, 2)
    assert pads.take(1) == [PadUp(4, 2)]
    assert pads.rest() == []


def test_taps_count_by_how_many_scans_saw_them(pads):
    pads.sim.tap(2, 2, reads=3)  # shorter than the debounce (5 scans): noise
    assert pads.rest() == []
    pads.sim.tap(2, 2, reads=12)
    assert pads.rest() == [PadDown(2, 2), PadUp(2, 2)]


def test_an_idle_table_reads_no_pin(pads):
    assert pads.rest() == []
    idle = pads.sim.reads
    # Nothing may happen in this pause; a scanner that polled would read pins in it.
    # (A pause cannot make correct code fail, whatever the load.)
    time.sleep(0.05)
    assert pads.sim.reads == idle
    pads.sim.tap(1, 1, reads=10)
    assert pads.rest() == [PadDown(1, 1), PadUp(1, 1)]
    settled = pads.sim.reads
    assert settled > idle  # it scanned while the key was down
    time.sleep(0.05)
    assert pads.sim.reads == settled  # and stopped once every key was up
    assert all(row.driving for row in pads.sim.rows)  # every row waits for a key


def test_a_press_leaves_no_lost_wake_behind(pads):
    for _ in range(20):
        pads.sim.press(0, 3)  # each press is still seen: the wake was not lost
        assert pads.take(1) == [PadDown(0, 3)]
        pads.sim.release(0, 3)
        assert pads.take(1) == [PadUp(0, 3)]
    assert pads.rest() == []


def test_a_key_held_at_start_counts():
    factory = SimFactory()
    sim = SimulatedMatrix(factory, PAD_ROWS, PAD_COLUMNS)
    sim.press(3, 6)
    got: queue.SimpleQueue = queue.SimpleQueue()
    with PadMatrix(PAD_ROWS, PAD_COLUMNS, pin_factory=factory, debounce=0) as matrix:
        matrix.start(got.put)
        assert got.get(timeout=10) == PadDown(3, 6)  # no edge came: start looked once
        sim.release(3, 6)
        assert got.get(timeout=10) == PadUp(3, 6)
    factory.reset()


def test_close_is_idempotent_and_ends_the_matrix():
    factory = SimFactory()
    SimulatedMatrix(factory, PAD_ROWS, PAD_COLUMNS)
    unstarted = PadMatrix(PAD_ROWS, PAD_COLUMNS, pin_factory=factory)
    unstarted.close()
    unstarted.close()
    matrix = PadMatrix(PAD_ROWS, PAD_COLUMNS, pin_factory=factory)  # the pins were released
    matrix.start(lambda event: None)
    with pytest.raises(RuntimeError, match="starts once"):
        matrix.start(lambda event: None)
    matrix.close()
    matrix.close()
    with pytest.raises(RuntimeError, match="starts once"):
        matrix.start(lambda event: None)
    assert matrix.seats == 0  # no pin held any more
    factory.reset()


def closes_in_time(matrix: PadMatrix) -> bool:
    """close() on a thread of its own; False if it hangs (10 s is a hang, not slowness)."""
    closer = threading.Thread(target=matrix.close, daemon=True)
    closer.start()
    closer.join(timeout=10)
    return not closer.is_alive()


@pytest.mark.slow
@pytest.mark.parametrize("wait_for_up", [False, True])
def test_close_right_after_a_release_never_hangs(make_pads, wait_for_up):
    """Close lands at every step of the scanner in turn, mid-scan and as it goes idle."""
    for i in range(300):
        pads = make_pads(scan_interval=0)
        pads.sim.press(i % 6, 1 + i % 8)
        pads.take(1)
        pads.sim.release(i % 6, 1 + i % 8)
        if wait_for_up:
            pads.take(1)
        assert closes_in_time(pads.matrix), f"close() hung on try {i}"
        pads.factory.reset()


def test_close_from_the_events_own_callback():
    factory = SimFactory()
    sim = SimulatedMatrix(factory, PAD_ROWS, PAD_COLUMNS)
    matrix = PadMatrix(PAD_ROWS, PAD_COLUMNS, pin_factory=factory, debounce=0)
    got = []

    def put(event):
        got.append(event)
        matrix.close()  # on the scanner thread: it must neither wait for itself nor hang

    matrix.start(put)
    sim.press(0, 1)
    assert matrix.wait_idle(timeout=10)
    assert closes_in_time(matrix)
    assert got == [PadDown(0, 1)] and matrix.seats == 0
    factory.reset()
