"""The GPIO backend: the one gpiozero pin factory every part of the table gets.

gpiozero talks to the pins through a pin factory, one per GPIO library. The config's
``[gpio] pin_factory`` names one (``FACTORIES``), or ``"auto"``: the environment's
``GPIOZERO_PIN_FACTORY`` if it is set, as gpiozero reads it, else the first library that
works here, in gpiozero's own order (lgpio, RPi.GPIO, the native one; gpiozero's pigpio
needs a daemon and is not offered). A name in the config wins over the environment.
gpiozero's own default (``Device.pin_factory``) is never used: every part is handed the
factory made here (tests hand theirs).

Whatever fails is one ``PinFactoryError`` line: which backend, and what to do.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import import_module

from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from ..errors import CompanionError, clip

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
NO_PINS_HINT = "on a machine without them, try: companion simulate --players 3"


class PinFactoryError(CompanionError):
    """The chosen GPIO backend cannot be had here: not installed, or no pins it can open."""


class _Missing(Exception):
    """A backend's library is not installed."""


def pin_factory(name: str, environ: Mapping[str, str] | None = None) -> Factory:
    """The pin factory ``name`` (one of ``NAMES``) says; ``environ`` (default: the
    process's) is read only for ``"auto"``. Raises ``PinFactoryError``. A new factory:
    its maker closes it."""
    environ = os.environ if environ is None else environ
    if name != AUTO:
        return _named(name, f'{KEY} = "{name}"')
    chosen = environ.get(ENVIRONMENT)
    if chosen is not None:
        where = f'{ENVIRONMENT}={clip(chosen)} ({KEY} = "auto")'
        if chosen.lower() not in FACTORIES:  # gpiozero, too, tries the name lower-cased
            raise PinFactoryError(f"{where}: not one of {', '.join(FACTORIES)}")
        return _named(chosen.lower(), where)
    return _first_that_works()


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


def _named(name: str, where: str) -> Factory:
    if name not in FACTORIES:
        raise PinFactoryError(f"{where}: not one of {', '.join(NAMES)}")
    try:
        return _open(name)
    except _Missing:
        library, how = LIBRARIES[name]
        raise PinFactoryError(f"{where}: {library} is not installed: {how}") from None
    except Exception as e:  # gpiozero's and the libraries' own errors, of many kinds
        raise PinFactoryError(
            f"{where}: {name} cannot open the GPIO pins ({_why(e)}): not a Raspberry Pi, "
            "or the user is not in the gpio group"
        ) from e


def _first_that_works() -> Factory:
    failed = []
    for name in AUTO_ORDER:
        try:
            return _open(name)
        except _Missing:
            failed.append(f"{LIBRARIES[name][0]} not installed")
        except Exception as e:
            failed.append(f"{name}: {_why(e)}")
    raise PinFactoryError(
        f'the hardware is not here: no GPIO pins ({KEY} = "auto": {"; ".join(failed)}); '
        + NO_PINS_HINT
    )


def _open(name: str) -> Factory:
    """A new factory of the backend ``name``; ``_Missing`` if its library is not
    installed. (gpiozero's mock pins play no PWM unless ``GPIOZERO_MOCK_PIN_CLASS`` is
    ``mockpwmpin``: one factory's pins are all of one kind.)"""
    module_name, class_name = FACTORIES[name].split(":")
    try:
        module = import_module(module_name)
    except ImportError as e:
        if name in LIBRARIES and _is_library(e, LIBRARIES[name][0]):
            raise _Missing(name) from e
        raise
    factory: Factory = getattr(module, class_name)()
    return factory


def _is_library(error: ImportError, library: str) -> bool:
    """Whether ``error`` is the import of ``library`` (or its package) failing."""
    top = library.split(".")[0]
    return error.name is not None and error.name.split(".")[0] == top


def _why(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return clip(" ".join(text.split()), 80)
