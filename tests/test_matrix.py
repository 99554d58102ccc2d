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

from companion.app import config
from companion.app.inputs import matrix_settle
from companion.hw.matrix import DEBOUNCE, SCAN_INTERVAL, Debouncer, PadMatrix, settle_time
from companion.sim.matrix import SimulatedMatrix, rc_rise
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


def test_a_key_held_at_start_is_no_press_until_released():
    """A key down as the service starts (a book on a pad, a hand resting on it) is not
    pressed now: it counts once it has come up. The others count meanwhile."""
    factory = SimFactory()
    sim = SimulatedMatrix(factory, PAD_ROWS, PAD_COLUMNS)
    sim.press(3, 6)
    got: queue.SimpleQueue = queue.SimpleQueue()
    matrix = PadMatrix(PAD_ROWS, PAD_COLUMNS, pin_factory=factory, debounce=0, settle=0)
    try:
        matrix.start(got.put)
        sim.press(1, 2)  # another seat: heard at once, and first
        assert got.get(timeout=10) == PadDown(1, 2)
        sim.release(1, 2)
        assert got.get(timeout=10) == PadUp(1, 2)
        sim.release(3, 6)  # no event: it was never down
        sim.press(1, 2)  # the scan that hears this one sees (3, 6) open
        assert got.get(timeout=10) == PadDown(1, 2)
        sim.release(1, 2)
        assert got.get(timeout=10) == PadUp(1, 2)
        sim.press(3, 6)  # pressed again: now it is a press
        assert got.get(timeout=10) == PadDown(3, 6)
        sim.release(3, 6)
        assert got.get(timeout=10) == PadUp(3, 6)
        assert matrix.wait_idle(timeout=10) and got.empty()
    finally:
        matrix.close()
        factory.reset()


def test_a_key_ignored_is_forgotten_once_seen_open():
    debouncer = Debouncer(2)
    debouncer.ignore({(0, 1)})
    assert not debouncer.quiet and debouncer.parked == {(0, 1)}
    assert feed(debouncer, [(t, {(0, 1), (2, 2)}) for t in range(5)]) == [(2, PadDown(2, 2))]
    assert feed(debouncer, [(5, {(2, 2)})]) == []  # (0, 1) seen open: an ordinary key again
    got = feed(debouncer, [(t, {(0, 1), (2, 2)}) for t in range(6, 10)])
    assert got == [(8, PadDown(0, 1))]


# --- open drain: a row is driven low or let go, never driven high -----------------------


def test_rows_are_driven_low_or_released_never_high(pads):
    """Two seats pressing the same card: a pad without diodes would join their rows.
    Only one row is ever driven during a scan, and never high, so no two outputs meet."""
    for key in [(0, 3), (1, 3), (4, 3), (4, 7)]:
        pads.sim.press(*key)
    assert set(pads.take(4)) == {PadDown(0, 3), PadDown(1, 3), PadDown(4, 3), PadDown(4, 7)}
    for key in [(0, 3), (1, 3), (4, 3), (4, 7)]:
        pads.sim.release(*key)
    assert len(pads.take(4)) == 4 and pads.rest() == []
    assert pads.sim.driven_high == 0
    # Released rows are inputs without a pull: a pull-down would pull columns low.
    assert all(row.pull == "floating" for row in pads.sim.rows)
    assert all(row.driving for row in pads.sim.rows)  # idle: all driven low again


def test_a_scan_drives_one_row_at_a_time_and_waits_for_the_columns(make_pads):
    """Between a row switch and the columns' reading, the settle time is slept (on the
    sleeper given: no test sleeps it)."""
    log: list[object] = []
    pads = make_pads(settle=0.0005, sleep=log.append)
    rows = pads.sim.rows

    def reading(card, original=pads.sim.reading):
        if card == 1:  # a row's first column: which rows are driven as it is read
            log.append([i for i, row in enumerate(rows) if row.driving])
        original(card)

    pads.sim.reading = reading
    log.clear()  # start() made the first scan before the spy was in place
    pads.sim.tap(2, 4, reads=8)
    assert pads.rest() == [PadDown(2, 4), PadUp(2, 4)]
    assert len(log) >= 2 * 6 * 8
    assert log == [0.0005, [0], 0.0005, [1], 0.0005, [2], 0.0005, [3], 0.0005, [4], 0.0005, [5]] * (
        len(log) // 12
    )


# --- a slow column: the settle time keeps a held key on its own seat --------------------

# A column on six 3 m cables with only the SoC's pull-up, its worst case as the
# datasheets give it: 73 kOhm (the BCM2711's highest), the column's six conductors and
# the row conductors of the seats holding that card charged through their diodes
# (~100 pF a metre, typical of unshielded multicore), six 1N4148s (4 pF), the pin (5 pF).
SLOW_TAU = 73e3 * (6 * 3 * 100e-12 + 6 * 3 * 100e-12 + 6 * 4e-12 + 5e-12)


class Time:
    """The matrix's time, on a clock of the test's own: each scan a scan interval
    passes; each settle passes as the scanner sleeps it."""

    def __init__(self) -> None:
        self.now = 0.0

    def scan(self) -> float:
        self.now += SCAN_INTERVAL
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def read(self) -> float:
        return self.now


def slow_pads(make_pads, settle: float):
    time_ = Time()
    wiring = {"rise": rc_rise(SLOW_TAU), "clock": time_.read}
    return make_pads(
        wiring=wiring, settle=settle, sleep=time_.sleep, clock=time_.scan, debounce=DEBOUNCE
    )


def held_on_each_seat(pads) -> list[list]:
    """Each seat but the last holds card 4 for 40 scans: the events each hold brought."""
    got = []
    for seat in range(len(PAD_ROWS) - 1):
        pads.sim.tap(seat, 4, reads=40)
        got.append(pads.rest())
    return got


def test_a_slow_column_leaks_no_key_to_the_next_seat_with_the_default_settle(make_pads):
    assert len(PAD_ROWS) == 6
    pads = slow_pads(make_pads, matrix_settle(config.defaults()))
    for seat, events in enumerate(held_on_each_seat(pads)):
        assert events == [PadDown(seat, 4), PadUp(seat, 4)]


def test_a_slow_column_without_a_settle_shows_the_key_on_the_next_seat(make_pads):
    """The phantom press the settle time is for: seat N's held card, read again while
    seat N+1's row is driven, before the column has climbed back."""
    pads = slow_pads(make_pads, 0)
    for seat, events in enumerate(held_on_each_seat(pads)):
        assert PadDown(seat, 4) in events
        assert PadDown(seat + 1, 4) in events  # a secret choice shown on another seat


def test_the_default_settle_is_safe_for_six_cables_without_pull_ups():
    """[pads] settle_us = "auto" on the shipped config: six seats, 3 m, the SoC's own
    pull-ups. It outlasts the worst column's climb to a high reading, with room."""
    settle = matrix_settle(config.defaults())
    assert settle >= 5 * rc_rise(SLOW_TAU)
    assert settle == settle_time(6, 3.0) == pytest.approx(1325e-6)
    # with the parts list's 10 kOhm pull-ups, a scan is 8 times quicker
    assert settle_time(6, 3.0, 10000) == pytest.approx(160e-6)


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
