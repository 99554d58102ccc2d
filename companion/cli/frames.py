"""Where the simulator's frames go: drawn in a terminal, written as PNGs, or a GIF."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

from PIL import Image

from ..rules import CompanionError


class OutputError(CompanionError, ValueError):
    """A place for frames that cannot be written."""


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
    text = str(path)
    return text if len(text) <= 80 else text[:77] + "..."


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
