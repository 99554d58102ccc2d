"""The host buttons (◀ OK ▶) and the optional buzzer, on gpiozero devices.

◀ and ▶ act when pressed. OK acts when released, unless it was held long enough
to open the menu: then the long press is the event, and the release is nothing.
"""

from __future__ import annotations

from queue import SimpleQueue

from gpiozero import Button, Buzzer
from gpiozero.pins import Factory

from ..table.events import Event, HostKey, HostPress

HOLD_TIME = 1.0  # seconds OK is held to open the menu


class HostButtons:
    def __init__(
        self,
        pins: dict[str, int | str],
        queue: SimpleQueue[Event],
        *,
        pin_factory: Factory | None = None,
        hold_time: float = HOLD_TIME,
    ):
        self._queue = queue
        self._buttons: dict[HostKey, Button] = {}
        self._held = False
        try:
            for key in HostKey:
                self._buttons[key] = Button(
                    pins[key.value], pull_up=True, hold_time=hold_time, pin_factory=pin_factory
                )
        except Exception:
            self.close()
            raise
        self._buttons[HostKey.LEFT].when_pressed = lambda: queue.put(HostPress(HostKey.LEFT))
        self._buttons[HostKey.RIGHT].when_pressed = lambda: queue.put(HostPress(HostKey.RIGHT))
        ok = self._buttons[HostKey.OK]
        ok.when_held = self._ok_held
        ok.when_released = self._ok_released

    def _ok_held(self) -> None:
        self._held = True
        self._queue.put(HostPress(HostKey.OK, long=True))

    def _ok_released(self) -> None:
        if not self._held:
            self._queue.put(HostPress(HostKey.OK))
        self._held = False

    def close(self) -> None:
        """Release the pins. Safe to call more than once."""
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()


# Beep patterns: (seconds on, seconds off, how many).
BEEPS = {"refused": (0.08, 0.06, 2), "locked": (0.04, 0.0, 1)}


class Beeper:
    """Short beeps on an optional buzzer; without one, beeps are silent."""

    def __init__(self, pin: int | str | None, *, pin_factory: Factory | None = None):
        self._buzzer = Buzzer(pin, pin_factory=pin_factory) if pin is not None else None
        self.count = 0

    def beep(self, kind: str) -> None:
        self.count += 1
        if self._buzzer is not None:
            on, off, n = BEEPS[kind]
            self._buzzer.beep(on_time=on, off_time=off or on, n=n, background=True)

    def close(self) -> None:
        if self._buzzer is not None:
            self._buzzer.close()
            self._buzzer = None
