"""The device's own parts, as the resolved settings name them: the Pi's pins (the pin
factory of ``[gpio] pin_factory``), the display on its bus, the page for phones; and
the ``Spec`` of ``companion run``.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from gpiozero.pins import Factory

from ..errors import CompanionError, where
from ..game.boards import profile, profile_names
from ..game.settings import DeviceSettings
from ..hw import display
from ..hw.pinfactory import PinFactoryError, PinsUnavailable, pin_factory, simulated
from ..storage import StateDir
from ..table import TABLE, Flow, new_flow
from ..table.events import Put
from ..ui.catalog import languages
from .compose import DisplaySource, Luma, PinSource, Spec, WatcherSource
from .config import PACKAGED, ConfigError
from .effective import Effective
from .inputs import table_inputs
from .loop import Watcher
from .memory import power_on
from .notify import Notifier
from .sinks import Report

SPLASH = 2.0


class PageUnavailable(CompanionError):
    """The page's address cannot be had (a port in use, an address not on this machine)."""


def setup_flow(prefs: DeviceSettings, seed: int | None = None) -> Flow:
    """The setup screens' choices: the shipped sides, and the effective settings' board
    (a shipped side, or your own board's rates) and target as the defaults; the
    settings themselves, to change on the device. The bots' ``seed`` is drawn afresh at
    each power-on (None), so the same position need not get the same answer."""
    boards = tuple(profile(name) for name in profile_names())
    seed = random.randrange(2**32) if seed is None else seed
    return new_flow(boards, TABLE, prefs=prefs, languages=tuple(languages()), seed=seed)


def device_pins(found: Effective) -> PinSource:
    """The device's one pin factory, as ``[gpio] pin_factory`` and ``chip`` say, closed
    after every part on it. One it cannot make is one line: a ``ConfigError`` when the
    settings are at fault, a ``PinsUnavailable`` when the pins are not there (yet)."""

    def open_pins(stack: ExitStack, report: Report) -> Factory:
        cfg = found.config
        try:
            factory = pin_factory(cfg.pin_factory, chip=cfg.chip)
        except PinFactoryError as e:
            # the file that names the backend or the chip, if one does
            origins = {found.origin(("gpio", key)) for key in ("pin_factory", "chip")} - {PACKAGED}
            line = f"{where(origins.pop())}: {e}" if origins else str(e)
            raise (PinsUnavailable if isinstance(e, PinsUnavailable) else ConfigError)(
                line
            ) from None
        stack.callback(factory.close)
        if simulated(factory):
            report("the pins are gpiozero's mock pins: no button or pad on them can be pressed")
        return factory

    return open_pins


def given_pins(factory: Factory) -> PinSource:
    """A pin factory made elsewhere (the simulator's, a test's), closed by its maker."""
    return lambda stack, report: factory


OpenDevice = Callable[..., Luma]  # display.open_device's signature: a luma device


def device_display(found: Effective, open_device: OpenDevice | None = None) -> DisplaySource:
    """The display ``[display]`` names, opened with ``open_device`` (default
    ``display.open_device``), its D/C and reset lines (an I²C display's RES: the pin
    map's ``display_reset``) on the device's pin factory. A display that does not
    answer is looked for again while the game goes on."""
    d, i2c_reset = found.config.display, found.config.pins.display_reset

    def open_display(stack: ExitStack, factory: Factory, report: Report) -> Luma:
        where = display.Where(
            port=d.port, address=d.address, rotate=d.rotate, dc=d.dc, reset=d.reset,
            i2c_reset=i2c_reset,
            pin_factory=factory,  # an SPI display's D/C and reset lines, an I²C one's RES
        )  # fmt: skip
        # A connector, opened if the panel answers: one that stops answering is opened
        # again once it answers (a panel that lost its power needs its set-up again);
        # one not there yet is looked for while the panel is dirty, the first failed look
        # logged, naming the bus and address. A test may hand its own display.
        connector = display.Connector(d.controller, d.interface, **where)
        stack.callback(connector.close)
        with contextlib.suppress(display.DisplayMissing):
            if open_device is not None:
                return open_device(d.controller, d.interface, **where)
            connector.open()
        return connector

    return open_display


def given_display(luma: Luma) -> DisplaySource:
    """A luma device made elsewhere (the simulator's panel)."""
    return lambda stack, factory, report: luma


def page(
    address: str,
    port: int,
    state_dir: Path | None,
    *,
    say: Report,
    clock: Callable[[], float],
    strict: bool = False,
    volume: bool = True,
) -> WatcherSource:
    """The page for phones on ``address``:``port``, its address said with ``say``. A port
    that cannot be had is said and the table plays on without it; ``strict``: it is a
    ``PageUnavailable`` (the simulator's ``--web`` refuses). ``volume``: the buzzer has a
    volume to set (``Pins.has_volume``), so the page offers it as the device does."""

    def open_page(
        stack: ExitStack, put: Put, prefs: DeviceSettings, report: Report
    ) -> Watcher | None:
        from ..web.serve import serve_table  # off by default: nothing to load then

        try:
            server, watcher = serve_table(
                put, address, port, state_dir, prefs, clock=clock, volume=volume
            )
        except OSError as e:
            if strict:
                raise PageUnavailable(f"--web {address}:{port}: {e.strerror or e}") from None
            report(f"[web] {address}:{port}: {e.strerror or e}; no page for phones")
            return None
        stack.callback(server.close)
        say(f"the page for phones is at {server.url}")
        return watcher

    return open_page


def device_spec(
    found: Effective,
    report: Report,
    *,
    notify: Notifier,
    open_device: OpenDevice | None = None,
    clock: Callable[[], float],
    store: StateDir | None = None,
) -> Spec:
    """``companion run``: every part as the settings name it, the game in the state
    folder (an unfinished one offered to resume), the page when ``[web]`` enables it.
    ``store``: the state folder, claimed by the caller (None: claimed here)."""
    cfg, prefs = found.config, found.settings
    if store is None:
        store = StateDir(cfg.state_dir)
        store.claim("companion run")  # before anything in the folder is read or written
    web = cfg.web
    watchers = (
        (
            page(
                web.address,
                web.port,
                cfg.state_dir,
                say=report,
                clock=clock,
                volume=cfg.pins.has_volume,
            ),
        )
        if web.enabled
        else ()
    )
    return Spec(
        settings=found,
        pins=device_pins(found),
        display=device_display(found, open_device),
        inputs=table_inputs(cfg, cfg.pads.source),
        flow=power_on(setup_flow(prefs), store, report),
        report=report,
        store=store,
        watchers=watchers,
        notify=notify,
        clock=clock,
        splash=SPLASH,
    )
