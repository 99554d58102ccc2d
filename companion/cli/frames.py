"""Where the simulator's frames go: drawn in a terminal, written as PNGs, or a GIF."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from PIL import Image

from ..errors import Closing, CompanionError, where


class OutputError(CompanionError, ValueError):
    """A place for frames that cannot be written."""


def to_text(image: Image.Image, columns: int = 200, rows: int | None = None) -> str:
    """The panel as text that fits ``columns`` × ``rows`` (None: any height), in the
    finest cells that fit: half blocks (1×2 pixels a character), sextants (2×3), and
    braille dots (2×4) as a last resort. A box around it when the rows allow, else a
    bar on each side. Any size of panel; one too wide for every kind comes in braille."""
    width, height = image.size
    cell_w, cell_h, cell, boxed = _layout(width, height, columns, rows)
    px = image.load()
    assert px is not None  # a loaded image has its pixels

    def lit(x: int, y: int) -> bool:
        return x < width and y < height and bool(px[x, y])

    cells = width // cell_w
    lines = [
        "│" + "".join(cell(lit, x, y) for x in range(0, width, cell_w)) + "│"
        for y in range(0, height, cell_h)
    ]
    if boxed:
        lines = ["┌" + "─" * cells + "┐", *lines, "└" + "─" * cells + "┘"]
    return "\n".join(lines)


def _layout(width: int, height: int, columns: int, rows: int | None):
    """The cell (width, height, drawing) and whether a box fits, finest first."""
    for cell_w, cell_h, cell in _CELLS:
        if width // cell_w + 2 > columns:
            continue
        lines = -(-height // cell_h)
        if rows is None or lines + 2 <= rows:
            return cell_w, cell_h, cell, True
        if lines <= rows:
            return cell_w, cell_h, cell, False
    return 2, 4, _braille, rows is None or -(-height // 4) + 2 <= rows


Lit = Callable[[int, int], bool]


def _half_block(lit: Lit, x: int, y: int) -> str:
    top, bottom = lit(x, y), lit(x, y + 1)
    return "█" if top and bottom else "▀" if top else "▄" if bottom else " "


def _sextant(lit: Lit, x: int, y: int) -> str:
    """Unicode 13's sextants (U+1FB00..): a 2×3 cell, bit 0 top left, bit 5 bottom right.
    The block leaves out the patterns that older blocks already have."""
    bits = sum(1 << (2 * dy + dx) for dy in range(3) for dx in range(2) if lit(x + dx, y + dy))
    if bits in _OLDER:
        return _OLDER[bits]
    return chr(0x1FB00 + bits - 1 - (bits > 21) - (bits > 42))


_OLDER = {0: " ", 21: "▌", 42: "▐", 63: "█"}

# Braille dot bits for the pixel at (dx, dy) of a 2×4 cell.
_BRAILLE = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def _braille(lit: Lit, x: int, y: int) -> str:
    bits = 0
    for dy, row in enumerate(_BRAILLE):
        for dx, bit in enumerate(row):
            if lit(x + dx, y + dy):
                bits |= bit
    return chr(0x2800 + bits)


_CELLS = ((1, 2, _half_block), (2, 3, _sextant), (2, 4, _braille))

HIDE_CURSOR, SHOW_CURSOR = "\x1b[?25l", "\x1b[?25h"
NO_WRAP, WRAP = "\x1b[?7l", "\x1b[?7h"  # a line wider than the terminal is cut, not wrapped


TOO_SMALL = "terminal too small: needs {need}, has {has}"


class Terminal(Closing):
    """Draws each frame in place with ``legend`` under it, sized to the terminal, the
    cursor hidden; ``pace`` seconds after each frame for eyes to follow. A terminal too
    small for the picture (in its smallest cells) and the legend gets one line instead,
    ``too_small`` with the size it ``need``s and the size it ``has``. ``close`` (also at
    exit) leaves the cursor shown under the last picture."""

    def __init__(
        self,
        stream: TextIO = sys.stdout,
        pace: float = 0.0,
        legend: Sequence[str] = (),
        size: Callable[[], os.terminal_size] = shutil.get_terminal_size,
        too_small: str = TOO_SMALL,
    ):
        self.stream = stream
        self.pace = pace
        self.legend = list(legend)
        self.too_small = too_small
        self._size = size
        self._shape: os.terminal_size | None = None  # a new size clears the screen
        self._lock = threading.Lock()  # frames come from the app, close from the main thread
        self._open = True
        self._last: Image.Image | None = None
        self.stream.write(HIDE_CURSOR + NO_WRAP + "\x1b[2J")
        self.stream.flush()
        atexit.register(self.close)

    def __call__(self, image: Image.Image) -> None:
        with self._lock:
            self._last = image
            if self._open:
                self._draw(image)
        if self.pace:
            time.sleep(self.pace)

    def redraw(self) -> None:
        """Draw the last frame again, at the terminal's new size (on SIGWINCH). Gives up
        rather than wait long: a signal handler may interrupt this very thread."""
        if not self._lock.acquire(timeout=0.2):
            return
        try:
            if self._open and self._last is not None:
                self._draw(self._last)
        finally:
            self._lock.release()

    def relabel(self, legend: Sequence[str], too_small: str = TOO_SMALL) -> None:
        """Other words under the picture (the table's language changed): the last frame is
        drawn again with them, at once."""
        with self._lock:
            if (list(legend), too_small) == (self.legend, self.too_small):
                return
            self.legend, self.too_small = list(legend), too_small
            if self._open and self._last is not None:
                self._draw(self._last)

    def needs(self, image: Image.Image) -> tuple[int, int]:
        """The columns and rows ``image`` and the legend need at the least: the picture
        in braille (2×4 pixels a character) with a bar on each side, the legend whole."""
        width, height = image.size
        columns = max([-(-width // 2) + 2, *(len(line) for line in self.legend)])
        return columns, -(-height // 4) + len(self.legend)

    def _draw(self, image: Image.Image) -> None:
        size = self._size()
        columns, rows = self.needs(image)
        if size.columns < columns or size.lines < rows:
            lines = [
                self.too_small.format(need=f"{columns}×{rows}", has=f"{size.columns}×{size.lines}")
            ]
        else:
            room = size.lines - len(self.legend)
            lines = [*to_text(image, size.columns, room).split("\n"), *self.legend]
        clear = "\x1b[2J" if size != self._shape else ""
        self._shape = size
        # No newline after the last line: at the bottom row it would scroll the picture.
        self.stream.write(clear + "\x1b[H" + "\x1b[K\n".join(lines) + "\x1b[K\x1b[J")
        self.stream.flush()

    def close(self) -> None:
        """Show the cursor again, on the line under the picture. Safe to call twice."""
        with self._lock:
            if not self._open:
                return
            self._open = False
            self.stream.write("\n" + WRAP + SHOW_CURSOR)
            self.stream.flush()
        atexit.unregister(self.close)


class Recorder:
    """Writes every frame to ``directory`` as it comes, and keeps frames only when a GIF
    is asked for: without ``--frames`` or ``--gif`` a long session keeps nothing."""

    def __init__(self, directory: Path | None, gif: Path | None):
        self.directory, self.gif = directory, gif
        self.frames: list[tuple[float, Image.Image]] = []
        self.count = 0
        self.last: Image.Image | None = None
        if directory is not None:
            _writable_folder(directory, "--frames")
        if gif is not None:
            _writable_file(gif, "--gif")

    def __call__(self, image: Image.Image) -> None:
        self.count += 1
        self.last = image
        if self.directory is not None:
            image.save(self.directory / f"frame-{self.count:05d}.png")
        if self.gif is not None:
            self.frames.append((time.monotonic(), image))

    def save_gif(self, scale: int = 3, fast_ms: int = 350) -> None:
        if self.gif is None or not self.frames:
            return
        times = [t for t, _ in self.frames]
        durations = [
            min(3000, max(fast_ms, int((b - a) * 1000)))
            for a, b in zip(times, [*times[1:], times[-1] + 2], strict=True)
        ]
        images = [
            img.convert("L").resize((img.width * scale, img.height * scale)).convert("P")
            for _, img in self.frames
        ]
        try:
            images[0].save(
                self.gif, save_all=True, append_images=images[1:], duration=durations, loop=0
            )
        except OSError as e:
            raise OutputError(f"--gif {_cut(self.gif)}: cannot write: {e.strerror or e}") from None


def _cut(path: Path) -> str:
    return where(path)


def _writable_folder(directory: Path, option: str) -> None:
    """Make the folder (and its parents) and check a file can be written there. A folder
    holding an earlier run's frames is refused: they would mix with this run's."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if next(directory.glob("frame-*.png"), None) is not None:
            raise OutputError(
                f"{option} {_cut(directory)}: holds frames of an earlier run; "
                "name an empty or new folder"
            )
        probe = directory / ".companion-probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise OutputError(
            f"{option} {_cut(directory)}: cannot write there: {e.strerror or e}"
        ) from None


def _writable_file(path: Path, option: str) -> None:
    try:
        folder, parent = path.is_dir(), path.parent.is_dir()
    except OSError as e:  # a name too long for the file system, say
        raise OutputError(f"{option} {_cut(path)}: cannot write there: {e.strerror or e}") from None
    if folder:
        raise OutputError(f"{option} {_cut(path)}: is a folder; name a file, e.g. game.gif")
    if not parent:
        raise OutputError(f"{option} {_cut(path)}: the folder {_cut(path.parent)} does not exist")
