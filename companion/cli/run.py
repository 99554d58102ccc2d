"""``companion run``: the device service, on the Pi's own pins and display."""

from __future__ import annotations

import os
import signal
import time
import traceback
from collections.abc import Callable, Mapping
from contextlib import ExitStack, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from gpiozero.pins import Factory

from ..app.compose import PinSource, Spec, WatcherSource, build
from ..app.config import ConfigError
from ..app.device import SPLASH, OpenDevice, device_pins, device_spec
from ..app.effective import Effective, effective
from ..app.inputs import InputSource
from ..app.notify import Notifier
from ..errors import CompanionError
from ..hw.buttons import WiringError
from ..hw.hub import PortRefused
from ..hw.pinfactory import SERVICE, PinsUnavailable
from ..sim import wire
from ..storage.lock import FolderBusy
from ..storage.state import StateDir
from .status import EXIT_BAD_INPUT, EXIT_CRASHED, EXIT_NO_HARDWARE

# EXIT_BAD_INPUT is the unit's RestartPreventExitStatus=2; after EXIT_CRASHED the table
# comes back on the resume screen; systemd/companion.service says why EXIT_NO_HARDWARE.
# What a port refused to the service says: the restart lets it in if the port's device
# class was unknown when the service started (its driver loaded later).
REFUSED_HINT = "starting again, which lets the port in if its driver loaded after the start"
# Under systemd, how long a start that found no hardware waits before it exits: the
# unit's RestartSec= is short for crashes, and a retry every few seconds would keep a
# Zero 2 W busy importing and fill the journal. Below the start timeout (90 s).
HOLD_OFF = 30.0


def hold_off(environ: Mapping[str, str] = os.environ) -> None:
    """``HOLD_OFF`` seconds as the service (``pinfactory.SERVICE`` is set); none in a
    terminal, where the maker reads the line at once."""
    if SERVICE in environ:
        time.sleep(HOLD_OFF)


@dataclass(frozen=True)
class Machine:
    """What ``companion run`` takes from the machine it runs on: the Pi's pins and
    display, systemd, the clock and the signals. A test plugs others in (mock pins, a
    fake panel), and may add inputs and watchers of its own to drive and follow it."""

    pins: Callable[[Effective], PinSource] = device_pins
    open_device: OpenDevice | None = None  # None: luma's, on the config's bus
    notify: Callable[[], Notifier] = Notifier.from_environ
    clock: Callable[[], float] = time.monotonic
    splash: float = SPLASH
    signals: bool = True  # SIGTERM stops the table (only the main thread may ask)
    hold_off: Callable[[], None] = hold_off  # before EXIT_NO_HARDWARE
    inputs: tuple[InputSource, ...] = ()  # beside the table's own
    watchers: tuple[WatcherSource, ...] = ()  # beside the page for phones


def wired_pins(found: Effective, environ: Mapping[str, str] = os.environ) -> PinSource:
    """The device's pins; with ``COMPANION_TEST_PINS`` set they are pressed from outside
    through a FIFO there (``sim/wire.py``: the appliance tests' fingers)."""
    opened = device_pins(found)
    path = environ.get(wire.VARIABLE)
    if not path:
        return opened

    def open_pins(stack: ExitStack, report: Callable[[str], None]) -> Factory:
        factory = opened(stack, report)
        stack.enter_context(wire.PinWire(factory, Path(path), report))
        return factory

    return open_pins


PI = Machine(pins=wired_pins)


def run_command(config_path: str | None, *, err: TextIO, machine: Machine = PI) -> int:
    def report(message: str) -> None:
        err.write(f"companion: {message}\n")
        err.flush()

    # The config is checked whole before any hardware opens: a mistake in it is named
    # as such, never taken for missing hardware. The settings saved on the device apply
    # over it (a damaged settings.json is set aside and said): only once the state
    # folder is this process's, so that nothing in it moves while another program has it.
    config = Path(config_path) if config_path else None
    store: StateDir | None = None
    try:
        looked = effective(config, report=lambda _line: None, set_aside=False)
        store = StateDir(looked.config.state_dir)
        store.claim("companion run")
        found = effective(config, report=report)
        spec = machine_spec(found, report, machine, store)
    except FolderBusy as e:  # another program writes the folder: the start holds off
        err.write(f"companion run: {e}\n")
        err.flush()
        machine.hold_off()
        return EXIT_NO_HARDWARE
    except CompanionError as e:
        if store is not None:
            store.release()
        err.write(f"companion run: {e}\n")
        return EXIT_BAD_INPUT

    with ExitStack() as stack:
        if spec.store is not None:  # claimed by device_spec: let go when the table stops
            stack.callback(spec.store.release)
        try:
            table = build(spec, stack)
        except (ConfigError, WiringError) as e:  # a config mistake, never "no hardware"
            err.write(f"companion run: {e}\n")
            return EXIT_BAD_INPUT
        except PinsUnavailable as e:
            return _no_hardware(f"companion run: {e}\n", err, spec, machine)
        except Exception as e:  # off a Pi: no display, no pins. Say so, point at simulate.
            return _no_hardware(
                f"companion run: the hardware is not here ({type(e).__name__}: {str(e)[:80]}); "
                "on a machine without it, try: companion simulate --players 3\n",
                err,
                spec,
                machine,
            )
        if machine.signals:
            signal.signal(signal.SIGTERM, lambda *_: table.app.stop())
        try:
            with suppress(KeyboardInterrupt):
                table.app.run()
        except Exception as e:
            if isinstance(e.__cause__, PortRefused):  # the table shows it: no bug, no trace
                line = f"companion run: {e.__cause__}: {REFUSED_HINT}\n"
                return _no_hardware(line, err, spec, machine)
            _crashed(e, err)
            return EXIT_CRASHED
    return 0


def machine_spec(
    found: Effective,
    report: Callable[[str], None],
    machine: Machine,
    store: StateDir | None = None,
) -> Spec:
    """``companion run``'s spec for ``found``, on ``machine``'s parts; ``store`` the state
    folder, claimed (None: claimed here)."""
    spec = device_spec(
        found,
        report,
        notify=machine.notify(),
        open_device=machine.open_device,
        clock=machine.clock,
        store=store,
    )
    return replace(
        spec,
        pins=machine.pins(found),
        inputs=spec.inputs + machine.inputs,
        watchers=spec.watchers + machine.watchers,
        splash=machine.splash,
    )


def _no_hardware(line: str, err: TextIO, spec: Spec, machine: Machine) -> int:
    """The line said, and ``systemctl status`` shows it while the start holds off."""
    err.write(line)
    err.flush()
    spec.notify.status(line.removeprefix("companion run: "))
    machine.hold_off()
    return EXIT_NO_HARDWARE


def _crashed(e: Exception, err: TextIO) -> None:
    """A bug: one block in the journal, a clear line first, then where it happened. The
    game was saved after its last change, so the restart offers to resume it."""
    first = (
        f"companion run: stopped by an unexpected error ({type(e).__name__}); the game is "
        "saved and the service restarts on the resume screen. Please report this:\n"
    )
    err.write(first + "".join(traceback.format_exception(e)))
    err.flush()
