"""The ``companion simulate`` command: options, script, output."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from PIL import Image

from ..app.simulator import Line, Recorder, Simulator, Terminal, parse_script, to_text
from ..game.boards import named_board
from ..game.narrate import ending
from ..game.record import state_to_dict
from ..rules import CompanionError
from ..ui.catalog import catalog

EXIT_BAD_INPUT = 2


def simulate_command(args: argparse.Namespace, *, out: TextIO, err: TextIO) -> int:
    try:
        board = named_board(args.board)
        lines = _script(args.script)
    except CompanionError as e:
        err.write(f"companion simulate: {e}\n")
        return EXIT_BAD_INPUT
    recorder = Recorder(
        Path(args.frames) if args.frames else None, Path(args.gif) if args.gif else None
    )
    draw = Terminal(out, args.pace) if out.isatty() and not args.json else None
    window = _window(err) if args.window else None
    if args.window and window is None:
        return EXIT_BAD_INPUT
    sim = Simulator(
        players=args.players,
        board=board,
        target=args.target,
        fast=args.fast,
        speed=args.speed,
        controller=args.display,
        on_frame=_fan_out(recorder, draw, window),
        state=Path(args.state) if args.state else None,
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
    recorder.save_gif()
    return _report(sim, recorder, args.json, draw is not None, out, err)


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
    sim: Simulator, recorder: Recorder, as_json: bool, drawn: bool, out: TextIO, err: TextIO
) -> int:
    """What the run leaves: the final state as JSON, or the last frame and the ranking."""
    for message in sim.errors:
        err.write(f"companion simulate: {message}\n")
    game = sim.app.flow.game
    if as_json:
        if game is None:
            err.write("companion simulate: no game was started (setup not finished)\n")
            return EXIT_BAD_INPUT
        out.write(json.dumps(state_to_dict(game)) + "\n")
        return 0
    if not drawn and recorder.frames:
        out.write(to_text(recorder.frames[-1][1]) + "\n")
    if game is not None:
        out.write("".join(line + "\n" for line in ending(game, catalog())))
    return 0


def _script(path: str | None) -> list[Line] | None:
    if path is None:
        return None
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text("utf-8")
    except OSError as e:
        raise CompanionError(f"{path}: cannot read: {e.strerror}") from None
    return parse_script(text, path)


def _interactive(sim: Simulator, err: TextIO) -> None:
    """Script lines typed at the prompt, one at a time."""
    err.write("Type script lines (press P1 3, press OK, hold OK, wait 500); Ctrl-D ends.\n")
    for number, text in enumerate(sys.stdin, 1):
        try:
            sim.run(parse_script(text, "<stdin>", number))
        except CompanionError as e:
            err.write(f"{e}\n")


def _window(err: TextIO):
    try:
        from luma.emulator.device import pygame
    except ImportError:
        err.write("companion simulate: --window needs luma.emulator: pip install '.[window]'\n")
        return None
    return pygame(width=128, height=64, mode="1", transform="none", scale=4)
