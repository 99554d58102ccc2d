"""``companion run``: the device service, on the Pi's own pins and display."""

from __future__ import annotations

import signal
from pathlib import Path
from queue import SimpleQueue
from typing import TextIO

from ..game.boards import named_board, profile, profile_names
from ..rules import CompanionError
from ..storage.games import GameStore
from ..table.flow import Flow, Timing, offer_resume
from . import config as config_mod
from .loop import STOP, App

EXIT_NO_HARDWARE = 2


def run_command(config_path: str | None, *, err: TextIO) -> int:
    try:
        cfg = config_mod.load(Path(config_path) if config_path else None)
        setup_flow(cfg)  # a wrong board in the config is said now, not at setup
    except CompanionError as e:
        err.write(f"companion run: {e}\n")
        return EXIT_NO_HARDWARE
    try:
        parts = _open(cfg)
    except Exception as e:  # off a Pi: no display, no pins. Say so, point at simulate.
        reason = str(e) if isinstance(e, CompanionError) else f"{type(e).__name__}: {e}"
        err.write(
            f"companion run: the hardware is not here ({reason}).\n"
            "On a machine without it, try: companion simulate --players 3\n"
        )
        return EXIT_NO_HARDWARE
    events, app, closers = parts
    signal.signal(signal.SIGTERM, lambda *_: events.put(STOP))
    try:
        app.run()
    except KeyboardInterrupt:
        pass
    finally:
        for close in closers:
            close()
    return 0


def setup_flow(cfg: config_mod.Config) -> Flow:
    """The setup screens' choices: the shipped sides, and the config's board and target
    as the defaults (the configured board may be a file of your own board's rates)."""
    boards = tuple(profile(name) for name in profile_names())
    default = named_board(cfg.board, "board in the config:")
    if default not in boards:
        boards = (default, *boards)
    return Flow(boards, Timing(), board=boards.index(default), target=cfg.target)


def resumable(flow: Flow, store: GameStore, report) -> Flow:
    """The flow at power-on: offering the saved game if one is unfinished."""
    saved, problem = store.load()
    if problem is not None:
        report(problem)
    if saved is not None and not saved.replay().finished:
        return offer_resume(flow, saved)
    return flow


def _open(cfg: config_mod.Config):
    """Every part of the device, and how to close them; parts already open are closed
    again if a later one fails."""
    from ..hw.buttons import Beeper, HostButtons
    from ..hw.display import Oled, open_device
    from ..hw.gestures import StandInGestures
    from ..hw.matrix import PadMatrix

    def report(message: str) -> None:
        print(f"companion: {message}", flush=True)

    events: SimpleQueue = SimpleQueue()
    closers: list = []
    try:
        d = cfg.display
        options = {"port": d.port, "address": d.address, "rotate": d.rotate}
        oled = Oled(open_device(d.controller, d.interface, **options), on_error=report)
        pads = PadMatrix(cfg.pins.rows, cfg.pins.columns)
        closers.append(pads.close)
        buttons = HostButtons(cfg.pins.buttons)
        closers.append(buttons.close)
        pads.start(events.put)
        buttons.start(StandInGestures(events.put, hold=1.0))
        beeper = Beeper(cfg.pins.buzzer)
        closers.append(beeper.close)
    except BaseException:
        for close in reversed(closers):
            close()
        raise
    store = GameStore(cfg.state)
    flow = resumable(setup_flow(cfg), store, report)
    app = App(
        flow, oled.show, events, lang=cfg.language, beep=beeper.beep, splash=2.0, save=store.save
    )
    return events, app, tuple(closers)
