"""The host buttons (◀ OK ▶) and the optional buzzer, on gpiozero devices.

The buttons report raw edges, ``HostDown`` and ``HostUp``; what a press means (a long
OK opens the menu) is a matter of time, worked out by the table from its clock.
They are ``DigitalInputDevice``s, not ``Button``s: a ``Button`` carries a hold thread
that polls ten times a second forever, and an idle table should wake no thread.
"""

from __future__ import annotations

from collections.abc import Callable

from gpiozero import Buzzer, DigitalInputDevice
from gpiozero.pins import Factory

from ..rules import CompanionError
from ..table.events import HostDown, HostKey, HostUp, Put

# Contacts settle within a few milliseconds; the pin factory (lgpio on a Pi) filters
# out edges shorter than this, so the table sees one down and one up per press.
BOUNCE_TIME = 0.01


class WiringError(CompanionError, ValueError):
    """A part given pins it cannot work with."""


class HostButtons:
    """◀ OK ▶ on three pins, pulled up, a press pulls low: a ``Source`` of raw edges."""

    def __init__(
        self,
        pins: dict[str, int | str],
        *,
        pin_factory: Factory | None = None,
        bounce_time: float | None = BOUNCE_TIME,
    ):
        missing = [key.value for key in HostKey if key.value not in pins]
        if missing:
            raise WiringError(
                f"host buttons: no pin for {', '.join(missing)} (left, ok and right need one)"
            )
        self._buttons: dict[HostKey, DigitalInputDevice] = {}
        self._started = False
        try:
            for key in HostKey:
                self._buttons[key] = DigitalInputDevice(
                    pins[key.value], pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory
                )
        except Exception:
            self.close()
            raise

    def start(self, put: Put) -> None:
        """Send ``HostDown`` / ``HostUp`` to ``put`` on every edge from now on."""
        if self._started or not self._buttons:
            raise RuntimeError("the host buttons start once, before they are closed")
        self._started = True
        for key, button in self._buttons.items():
            button.when_activated = _sender(put, HostDown(key))
            button.when_deactivated = _sender(put, HostUp(key))

    def close(self) -> None:
        """Release the pins. Safe to call more than once."""
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()


def _sender(put: Put, event: HostDown | HostUp) -> Callable[[], None]:
    # A plain closure without parameters: gpiozero then calls it with none.
    def send() -> None:
        put(event)

    return send


# Beep patterns: (seconds on, seconds off, how many).
BEEPS = {
    "click": (0.01, 0.0, 1),
    "locked": (0.04, 0.0, 1),
    "refused": (0.08, 0.06, 2),
    "reveal": (0.06, 0.04, 3),
    "trade": (0.12, 0.0, 1),
}


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
        """Stop any beep and release the pin. Safe to call more than once."""
        buzzer, self._buzzer = self._buzzer, None
        if buzzer is not None:
            buzzer.close()
