"""The pixel fonts: every Latin-1 glyph, told apart, big enough, and every message drawable."""

from __future__ import annotations

import fnmatch
import importlib.util
import json
import sys
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from companion.ui.font import FONTS, NAMES, Font, draw_text, font, ink, missing, width

ROOT = Path(__file__).parent.parent
FOLDER = resources.files("companion.ui").joinpath("fonts")
LATIN1 = [chr(c) for c in [*range(0x20, 0x7F), *range(0xA0, 0x100)]]
SYMBOLS = list("→←◀▶…—–‘’“”•")
# The same glyph by design: a no-break space is a space, a soft hyphen a hyphen.
SAME = {"\xa0": " ", "\xad": "-"}
# Typographic forms some faces draw as the ASCII ones (Spleen: – as -, ’ as ').
PLAIN = {"–": "-", "‘": "'", "’": "'", "“": '"', "”": '"'}
CONFUSABLE = ["g9", "pP", "0O", "1l", "Il"]


def bitmap(text: str, f: Font) -> bytes:
    image = Image.new("1", (width(text, f), f.height))
    draw_text(ImageDraw.Draw(image), (0, 0), text, f)
    return image.tobytes()


def height(text: str, f: Font) -> int:
    box = ink(text, f)
    assert box is not None, f"{text!r} has no ink"
    return box[3] - box[1]


@pytest.fixture(params=NAMES)
def each(request) -> Font:
    return font(request.param)


def test_every_latin1_glyph_and_symbol_has_ink(each):
    for ch in LATIN1 + SYMBOLS:
        assert not missing(ch, each), f"{each.name} lacks U+{ord(ch):04X}"
        if ch not in (" ", "\xa0"):
            assert ink(ch, each) is not None, f"{each.name}: U+{ord(ch):04X} draws nothing"


def test_glyphs_are_told_apart(each):
    seen: dict[bytes, str] = {}
    for ch in LATIN1 + SYMBOLS:
        drawn = bitmap(ch, each)
        if ch in SAME or (ch in PLAIN and drawn == bitmap(PLAIN[ch], each)):
            continue
        assert drawn not in seen, f"{each.name} draws {ch!r} as {seen[drawn]!r}"
        seen[drawn] = ch
    assert bitmap("\xa0", each) == bitmap(" ", each)


@pytest.mark.parametrize("pair", CONFUSABLE)
def test_confusable_pairs_differ_in_every_font(pair):
    for f in FONTS.values():
        a, b = (bitmap(ch, f) for ch in pair)
        assert a != b, f"{f.name}: {pair[0]} and {pair[1]} look the same"


def test_g_has_a_descender_and_9_has_none(each):
    baseline = each.ascent
    assert ink("g", each)[3] > baseline >= ink("9", each)[3]


def test_size_bars():
    assert all(f.height >= 8 for f in FONTS.values())
    assert height("H", font("small")) >= 6
    assert height("H", font("body")) >= 7
    for digit in "0123456789":
        assert height(digit, font("large")) >= 10
        assert height(digit, font("huge")) >= 15


def test_fonts_grow_in_order():
    sizes = [(f.height, f.advance, height("H", f)) for f in FONTS.values()]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)


def test_glyphs_stay_inside_their_cell(each):
    """A line of ``height`` pixels holds any text: nothing spills into the next line."""
    canvas = Image.new("1", (3 * each.advance, 3 * each.height))
    draw = ImageDraw.Draw(canvas)
    for ch in LATIN1 + SYMBOLS:
        canvas.paste(0, (0, 0, *canvas.size))
        draw_text(draw, (each.advance, each.height), ch, each)
        box = canvas.getbbox()
        cell = (each.advance, each.height, 2 * each.advance, 2 * each.height)
        if box is not None:
            assert box[:2] >= cell[:2] and box[2:] <= cell[2:], f"{ch!r} leaves its cell"


def test_text_is_placed_by_the_top_left_of_its_cell(each):
    canvas = Image.new("1", (100, 60))
    draw_text(ImageDraw.Draw(canvas), (7, 5), "Hg", each)
    x0, y0, x1, y1 = ink("Hg", each)
    assert canvas.getbbox() == (7 + x0, 5 + y0, 7 + x1, 5 + y1)
    assert ink("H", each)[3] == each.ascent  # capitals stand on the baseline


def test_width_is_cells_and_matches_what_is_drawn(each):
    assert width("", each) == 0
    assert width("10g → 3", each) == 7 * each.advance
    assert ink("l1", each)[2] <= width("l1", each)


def test_drawing_is_one_bit_even_on_a_grey_canvas(each):
    canvas = Image.new("L", (60, 30))
    draw_text(ImageDraw.Draw(canvas), (0, 0), "Ég→", each, fill=255)
    assert [level for level, n in enumerate(canvas.histogram()) if n] == [0, 255]


def test_fill_0_clears_on_a_lit_canvas(each):
    canvas = Image.new("1", (width("Ab", each), each.height), 1)
    draw_text(ImageDraw.Draw(canvas), (0, 0), "Ab", each, fill=0)
    lit = Image.new("1", canvas.size)
    draw_text(ImageDraw.Draw(lit), (0, 0), "Ab", each)
    assert canvas.histogram()[0] == sum(lit.histogram()[1:]) > 0


def test_missing_names_what_cannot_be_drawn_and_draws_it_as_a_question_mark(each):
    assert missing("Prêt → 10g", each) == set()
    assert missing("€ ok\n", each) == {"€", "\n"}
    assert missing("\x80\x85\x9f\x00", each) == {"\x80", "\x85", "\x9f", "\x00"}
    assert bitmap("a€b", each) == bitmap("a?b", each)


def locale_files() -> list[Path]:
    return sorted((ROOT / "companion" / "ui" / "locale").glob("*.json"))


@pytest.mark.parametrize("path", locale_files(), ids=lambda p: p.name)
@pytest.mark.parametrize("name", ["small", "body"])
def test_every_catalog_message_is_drawable(path, name):
    messages = json.loads(path.read_text("utf-8"))
    unusable = {}
    for key, text in messages.items():
        lost = set().union(*(missing(line, font(name)) for line in text.split("\n")))
        if lost:
            unusable[key] = "".join(sorted(lost))
    assert not unusable, f"{path.name}: {name} cannot draw {unusable}"


LICENCE_WORDS = {"fonts-spleen": "Redistribution and use", "xfonts-base": "Public domain"}


def test_every_font_says_where_it_came_from_and_ships_its_licences():
    manifest = json.loads(FOLDER.joinpath("fonts.json").read_text("utf-8"))
    assert list(manifest["fonts"]) == list(NAMES)
    for info in manifest["fonts"].values():
        glyphs = "".join(source["glyphs"] for source in info["sources"])
        assert sorted(glyphs) == sorted(LATIN1 + SYMBOLS)
        for source in info["sources"]:
            if "package" in source:
                assert source["package"] in manifest["licences"] and source["version"]
                assert len(source["sha256"]) == len(source["deb_sha256"]) == 64
    assert manifest["licences"].keys() == LICENCE_WORDS.keys()
    for package, name in manifest["licences"].items():
        assert LICENCE_WORDS[package] in FOLDER.joinpath(name).read_text("utf-8")


def test_package_data_ships_every_font_file():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["companion"]
    for path in (ROOT / "companion" / "ui" / "fonts").iterdir():
        rel = f"ui/fonts/{path.name}"
        assert any(fnmatch.fnmatch(rel, p) for p in patterns), f"{rel} is not package data"


def load_script():
    spec = importlib.util.spec_from_file_location("make_fonts", ROOT / "scripts/make_fonts.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_build_fails_naming_a_glyph_no_source_has():
    make = load_script()
    spec = make.Spec("tiny", 2, 2, ())
    dot = Image.new("1", (2, 2), 1)
    images = {ch: dot for ch in make.LATIN1 + list(make.SYMBOLS) if ch != "é"}
    source = make.Glyphs({}, 2, images)
    with pytest.raises(make.BuildError, match=r"tiny: no source draws U\+00E9 'é'"):
        make.compose(spec, [source])


def test_the_build_fails_on_a_glyph_too_big_for_the_cell():
    make = load_script()
    spec = make.Spec("tiny", 2, 2, ())
    images = {ch: Image.new("1", (2, 2), 1) for ch in make.LATIN1 + list(make.SYMBOLS)}
    images["W"] = Image.new("1", (3, 2), 1)
    with pytest.raises(make.BuildError, match=r"U\+0057 'W' does not fit the cell"):
        make.compose(spec, [make.Glyphs({}, 2, images)])
