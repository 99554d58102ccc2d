"""The device's own parts: the Pi's pins (the pin factory of ``[gpio] pin_factory``) and
the display on its bus, as the config names them."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack

from ..game.boards import profile, profile_names
from ..game.settings import DeviceSettings
from ..hw import display
from ..hw.pinfactory import Factory, PinFactoryError, borrowed, pin_factory, simulated
from ..storage import StateDir
from ..table import TABLE, Flow, new_flow
from ..ui.catalog import catalog, languages
from .assemble import Assembled, Parts, apply_settings, assemble, power_on
from .config import PACKAGED, ConfigError
from .effective import Effective
from .sinks import Report

SPLASH = 2.0


def setup_flow(prefs: DeviceSettings) -> Flow:
    """The setup screens' choices: the shipped sides, and the effective settings' board
    (a shipped side, or your own board's rates) and target as the defaults; the
    settings themselves, to change on the device."""
    boards = tuple(profile(name) for name in profile_names())
    return new_flow(boards, TABLE, prefs=prefs, languages=tuple(languages()))


def open_pins(stack: ExitStack, found: Effective, report: Report) -> Factory:
    """The device's one pin factory, as ``[gpio] pin_factory`` says, closed by ``stack``
    after every part on it. One it cannot make is a one-line ``ConfigError``."""
    try:
        factory = pin_factory(found.config.pin_factory)
    except PinFactoryError as e:
        where = found.origin(("gpio", "pin_factory"))
        raise ConfigError(str(e) if where == PACKAGED else f"{where}: {e}") from None
    if borrowed(factory):  # gpiozero's default, set in code (by a test): not ours to close
        return factory
    stack.callback(factory.close)
    if simulated(factory):
        report("the pins are gpiozero's mock pins: no button or pad on them can be pressed")
    return factory


def open_table(
    stack: ExitStack,
    found: Effective,
    report: Report,
    *,
    open_display: Callable[..., object] | None = None,
) -> Assembled:
    """Every part of the device, opened on ``stack``, and the app wired to them. The
    display is ``open_display``'s (default ``display.open_device``), given the same
    arguments, its D/C and reset lines on the device's pin factory."""
    cfg, prefs = found.config, found.settings
    factory = open_pins(stack, found, report)
    d = cfg.display
    where = dict(port=d.port, address=d.address, rotate=d.rotate, dc=d.dc, reset=d.reset)
    where |= dict(pin_factory=factory)  # an SPI display's D/C and reset lines
    luma: object
    try:
        luma = (open_display or display.open_device)(d.controller, d.interface, **where)
    except display.DisplayMissing:
        # The game goes on without it: the loop looks for it while the panel is dirty,
        # and the first failed look is logged, naming the bus and address.
        luma = display.Connector(d.controller, d.interface, **where)
        stack.callback(luma.close)
    store = StateDir(cfg.state_dir, cfg.game_file)
    flow = power_on(setup_flow(prefs), store, report)
    parts = Parts(cfg.pins, luma, factory, hub=cfg.pads.hub_port)
    table = assemble(
        stack, parts, flow, catalog(prefs.language), store=store, report=report, splash=SPLASH
    )
    apply_settings(table, prefs, found.settings_file, found.saved, report)
    return table
