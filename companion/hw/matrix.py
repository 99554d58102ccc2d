"""The players' pads: one diode key matrix, scanned only while a key is down.

Idle, every row (one per seat) is driven active and the columns (one per card) wait
on edges, so an idle table reads no pin and wakes no thread. A key-down edge wakes the
scanner, which drives one row at a time, reads the columns, and hands what it saw to a
``Debouncer``, whose ``PadDown`` / ``PadUp`` events go to the ``put`` given to
``start``. When every key is up and settled it drives all rows again and goes back to
waiting.

A key held for ``STUCK`` seconds (a shorted key, a book on a pad) is said once, as
``KeyStuck``, and ignored until it comes up. While only stuck keys are down the scans
slow down to one every ``STUCK_SCAN_INTERVAL``, so a stuck key does not keep a core
busy; the other rows are driven meanwhile, so their keys still wake the scanner at once.

gpiozero has no key matrix; this one is built from its devices, so every pin comes
from the pin factory: lgpio on a Pi, mock pins in tests and the simulator.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from ..errors import Closing
from ..table.events import STUCK, KeyStuck, PadDown, PadUp, Put
from .pinfactory import given

Key = tuple[int, int]  # (seat, card): seat 0-based, card 1..8

SCAN_INTERVAL = 0.001  # seconds between two scans while a key is down
DEBOUNCE = 0.005  # a key's contact must hold still this long before it counts
STUCK_SCAN_INTERVAL = 0.1  # seconds between two scans while only stuck keys are down


class Debouncer:
    """Key scans in, debounced pad events out. Pure: the caller says what time it is.

    A key changes once its contact has read the same for ``debounce`` (in the clock's
    units): every change of the raw contact starts its count again, so a chattering
    contact never counts, however the scans are spaced. A key reported down for
    ``stuck`` (None: never) is reported stuck, once per hold.
    """

    def __init__(self, debounce: float, stuck: float | None = None) -> None:
        self.debounce = debounce
        self.stuck_after = stuck
        self._raw: frozenset[Key] = frozenset()  # the contacts closed at the last scan
        self._changed_at: dict[Key, float] = {}  # contacts that moved and are not settled
        self._down: dict[Key, float] = {}  # debounced: the keys reported down, and when
        self._stuck: set[Key] = set()  # the keys down that were reported stuck

    @property
    def down(self) -> frozenset[Key]:
        """The keys reported down and not yet up."""
        return frozenset(self._down)

    @property
    def stuck(self) -> frozenset[Key]:
        """The keys down that were reported stuck."""
        return frozenset(self._stuck)

    @property
    def quiet(self) -> bool:
        """Every key up and settled: nothing is left to watch."""
        return not self._raw and not self._down and not self._changed_at

    @property
    def only_stuck(self) -> bool:
        """Stuck keys down, settled, and no other key: only a release is left to see."""
        return bool(self._stuck) and not self._changed_at and self._raw == self._stuck

    def feed(self, now: float, seen: Iterable[Key]) -> list[PadDown | PadUp | KeyStuck]:
        """The events a scan at ``now`` that saw ``seen`` closed brings (in key order)."""
        seen = frozenset(seen)
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
    that). ``stuck_scan_interval`` is in seconds, as ``scan_interval`` is.
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
    ) -> None:
        pin_factory = given(pin_factory, "pad matrix")
        self._scan_interval = scan_interval
        self._stuck_scan_interval = stuck_scan_interval
        self._clock = clock
        self._debouncer = Debouncer(debounce, stuck)
        self._rows: list[DigitalOutputDevice] = []
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
            # Rows: driven low is active; columns: pulled up, a held key pulls them low.
            for pin in rows:
                self._rows.append(
                    DigitalOutputDevice(
                        pin, active_high=False, initial_value=True, pin_factory=pin_factory
                    )
                )
            for pin in columns:
                column = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
                column.when_activated = self._wake
                self._columns.append(column)
        except Exception:
            self.close()
            raise

    @property
    def seats(self) -> int:
        return len(self._rows)

    def start(self, put: Put) -> None:
        """Send the pads' events to ``put`` from now on (from the scanner thread)."""
        with self._lock:
            if self._stopping or self._thread is not None:
                raise RuntimeError("the pad matrix starts once, before it is closed")
            self._put = put
            self._woken = True  # look once: a key held already counts
            self._thread = threading.Thread(target=self._run, name="pad-matrix", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop scanning and release the pins. Safe to call more than once, and from
        ``put`` itself (the scanner then releases the pins as it stops)."""
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
        with self._lock:
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
            for event in self._debouncer.feed(self._clock(), self._scan()):
                self._put(event)
            if self._debouncer.quiet:
                return
            if self._debouncer.only_stuck:
                if self._rest_beside_stuck():
                    return
                continue
            with self._lock:
                if self._lock.wait_for(lambda: self._stopping, self._scan_interval):
                    return

    def _rest_beside_stuck(self) -> bool:
        """Wait for the next slow scan while only stuck keys are down; True on close().

        The rows without a stuck key are driven, so a press there pulls its column low and
        wakes the scanner at once. A stuck key's row is not: its diode then leaves its
        column free, so a key of another seat on that column still makes an edge. Keys
        on a stuck key's own row, and its release, are seen at the next slow scan.
        """
        stuck_rows = {seat for seat, _ in self._debouncer.stuck}
        with self._lock:
            self._woken = False  # the last scan's own row switching
            self._resting = True
        for seat, row in enumerate(self._rows):
            if seat not in stuck_rows:
                row.on()
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
            row.on()

    def _scan(self) -> set[Key]:
        """Drive one row at a time and read which columns it pulls low."""
        seen: set[Key] = set()
        for row in self._rows:
            row.off()
        for seat, row in enumerate(self._rows):
            row.on()
            for card, column in enumerate(self._columns, 1):
                if column.is_active:
                    seen.add((seat, card))
            row.off()
        return seen

    def _release(self) -> None:
        with self._lock:  # taken out under the lock, so each device is closed once
            devices = [*self._columns, *self._rows]
            self._columns.clear()
            self._rows.clear()
        for device in devices:
            device.close()
