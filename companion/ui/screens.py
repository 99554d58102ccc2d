"""Screens: what a screen says laid out as a picture, on a canvas of any size.

``screen(view, words, size)`` is ``layout(say(view, words), size)``: ``say`` builds what
the screen says from ``table.public_view()`` (``said.Said``: words, no pixels), and
``layout`` places it on a ``size`` canvas as a ``Screen``, data saying what to draw
where, choosing fonts, columns and short forms so that it fits. ``render(screen)`` draws
it on a 1-bit canvas; it is a pure function of the screen, with the pixel fonts of
``font.py``. ``pieces(screen)`` gives every piece's box, for the fit test.

The main picture, while the seats choose, is the board: its three rows as tracks of the
spaces 0..15 with their markers, each value large, and one large mark per seat. Every
screen ends with a one-line hint saying what the host buttons do there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from PIL import Image, ImageDraw

from ..table.view import View
from .catalog import Catalog
from .font import draw_text, font, ink, width
from .icons import SIZE as ICON
from .icons import icon
from .said import (
    Board,
    Both,
    Choices,
    Countdown,
    Discards,
    Lines,
    Offer,
    PerSeat,
    Place,
    Ranking,
    Row,
    Said,
    Scores,
    Seat,
    Seated,
)
from .say import say

SIZE = (128, 64)  # the SSD1306, SH1106 and SSD1309; the SSD1322 is 256×64
WIDTH, HEIGHT = SIZE
ROW = 12  # a board row's height
SPACES = 16  # spaces 0..15 on every row
MARKS_Y = 3 * ROW + 2  # the seat marks, under the rows
MARK_H = 16
LIST_TOP = 13  # the first line under a title
HIGHLIGHT = 11  # a list line's pitch


@dataclass(frozen=True, slots=True)
class Text:
    text: str
    font: str  # a font name: small, body, large, huge
    x: int
    y: int  # the top of the font's cell
    fill: int = 1


@dataclass(frozen=True, slots=True)
class Box:
    box: tuple[int, int, int, int]  # x0, y0, x1, y1, inclusive
    fill: int | None = 1  # None: the outline only
    outline: int | None = None


@dataclass(frozen=True, slots=True)
class Track:
    """A board row: a line of 16 spaces and the marker on ``value``; ``moved``, the space
    a marker just left (drawn hollow)."""

    value: int
    x: int
    y: int
    space: int  # pixels a space
    moved: int | None = None


@dataclass(frozen=True, slots=True)
class Icon:
    name: str
    x: int
    y: int


Item = Text | Box | Track | Icon


@dataclass(frozen=True)
class Screen:
    """Everything one frame shows, as data; ``notice`` is drawn over the bottom."""

    size: tuple[int, int]
    items: tuple[Item, ...]
    notice: str | None = None


# --- from the view to a screen --------------------------------------------------------


def screen(view: View, words: Catalog, size: tuple[int, int] = SIZE) -> Screen:
    """The screen for a public view, in the catalog's language, on a ``size`` canvas."""
    return layout(say(view, words), size)


def layout(said: Said, size: tuple[int, int] = SIZE) -> Screen:
    """What a screen says, laid out on a ``size`` canvas in the pixel fonts."""
    w = size[0]
    items = _items(said, w)
    facts = (said.fact, said.fact_short)
    return Screen(size, (*items, *_hint(said.hint, facts, size)), said.notice)


def draw(view: View, words: Catalog, size: tuple[int, int] = SIZE) -> Image.Image:
    return render(screen(view, words, size))


def splash(words: Catalog, size: tuple[int, int] = SIZE) -> Screen:
    width_, height = size
    title, sub = words.t("screen.splash"), words.t("screen.splash_sub")
    top = (height - 16 - 12) // 2
    return Screen(
        size, (_centred(title, "large", top, width_), _centred(sub, "body", top + 18, width_))
    )


# --- pieces every screen uses -------------------------------------------------------


def _text(text: str, name: str, x: int, y: int, fill: int = 1) -> Text:
    return Text(text, name, x, y, fill)


def _centred(text: str, name: str, y: int, w: int) -> Text:
    return Text(text, name, max(0, (w - width(text, font(name))) // 2), y)


def _right(text: str, name: str, right: int, y: int) -> Text:
    """``text`` ending at x = ``right`` (its last cell's last column)."""
    return Text(text, name, right + 1 - width(text, font(name)), y)


def _fitting(text: str, room: int, names: tuple[str, ...] = ("body", "small")) -> str:
    """The first font in which ``text`` fits ``room`` pixels (else the last)."""
    return next((n for n in names if width(text, font(n)) <= room), names[-1])


def _hint(text: str, facts: Sequence[str | None], size: tuple[int, int]) -> list[Item]:
    """The bottom line: what the host buttons do here, and on the right the first of
    ``facts`` that fits (the fact, else its shorter form), if any."""
    w, h = size
    y = h - font("small").height
    items: list[Item] = [_text(text, "small", 0, y)]
    room = w - width(text, font("small")) - 10
    fact = next((f for f in facts if f and width(f, font("small")) <= room), None)
    if fact is not None:
        items.append(_right(fact, "small", w - 1, y))
    return items


def _title(text: str, w: int) -> Text:
    return _text(text, _fitting(text, w), 0, 0)


def _lines(texts: list[str], w: int, top: int = LIST_TOP, pitch: int = 12) -> list[Item]:
    """Lines one under the other, in one font (a sentence over two lines never changes
    size halfway): the first in which every line fits."""
    name = _fitting(max(texts, key=lambda t: width(t, font("body")), default=""), w)
    return [_text(t, name, 0, top + i * pitch) for i, t in enumerate(texts)]


def _list(texts: list[str], cursor: int, w: int) -> list[Item]:
    """Items one a line under the title, the cursor's inverted; a window of them that
    keeps the cursor in sight when they do not all fit."""
    room = (HEIGHT - font("small").height - LIST_TOP) // HIGHLIGHT
    first = min(max(0, cursor - room + 1), max(0, len(texts) - room))
    items: list[Item] = []
    for i, text in enumerate(texts[first : first + room]):
        y = LIST_TOP + i * HIGHLIGHT
        chosen = first + i == cursor
        if chosen:
            items.append(Box((0, y - 1, w - 1, y + HIGHLIGHT - 2)))
        items.append(_text(text, _fitting(text, w - 4), 2, y - 1, fill=0 if chosen else 1))
    return items


def _columns(lines: Sequence[Both], w: int, top: int, extra: tuple[str, ...] = ()) -> list[Item]:
    """Lines of text down to the hint: in one column if they fit (the long forms, else
    the short), else in two (three on a wide panel), parted by a rule; in the body font
    if that fits, else the small one. Every line in one form (the longest that fits them
    all): a screen never names one card whole and the next cut. ``extra`` lines follow,
    whole."""
    bottom = HEIGHT - font("small").height
    forms = ([b.long for b in lines], [b.short for b in lines], [b.tight for b in lines])
    split = (2, 3) if w >= 2 * WIDTH else (2,)
    for name, pitch in (("body", 12), ("small", 9)):
        for n in (1, *split):
            rows = -(-len(lines) // n) + len(extra)
            room = w if n == 1 else _column_room(w, n)
            if top + rows * pitch > bottom + 1:
                continue
            for texts in forms[:2] if n == 1 else forms:
                if all(width(t, font(name)) <= room for t in texts):
                    return _set(texts, n, name, pitch, w, top, extra)
    # Nothing fits: the shortest forms in the small font, as many columns as there are
    # (no shipped catalog comes here; a line too long would run past its column).
    return _set(forms[2], split[-1], "small", 9, w, top, extra)


def _longest(forms: tuple[str, ...], room: int, name: str) -> str:
    """The first of ``forms`` that fits ``room`` pixels in font ``name`` (else the last)."""
    return next((t for t in forms if width(t, font(name)) <= room), forms[-1])


GUTTER = 5  # pixels between columns of text: a rule in the middle, two blank either side


def _column_room(w: int, n: int) -> int:
    """The width of each of ``n`` columns of text side by side across ``w`` pixels."""
    return (w - GUTTER * (n - 1)) // n


def _set(
    texts: Sequence[str], n: int, name: str, pitch: int, w: int, top: int, extra: tuple[str, ...]
) -> list[Item]:
    """``texts`` in ``n`` columns, row by row (the first ``n`` side by side) with a rule
    between columns, then the ``extra`` lines, whole."""
    step = _column_room(w, n) + GUTTER
    items: list[Item] = [
        _text(t, name, (i % n) * step, top + (i // n) * pitch) for i, t in enumerate(texts) if t
    ]
    rows = -(-len(texts) // n)
    y = top + rows * pitch
    for c in range(1, min(n, len(texts))):
        # in the gutter, a pixel left of its middle: a cell's blank column is its last,
        # so the left column's ink ends a pixel before the gutter does
        x = c * step - GUTTER // 2 - 2
        items.append(Box((x, top, x, y - 2)))
    return items + [_text(t, _fitting(t, w), 0, y + i * pitch) for i, t in enumerate(extra)]


# --- the board -----------------------------------------------------------------------


def _space(w: int) -> int:
    """Pixels a space: the track leaves room for the icon, the value and the rate."""
    return max(4, (w - 32 - 30) // SPACES)


def _row(row: Row, y: int, w: int) -> list[Item]:
    """One board row: its picture, its value large, its track; the trader's rate after."""
    large = font("large")
    items: list[Item] = [
        Icon(row.name, 0, y + 2),
        _right(str(row.value), "large", 29, y - 2 - (large.height - 16)),
        Track(row.value, 32, y, _space(w), row.moved),
    ]
    return items + ([] if row.rate is None else _rate(row.rate, w, y))


def _rate(text: str, w: int, y: int) -> list[Item]:
    """The rate on the trader marker's space, right of the track."""
    x = 32 + SPACES * _space(w) + 2
    return [_text(text, _fitting(text, w - x), x, y)]


def _legend(lines: tuple[str, ...], w: int) -> list[Item]:
    """What the rate's mark means, right of the rows above the trader's (where no rate
    stands), a line a row, in the small font."""
    x = 32 + SPACES * _space(w) + 2
    y = (ROW - font("small").height) // 2
    return [_text(line, "small", x, y + i * ROW) for i, line in enumerate(lines)]


def _marks(labels: list[str], placed: list[int], need: int, w: int) -> list[Item]:
    """One large mark per seat, at a place of its own: an empty box while waiting, a
    filled pip for each card placed (how many, never which), inverted once locked in."""
    cell = w // max(len(labels), 1)
    box_w = min(cell - 4, 36)
    items: list[Item] = []
    for i, (label, n) in enumerate(zip(labels, placed, strict=True)):
        x0, y0 = i * cell + (cell - box_w) // 2, MARKS_Y
        locked = n >= need if need else n > 0  # need 0: seated or not, no pips
        items.append(Box((x0, y0, x0 + box_w - 1, y0 + MARK_H - 1), 1 if locked else 0, 1))
        items.append(_centred_in(label, x0, box_w, y0 + 1, 0 if locked else 1))
        pip_x = x0 + (box_w - (need * 6 - 2)) // 2
        for k in range(need):
            filled = k < n
            fill = (0 if locked else 1) if filled else None
            outline = 0 if locked else 1
            items.append(Box((pip_x + 6 * k, y0 + 11, pip_x + 6 * k + 3, y0 + 13), fill, outline))
    return items


def _centred_in(text: str, x0: int, w: int, y: int, fill: int) -> Text:
    name = _fitting(text, w - 2)
    return Text(text, name, x0 + (w - width(text, font(name))) // 2, y, fill)


def _label(seat: Seat, room: int) -> str:
    """A pad's name where it fits ``room`` pixels (in the small font at least), else its
    label P1.."""
    name = seat.name
    return name if name and width(name, font("small")) <= room else seat.label


# --- the screens ---------------------------------------------------------------------


def _plain(said: Said, content: Lines, w: int) -> list[Item]:
    """Resume, confirm and the settings' pages without a cursor: a title, lines."""
    return [_title(_titled(said), w), *_lines(list(content.lines), w)]


def _choices(said: Said, content: Choices, w: int) -> list[Item]:
    """The options, the menu, the settings' lists: a title, lines, the cursor's inverted."""
    return [_title(_titled(said), w), *_list(list(content.lines), content.cursor, w)]


def _seated(said: Said, content: Seated, w: int) -> list[Item]:
    marks = content.marks
    room = min(w // max(len(marks), 1) - 4, 36) - 2  # a mark's inside
    labels = [_label(m.seat, room) for m in marks]
    doing = content.say
    items = [_title(_titled(said), w), _text(doing, _fitting(doing, w), 0, 14)]
    return [*items, *_marks(labels, [m.placed for m in marks], 0, w)]


def _board(said: Said, content: Board, w: int) -> list[Item]:
    """The three rows, stacked: VP, goods, trader (as on the board); under them the
    seats' marks, or the countdown."""
    items: list[Item] = []
    for i, row in enumerate(content.rows):
        items += _row(row, i * ROW, w)
    items += _legend(content.legend, w)
    below = content.below
    if isinstance(below, Countdown):
        words = below.say
        x = (w - width(words, font("body")) - 4 - 8) // 2
        return [
            *items,
            _text(words, "body", x, MARKS_Y),
            _text(str(below.seconds), "large", x + width(words, font("body")) + 4, MARKS_Y - 3),
        ]
    labels = [m.seat.label for m in below.marks]
    return items + _marks(labels, [m.placed for m in below.marks], below.need, w)


def _per_seat(said: Said, content: PerSeat, w: int) -> list[Item]:
    """The reveal, and a step's gains under the row it moved."""
    items: list[Item] = [_title(_titled(said), w)]
    top = LIST_TOP
    if content.row is not None:
        items += _row(content.row, top, w)
        top += ROW + 1
    lines = content.lines
    bottom = HEIGHT - font("small").height
    body = font("body")
    whole = top + len(lines) * 12 <= bottom + 1 and all(width(x.long, body) <= w for x in lines)
    if not whole and any(line.tally for line in lines):
        tallies = _tallies(lines, w, top, content.extra)
        if tallies is not None:
            return items + tallies
    return items + _columns(lines, w, top, content.extra)


def _tallies(lines: Sequence[Both], w: int, top: int, extra: tuple[str, ...]) -> list[Item] | None:
    """Lines too long for the panel as numbers with their units' pictures ("P1 -3 [goods]
    +1 [vp]"; a line without, short): one column or two, the body font before the small
    one, lines closer before the small font, ``extra`` lines after, whole; None where
    even that does not fit. Words after the pictures ("(2 lost)") are kept in the small
    font before lines closer say only their number ("-2")."""
    bottom = HEIGHT - font("small").height
    worded = any(line.tally and line.tally.after for line in lines)
    for name, pitch, bare in TALLY_WORDED if worded else TALLY:
        for columns in (1, 2):
            rows = -(-len(lines) // columns) + len(extra)
            room = w if columns == 1 else w // 2 - 2
            said = [t for line in lines if (t := _tally_said(line, name, room, bare)) is not None]
            fits = len(said) == len(lines) and all(width(t, font(name)) <= w for t in extra)
            if not fits or top + rows * pitch > bottom + 1:
                continue
            items = [
                item
                for i, (line, after) in enumerate(zip(lines, said, strict=True))
                for item in _tally(
                    line, after, name, (i % columns) * (w // 2 + 2), top + (i // columns) * pitch
                )
            ]
            y = top + (rows - len(extra)) * pitch
            return items + [_text(t, name, 0, y + i * pitch) for i, t in enumerate(extra)]
    return None


# (font, pitch, whether words after the pictures give way to their last form, a number):
# body lines closer than its height leave no room for the descent of a parenthesis
TALLY = (("body", 12, False), ("body", 10, True), ("small", 9, False))
TALLY_WORDED = (("body", 12, False), ("small", 9, False), ("body", 10, True), ("small", 9, True))


def _tally_said(line: Both, name: str, room: int, bare: bool) -> str | None:
    """The words after a tally's pictures that let it fit ``room`` ("" where it has none;
    a line without a tally: its short form), None where nothing does; ``bare``: only the
    last form (the shortest, a number)."""
    f = font(name)
    if line.tally is None:
        return line.short if width(line.short, f) <= room else None
    amounts = line.tally.amounts
    used = width(line.tally.seat, f) + sum(
        f.advance - 1 + width(a, f) + UNIT + ICON for a, _ in amounts
    )
    forms = line.tally.after[-1:] if bare else line.tally.after
    for after in forms or ("",):
        if used + (f.advance - 1 + width(after, f) if after else 0) <= room:
            return after
    return None


UNIT = 1  # a pixel between a number and its unit's picture (and the digit's blank column)


def _tally(line: Both, after: str, name: str, x: int, y: int) -> list[Item]:
    """One line of a tally: the seat, then each amount and its picture, a space apart
    (less the blank column every glyph's cell has on its right), then ``after``."""
    f = font(name)
    if line.tally is None:
        return [_text(line.short, name, x, y)]
    items: list[Item] = [_text(line.tally.seat, name, x, y)]
    x += width(line.tally.seat, f)
    for amount, unit in line.tally.amounts:
        x += f.advance - 1
        items.append(_text(amount, name, x, y))
        x += width(amount, f) + UNIT
        items.append(Icon(unit, x, y + f.ascent - ICON))
        x += ICON
    if after:
        items.append(_text(after, name, x + f.advance - 1, y))
    return items


def _discards(said: Said, content: Discards, w: int) -> list[Item]:
    return [_title(_titled(said), w), *_lines([content.by, content.seats], w, LIST_TOP, 11)]


def _offer(said: Said, content: Offer, w: int) -> list[Item]:
    title = _titled(said)
    items: list[Item] = [_title(title, w)]
    items += _held(content, w - width(title, font("body")) - 6, w)
    items += _row(content.row, LIST_TOP, w)
    offer, buys, whole = content.offer, content.buys, content.whole
    if width(whole, font("body")) <= w:
        items.append(_text(whole, "body", 0, 29))
    else:  # the VP it buys large, on a line of its own
        big = ("large", "body", "small") if content.buying else ("body", "small")
        items += [
            _text(offer, _fitting(offer, w), 0, 27),
            _text(buys, _fitting(buys, w, big), 0, 36 if content.buying else 39),
        ]
    return items


def _held(content: Offer, room: int, w: int) -> list[Item]:
    """The goods the Trader holds, top right: in words, else the count before the goods'
    picture; nothing where even that leaves no room beside the title."""
    small = font("small")
    if width(content.held, small) <= room:
        return [_right(content.held, "small", w - 1, 2)]
    if not content.held_short or width(content.held_short, small) + UNIT + ICON > room:
        return []
    x = w - ICON
    return [
        _right(content.held_short, "small", x - UNIT - 1, 2),
        Icon("goods", x, 2 + small.ascent - ICON),
    ]


# --- tables: the scores and the ranking -----------------------------------------------


@dataclass(frozen=True, slots=True)
class _Column:
    """A table's column: its header's picture (None: the seats' column, left-aligned and
    without a header; the others are numbers, right-aligned), its font, a cell per row,
    and the rows whose cell is drawn inverted (the value that broke a tie)."""

    icon: str | None
    font: str
    cells: tuple[str, ...]
    marked: frozenset[int] = frozenset()

    @property
    def width(self) -> int:
        return max(width(cell, font(self.font)) for cell in self.cells)


SPREAD = 40  # at most this much room added between two columns: rows stay easy to follow


def _gap(a: str, b: str) -> int:
    """Pixels between cells of fonts ``a`` and ``b``: a character of the narrower font
    less one, which the blank column on the right of every digit's and letter's cell
    makes up. Two numbers side by side stay a character apart, never read as one."""
    return min(font(a).advance, font(b).advance) - 1


def _block_width(columns: Sequence[_Column], spread: int = 0) -> int:
    gaps = sum(_gap(a.font, b.font) + spread for a, b in pairwise(columns))
    return sum(c.width for c in columns) + gaps


def _table(
    columns: Sequence[_Column], blocks: int, w: int, header: int, top: int, pitch: int
) -> list[Item] | None:
    """The table's rows in ``blocks`` side by side (row i in block i % blocks), each with
    its columns' pictures on top at y ``header`` and its rows from ``top``, a rule between
    blocks; None if it is wider than ``w``. Room left over is spread between the columns,
    and the last block ends at the right edge: a wide panel's width is used."""
    edge = _gap(columns[-1].font, columns[0].font)  # between one block and the next
    bare = _block_width(columns)
    if blocks * bare + (blocks - 1) * edge > w:
        return None
    # room spread between the columns keeps three gaps round each rule: a block's last
    # number never reads as standing against the rule or the next block's seat
    per_block = (w - (blocks - 1) * 3 * edge) // blocks
    spread = max(0, min(SPREAD, (per_block - bare) // (len(columns) - 1)))
    block_w = _block_width(columns, spread)
    step = (w - block_w) // (blocks - 1) if blocks > 1 else 0
    items: list[Item] = []
    for b in range(blocks):
        x0 = b * step
        if b:  # the rule halfway between the blocks
            rule = x0 - (step - block_w + 1) // 2
            last = top + (-(-len(columns[0].cells) // blocks) - 1) * pitch  # the last row
            items.append(Box((rule, header + 8, rule, last + font("body").height - 2)))
        items += _block(columns, spread, x0, header, range(b, len(columns[0].cells), blocks))
        items += _rows(columns, spread, x0, top, pitch, range(b, len(columns[0].cells), blocks))
    return items


def _block(
    columns: Sequence[_Column], spread: int, x0: int, header: int, rows: range
) -> list[Item]:
    """A block's header: each number column's picture, centred over it."""
    if not rows:
        return []
    items: list[Item] = []
    x = x0
    for i, column in enumerate(columns):
        if i:
            x += _gap(columns[i - 1].font, column.font) + spread
        if column.icon is not None:
            # over a column narrower than itself, it ends where the column ends
            centred = x + (column.width - ICON) // 2
            items.append(Icon(column.icon, min(centred, x + column.width - ICON), header))
        x += column.width
    return items


SHIFT = {"small": 2, "body": 0, "large": -3, "huge": -7}  # one baseline for every font


def _rows(
    columns: Sequence[_Column], spread: int, x0: int, top: int, pitch: int, rows: range
) -> list[Item]:
    items: list[Item] = []
    x = x0
    for i, column in enumerate(columns):
        if i:
            x += _gap(columns[i - 1].font, column.font) + spread
        for k, row in enumerate(rows):
            y = top + k * pitch + SHIFT[column.font]
            text = column.cells[row]
            right = x + column.width - 1
            cell = _text(text, column.font, x, y) if column.icon is None else None
            cell = cell or _right(text, column.font, right, y)
            items += _marked(cell) if row in column.marked else [cell]
        x += column.width
    return items


def _marked(cell: Text) -> list[Item]:
    """A cell inverted: light on a box one pixel wider than its ink all round."""
    box = _lit(cell)
    assert box is not None, "a marked cell shows a value"
    x0, y0, x1, y1 = box
    return [Box((x0 - 1, y0 - 1, x1 + 1, y1 + 1)), Text(cell.text, cell.font, cell.x, cell.y, 0)]


def _first_table(
    tables: Sequence[tuple[Sequence[_Column], int]], w: int, header: int, top: int, pitch: int
) -> list[Item]:
    """The first of ``tables`` (columns, blocks) that fits ``w``; the last one always must."""
    for columns, blocks in tables:
        laid = _table(columns, blocks, w, header, top, pitch)
        if laid is not None:
            return laid
    raise AssertionError(f"no table fits {w} pixels")


# (the seats' column: names or labels and its font; then each number column's font)
SCORE_FONTS = (
    (True, "body", "large", "large", "body"),
    (False, "body", "large", "large", "body"),
    (True, "body", "large", "body", "body"),
    (False, "body", "large", "body", "body"),
    (False, "body", "large", "body", "small"),
    (False, "body", "body", "body", "small"),
    (False, "small", "small", "small", "small"),
)


def _scores(said: Said, content: Scores, w: int) -> list[Item]:
    """A row per seat: its name (or label), VP, goods and cards in hand, under a picture
    per column; past three seats in two blocks side by side, a rule between them. Fonts
    and names give way, largest first, until every number stands apart from the next."""
    lines = content.lines
    n = len(lines)
    blocks = 1 if n <= 3 else 2
    pitch = 13 if blocks == 2 or n == 3 else 16
    tables = []
    for named, label, vp, goods, hand in SCORE_FONTS:
        seats = tuple(p.seat.named if named else p.seat.label for p in lines)
        columns = (
            _Column(None, label, seats),
            _Column("vp", vp, tuple(str(p.vp) for p in lines)),
            _Column("goods", goods, tuple(str(p.goods) for p in lines)),
            _Column("hand", hand, tuple(str(p.cards) for p in lines)),
        )
        tables.append((columns, blocks))
    return _first_table(tables, w, 0, 9, pitch)


RANKING_FONTS = (
    (True, "body", "large", "body", "body"),
    (False, "body", "large", "body", "body"),
    (False, "body", "large", "small", "small"),
    (False, "body", "body", "small", "small"),
    (False, "small", "small", "small", "small"),
)


def _ranking(said: Said, content: Ranking, w: int) -> list[Item]:
    """The title (the winner), then a row per place best first: the place and the seat,
    its VP, and what breaks a tie on VP: the goods left (and the cards in hand, when they
    broke one), the value that broke a tie inverted. A wide panel says how, under them."""
    title = _titled(said)
    if width(title, font("small")) > w:  # the winner's name leaves no room: P1..
        title = content.title_short
    places = content.places
    n = len(places)
    blocks = 1 if n <= 3 else (2 if n <= 4 or w < 2 * WIDTH else 3)
    rows = -(-n // blocks)
    pitch = 14 if rows <= 2 else 12
    tables = []
    for named, label, vp, goods, cards in RANKING_FONTS:
        seats = tuple(f"{p.place}.{p.seat.named if named else p.seat.label}" for p in places)
        columns = [
            _Column(None, label, seats),
            _Column("vp", vp, tuple(str(p.vp) for p in places)),
            _Column("goods", goods, *_tie_break(places, "goods")),
        ]
        if content.cards:
            columns.append(_Column("hand", cards, *_tie_break(places, "cards")))
        tables.append((columns, blocks))
    items: list[Item] = [_title(title, w)]
    items += _first_table(tables, w, LIST_TOP - 1, LIST_TOP + 8, pitch)
    tie = (content.tie, content.tie_short or content.tie) if content.tie else None
    return items + _tie(tie, w, LIST_TOP + 8 + rows * pitch - 2)


def _tie_break(places: Sequence[Place], value: str) -> tuple[tuple[str, ...], frozenset[int]]:
    """A tie-break's cells (the goods left or the cards in hand), and the rows it split."""
    cells = tuple(str(getattr(p, value)) for p in places)
    return cells, frozenset(i for i, p in enumerate(places) if value in p.split)


def _tie(tie: tuple[str, str] | None, w: int, top: int) -> list[Item]:
    """How a tie was broken, in words (said at length, or else shorter), on a line of its
    own where there is one."""
    bottom = HEIGHT - font("small").height  # the hint's line
    if tie is None or top + font("small").height > bottom:
        return []
    said = _longest(tie, w, "small")
    return [_text(said, "small", 0, top)] if width(said, font("small")) <= w else []


def _titled(said: Said) -> str:
    assert said.title is not None, f"{type(said.content).__name__} has a title"
    return said.title


def _items(said: Said, w: int) -> list[Item]:
    content = said.content
    if isinstance(content, Lines):
        return _plain(said, content, w)
    if isinstance(content, Choices):
        return _choices(said, content, w)
    if isinstance(content, Seated):
        return _seated(said, content, w)
    if isinstance(content, Board):
        return _board(said, content, w)
    if isinstance(content, PerSeat):
        return _per_seat(said, content, w)
    if isinstance(content, Discards):
        return _discards(said, content, w)
    if isinstance(content, Offer):
        return _offer(said, content, w)
    if isinstance(content, Scores):
        return _scores(said, content, w)
    return _ranking(said, content, w)


# --- drawing ------------------------------------------------------------------------


def render(screen: Screen) -> Image.Image:
    """Draw a screen: a pure function of it."""
    image = Image.new("1", screen.size)
    canvas = ImageDraw.Draw(image)
    for item in screen.items:
        _draw(canvas, item)
    notice = _notice(screen)
    if notice is not None:
        w, h = screen.size
        canvas.rectangle((0, MARKS_Y - 1, w - 1, h - 1), fill=0, outline=1)
        _draw_text(canvas, notice)
    return image


def _notice(screen: Screen) -> Text | None:
    """The notice's text, in a box of its own over the bottom of the screen."""
    if not screen.notice:
        return None
    w, h = screen.size
    name = _fitting(screen.notice, w - 6)
    return Text(screen.notice, name, 3, (MARKS_Y + h - font(name).height) // 2)


def _draw(canvas: ImageDraw.ImageDraw, item: Item) -> None:
    if isinstance(item, Text):
        _draw_text(canvas, item)
    elif isinstance(item, Box):
        canvas.rectangle(item.box, fill=item.fill, outline=item.outline)
    elif isinstance(item, Icon):
        canvas.bitmap((item.x, item.y), icon(item.name), fill=1)
    else:
        _draw_track(canvas, item)


def _draw_text(canvas: ImageDraw.ImageDraw, item: Text) -> None:
    draw_text(canvas, (item.x, item.y), item.text, font(item.font), item.fill)


def _draw_track(canvas: ImageDraw.ImageDraw, item: Track) -> None:
    """A line with a dot under every space and a tick at 0, 5, 10 and 15; the marker a
    bar standing on its space."""
    x, y, sp = item.x, item.y, item.space
    base = y + ROW - 3
    canvas.line((x, base, x + SPACES * sp - 1, base), fill=1)
    marker = min(sp - 1, 5)
    for space in range(SPACES):
        centre = x + space * sp + sp // 2
        canvas.point((centre, base + 2), fill=1)
        if space % 5 == 0:
            canvas.line((centre, base - 1, centre, base + 2), fill=1)
    if item.moved is not None and item.moved != item.value:
        left = x + item.moved * sp + (sp - marker) // 2
        canvas.rectangle((left, y + 1, left + marker - 1, base - 2), outline=1)
    left = x + item.value * sp + (sp - marker) // 2
    canvas.rectangle((left, y, left + marker - 1, base - 1), fill=1)


# --- for the fit test ----------------------------------------------------------------


def pieces(screen: Screen) -> list[tuple[Item, tuple[int, int, int, int]]]:
    """Every text, icon and track with the box (x0, y0, x1, y1, inclusive) of what it
    lights; boxes (backgrounds) are left out. Nothing may leave the canvas, and no two
    of these may touch."""
    out: list[tuple[Item, tuple[int, int, int, int]]] = []
    for item in screen.items:
        if isinstance(item, Text):
            box = _lit(item)
            if box is not None:
                out.append((item, box))
        elif isinstance(item, Icon):
            out.append((item, (item.x, item.y, item.x + ICON - 1, item.y + ICON - 1)))
        elif isinstance(item, Track):
            out.append((item, (item.x, item.y, item.x + SPACES * item.space - 1, item.y + ROW - 1)))
    return out


def notice_box(screen: Screen) -> tuple[int, int, int, int] | None:
    """The notice's text box, drawn over everything else (so it may cover other pieces)."""
    notice = _notice(screen)
    return None if notice is None else _lit(notice)


def _lit(item: Text) -> tuple[int, int, int, int] | None:
    """The box of the pixels ``item`` lights on the canvas, inclusive; None if none."""
    box = ink(item.text, font(item.font))
    if box is None:
        return None
    x0, y0, x1, y1 = box
    return (item.x + x0, item.y + y0, item.x + x1 - 1, item.y + y1 - 1)


__all__ = [
    "HEIGHT",
    "SIZE",
    "WIDTH",
    "Screen",
    "draw",
    "layout",
    "pieces",
    "render",
    "screen",
    "splash",
]
