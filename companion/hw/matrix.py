"""The players' pads: one diode key matrix, scanned only while a key is down.

Idle, every row (one per seat) is driven active and the columns (one per card) wait
on edges, so an idle table reads no pin at all. A key-down edge wakes the scanner,
which drives one row at a time, reads the columns, debounces every key, and puts
``PadDown`` / ``PadUp`` events on the app's queue. When every key is up it drives all
rows again and goes back to waiting.

gpiozero has no key matrix; this one is built from its devices, so every pin comes
from the pin factory: lgpio on a Pi, ``MockFactory`` pins in tests and the simulator.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from queue import SimpleQueue

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from ..table.events import Event, PadDown, PadUp

Key = tuple[int, int]  # (seat, card): seat 0-based, card 1..8

SCAN_INTERVAL = 0.001  # seconds between two scans while a key is down
DEBOUNCE = 0.005  # a key's contact must hold still this long before it counts


class PadMatrix:
    """Every seat's pad on one matrix; events go to ``queue``."""

    def __init__(
        self,
        rows: Sequence[int | str],
        columns: Sequence[int | str],
        queue: SimpleQueue[Event],
        *,
        pin_factory: Factory | None = None,
        scan_interval: float = SCAN_INTERVAL,
        debounce: float = DEBOUNCE,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._queue = queue
        self._scan_interval = scan_interval
        self._debounce = debounce
        self._clock = clock
        self._rows: list[DigitalOutputDevice] = []
        self._columns: list[DigitalInputDevice] = []
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._down: set[Key] = set()  # debounced: the keys the app has been told are down
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
                column.when_activated = self._wake.set
                self._columns.append(column)
        except Exception:
            self.close()
            raise
        self._thread = threading.Thread(target=self._run, name="pad-matrix", daemon=True)
        self._thread.start()

    @property
    def seats(self) -> int:
        return len(self._rows)

    def close(self) -> None:
        """Stop scanning and release the pins. Safe to call more than once."""
        self._stop.set()
        self._wake.set()
        thread = getattr(self, "_thread", None)
        if thread is not None and thread is not threading.current_thread():
            thread.join()
        for device in (*self._columns, *self._rows):
            device.close()
        self._columns.clear()
        self._rows.clear()

    def __enter__(self) -> PadMatrix:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        while True:
            self._wake.wait()  # idle: no pin is read until a column sees an edge
            if self._stop.is_set():
                return
            self._wake.clear()
            self._scan_until_released()

    def _scan_until_released(self) -> None:
        raw: set[Key] = set()
        changed_at: dict[Key, float] = {}
        while not self._stop.is_set():
            now = self._clock()
            seen = self._scan()
            for key in seen ^ raw:
                changed_at[key] = now
            raw = seen
            for key, since in list(changed_at.items()):
                if now - since >= self._debounce:
                    del changed_at[key]
                    self._settle(key, key in raw)
            if not raw and not self._down and not changed_at:
                break
            self._stop.wait(self._scan_interval)
        # Our own row switching woke the edge callbacks; forget that. Then idle again:
        # a key held now pulls its column low as the rows go active, a fresh edge.
        self._wake.clear()
        for row in self._rows:
            row.on()

    def _settle(self, key: Key, down: bool) -> None:
        if down and key not in self._down:
            self._down.add(key)
            self._queue.put(PadDown(*key))
        elif not down and key in self._down:
            self._down.discard(key)
            self._queue.put(PadUp(*key))

    def _scan(self) -> set[Key]:
        """Drive one row at a time and read which columns it pulls low."""
        seen = set()
        for row in self._rows:
            row.off()
        for seat, row in enumerate(self._rows):
            row.on()
            for card, column in enumerate(self._columns, 1):
                if column.is_active:
                    seen.add((seat, card))
            row.off()
        return seen
