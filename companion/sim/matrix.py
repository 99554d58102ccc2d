"""A pad matrix made of mock pins, wired like the real diode matrix.

The simulator and the tests press keys here; ``PadMatrix`` reads them through the
very same pins it uses on a Pi. A column reads low only while its row is driven
active (low) and its key is held: the diode blocks every other path. Changing a key
or a row level drives the column pins, which fire the same edge callbacks a real
pin factory would.

Contacts that chatter, and taps, are told in readings, not in seconds: a bouncing
contact changes at each of the scanner's next readings of that key, so no scan, on
however busy a machine, can see it hold still; a tap lasts a given number of readings.
What the scanner makes of them never depends on how the threads happen to run.

A column can be made slow (``rise``): after the last key holding it low lets go (its row
released), it still reads low for ``rise`` seconds of ``clock``, as a real column does
while its pull-up charges the cables (``rc_rise``). A row is only ever driven low or
released by ``PadMatrix``; a row driven high is counted (``driven_high``): with a pad
built without its diodes, two such rows would short two outputs.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Callable, Sequence

from gpiozero.pins import PinInfo
from gpiozero.pins.mock import MockFactory

from .pins import SimPin

Key = tuple[int, int]  # (seat, card)

VDD = 3.3  # volts: the Pi's I/O supply
# The least voltage a BCM2711 is sure to read high (1.6 V on a BCM2835): the
# raspberrypi.com documentation's GPIO voltage specifications.
V_IH = 2.0


def rc_rise(tau: float, v_ih: float = V_IH, vdd: float = VDD) -> float:
    """Seconds a column from 0 V takes to read high again through a pull-up of time
    constant ``tau`` (seconds): V(t) = vdd (1 - e^(-t/tau)) reaches ``v_ih``."""
    return tau * math.log(vdd / (vdd - v_ih))


class _RowPin(SimPin):
    """A row line: when its level changes, the matrix recomputes the columns."""

    def __init__(self, factory: MockFactory, info: PinInfo, matrix: SimulatedMatrix) -> None:
        super().__init__(factory, info)
        self.matrix = matrix

    def _change_state(self, value: float) -> bool:
        changed = super()._change_state(value)
        if changed:
            self._driven_high()
            self.matrix.update()
        return changed

    def _set_function(self, value: str) -> None:
        was = self._function
        super()._set_function(value)
        if value != was:
            self._driven_high()
            self.matrix.update()

    def _driven_high(self) -> None:
        if self._function == "output" and self._state:
            self.matrix.driven_high += 1

    @property
    def driving(self) -> bool:
        return self._function == "output" and not self._state


class _ColumnPin(SimPin):
    """A column line with a pull-up; counts how often it is read."""

    def __init__(
        self, factory: MockFactory, info: PinInfo, matrix: SimulatedMatrix, card: int
    ) -> None:
        super().__init__(factory, info)
        self.matrix = matrix
        self.card = card
        self.reads = 0
        self.released_at: float | None = None  # when the last key holding it low let go

    def _get_state(self) -> float:
        self.reads += 1
        self.matrix.reading(self.card)
        state = super()._get_state()
        if state and self.released_at is not None and self.matrix.rising(self.released_at):
            return False  # still charging through its pull-up: reads low
        return state

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self.matrix.update()  # a held key outweighs the pull-up


class SimulatedMatrix:
    """The pads' wiring on mock pins: ``press``, ``release`` and ``tap`` keys like a player.

    Works on any ``MockFactory``; the simulator's ``SimFactory`` keeps no pin history.
    ``rise``: seconds of ``clock`` a column still reads low once released (0: at once).
    """

    def __init__(
        self,
        factory: MockFactory,
        rows: Sequence[int | str],
        columns: Sequence[int | str],
        *,
        rise: float = 0.0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if rise and clock is None:
            raise ValueError("a slow column needs the clock it is slow on")
        self.rise = rise
        self._time = clock
        self.driven_high = 0  # how often a row was driven high: never, by PadMatrix
        self._low: set[int] = set()  # the cards whose column a key holds low
        self._lock = threading.RLock()
        self._held: set[Key] = set()
        self._coming: dict[Key, deque[bool]] = {}  # a key's contact at its next readings
        self._ready = False
        self.rows: list[_RowPin] = [factory.pin(p, pin_class=_RowPin, matrix=self) for p in rows]
        self.columns: list[_ColumnPin] = [
            factory.pin(p, pin_class=_ColumnPin, matrix=self, card=card)
            for card, p in enumerate(columns, 1)
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
        """Push a key down. With ``bounce``, the contact chatters: the next 2×bounce
        readings of the key see it closed, open, closed, open..., and then closed."""
        self._set((seat, card), True, [True, False] * bounce + [True] if bounce else [])

    def release(self, seat: int, card: int, bounce: int = 0) -> None:
        """Let a key go; with ``bounce``, readings see it open, closed, open... first."""
        self._set((seat, card), False, [False, True] * bounce + [False] if bounce else [])

    def tap(self, seat: int, card: int, reads: int) -> None:
        """Push a key down and let it go once it has been read ``reads`` times."""
        self._set((seat, card), True, [True] * reads + [False])

    def update(self) -> None:
        """Set every column to what the diodes let through."""
        if not self._ready:
            return
        with self._lock:
            rows = self.rows
            low = {card for seat, card in self._held if seat < len(rows) and rows[seat].driving}
            let_go, self._low = self._low - low, low
            for card, column in enumerate(self.columns, 1):
                if column.function != "input":
                    continue
                if card in low:
                    column.drive_low()
                    column.released_at = None
                elif column.pull == "up":
                    if self.rise and card in let_go:
                        column.released_at = self._now()
                    column.drive_high()

    def rising(self, since: float) -> bool:
        """Whether a column released at ``since`` still reads low."""
        return self._now() - since < self.rise

    def _now(self) -> float:
        return self._time() if self._time is not None else 0.0

    def reading(self, card: int) -> None:
        """Column ``card`` is being read: the keys it sees move to their next contact."""
        if not (self._ready and self._coming):  # most reads: no contact is on the move
            return
        with self._lock:
            moved = False
            for seat, row in enumerate(self.rows):
                coming = self._coming.get((seat, card))
                if coming and row.driving:
                    self._contact((seat, card), coming.popleft())
                    moved = True
            if moved:
                self.update()

    def _set(self, key: Key, down: bool, coming: list[bool]) -> None:
        with self._lock:
            self._contact(key, down)
            if coming:
                self._coming[key] = deque(coming)
            else:
                self._coming.pop(key, None)
            self.update()

    def _contact(self, key: Key, closed: bool) -> None:
        if closed:
            self._held.add(key)
        else:
            self._held.discard(key)
        coming = self._coming.get(key)
        if coming is not None and not coming:
            del self._coming[key]
