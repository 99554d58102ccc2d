"""The device's own parts: the Pi's pins (gpiozero's default pin factory) and the
display on its bus, as the config names them."""

from __future__ import annotations

from contextlib import ExitStack

from ..game.boards import named_board, profile, profile_names
from ..hw import display
from ..storage import StateDir
from ..table import TABLE, Flow, new_flow
from ..ui.catalog import catalog
from .assemble import Assembled, Parts, assemble, power_on
from .config import Config
from .sinks import Report

SPLASH = 2.0


def setup_flow(cfg: Config) -> Flow:
    """The setup screens' choices: the shipped sides, and the config's board and target
    as the defaults (the configured board may be a file of your own board's rates)."""
    boards = tuple(profile(name) for name in profile_names())
    default = named_board(cfg.board, "[game] board")
    return new_flow(boards, TABLE, board=default, target=cfg.target)


def open_table(stack: ExitStack, cfg: Config, report: Report) -> Assembled:
    """Every part of the device, opened on ``stack``, and the app wired to them."""
    d = cfg.display
    luma = display.open_device(
        d.controller,
        d.interface,
        port=d.port,
        address=d.address,
        rotate=d.rotate,
        dc=d.dc,
        reset=d.reset,
    )
    store = StateDir(cfg.state_dir, cfg.game_file)
    flow = power_on(setup_flow(cfg), store, report)
    parts = Parts(cfg.pins, luma)
    table = assemble(
        stack, parts, flow, catalog(cfg.language), store=store, report=report, splash=SPLASH
    )
    table.oled.contrast(d.contrast)
    return table
