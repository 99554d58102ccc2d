"""The screens' pixel fonts: Latin-1 and a few symbols, 1-bit, on a pixel grid.

Four monospaced fonts ship in ``fonts/`` (built by ``scripts/make_fonts.py`` from Spleen
and misc-fixed; ``fonts/fonts.json`` says where each glyph came from, and why the few
changed from their source were changed; the licences lie beside them):

- ``small``: 5×8 cell, capitals 6 px: hints and labels;
- ``body``: 6×12 cell, capitals 8 px: running text;
- ``large``: 8×16 cell, digits 10 px: values that matter;
- ``huge``: 12×24 cell, digits 15 px: a countdown, one big value.

Text is placed by the top-left corner of its first cell, so lines sit on a pixel grid:
a line of ``font.height`` pixels holds any text, accents and descenders included. Draw
and measure through ``draw_text`` and ``width`` only: symbols beyond Latin-1 (→ ◀ ▶ …)
live in slots of their own that those two translate to. A character no font has is
drawn as ``?``; ``missing`` tells which those are, so tests can check every message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from PIL import Image, ImageDraw, ImageFont

NAMES = ("small", "body", "large", "huge")


@dataclass(frozen=True)
class Font:
    """One monospaced pixel font: every glyph is a cell of ``advance`` × ``height``."""

    name: str
    height: int  # the cell: one line of text, accents and descenders included
    advance: int  # the cell's width: every character moves the pen this far
    ascent: int  # rows of the cell above the baseline
    pil: ImageFont.ImageFont = field(repr=False, compare=False)
    # Each drawable character outside Latin-1 and its slot in ``pil``.
    slots: dict[int, str] = field(repr=False, compare=False)


def _folder() -> Traversable:
    return resources.files(__package__).joinpath("fonts")


def _load(name: str, manifest: dict[str, Any]) -> Font:
    info = manifest["fonts"][name]
    # ImageFont.load opens the .png beside the .pil by name: the package is installed as
    # files (pip unpacks wheels), so as_file hands back the file itself.
    with resources.as_file(_folder().joinpath(info["file"])) as pil_path:
        pil = ImageFont.load(str(pil_path))
    width, height = info["cell"]
    slots = {ord(ch): chr(slot) for ch, slot in manifest["symbols"].items()}
    return Font(name, height, width, info["ascent"], pil, slots)


def _load_all() -> dict[str, Font]:
    manifest = json.loads(_folder().joinpath("fonts.json").read_text("utf-8"))
    return {name: _load(name, manifest) for name in NAMES}


FONTS: dict[str, Font] = _load_all()


def font(name: str) -> Font:
    """The font called ``name`` (one of ``NAMES``)."""
    return FONTS[name]


def _has(font: Font, ch: str) -> bool:
    code = ord(ch)
    if code in font.slots:
        return _defined(font.name, ord(font.slots[code]))
    # C1 control codes are no characters to draw: their slots hold the symbols.
    return code < 0x100 and not 0x80 <= code < 0xA0 and _defined(font.name, code)


@cache
def _defined(name: str, code: int) -> bool:
    return FONTS[name].pil.getlength(chr(code)) > 0


def missing(text: str, font: Font) -> set[str]:
    """The characters of ``text`` that ``font`` has no glyph for."""
    return {ch for ch in set(text) if not _has(font, ch)}


def _encode(text: str, font: Font) -> str:
    """``text`` in the font's slots; a character it cannot draw becomes ``?``."""
    if all(_has(font, ch) for ch in set(text)):
        return text.translate(font.slots)
    return "".join(ch if _has(font, ch) else "?" for ch in text).translate(font.slots)


def width(text: str, font: Font) -> int:
    """How many pixels ``text`` advances: its cells, blank columns included."""
    return len(text) * font.advance


def draw_text(
    draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, font: Font, fill: int = 1
) -> None:
    """Draw ``text`` with the top-left of its first cell at ``xy``; 1-bit, no smoothing."""
    if text:
        draw.text(xy, _encode(text, font), fill=fill, font=font.pil)


@lru_cache(maxsize=4096)
def ink(text: str, font: Font) -> tuple[int, int, int, int] | None:
    """The box of the pixels ``text`` lights, from its top-left corner; None if none."""
    if not text:
        return None
    image = Image.new("1", (width(text, font), font.height))
    draw_text(ImageDraw.Draw(image), (0, 0), text, font)
    return image.getbbox()
