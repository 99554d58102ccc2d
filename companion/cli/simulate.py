"""``companion simulate``: the table on simulated parts; options, script, output.

Every option is checked before anything opens: a bad board, script, state directory or
output path is one line and exit status 2, and nothing is changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from PIL import Image

from ..app.script import Line, parse_script
from ..app.simulator import Simulator
from ..game.boards import named_board
from ..game.narrate import ending
from ..game.record import state_to_dict
from ..rules import CompanionError
from ..storage import StateDir
from .frames import Recorder, Terminal, to_text

EXIT_BAD_INPUT = 2


class Refused(CompanionError):
    """What the options ask would lose something (a saved game)."""


def simulate_command(args: argparse.Namespace, *, out: TextIO, err: TextIO) -> int:
    try:
        board = named_board(args.board) if args.board is not None else None
        lines = _script(args.script)
        store = _store(args)
        if store is not None and args.players is not None:
            _make_room(store, args, err)
        recorder = Recorder(_path(args.frames), _path(args.gif))
        window = _window() if args.window else None
    except CompanionError as e:
        err.write(f"companion simulate: {e}\n")
        return EXIT_BAD_INPUT
    draw = Terminal(out, args.pace) if out.isatty() and not args.json else None
    sim = Simulator(
        players=args.players,
        board=board,
        target=args.target,
        fast=args.fast,
        speed=args.speed,
        controller=args.display,
        on_frame=_fan_out(recorder, draw, window),
        store=store,
        lang=args.lang,
    )
    try:
        if lines is not None:
            sim.run(lines)
        else:
            _interactive(sim, err)
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()
    try:
        recorder.save_gif()
    except CompanionError as e:
        err.write(f"companion simulate: {e}\n")
        return EXIT_BAD_INPUT
    return _report(sim, recorder, args, draw is not None, out, err)


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def _store(args: argparse.Namespace) -> StateDir | None:
    """The state directory: ``--state-dir DIR``, or the older ``--state FILE`` (the game
    file in its folder)."""
    if args.state_dir:
        store = StateDir(Path(args.state_dir))
    elif args.state:
        path = Path(args.state)
        store = StateDir(path.parent, path.name)
    else:
        return None
    store.check()
    return store


def _make_room(store: StateDir, args: argparse.Namespace, err: TextIO) -> None:
    """``--players`` starts a new game: never over an unfinished one unless ``--new``
    says so, and then the old game is kept beside the new one."""
    loaded = store.load()
    if loaded.record is None or loaded.finished:
        return
    if not args.new:
        raise Refused(
            f"{store.path} holds an unfinished game ({loaded.record.players} seats, "
            f"{len(loaded.record.rounds)} rounds): leave out --players to resume it, "
            "or add --new to keep it and start another"
        )
    kept = store.set_aside()
    err.write(f"companion simulate: the unfinished game is kept as {kept}\n")


def _fan_out(recorder: Recorder, draw: Terminal | None, window) -> Callable[[Image.Image], None]:
    """Every frame to the recorder, and to the terminal and the window if there are any."""

    def on_frame(image: Image.Image) -> None:
        recorder(image)
        if draw is not None:
            draw(image)
        if window is not None:
            window.display(image.convert(window.mode))

    return on_frame


def _report(
    sim: Simulator, recorder: Recorder, args: argparse.Namespace, drawn: bool, out, err
) -> int:
    """What the run leaves: the final state as JSON, or the last frame and the ranking."""
    for message in sim.errors:
        err.write(f"companion simulate: {message}\n")
    game = sim.flow.game
    if args.json:
        if game is None:
            err.write("companion simulate: no game was started (setup not finished)\n")
            return EXIT_BAD_INPUT
        out.write(json.dumps(state_to_dict(game.state, game.record.ended)) + "\n")
        return 0
    if not drawn and recorder.last is not None:
        out.write(to_text(recorder.last) + "\n")
    if game is not None:
        out.write(
            "".join(line + "\n" for line in ending(game.state, sim.app.words, game.record.ended))
        )
    return 0


def _script(path: str | None) -> list[Line] | None:
    if path is None:
        return None
    name = "<stdin>" if path == "-" else path[:80]
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as e:
        raise CompanionError(f"{name}: cannot read: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise CompanionError(f"{name}: not UTF-8 text at byte {e.start}") from None
    return parse_script(text, name)


def _interactive(sim: Simulator, err: TextIO) -> None:
    """Script lines typed at the prompt, one at a time."""
    err.write("Type script lines (press P1 3, press OK, hold OK, wait 500); Ctrl-D ends.\n")
    for number, text in enumerate(sys.stdin, 1):
        try:
            sim.run(parse_script(text, "<stdin>", number))
        except CompanionError as e:
            err.write(f"{e}\n")


def _window():
    try:
        from luma.emulator.device import pygame
    except ImportError:
        raise CompanionError("--window needs luma.emulator: pip install '.[window]'") from None
    return pygame(width=128, height=64, mode="1", transform="none", scale=4)
