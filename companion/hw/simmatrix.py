"""A pad matrix made of mock pins, wired like the real diode matrix.

The simulator and the tests press keys here; ``PadMatrix`` reads them through the
very same pins it uses on a Pi. A column reads low only while its row is driven
active (low) and its key is held: the diode blocks every other path. Changing a key
or a row level drives the column pins, which fire the same edge callbacks a real
pin factory would.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from gpiozero.pins.mock import MockFactory

from .simpins import SimPin

Key = tuple[int, int]  # (seat, card)


class _RowPin(SimPin):
    """A row line: when its level changes, the matrix recomputes the columns."""

    def __init__(self, factory, info, matrix: SimulatedMatrix):
        super().__init__(factory, info)
        self.matrix = matrix

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed:
            self.matrix.update()
        return changed

    @property
    def driving(self) -> bool:
        return self._function == "output" and not self._state


class _ColumnPin(SimPin):
    """A column line with a pull-up; counts how often it is read."""

    def __init__(self, factory, info, matrix: SimulatedMatrix):
        super().__init__(factory, info)
        self.matrix = matrix
        self.reads = 0

    def _get_state(self):
        self.reads += 1
        return super()._get_state()

    def _set_pull(self, value):
        super()._set_pull(value)
        self.matrix.update()  # a held key outweighs the pull-up


class SimulatedMatrix:
    """The pads' wiring on mock pins: ``press`` and ``release`` keys like a player."""

    def __init__(self, factory: MockFactory, rows: Sequence[int], columns: Sequence[int]):
        self._lock = threading.RLock()
        self._held: set[Key] = set()
        self._ready = False
        self.rows: list[_RowPin] = [factory.pin(p, pin_class=_RowPin, matrix=self) for p in rows]
        self.columns: list[_ColumnPin] = [
            factory.pin(p, pin_class=_ColumnPin, matrix=self) for p in columns
        ]
        self._ready = True
        self.update()

    @property
    def reads(self) -> int:
        """Column reads so far (the pins an idle table must leave alone)."""
        return sum(c.reads for c in self.columns)

    @property
    def held(self) -> frozenset[Key]:
        with self._lock:
            return frozenset(self._held)

    def press(self, seat: int, card: int, bounce: int = 0) -> None:
        """Push a key down; ``bounce`` extra contacts chatter first, as real switches do."""
        self._set(seat, card, True, bounce)

    def release(self, seat: int, card: int, bounce: int = 0) -> None:
        self._set(seat, card, False, bounce)

    def update(self) -> None:
        """Set every column to what the diodes let through."""
        if not self._ready:
            return
        with self._lock:
            driving = [seat for seat, row in enumerate(self.rows) if row.driving]
            for card, column in enumerate(self.columns, 1):
                if column.function != "input":
                    continue
                if any((seat, card) in self._held for seat in driving):
                    column.drive_low()
                elif column.pull == "up":
                    column.drive_high()

    def _set(self, seat: int, card: int, down: bool, bounce: int) -> None:
        key = (seat, card)
        for i in range(2 * bounce + 1):
            contact = down if i % 2 == 0 else not down
            with self._lock:
                if contact:
                    self._held.add(key)
                else:
                    self._held.discard(key)
                self.update()
            if i < 2 * bounce:
                time.sleep(0.0002)  # a contact chatters for well under a millisecond
