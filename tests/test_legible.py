"""Glyphs no one mistakes at arm's length: every pair of letters and digits a screen can
show differs by a shape, not a pixel, in every font.

The threshold, justified: a 2.42" SSD1309 panel (the table's) has a pixel pitch of about
0.43 mm; read at arm's length (~0.7 m) a pixel spans ~2 minutes of arc, and a 0.96" panel's
0.17 mm pixel under 1. Normal acuity resolves about 1 minute, a glance across a table in
room light two or three. So a difference of one or two pixels is at or below what a
player resolves at a glance on the small panel: "VP" read as "UP", "OK" as "OH" (issue 30).
Three pixels is the smallest difference that is a stroke a glance can see on either panel:
two glyphs must differ in at least ``THRESHOLD`` pixels of their cells.

The letters are those a screen can show: ASCII's letters and digits, every letter of every
catalog, and the name wheel's. A letter read as itself in the other case or with another
mark (u for U, é for e) is still that letter, and the word reads the same: those pairs are
left out (a lowercase m and w must still not be small capitals: their own test).
"""

from __future__ import annotations

import itertools
import json
import string
import unicodedata
from importlib import resources

import pytest
from PIL import Image, ImageDraw

from companion.game.names import LETTERS
from companion.ui.font import NAMES, Font, draw_text, font, ink

THRESHOLD = 3  # pixels two glyphs must differ in (the module's docstring says why)


def _catalog_letters() -> set[str]:
    folder = resources.files("companion.ui").joinpath("locale")
    letters: set[str] = set()
    for path in folder.iterdir():
        if path.name.endswith(".json"):
            for text in json.loads(path.read_text("utf-8")).values():
                letters.update(ch for ch in text if ch.isalnum())
    return letters


ALPHABET = sorted(
    set(string.ascii_letters + string.digits)
    | {ch for ch in LETTERS if ch.isalnum()}
    | {ch for ch in _catalog_letters() if ord(ch) < 0x100}
)


def lit(ch: str, f: Font) -> frozenset[tuple[int, int]]:
    image = Image.new("1", (f.advance, f.height))
    draw_text(ImageDraw.Draw(image), (0, 0), ch, f)
    return frozenset(
        (x, y) for y in range(f.height) for x in range(f.advance) if image.getpixel((x, y))
    )


def letter(ch: str) -> str:
    """``ch`` without its marks, in lowercase: what a reader takes it for."""
    return unicodedata.normalize("NFD", ch)[0].lower()


@pytest.fixture(params=NAMES)
def each(request) -> Font:
    return font(request.param)


def test_the_alphabet_holds_what_the_screens_show():
    for ch in "AZaz09ÉÈÇÖÜÛÙÏéèçë":
        assert ch in ALPHABET


def test_letters_and_digits_differ_by_a_shape_not_a_pixel(each):
    glyphs = {ch: lit(ch, each) for ch in ALPHABET}
    close = [
        f"{a}{b} ({len(glyphs[a] ^ glyphs[b])})"
        for a, b in itertools.combinations(ALPHABET, 2)
        if letter(a) != letter(b) and len(glyphs[a] ^ glyphs[b]) < THRESHOLD
    ]
    assert not close, f"{each.name}: pairs under {THRESHOLD} pixels apart: {', '.join(close)}"


def rows(ch: str, f: Font) -> list[list[int]]:
    """The columns lit in each row of ``ch``'s ink, top to bottom."""
    pixels = lit(ch, f)
    box = ink(ch, f)
    assert box is not None
    return [sorted(x for x, y in pixels if y == row) for row in range(box[1], box[3])]


def runs(columns: list[int]) -> int:
    """How many separate strokes a row of lit columns crosses."""
    return sum(1 for i, x in enumerate(columns) if i == 0 or columns[i - 1] != x - 1)


def stroke(ch: str, f: Font) -> int:
    """How wide ``ch``'s first stroke is in its top row: the font's stroke."""
    top = rows(ch, f)[0]
    return next((i for i, x in enumerate(top) if x != top[0] + i), len(top))


@pytest.mark.parametrize("ch", ["V", "v"])
def test_a_v_comes_to_a_point_where_a_u_is_round(each, ch):
    """ "VP" was read "UP": the V's last row is one stroke wide, the U's wider."""
    u = chr(ord(ch) - 1)
    assert len(rows(ch, each)[-1]) <= stroke(ch, each), f"{each.name}: {ch} has a flat bottom"
    assert len(rows(u, each)[-1]) > stroke(u, each)


@pytest.mark.parametrize("ch", ["m", "w"])
def test_m_and_w_have_three_strokes_not_a_small_capitals_two(each, ch):
    """ "Menu" was read "Henu": a lowercase m and w show three strokes across their
    middle, where the small font's were its capitals' two, shrunk."""
    shown = rows(ch, each)
    middle = shown[len(shown) // 2]
    assert runs(middle) == 3, f"{each.name}: {ch}'s middle row {middle} is not three strokes"


def test_every_changed_glyph_says_why():
    manifest = json.loads(
        resources.files("companion.ui").joinpath("fonts", "fonts.json").read_text("utf-8")
    )
    changed = [s for f in manifest["fonts"].values() for s in f["sources"] if "changed" in s]
    assert changed, "no font says what it changed"
    for source in changed:
        assert sorted(source["glyphs"]) == sorted(source["why"])
        assert all(why.strip() for why in source["why"].values())
