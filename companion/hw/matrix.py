"""The players' pads: one diode key matrix, scanned only while a key is down.

Idle, every row (one per seat) is driven active and the columns (one per card) wait
on edges, so an idle table reads no pin and wakes no thread. A key-down edge wakes the
scanner, which drives one row at a time, waits for the columns to settle, reads them,
and hands what it saw to a ``Debouncer``, whose ``PadDown`` / ``PadUp`` events go to the
``put`` given to ``start``. When every key is up and settled it drives all rows again
and goes back to waiting.

The rows are open drain: a row is driven low (active) or released (an input without a
pull), never driven high, so two seats pressing the same card can never short two
outputs, whatever the pads' diodes. A column that a key held low climbs back through
its pull-up at the speed of its cables' RC; ``settle`` waits that out after each row
switch, or a key held on seat N would read as the same card on seat N+1.

A key held for ``STUCK`` seconds (a shorted key, a book on a pad) is said once, as
``KeyStuck``, and ignored until it comes up; so is a key already down at the first scan
(held as the service starts), without a word, and it counts once released. While only
such keys are down the scans slow down to one every ``STUCK_SCAN_INTERVAL``, so they
do not keep a core busy; the other rows are driven meanwhile, so their keys still wake
the scanner at once.

gpiozero has no key matrix; this one is built from its devices, so every pin comes
from the pin factory: lgpio on a Pi, mock pins in tests and the simulator.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable, Sequence

from gpiozero import DigitalInputDevice, GPIODevice
from gpiozero.exc import GPIODeviceClosed
from gpiozero.pins import Factory, Pin

from ..errors import Closing
from ..table.events import STUCK, KeyStuck, PadDown, PadUp, Put
from .health import Heartbeat
from .pinfactory import given

Key = tuple[int, int]  # (seat, card): seat 0-based, card 1..8

SCAN_INTERVAL = 0.001  # seconds between two scans while a key is down
DEBOUNCE = 0.005  # a key's contact must hold still this long before it counts
STUCK_SCAN_INTERVAL = 0.1  # seconds between two scans while only stuck keys are down

# --- How long a column takes to settle (``[pads] settle_us = "auto"``, docs/config.md) ---
# A released column climbs back to 3.3 V through its pull-up R, charging C: every pad
# cable's conductor of that column (the columns are joined in the box) and, when the
# scan releases rows, the row conductor of each seat holding that card (its diode
# conducts until the row is charged too). So C = 2 x cables x length x pF/m, plus a
# diode per seat and the Pi's own pin; the scan waits 5 RC after each row switch.
# The column reads high once past V_IH: 2.0 V of 3.3 V on a BCM2711 (1.6 V on a
# BCM2835), which a column from 0 V crosses after 0.93 RC; 5 RC leaves five times that.
#
# The SoC's internal pull-up, at its highest: 50..65 kOhm on the BCM2835/BCM2837,
# 33..73 kOhm on the BCM2711 (raspberrypi.com/documentation, "GPIO": the voltage
# specifications). The RP1 of a Pi 5 publishes no figure we found: taken as the same.
INTERNAL_PULL_UP = 73e3  # ohms
# Per metre per conductor of the pad cable: an assumption typical of unshielded multicore
# (not a measurement). A DE-9 cable of 3 m is then ~300 pF a conductor.
CABLE_F_PER_M = 100e-12
DIODE_F = 4e-12  # a 1N4148 at 0 V: 4 pF at most (its datasheet)
PIN_F = 5e-12  # the Pi's input capacitance, typical (the same documentation, BCM2835)
SETTLE_RCS = 5


def settle_time(cables: int, length_m: float, pull_up: float | None = None) -> float:
    """Seconds to wait after switching rows before reading the columns: 5 RC of a column
    on ``cables`` pad cables of ``length_m`` metres, pulled up by the SoC alone
    (``pull_up`` None) or by a resistor of ``pull_up`` ohms beside it; in whole
    microseconds, rounded up."""
    ohms = INTERNAL_PULL_UP if pull_up is None else 1 / (1 / pull_up + 1 / INTERNAL_PULL_UP)
    farads = 2 * cables * length_m * CABLE_F_PER_M + cables * DIODE_F + PIN_F
    return math.ceil(SETTLE_RCS * ohms * farads * 1e6 - 1e-9) / 1e6


# The default: safe for a maker who fitted no external pull-up, 6 seats, 3 m cables
# (1325 us a row, 8 ms a scan; with the parts list's 10 kOhm pull-ups 160 us a row).
SETTLE = settle_time(6, 3.0)


class OpenDrainRow(Closing):
    """A row line driven open drain: low (``drive``) or released (``release``: an input
    without a pull), never high. gpiozero has no open-drain output on every backend, so
    the pin's function is switched, to an output low (gpiozero's ``output_with_state``,
    which each backend makes as glitch-free as it can) or back to an input. The pin is
    held (reserved) by a ``GPIODevice`` of ``pin_factory``, as every device's is."""

    def __init__(self, pin: int | str, *, pin_factory: Factory) -> None:
        self._device = GPIODevice(pin, pin_factory=pin_factory)
        try:
            line = self._line()
            line.function = "input"
            line.pull = "floating"  # a pull-down would pull the columns low through the keys
            # The output latch low from the start, while no other row is driven: where a
            # backend sets the function before the level, the row can never blip high.
            line.output_with_state(False)
            line.function = "input"
        except Exception:
            self.close()
            raise

    def drive(self) -> None:
        self._line().output_with_state(False)

    def release(self) -> None:
        self._line().function = "input"  # its pull stays off: set once above

    def close(self) -> None:
        """Let the pin go (gpiozero makes it an input again). Safe to call twice."""
        self._device.close()

    def _line(self) -> Pin:
        pin = self._device.pin
        if pin is None:
            raise GPIODeviceClosed("a pad row used after it was closed")
        return pin


class Debouncer:
    """Key scans in, debounced pad events out. Pure: the caller says what time it is.

    A key changes once its contact has read the same for ``debounce`` (in the clock's
    units): every change of the raw contact starts its count again, so a chattering
    contact never counts, however the scans are spaced. A key reported down for
    ``stuck`` (None: never) is reported stuck, once per hold. A key ``ignore``d (down
    before anyone could press it) is not there until it is seen open.
    """

    def __init__(self, debounce: float, stuck: float | None = None) -> None:
        self.debounce = debounce
        self.stuck_after = stuck
        self._raw: frozenset[Key] = frozenset()  # the contacts closed at the last scan
        self._changed_at: dict[Key, float] = {}  # contacts that moved and are not settled
        self._down: dict[Key, float] = {}  # debounced: the keys reported down, and when
        self._stuck: set[Key] = set()  # the keys down that were reported stuck
        self._ignored: set[Key] = set()  # held since before the first scan, not seen open

    @property
    def down(self) -> frozenset[Key]:
        """The keys reported down and not yet up."""
        return frozenset(self._down)

    @property
    def stuck(self) -> frozenset[Key]:
        """The keys down that were reported stuck."""
        return frozenset(self._stuck)

    @property
    def parked(self) -> frozenset[Key]:
        """The keys down and unheard until they come up: stuck, or held from the start."""
        return frozenset(self._stuck | self._ignored)

    @property
    def quiet(self) -> bool:
        """Every key up and settled: nothing is left to watch."""
        return not (self._raw or self._down or self._changed_at or self._ignored)

    @property
    def only_stuck(self) -> bool:
        """Stuck keys down, settled, and no other key: only a release is left to see."""
        return bool(self._stuck) and not self._changed_at and self._raw == self._stuck

    @property
    def only_parked(self) -> bool:
        """Only parked keys down (``parked``), settled: only their release is left to see."""
        return bool(self.parked) and not self._changed_at and self._raw == self._stuck

    def ignore(self, keys: Iterable[Key]) -> None:
        """Keys already down at the first scan (held as the service started): they are
        no press, and count as any other key from the scan that sees them open."""
        self._ignored |= set(keys)

    def feed(self, now: float, seen: Iterable[Key]) -> list[PadDown | PadUp | KeyStuck]:
        """The events a scan at ``now`` that saw ``seen`` closed brings (in key order)."""
        seen = frozenset(seen)
        self._ignored &= seen  # seen open once: an ordinary key from now on
        seen -= self._ignored
        for key in seen ^ self._raw:
            self._changed_at[key] = now
        self._raw = seen
        events: list[PadDown | PadUp | KeyStuck] = []
        for key, since in sorted(self._changed_at.items()):
            if now - since < self.debounce:
                continue
            del self._changed_at[key]
            if key in seen and key not in self._down:
                self._down[key] = now
                events.append(PadDown(*key))
            elif key not in seen and key in self._down:
                del self._down[key]
                self._stuck.discard(key)
                events.append(PadUp(*key))
        for key, since in sorted(self._down.items()):
            if self.stuck_after is None or key in self._stuck:
                continue
            if now - since >= self.stuck_after:
                self._stuck.add(key)
                events.append(KeyStuck(*key))
        return events


class PadMatrix(Closing):
    """Every seat's pad on one matrix: a ``Source`` of ``PadDown`` / ``PadUp``, on pins of
    ``pin_factory``.

    ``clock`` is read once per scan, so a clock that steps once a reading makes the
    debounce (and ``stuck``: None, never) count scans instead of seconds (the tests do
    that). ``stuck_scan_interval`` is in seconds, as ``scan_interval`` is. ``settle``:
    seconds waited with ``sleep`` after each row switch, before the columns are read
    (0: none; the simulated matrix settles at once). ``health`` is the scanner's
    heartbeat, for the loop that feeds the watchdog; ``beat_clock`` times it.
    """

    def __init__(
        self,
        rows: Sequence[int | str],
        columns: Sequence[int | str],
        *,
        pin_factory: Factory,
        scan_interval: float = SCAN_INTERVAL,
        debounce: float = DEBOUNCE,
        clock: Callable[[], float] = time.monotonic,
        stuck: float | None = STUCK,
        stuck_scan_interval: float = STUCK_SCAN_INTERVAL,
        settle: float = SETTLE,
        sleep: Callable[[float], None] = time.sleep,
        beat_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        pin_factory = given(pin_factory, "pad matrix")
        self.settle = settle
        self._sleep = sleep
        self.health = Heartbeat("pad-matrix", beat_clock)
        self._scan_interval = scan_interval
        self._stuck_scan_interval = stuck_scan_interval
        self._clock = clock
        self._debouncer = Debouncer(debounce, stuck)
        self._rows: list[OpenDrainRow] = []
        self._columns: list[DigitalInputDevice] = []
        # One lock guards the three flags the scanner waits on. ``_stopping`` is never
        # cleared, and every wait looks at it under the lock first: a close() can land
        # between any two steps of the scanner and is still seen.
        self._lock = threading.Condition()
        self._woken = False  # a column saw an edge the scanner has not looked at yet
        self._scanning = False
        self._resting = False  # scanning, slowly: only stuck keys are down
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._put: Put | None = None
        try:
            # Rows: open drain, driven low is active; columns: pulled up, a held key
            # pulls them low. Every row is made (released) before any is driven.
            for pin in rows:
                self._rows.append(OpenDrainRow(pin, pin_factory=pin_factory))
            for pin in columns:
                column = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
                column.when_activated = self._wake
                self._columns.append(column)
            for row in self._rows:
                row.drive()  # idle: every row waits for a key
        except Exception:
            self.close()
            raise

    @property
    def seats(self) -> int:
        return len(self._rows)

    def start(self, put: Put) -> None:
        """Send the pads' events to ``put`` from now on (from the scanner thread).

        The first scan is made here: a key down already (held as the service starts) is
        no press, and counts once it has been released. A key pressed once ``start``
        returns is a press."""
        with self._lock:
            if self._stopping or self._thread is not None:
                raise RuntimeError("the pad matrix starts once, before it is closed")
            self._put = put
        now, held = self._clock(), self._scan()
        self._debouncer.ignore(held)
        self._debouncer.feed(now, held)
        self._rest()
        with self._lock:
            self._woken |= bool(held)  # park them: their release is looked for
            self._scanning = True  # until the thread waits: wait_idle waits for that
            target = self.health.run(self._run)
            self._thread = threading.Thread(target=target, name="pad-matrix", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop scanning and release the pins. Safe to call more than once, and from
        ``put`` itself (the scanner then releases the pins as it stops)."""
        self.health.stop()
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
            thread = self._thread
        if thread is threading.current_thread():
            return
        if thread is not None:
            thread.join()
        self._release()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until the scanner waits for an edge with none pending (or does not run):
        every event the keys have caused so far has then been sent. False if ``timeout``
        seconds pass first."""
        with self._lock:
            return self._lock.wait_for(self._idle, timeout)

    def _idle(self) -> bool:
        busy = (self._scanning and not self._resting) or self._woken
        return self._thread is None or self._stopping or not busy

    def _wake(self) -> None:
        """A column went low (an edge callback, on whatever thread the pins use)."""
        with self._lock:
            self._woken = True
            self._lock.notify_all()

    def _run(self) -> None:
        try:
            while self._await_wake():
                self._scan_until_quiet()
                self._rest()
        finally:
            with self._lock:
                self._scanning = self._woken = False
                self._lock.notify_all()
            self._release()

    def _await_wake(self) -> bool:
        """Sleep until an edge (True) or close() (False); no pin is read meanwhile."""
        with self._lock, self.health.resting():
            self._scanning = False
            self._lock.notify_all()
            while not (self._woken or self._stopping):
                self._lock.wait()
            if self._stopping:
                return False
            self._woken = False
            self._scanning = True
            return True

    def _scan_until_quiet(self) -> None:
        assert self._put is not None
        while True:
            now = self._clock()
            seen = self._scan()
            self.health.beat()
            for event in self._debouncer.feed(now, seen):
                self._put(event)
            if self._debouncer.quiet:
                return
            if self._debouncer.only_parked:
                if self._rest_beside_stuck():
                    return
                continue
            with self._lock:
                if self._lock.wait_for(lambda: self._stopping, self._scan_interval):
                    return

    def _rest_beside_stuck(self) -> bool:
        """Wait for the next slow scan while only parked keys (stuck, or held from the
        start) are down; True on close().

        The rows without a parked key are driven, so a press there pulls its column low
        and wakes the scanner at once. A parked key's row is not: its diode then leaves
        its column free, so a key of another seat on that column still makes an edge.
        Keys on a parked key's own row, and its release, are seen at the next slow scan.
        """
        parked_rows = {seat for seat, _ in self._debouncer.parked}
        with self._lock:
            self._woken = False  # the last scan's own row switching
            self._resting = True
        for seat, row in enumerate(self._rows):
            if seat not in parked_rows:
                row.drive()
        deadline = time.monotonic() + self._stuck_scan_interval
        try:
            while True:
                with self._lock:
                    left = max(0.0, deadline - time.monotonic())
                    self._lock.wait_for(lambda: self._stopping or self._woken, left)
                    if self._stopping:
                        return True
                    if not self._woken:
                        return False  # time for the slow scan
                    self._woken = False
                # A late edge from the last scan reads no column low: rest on.
                if any(column.is_active for column in self._columns):
                    return False
        finally:
            with self._lock:
                self._resting = False

    def _rest(self) -> None:
        """Drive every row again, for the next key-down edge."""
        # The scan's own row switching woke the edge callbacks: forget that while every
        # row is still inactive, so a key held now makes a fresh edge as the rows go
        # active. A late callback only costs one more scan; a close() is its own flag.
        with self._lock:
            self._woken = False
        for row in self._rows:
            row.drive()

    def _scan(self) -> set[Key]:
        """Drive one row at a time and read which columns it pulls low, once they have
        settled: a column the last row held low climbs back slowly (its RC)."""
        seen: set[Key] = set()
        for row in self._rows:
            row.release()
        for seat, row in enumerate(self._rows):
            row.drive()
            if self.settle:
                self._sleep(self.settle)
            for card, column in enumerate(self._columns, 1):
                if column.is_active:
                    seen.add((seat, card))
            row.release()
        return seen

    def _release(self) -> None:
        with self._lock:  # taken out under the lock, so each device is closed once
            columns, rows = list(self._columns), list(self._rows)
            self._columns.clear()
            self._rows.clear()
        for column in columns:
            column.close()
        for row in rows:  # released as they close: gpiozero makes them inputs
            row.close()
