"""The test's fingers on the table: a pad key held and let go, a host button pressed.
Each waits on what the table's parts acknowledge, never on a window of time.

``HubFingers``: the pads through the Pico hub's firmware (a key held until the caller has
seen the table take it, let go once the hub reported it up), the host buttons through the
service's test FIFO on mock pins (``press-button`` in the guest).
``WiringFingers``: the table's copper on the guest's gpio-sim chip (appliance/gpiosim/):
a key joins its row and column, a button pulls its line low; each line is answered once
the chip reads the new level, a release once the matrix scanner is at rest again (every
row driven: it saw every key up)."""

from __future__ import annotations

import time
from typing import Protocol

from run import BUTTONS, Run
from vm import Machine

HOLD = 0.15  # seconds a button is held at least: a short press (OK held 1 s is the menu)


class Fingers(Protocol):
    def press(self, seat: int, card: int) -> None: ...

    def release(self, seat: int, card: int, timeout: float | None = 90) -> None:
        """Let go; returns once the table's parts saw it (``timeout`` None: at once)."""
        ...

    def button(self, name: str) -> None: ...


class HubFingers:
    def __init__(self, run: Run) -> None:
        self.run = run

    def press(self, seat: int, card: int) -> None:
        self.run.vm.press(seat, card)

    def release(self, seat: int, card: int, timeout: float | None = 90) -> None:
        self.run.vm.release(seat, card, timeout)

    def button(self, name: str) -> None:
        self.run.button(name)


class WiringFingers:
    def __init__(self, vm: Machine) -> None:
        self.vm = vm

    def press(self, seat: int, card: int) -> None:
        self.vm.wire(f"press {seat} {card}")

    def release(self, seat: int, card: int, timeout: float | None = 90) -> None:
        self.vm.wire(f"release {seat} {card}")
        if timeout is not None:
            self.vm.wire(f"rested {timeout:g}", timeout + 30)

    def button(self, name: str) -> None:
        pin = BUTTONS[name]
        self.vm.wire(f"low {pin}")
        time.sleep(HOLD)  # at least this hold, after the chip read it low: never a wait for it
        self.vm.wire(f"high {pin}")
