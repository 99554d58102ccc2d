"""The panel drawn in a terminal: the finest cells that fit, a legend under it, in place."""

from __future__ import annotations

import io
import os
import unicodedata

import pytest
from PIL import Image, ImageDraw

from companion.cli.frames import Terminal, to_text


def panel(width: int = 128, height: int = 64) -> Image.Image:
    """A panel with a lit 4×8 block in the top left corner and its last pixel lit."""
    image = Image.new("1", (width, height))
    ImageDraw.Draw(image).rectangle((0, 0, 3, 7), fill=1)
    image.putpixel((width - 1, height - 1), 1)
    return image


def test_wide_terminal_half_blocks_in_a_box():
    lines = to_text(panel(), 200).splitlines()
    assert len(lines) == 32 + 2 and {len(r) for r in lines} == {130}
    assert lines[0][0] == "┌" and lines[-1][-1] == "┘"
    assert lines[1].startswith("│████ ") and lines[4][1] == "█" and lines[5][1] == " "
    assert lines[-2][-2] == "▄"  # the last pixel: bottom half of the last cell


def test_80_by_24_sextants_leave_two_rows_for_the_legend():
    lines = to_text(panel(), 80, 22).splitlines()
    assert len(lines) == 22 and {len(r) for r in lines} == {66}  # 64 cells and two bars
    assert lines[0][0] == lines[0][-1] == "│"  # no room for a box: a bar each side
    # The 4×8 block: rows 0..5 full in cells 0..1, rows 6..7 the top two thirds of row 2.
    assert lines[0][1:4] == "██ " and lines[1][1:3] == "██"
    assert unicodedata.name(lines[2][1]) == "BLOCK SEXTANT-1234"
    # The last pixel (127, 63): a cell row of its own, its top right sixth.
    assert lines[21][-2] == "\U0001fb01" and unicodedata.name(lines[21][-2]) == "BLOCK SEXTANT-2"


def test_80_by_26_gives_the_sextants_a_box():
    lines = to_text(panel(), 80, 24).splitlines()
    assert len(lines) == 24 and lines[0][0] == "┌" and {len(r) for r in lines} == {66}


@pytest.mark.parametrize(
    ("bits", "name"),
    [(1, "BLOCK SEXTANT-1"), (20, "BLOCK SEXTANT-35"), (41, "BLOCK SEXTANT-146"), (62, None)],
)
def test_every_sextant_is_the_pattern_it_draws(bits, name):
    """Draw one cell from its bit pattern and read the character's Unicode name back."""
    image = Image.new("1", (2, 3))
    for bit in range(6):
        if bits >> bit & 1:
            image.putpixel((bit % 2, bit // 2), 1)
    char = to_text(image, 4, 1)[1]
    sixths = "".join(str(b + 1) for b in range(6) if bits >> b & 1)
    assert unicodedata.name(char) == (name or f"BLOCK SEXTANT-{sixths}")


def test_all_62_sextants_are_distinct_and_named_for_their_pixels():
    seen = set()
    for bits in range(64):
        image = Image.new("1", (2, 3))
        for bit in range(6):
            if bits >> bit & 1:
                image.putpixel((bit % 2, bit // 2), 1)
        char = to_text(image, 4, 1)[1]
        seen.add(char)
        if bits not in (0, 21, 42, 63):
            sixths = "".join(str(b + 1) for b in range(6) if bits >> b & 1)
            assert unicodedata.name(char) == f"BLOCK SEXTANT-{sixths}"
    assert len(seen) == 64


@pytest.mark.parametrize(
    ("columns", "rows", "shape"),
    [
        (300, 40, (258, 34)),  # half blocks in a box
        (140, 24, (130, 24)),  # sextants in a box
        (140, 22, (130, 22)),  # sextants, bars only
        (80, 24, (130, 18)),  # nothing fits 80 columns: braille, cut by the terminal
    ],
)
def test_a_256_by_64_panel(columns, rows, shape):
    lines = to_text(panel(256, 64), columns, rows).splitlines()
    assert (max(len(r) for r in lines), len(lines)) == shape
    assert {len(r) for r in lines} == {shape[0]}


@pytest.mark.parametrize(
    ("size", "shape"),
    [((8, 8), (10, 6)), ((96, 16), (50, 8)), ((200, 40), (102, 12))],  # half, sextant, braille
)
def test_any_multiple_of_8(size, shape):
    lines = to_text(panel(*size), 80, 24).splitlines()
    assert ({len(r) for r in lines}, len(lines)) == ({shape[0]}, shape[1])


def test_terminal_redraws_in_place_with_the_legend_and_never_scrolls():
    out = io.StringIO()
    size = os.terminal_size((80, 24))
    term = Terminal(out, legend=["keys line one", "keys line two"], size=lambda: size)
    term(panel())
    term(panel())
    term.close()
    term.close()  # twice is harmless
    text = out.getvalue()
    assert text.startswith("\x1b[?25l")  # the cursor hidden while playing
    frames = text.split("\x1b[H")[1:]
    assert len(frames) == 2
    shown = frames[1].split("\x1b[K\x1b[J")[0].split("\x1b[K\n")
    assert len(shown) == 24 and shown[-2:] == ["keys line one", "keys line two"]
    assert shown[0].startswith("│██")  # sextants: the picture took the other 22 rows
    assert text.count("\x1b[2J") == 2  # at the start and at the first frame: not again
    assert text.endswith("\n\x1b[?7h\x1b[?25h") and text.count("\x1b[?25h") == 1


def test_terminal_clears_when_its_size_changes():
    out = io.StringIO()
    sizes = iter([os.terminal_size((200, 50)), os.terminal_size((80, 18))])
    term = Terminal(out, legend=["legend"], size=lambda: next(sizes))
    term(panel())
    term(panel())
    term.close()
    first, second = out.getvalue().split("\x1b[H")[1:]
    assert first.count("\x1b[K\n") == 34  # a box of 32 half-block rows, then the legend
    assert second.count("\x1b[K\n") == 16  # braille between bars, the legend: 17 rows
    assert out.getvalue().count("\x1b[2J") == 3


def shown_lines(text: str) -> list[str]:
    """The lines of the last drawing in ``text``."""
    return text.split("\x1b[H")[-1].split("\x1b[K\x1b[J")[0].split("\x1b[K\n")


@pytest.mark.parametrize(
    ("image", "legend", "needs"),
    [
        ((128, 64), ["legend"], "66×17"),  # braille, a bar each side, and the legend
        ((128, 64), ["x" * 76, "keys"], "76×18"),  # the legend wider than the picture
        ((256, 64), [], "130×16"),
    ],
)
def test_a_terminal_too_small_says_the_size_it_needs_instead(image, legend, needs):
    columns, rows = map(int, needs.split("×"))
    for small in ((columns - 1, rows), (columns, rows - 1), (20, 5)):
        out = io.StringIO()
        term = Terminal(out, legend=legend, size=lambda small=small: os.terminal_size(small))
        term(panel(*image))
        has = f"{small[0]}×{small[1]}"
        assert shown_lines(out.getvalue()) == [f"terminal too small: needs {needs}, has {has}"]
    out = io.StringIO()
    term = Terminal(out, legend=legend, size=lambda: os.terminal_size((columns, rows)))
    term(panel(*image))  # just enough: the picture in braille, the legend under it
    lines = shown_lines(out.getvalue())
    assert len(lines) == rows and lines[len(lines) - len(legend) :] == legend
    assert all(len(line) <= columns for line in lines) and "\u2800" <= lines[0][1] <= "\u28ff"


def test_the_notice_and_the_legend_change_words_at_once():
    out = io.StringIO()
    sizes = [os.terminal_size((80, 24))]
    term = Terminal(out, legend=["quit Q"], size=lambda: sizes[-1])
    term.relabel(["stoppen Q"], "te klein: {need}, {has}")  # nothing drawn yet: no drawing
    assert "\x1b[H" not in out.getvalue()
    term(panel())
    assert shown_lines(out.getvalue())[-1] == "stoppen Q"
    term.relabel(["quitter Q"], "trop petit : {need}, {has}")
    assert shown_lines(out.getvalue())[-1] == "quitter Q"  # drawn again, the new legend
    drawn = out.getvalue().count("\x1b[H")
    term.relabel(["quitter Q"], "trop petit : {need}, {has}")  # the same: not drawn again
    assert out.getvalue().count("\x1b[H") == drawn
    sizes.append(os.terminal_size((40, 10)))
    term.redraw()
    assert shown_lines(out.getvalue()) == ["trop petit : 66×17, 40×10"]


def test_redraw_draws_the_last_frame_again_at_the_new_size():
    out = io.StringIO()
    sizes = [os.terminal_size((80, 24))]
    term = Terminal(out, legend=["legend"], size=lambda: sizes[-1])
    term.redraw()  # nothing drawn yet: nothing to draw again
    assert "\x1b[H" not in out.getvalue()
    term(panel())
    sizes.append(os.terminal_size((140, 40)))
    term.redraw()
    term.close()
    term.redraw()  # closed: the screen is the shell's again
    first, second = out.getvalue().split("\x1b[H")[1:]
    assert first.count("\x1b[K\n") == 22 and second.count("\x1b[K\n") == 34
    assert "█" in second and "🬀" not in second  # half blocks now
