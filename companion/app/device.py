"""The device's own parts: the Pi's pins (gpiozero's default pin factory) and the
display on its bus, as the config names them."""

from __future__ import annotations

from contextlib import ExitStack

from ..game.boards import profile, profile_names
from ..game.settings import DeviceSettings
from ..hw import display
from ..storage import StateDir
from ..table import TABLE, Flow, new_flow
from ..ui.catalog import catalog, languages
from .assemble import Assembled, Parts, apply_settings, assemble, power_on
from .effective import Effective
from .sinks import Report

SPLASH = 2.0


def setup_flow(prefs: DeviceSettings) -> Flow:
    """The setup screens' choices: the shipped sides, and the effective settings' board
    (a shipped side, or your own board's rates) and target as the defaults; the
    settings themselves, to change on the device."""
    boards = tuple(profile(name) for name in profile_names())
    return new_flow(boards, TABLE, prefs=prefs, languages=tuple(languages()))


def open_table(stack: ExitStack, found: Effective, report: Report) -> Assembled:
    """Every part of the device, opened on ``stack``, and the app wired to them."""
    cfg, prefs = found.config, found.settings
    d = cfg.display
    where = dict(port=d.port, address=d.address, rotate=d.rotate, dc=d.dc, reset=d.reset)
    luma: object
    try:
        luma = display.open_device(d.controller, d.interface, **where)
    except display.DisplayMissing:
        # The game goes on without it: the loop looks for it while the panel is dirty,
        # and the first failed look is logged, naming the bus and address.
        luma = display.Connector(d.controller, d.interface, **where)
        stack.callback(luma.close)
    store = StateDir(cfg.state_dir, cfg.game_file)
    flow = power_on(setup_flow(prefs), store, report)
    hub = cfg.pads.hub if cfg.pads.source == "hub" else None
    parts = Parts(cfg.pins, luma, hub=hub)
    table = assemble(
        stack, parts, flow, catalog(prefs.language), store=store, report=report, splash=SPLASH
    )
    apply_settings(table, prefs, found.settings_file, found.saved, report)
    return table
