"""The host buttons (◀ OK ▶) and the optional buzzer, on gpiozero devices.

The buttons report raw edges, ``HostDown`` and ``HostUp``; what a press means (a long
OK opens the menu, a button held for 10 s is stuck) is a matter of time, worked out
by the table from its clock.
They are ``DigitalInputDevice``s, not ``Button``s: a ``Button`` carries a hold thread
that polls ten times a second forever, and an idle table should wake no thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping

from gpiozero import Buzzer, DigitalInputDevice, PWMOutputDevice
from gpiozero.exc import PinPWMUnsupported
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from ..errors import Closing, CompanionError
from ..table.events import HostDown, HostKey, HostUp, Put
from .pinfactory import given
from .sounds import VOLUMES, Note, Sounds, packaged_sounds

# Contacts settle within a few milliseconds; the pin factory (lgpio on a Pi) filters
# out edges shorter than this, so the table sees one down and one up per press.
BOUNCE_TIME = 0.01


class WiringError(CompanionError, ValueError):
    """A part given pins it cannot work with."""


def _buzzer_device(
    kind: str, pin: int | str, pin_factory: Factory
) -> Buzzer | PWMOutputDevice | None:
    """The gpiozero device for a buzzer of ``kind``, None for a silent one.

    A passive buzzer needs PWM. gpiozero's mock pins play none (unless
    ``GPIOZERO_MOCK_PIN_CLASS`` names its PWM ones) and nothing would be heard on them
    anyway: silent. On real pins without PWM (gpiozero's native ones) it is a wiring
    mistake, said as one, not missing hardware (which the service would retry)."""
    if kind != "passive":
        return Buzzer(pin, pin_factory=pin_factory)
    try:
        return PWMOutputDevice(pin, pin_factory=pin_factory)
    except PinPWMUnsupported:
        if isinstance(pin_factory, MockFactory):
            return None
        raise WiringError(
            f"buzzer: a passive buzzer needs PWM on GPIO {pin}, which "
            f"{type(pin_factory).__name__}'s pins do not play; "
            'set [sound] buzzer = "active" or [gpio] pin_factory = "lgpio"'
        ) from None


class HostButtons(Closing):
    """◀ OK ▶ on three pins, pulled up, a press pulls low: a ``Source`` of raw edges.
    Every pin is made by ``pin_factory``."""

    def __init__(
        self,
        pins: Mapping[str, int | str],
        *,
        pin_factory: Factory,
        bounce_time: float | None = BOUNCE_TIME,
    ) -> None:
        pin_factory = given(pin_factory, "host buttons")
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


KINDS = ("active", "passive")
Wait = Callable[[threading.Event, float], bool]  # (stop, seconds) -> True if stopped


def _wait(stop: threading.Event, seconds: float) -> bool:
    return stop.wait(seconds)


# A passive buzzer plays at half duty: the square wave's pitch at its strongest. No lower
# duty can make it quieter here: lgpio's PWM is timed in user space and gpiozero rounds a
# duty to whole percent, so the short pulses of a low duty (4 µs at 1% of a 2.5 kHz
# note) come out as chance; its loudness is the circuit's (hardware/README.md).
PASSIVE_DUTY = 0.5


class Beeper(Closing):
    """The table's sounds, played by name on an optional buzzer (a pin of ``pin_factory``);
    without one, silent.

    A passive buzzer (``kind="passive"``: a piezo on a PWM pin) plays each note's pitch
    at half duty (``PASSIVE_DUTY``). An active buzzer (``kind="active"``, gpiozero's
    ``Buzzer``) sounds at its own pitch: it plays the rhythm. Neither has a volume to
    set, only on and off (``has_volume``). A sound plays on a thread of its own that ends
    with it (a new sound stops the one playing), so the event loop never waits and an
    idle table wakes no thread.
    ``wait`` is how the player waits out a note (tests pass one that does not sleep).
    ``volume``: 1..10, as the settings have it (their default is the settings').
    """

    def __init__(
        self,
        pin: int | str | None,
        *,
        kind: str = "active",
        sounds: Sounds | None = None,
        volume: int,
        pin_factory: Factory,
        wait: Wait = _wait,
    ) -> None:
        pin_factory = given(pin_factory, "buzzer")
        if kind not in KINDS:
            raise WiringError(f"buzzer: no kind {kind!r} (known: {', '.join(KINDS)})")
        self.kind = kind
        self.sounds = sounds or packaged_sounds()
        self._wait = wait
        self.set_volume(volume)  # checked: 1..10
        self._on = True
        self._device: Buzzer | PWMOutputDevice | None = None
        if pin is not None:
            self._device = _buzzer_device(kind, pin, pin_factory)
        self._stop = threading.Event()
        self._player: threading.Thread | None = None
        self.count = 0

    @property
    def device(self) -> Buzzer | PWMOutputDevice | None:
        """The gpiozero device the sounds play on (None: no buzzer, silent)."""
        return self._device

    @property
    def has_volume(self) -> bool:
        """Whether the volume can be set: on no buzzer here (see ``PASSIVE_DUTY``); a
        buzzer is on or off, and the settings offer no volume that would do nothing."""
        return False

    def set_volume(self, level: int) -> None:
        """The settings' volume, 1..10, checked and kept: no buzzer here acts on it."""
        if type(level) is not int or not 1 <= level <= VOLUMES:
            raise ValueError(f"volume is 1..{VOLUMES}, not {level!r}")
        self._volume = level

    def set_on(self, on: bool) -> None:
        """Sound on or off (off: every sound is silent, and one playing stops)."""
        self._on = bool(on)
        if not self._on:
            self._hush()

    def beep(self, name: str) -> None:
        """Play the sound ``name`` (one of ``sounds.NAMES``) without waiting for it."""
        notes = self.sounds.notes.get(name)
        if notes is None:
            raise ValueError(f"no sound {name!r} (known: {', '.join(self.sounds.notes)})")
        self.count += 1
        if self._device is None or not self._on:
            return
        self._hush()
        self._stop = threading.Event()
        self._player = threading.Thread(
            target=self._play, args=(notes, self._stop), name="beeper", daemon=True
        )
        self._player.start()

    def wait_quiet(self, timeout: float | None = None) -> bool:
        """Wait until no sound is playing; False if one still is after ``timeout``."""
        player = self._player
        if player is not None:
            player.join(timeout)
        return player is None or not player.is_alive()

    def close(self) -> None:
        """Stop any sound and release the pin. Safe to call more than once."""
        self._hush()
        device, self._device = self._device, None
        if device is not None:
            device.close()

    def _hush(self) -> None:
        """Stop the sound playing, if any, and wait for its thread to end (at once)."""
        self._stop.set()
        if self._player is not None:
            self._player.join()
            self._player = None

    def _play(self, notes: tuple[Note, ...], stop: threading.Event) -> None:
        device = self._device
        if device is None:
            return
        try:
            for note in notes:
                self._sound(device, note)
                if self._wait(stop, note.ms / 1000):
                    break
        finally:
            device.off()

    def _sound(self, device: Buzzer | PWMOutputDevice, note: Note) -> None:
        if note.hz is None:
            device.off()
        elif isinstance(device, PWMOutputDevice):
            device.frequency = note.hz
            device.value = PASSIVE_DUTY
        else:
            device.on()
