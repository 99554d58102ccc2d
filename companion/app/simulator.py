"""``companion simulate``: the same app on mock pins, the OLED drawn in the terminal.

Everything below the app is the real thing on simulated electrons: ``PadMatrix`` on
gpiozero ``MockFactory`` pins wired as a diode matrix, ``HostButtons`` on mock pins,
luma's ssd1306/sh1106 driver on a fake I²C bus whose panel RAM is what gets drawn.
A script presses keys through those pins, never around them, and each line waits
until the app has handled the one before.
"""

from __future__ import annotations

import re
import shutil
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from queue import SimpleQueue

from PIL import Image

from ..game.boards import profile, profile_names
from ..hw.buttons import Beeper, HostButtons
from ..hw.display import Oled, fake_device
from ..hw.gestures import StandInGestures
from ..hw.matrix import PadMatrix
from ..hw.simmatrix import SimulatedMatrix
from ..hw.simpins import SimFactory
from ..rules import Board, CompanionError
from ..storage.games import GameStore
from ..table.events import Event, HostKey
from ..table.flow import FAST, Flow, Timing, start
from . import config as config_mod
from .device import resumable
from .loop import STOP, App

HOLD = 0.25  # the simulator's long press; the device holds 1 s


class ScriptError(CompanionError, ValueError):
    """A script line that is not one of the known commands."""


@dataclass(frozen=True)
class Line:
    number: int
    action: str  # "pad", "button", "hold", "wait"
    seat: int = 0
    card: int = 0
    key: HostKey | None = None
    ms: int = 0


_PATTERNS = [
    (re.compile(r"press\s+P([1-6])\s+([1-8])", re.I), "pad"),
    (re.compile(r"press\s+(OK|LEFT|RIGHT)", re.I), "button"),
    (re.compile(r"hold\s+(OK)", re.I), "hold"),
    (re.compile(r"wait\s+(\d+)", re.I), "wait"),
]
USAGE = "press P<seat 1-6> <card 1-8> | press OK|LEFT|RIGHT | hold OK | wait <ms> | # comment"


def parse_script(text: str, name: str = "script", first: int = 1) -> list[Line]:
    """Every line of a script, checked before anything runs (numbered from ``first``)."""
    lines = []
    for number, raw in enumerate(text.splitlines(), first):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        found = next(
            ((action, m) for pattern, action in _PATTERNS if (m := pattern.fullmatch(body))), None
        )
        if found is None:
            raise ScriptError(f"{name}:{number}: cannot read {body!r} (lines are: {USAGE})")
        action, match = found
        if action == "pad":
            lines.append(Line(number, action, int(match[1]) - 1, int(match[2])))
        elif action in ("button", "hold"):
            lines.append(Line(number, action, key=HostKey(match[1].lower())))
        else:
            lines.append(Line(number, action, ms=int(match[1])))
    return lines


class Simulator:
    """The whole table on simulated parts."""

    def __init__(
        self,
        *,
        players: int | None = None,
        board: Board | None = None,
        target: int = 30,
        fast: bool = False,
        speed: float = 1.0,
        controller: str = "ssd1306",
        on_frame: Callable[[Image.Image], None] | None = None,
        state: Path | None = None,
    ):
        self.errors: list[str] = []
        self._on_frame = on_frame
        self._inputs = 0
        self._wire(controller)
        store = GameStore(state) if state is not None else None
        timing = FAST if fast else Timing().faster(speed)
        flow = self._first_flow(timing, store, players, board, target)
        self.app = App(
            flow,
            self._show,
            self.events,
            beep=self.beeper.beep,
            splash=0.0 if fast or players is not None else 1.5,
            save=store.save if store is not None else None,
        )
        self.failure: BaseException | None = None  # what stopped the app thread, if anything
        self._thread = threading.Thread(target=self._run_app, name="app", daemon=True)
        self._thread.start()

    def _wire(self, controller: str) -> None:
        """The parts, on mock pins laid out like the shipped pin map."""
        pins = config_mod.shipped_pins()
        self.factory = SimFactory()
        self.wiring = SimulatedMatrix(self.factory, pins.rows, pins.columns)
        self.events: SimpleQueue[Event] = SimpleQueue()
        self.pads = PadMatrix(pins.rows, pins.columns, pin_factory=self.factory)
        self.pads.start(self.events.put)
        self.buttons = HostButtons(pins.buttons, pin_factory=self.factory)
        self.buttons.start(StandInGestures(self.events.put, hold=HOLD))
        self.button_pins = {key: self.factory.pin(pins.buttons[key.value]) for key in HostKey}
        self.beeper = Beeper(pins.buzzer, pin_factory=self.factory)
        device, self.panel = fake_device(controller)
        self.oled = Oled(device, on_error=self.errors.append)

    def _first_flow(
        self,
        timing: Timing,
        store: GameStore | None,
        players: int | None,
        board: Board | None,
        target: int,
    ) -> Flow:
        boards = tuple(profile(name) for name in profile_names())
        flow = Flow(boards, timing)
        if store is not None:
            flow = resumable(flow, store, self.errors.append)
        if players is not None:
            flow = start(flow, players, board or boards[0], target, time.monotonic())
        return flow

    def _run_app(self) -> None:
        try:
            self.app.run()
        except BaseException as e:  # the runner re-raises it instead of waiting in vain
            self.failure = e

    def _check(self) -> None:
        if self.failure is not None:
            raise RuntimeError(f"the app stopped: {self.failure!r}") from self.failure

    def _show(self, image: Image.Image) -> None:
        self.oled.show(image)
        if self._on_frame is not None:
            self._on_frame(self.panel.image())

    # --- acting like people -------------------------------------------------------------

    def press(self, seat: int, card: int) -> None:
        """Press and release a pad key, through the matrix pins, as a person would."""
        self.wiring.press(seat, card)
        self.settle(1)
        self.wiring.release(seat, card)
        self.settle(1)

    def button(self, key: HostKey, hold: bool = False) -> None:
        """Press a host button. Each press is one event: ◀ ▶ on press, OK on release, or
        the long press while OK is held (its release is then nothing)."""
        pin = self.button_pins[key]
        pin.drive_low()
        if hold:
            self.settle(1)  # held until the long press has come and been handled
        pin.drive_high()
        self.settle(0 if hold else 1)

    def run(self, lines: list[Line]) -> None:
        """Play script lines. A press waits for the table as a person would: until no
        pause is running (with --fast there are none)."""
        for line in lines:
            if line.action != "wait" and not self.app.wait_ready(alive=self._thread.is_alive):
                self._check()
                raise RuntimeError(f"line {line.number}: the table never became ready")
            if line.action == "pad":
                self.press(line.seat, line.card)
            elif line.action == "button":
                self.button(line.key)
            elif line.action == "hold":
                self.button(line.key, hold=True)
            else:
                time.sleep(line.ms / 1000)
                self.settle(0)
        if not self.app.wait_ready(alive=self._thread.is_alive):  # let the last pauses run out
            self._check()
            raise RuntimeError("the table never became ready after the last line")

    def settle(self, inputs: int) -> None:
        """Wait until ``inputs`` more input events are handled and the app is idle."""
        self._inputs += inputs
        if not self.app.wait_idle(self._inputs, alive=self._thread.is_alive):
            self._check()
            raise RuntimeError("the app did not handle an input within 10 s")

    def close(self) -> None:
        self.events.put(STOP)
        self._thread.join()  # at once if the app has already stopped
        self.pads.close()
        self.buttons.close()
        self.beeper.close()
        self.factory.reset()


# --- showing frames ------------------------------------------------------------------


def to_text(image: Image.Image, columns: int = 200) -> str:
    """The panel in a terminal: half blocks (1×2 pixels a character) when ``columns``
    allow, braille dots (2×4 pixels a character) in a narrower terminal."""
    px = image.load()
    width, height = image.size
    if columns >= width + 2:
        cell_w, cell_h = 1, 2
        cell = _half_block
    else:
        cell_w, cell_h = 2, 4
        cell = _braille
    rows = ["┌" + "─" * (width // cell_w) + "┐"]
    for y in range(0, height, cell_h):
        line = "".join(cell(px, x, y) for x in range(0, width, cell_w))
        rows.append("│" + line + "│")
    rows.append("└" + "─" * (width // cell_w) + "┘")
    return "\n".join(rows)


def _half_block(px, x: int, y: int) -> str:
    top, bottom = px[x, y], px[x, y + 1]
    return "█" if top and bottom else "▀" if top else "▄" if bottom else " "


# Braille dot bits for the pixel at (dx, dy) of a 2×4 cell.
_BRAILLE = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def _braille(px, x: int, y: int) -> str:
    bits = 0
    for dy, row in enumerate(_BRAILLE):
        for dx, bit in enumerate(row):
            if px[x + dx, y + dy]:
                bits |= bit
    return chr(0x2800 + bits)


class Terminal:
    """Redraws each frame in place; ``pace`` seconds after each for eyes to follow."""

    def __init__(self, stream=sys.stdout, pace: float = 0.0):
        self.stream = stream
        self.pace = pace
        self.stream.write("\x1b[2J")

    def __call__(self, image: Image.Image) -> None:
        columns = shutil.get_terminal_size().columns
        self.stream.write("\x1b[H" + to_text(image, columns) + "\n")
        self.stream.flush()
        if self.pace:
            time.sleep(self.pace)


class Recorder:
    """Keeps every frame, for ``--frames DIR`` and ``--gif FILE``."""

    def __init__(self, directory: Path | None, gif: Path | None):
        self.directory, self.gif = directory, gif
        self.frames: list[tuple[float, Image.Image]] = []
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)

    def __call__(self, image: Image.Image) -> None:
        index = len(self.frames) + 1
        self.frames.append((time.monotonic(), image))
        if self.directory is not None:
            image.save(self.directory / f"frame-{index:05d}.png")

    def save_gif(self, scale: int = 3, fast_ms: int = 350) -> None:
        if self.gif is None or not self.frames:
            return
        times = [t for t, _ in self.frames]
        durations = [
            max(fast_ms, int((b - a) * 1000))
            for a, b in zip(times, [*times[1:], times[-1] + 2], strict=True)
        ]
        durations = [min(d, 3000) for d in durations]
        images = [
            img.convert("L").resize((img.width * scale, img.height * scale)).convert("P")
            for _, img in self.frames
        ]
        images[0].save(
            self.gif, save_all=True, append_images=images[1:], duration=durations, loop=0
        )
