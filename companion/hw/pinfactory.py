"""The GPIO backend: the one gpiozero pin factory every part of the table gets.

gpiozero talks to the pins through a pin factory, one per GPIO library. The config's
``[gpio] pin_factory`` names one (``FACTORIES``), or ``"auto"``: the environment's
``GPIOZERO_PIN_FACTORY`` if it is set, as gpiozero reads it, else the first library that
works here, in gpiozero's own order (lgpio, RPi.GPIO, the native one; gpiozero's pigpio
needs a daemon and is not offered). A name in the config wins over the environment.
gpiozero's own default (``Device.pin_factory``) is never used: every part is handed the
factory made here (tests hand theirs).

lgpio opens one GPIO chip, ``[gpio] chip``: a number, or ``"auto"``, the header's chip
found by its label (``gpiochip.header_chip``), never guessed by number as gpiozero does.

As the service (``NOTIFY_SOCKET`` set: the unit's Type=notify) only lgpio is offered:
RPi.GPIO 0.7.1 and gpiozero's native backend watch the buttons' edges through
``/sys/class/gpio``, which the unit's hardening keeps read-only and which kernels 6.6
and later no longer number from 0 (raspberrypi/linux issue 6037: "Failed to add edge
detection").

Whatever fails is one ``PinFactoryError`` line: which backend, and what to do. A
``PinsUnavailable`` is the machine's (no chip, no library, no access): it may be there
later. Any other is the settings' (a name that is not a backend, one refused here).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from importlib import import_module

from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from ..errors import CompanionError, clip
from .gpiochip import ChipNotFound, header_chip

AUTO = "auto"
ENVIRONMENT = "GPIOZERO_PIN_FACTORY"
# Our names are gpiozero's entry points (group "gpiozero_pin_factories") for the same
# classes, so GPIOZERO_PIN_FACTORY means here what it means to gpiozero.
FACTORIES = {
    "lgpio": "gpiozero.pins.lgpio:LGPIOFactory",
    "rpigpio": "gpiozero.pins.rpigpio:RPiGPIOFactory",
    "native": "gpiozero.pins.native:NativeFactory",
    "mock": "gpiozero.pins.mock:MockFactory",
}
NAMES = (AUTO, *FACTORIES)
AUTO_ORDER = ("lgpio", "rpigpio", "native")  # gpiozero's preference, less pigpio
# Set only for the companion service: systemd hands a Type=notify unit its notify socket.
SERVICE = "NOTIFY_SOCKET"
SERVICE_ONLY = ("lgpio", "mock")  # what the service's sandbox lets work
NOT_UNDER_THE_SERVICE = (
    "not under the service: it watches the buttons through /sys/class/gpio, which the "
    "unit keeps read-only and kernels 6.6 and later number differently; "
    'use "lgpio" (or "auto")'
)
# What to install when a backend's library is missing: (its import name, how).
LIBRARIES = {
    "lgpio": (
        "lgpio",
        "sudo apt install python3-lgpio, or pip install 'santo-domingo-companion[pi]'",
    ),
    "rpigpio": (
        "RPi.GPIO",
        "sudo apt install python3-rpi.gpio, or pip install 'santo-domingo-companion[rpigpio]'",
    ),
}
KEY = "[gpio] pin_factory"
CHIP_KEY = "[gpio] chip"
NO_PINS_HINT = "on a machine without them, try: companion simulate --players 3"


class PinFactoryError(CompanionError):
    """The chosen GPIO backend cannot be had: a name that is none, or one refused here."""


class PinsUnavailable(PinFactoryError):
    """The backend cannot open the pins now: not installed, no chip, no access."""


class _Missing(Exception):
    """A backend's library is not installed."""


FindChip = Callable[[], int]  # the header's chip number (gpiochip.header_chip)


def pin_factory(
    name: str,
    environ: Mapping[str, str] | None = None,
    *,
    chip: int | str = AUTO,
    find_chip: FindChip = header_chip,
) -> Factory:
    """The pin factory ``name`` (one of ``NAMES``) says, lgpio's on ``chip`` (a number, or
    ``"auto"``: ``find_chip()``); ``environ`` (default: the process's) says whether this
    is the service, and for ``"auto"`` which backend. Raises ``PinFactoryError``. A new
    factory: its maker closes it."""
    environ = os.environ if environ is None else environ
    opener = _Opener(chip, find_chip, service=SERVICE in environ)
    if name != AUTO:
        return opener.named(name, f'{KEY} = "{name}"')
    chosen = environ.get(ENVIRONMENT)
    if chosen is not None:
        where = f'{ENVIRONMENT}={clip(chosen)} ({KEY} = "auto")'
        if chosen.lower() not in FACTORIES:  # gpiozero, too, tries the name lower-cased
            raise PinFactoryError(f"{where}: not one of {', '.join(FACTORIES)}")
        return opener.named(chosen.lower(), where)
    return opener.first_that_works()


def given(factory: Factory | None, part: str) -> Factory:
    """``factory``, which every part is handed: a part never falls back to gpiozero's
    default (``Device.pin_factory``, made on first use), as a device given None would.
    ``part`` names the part in the ``TypeError`` that None raises."""
    if factory is None:
        raise TypeError(f"{part}: no pin factory given (gpiozero's default is never used)")
    return factory


def simulated(factory: Factory) -> bool:
    """Whether ``factory`` makes mock pins, which no finger can press."""
    return isinstance(factory, MockFactory)


class _Opener:
    """Opens backends by name, lgpio on ``chip``, only lgpio and mock for the service."""

    def __init__(self, chip: int | str, find_chip: FindChip, *, service: bool) -> None:
        self.chip, self.find_chip, self.service = chip, find_chip, service

    def named(self, name: str, where: str) -> Factory:
        if name not in FACTORIES:
            raise PinFactoryError(f"{where}: not one of {', '.join(NAMES)}")
        if self.service and name not in SERVICE_ONLY:
            raise PinFactoryError(f"{where}: {NOT_UNDER_THE_SERVICE}")
        try:
            return self.open(name)
        except _Missing:
            library, how = LIBRARIES[name]
            raise PinsUnavailable(f"{where}: {library} is not installed: {how}") from None
        except ChipNotFound as e:
            raise PinsUnavailable(f'{where}, {CHIP_KEY} = "auto": {e}') from None
        except Exception as e:  # gpiozero's and the libraries' own errors, of many kinds
            raise PinsUnavailable(f"{where}: {self._cannot_open(name, e)}") from e

    def first_that_works(self) -> Factory:
        failed = []
        for name in AUTO_ORDER if not self.service else ("lgpio",):
            try:
                return self.open(name)
            except _Missing:
                failed.append(f"{LIBRARIES[name][0]} not installed")
            except Exception as e:
                failed.append(f"{name}: {_why(e)}")
        raise PinsUnavailable(
            f'the hardware is not here: no GPIO pins ({KEY} = "auto": {"; ".join(failed)}); '
            + NO_PINS_HINT
        )

    def open(self, name: str) -> Factory:
        """A new factory of the backend ``name``; ``_Missing`` if its library is not
        installed. (gpiozero's mock pins play no PWM unless ``GPIOZERO_MOCK_PIN_CLASS``
        is ``mockpwmpin``: one factory's pins are all of one kind.)"""
        module_name, class_name = FACTORIES[name].split(":")
        try:
            module = import_module(module_name)
        except ImportError as e:
            if name in LIBRARIES and _is_library(e, LIBRARIES[name][0]):
                raise _Missing(name) from e
            raise
        if name != "lgpio":
            factory: Factory = getattr(module, class_name)()
            return factory
        # gpiozero's own guess (gpiochip4 on a Pi 5, else 0) is never made: the chip is said
        number = self.find_chip() if self.chip == AUTO else self.chip
        opened: Factory = getattr(module, class_name)(chip=number)
        return opened

    def _cannot_open(self, name: str, error: Exception) -> str:
        if name == "lgpio" and self.chip != AUTO:
            return (
                f"lgpio cannot open /dev/gpiochip{self.chip} ({_why(error)}): "
                f"{CHIP_KEY} = {self.chip} is not this Pi's, or the user is not in the gpio "
                f'group (chip = "auto" finds the header\'s)'
            )
        return (
            f"{name} cannot open the GPIO pins ({_why(error)}): not a Raspberry Pi, "
            "or the user is not in the gpio group"
        )


def _is_library(error: ImportError, library: str) -> bool:
    """Whether ``error`` is the import of ``library`` (or its package) failing."""
    top = library.split(".")[0]
    return error.name is not None and error.name.split(".")[0] == top


def _why(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return clip(" ".join(text.split()), 80)
