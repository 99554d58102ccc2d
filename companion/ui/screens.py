"""Screens: the public view turned into a model, laid out, and drawn on a 1-bit canvas.

``screen(view, words)`` builds a ``Screen`` (data: the words and marks one frame
shows) from ``table.public_view()``, never from the table itself, so a hidden choice
cannot reach the panel. ``layout(screen)`` places every piece of text; ``render``
draws that layout with pixel fonts shipped as data (luma's legacy fonts), so every
machine draws the same pixels. The fit test checks ``layout`` for every screen.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import zip_longest

from luma.core.legacy import text as draw_text
from luma.core.legacy import textsize
from luma.core.legacy.font import LCD_FONT, TINY_FONT, proportional
from PIL import Image, ImageDraw

from ..rules import Beggar, Bonus, Discard, Share, Trade
from ..table.view import (
    ChoosingView,
    ConfirmView,
    JoinView,
    MenuView,
    OptionsView,
    OverView,
    ResumeView,
    RevealView,
    ScoresView,
    StepView,
    TradeView,
    View,
)
from . import settings_screens
from .catalog import Catalog

WIDTH, HEIGHT = 128, 64
BODY = proportional(LCD_FONT)  # ink on rows 0..6 of a line
SMALL = proportional(TINY_FONT)  # ink on rows 1..5
LINE = 8  # body line pitch in pixels
HEADER_RULE = 7  # the line under the board rows
MARKS_Y = HEIGHT - 7
MARK_STEP = WIDTH // 6


@dataclass(frozen=True)
class Screen:
    """Everything one frame shows, as data. A line is one or more cells (columns)."""

    title: str = ""
    lines: tuple[tuple[str, ...], ...] = ()
    header: str | None = None  # the board rows, while a game is on
    # per seat: its label, and 0 waiting, 1 some cards placed, 2 locked in
    marks: tuple[tuple[str, int], ...] | None = None
    notice: str | None = None  # a short message over the body
    cursor: int | None = None  # the highlighted line (options, menu)
    big: str | None = None  # one large word or number (splash, countdown)
    footer: str | None = None  # a line at the bottom edge (the splash's subtitle)
    tabs: tuple[int, ...] = (2, WIDTH // 2 + 2)  # where each cell of a line starts


@dataclass(frozen=True, slots=True)
class Placed:
    """A piece of text where ``render`` draws it; ``box`` is (x0, y0, x1, y1) of its ink."""

    text: str
    font: object
    x: int
    y: int
    box: tuple[int, int, int, int]


def _placed(text: str, font, x: int, y: int) -> Placed:
    x0, y0, x1, y1 = _ink(text, font is SMALL)
    return Placed(text, font, x, y, (x + x0, y + y0, x + x1, y + y1))


@lru_cache(maxsize=512)
def _ink(text: str, small: bool) -> tuple[int, int, int, int]:
    """The box of the pixels ``text`` lights, from its origin: exact, as drawn."""
    font = SMALL if small else BODY
    width, _ = textsize(text, font)
    img = Image.new("1", (width + 8, LINE))
    draw_text(ImageDraw.Draw(img), (0, 0), text, fill=1, font=font)
    x0, y0, x1, y1 = img.getbbox() or (0, 0, 1, 1)
    return x0, y0, x1 - 1, y1 - 1


# --- layout and drawing --------------------------------------------------------------


def body_top(screen: Screen) -> int:
    top = HEADER_RULE + 2 if screen.header is not None else 1
    return top + LINE + 1 if screen.title else top


def capacity(screen: Screen) -> int:
    """How many body lines fit between the title and the marks (or the bottom)."""
    bottom = MARKS_Y - 1 if screen.marks is not None else HEIGHT
    return (bottom - body_top(screen) + 1) // LINE


NOTICE_Y = HEIGHT - 18


def notice_piece(screen: Screen) -> Placed | None:
    """The notice, drawn on a box of its own over the body (so it may cover other text)."""
    return _placed(screen.notice, BODY, 3, NOTICE_Y) if screen.notice else None


def layout(screen: Screen) -> tuple[Placed, ...]:
    """Every piece of text of ``screen`` with its place, the notice aside."""
    out = []
    if screen.header is not None:
        out.append(_placed(screen.header, SMALL, 0, 0))
    y = HEADER_RULE + 2 if screen.header is not None else 1
    if screen.title:
        out.append(_placed(screen.title, BODY, 0, y))
    top = body_top(screen)
    for i, cells in enumerate(screen.lines):
        for x, cell in zip(screen.tabs, cells, strict=False):
            if cell:
                out.append(_placed(cell, BODY, x, top + i * LINE))
    if screen.footer:
        out.append(_placed(screen.footer, BODY, 2, HEIGHT - LINE))
    if screen.marks is not None:
        for seat, (label, _) in enumerate(screen.marks):
            out.append(_placed(label, SMALL, seat * MARK_STEP, MARKS_Y))
    return tuple(out)


def render(screen: Screen) -> Image.Image:
    """Draw a screen model: a pure function of it."""
    img = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(img)
    if screen.header is not None:
        draw.line((0, HEADER_RULE, WIDTH - 1, HEADER_RULE), fill=1)
    top = body_top(screen)
    if screen.cursor is not None and screen.cursor < len(screen.lines):
        y = top + screen.cursor * LINE
        draw.rectangle((0, y - 1, WIDTH - 1, y + LINE - 1), fill=1)
    for piece in layout(screen):
        on_cursor = screen.cursor is not None and piece.y == top + screen.cursor * LINE
        draw_text(draw, (piece.x, piece.y), piece.text, fill=0 if on_cursor else 1, font=piece.font)
    if screen.big is not None:
        x, y, _, _ = big_box(screen)
        draw.bitmap((x, y), _big_glyphs(screen.big), fill=1)
    if screen.marks is not None:
        _marks(draw, screen.marks)
    if screen.notice:
        y = NOTICE_Y
        draw.rectangle((0, y - 2, WIDTH - 1, y + LINE), fill=0, outline=1)
        draw_text(draw, (3, y), screen.notice, fill=1, font=BODY)
    return img


def _marks(draw: ImageDraw.ImageDraw, marks: tuple[tuple[str, int], ...]) -> None:
    """One mark per seat at a fixed place, so a seat's change redraws only its own:
    an empty box while waiting, a dot once some cards are placed, filled when locked."""
    for seat, (_, mark) in enumerate(marks):
        x = seat * MARK_STEP + 10
        draw.rectangle((x, MARKS_Y, x + 5, MARKS_Y + 5), fill=1 if mark == 2 else 0, outline=1)
        if mark == 1:
            draw.rectangle((x + 2, MARKS_Y + 2, x + 3, MARKS_Y + 3), fill=1)


def _big_glyphs(word: str) -> Image.Image:
    """A word at the largest whole scale (up to 3) that fits the width."""
    small = Image.new("1", (WIDTH, LINE))
    draw_text(ImageDraw.Draw(small), (0, 0), word, fill=1, font=BODY)
    box = small.getbbox() or (0, 0, 1, 1)
    width, height = box[2] - box[0], box[3] - box[1]
    scale = max(1, min(3, (WIDTH - 4) // width))
    return small.crop(box).resize((width * scale, height * scale))


def big_box(screen: Screen) -> tuple[int, int, int, int] | None:
    """Where the big word goes: centred, below the body lines (alone: mid-screen)."""
    if screen.big is None:
        return None
    glyphs = _big_glyphs(screen.big)
    x = (WIDTH - glyphs.width) // 2
    if screen.lines or screen.title:
        y = body_top(screen) + len(screen.lines) * LINE + 2
    else:
        y = (HEIGHT - LINE - glyphs.height) // 2
    return (x, y, x + glyphs.width - 1, y + glyphs.height - 1)


# --- from the view to a screen --------------------------------------------------------


def screen(view: View, words: Catalog) -> Screen:
    """The screen for a public view, in the catalog's language."""
    kind = type(view.body)
    if kind in settings_screens.BUILDERS:
        built = Screen(**settings_screens.BUILDERS[kind](view.body, words))
    else:
        built = _BUILDERS[kind](view.body, words)
    header = _header(view, words) if view.board is not None else None
    notice = None
    if view.notice is not None:
        key, values = view.notice
        shown = {k: words.seat(v) if k == "seat" else v for k, v in values}
        notice = words.t(key, **shown)
    return replace(built, header=header, notice=notice)


def draw(view: View, words: Catalog) -> Image.Image:
    return render(screen(view, words))


def splash(words: Catalog) -> Screen:
    return Screen(big=words.t("screen.splash"), footer=words.t("screen.splash_sub"))


def _header(view: View, words: Catalog) -> str:
    rows, rate = view.board.rows, view.board.rate
    rate_text = str(rate) if rate is not None else "-"
    if not view.board.verified:
        rate_text += "?"
    return words.t(
        "screen.header", vp=rows.vp, goods=rows.goods, trader=rows.trader, rate=rate_text
    )


def _one_per_line(items: list[str]) -> tuple[tuple[str, ...], ...]:
    return tuple((item,) for item in items)


def _columns(items: list[str], room: int) -> tuple[tuple[str, ...], ...]:
    """One item to a line when they fit ``room`` lines, else two columns."""
    if len(items) <= room:
        return _one_per_line(items)
    return tuple(zip_longest(items[::2], items[1::2], fillvalue=""))


def _resume(body: ResumeView, w: Catalog) -> Screen:
    lines = (
        w.t("screen.resume_game", players=body.players, n=body.rounds),
        w.t("screen.resume_backup") if body.backup else "",
        w.t("screen.resume_ok"),
        w.t("screen.resume_new"),
    )
    return Screen(w.t("screen.resume"), _one_per_line(list(lines)))


def _join(body: JoinView, w: Catalog) -> Screen:
    lines = [w.t("screen.join_hint"), w.t("screen.join_ok", n=sum(body.joined))]
    marks = tuple((w.seat(pad), 2 if joined else 0) for pad, joined in enumerate(body.joined))
    return Screen(w.t("screen.join"), _one_per_line(lines), marks=marks)


def _options(body: OptionsView, w: Catalog) -> Screen:
    name = w.t(f"board.{body.board}") if body.board else w.t("board.custom")
    if not body.verified:
        name += "?"
    values = {"board": name, "target": body.target}
    lines = [w.t(f"screen.option.{item}", **values) for item in body.items]
    return Screen(w.t("screen.options"), _one_per_line(lines), cursor=body.cursor)


def _choosing(body: ChoosingView, w: Catalog) -> Screen:
    marks = tuple(
        (w.seat(seat), 0 if n == 0 else 2 if n == body.need else 1)
        for seat, n in enumerate(body.placed)
    )
    title = w.t("screen.round", n=body.round)
    if body.countdown is not None:
        return Screen(title, ((w.t("screen.countdown"),),), marks=marks, big=str(body.countdown))
    return Screen(title, ((w.t("screen.choose", n=body.need),),), marks=marks)


def _reveal(body: RevealView, w: Catalog) -> Screen:
    lines = [
        f"{w.seat(seat)} {' '.join(w.short_card(c) for c in cards)}"
        for seat, cards in enumerate(body.plays)
    ]
    return Screen(w.t("screen.reveal"), _columns(lines, 5))


def _step(body: StepView, w: Catalog) -> Screen:
    step = body.step
    times = w.t("screen.times", n=len(step.gains)) if len(step.gains) > 1 else ""
    title = w.card(step.card) + times if step.card else ""
    extra: list[str] = []
    if isinstance(step, Share):
        row = w.t(f"screen.row.{step.row.value}")
        extra.append(w.t("screen.row_move", row=row, before=step.before, after=step.after))
    elif isinstance(step, Trade):
        key = "screen.marker" if step.pushback else "screen.marker_on"
        extra.append(w.t(key, before=step.before, space=step.space))
    elif isinstance(step, Beggar):
        extra.append(w.t("screen.take_back"))
    elif isinstance(step, Bonus):
        extra.append(w.t("screen.not_from_board"))
    elif isinstance(step, Discard):
        seats = " ".join(w.seat(s) for s, _ in step.cards)
        lines = ((w.t("screen.discards"),), (seats,))
        return Screen(w.t("screen.discard"), lines)
    gains = _gains(step, w, short=len(step.gains) > 5 - len(extra))
    lines = _columns(gains, 5 - len(extra))
    if isinstance(step, Trade):
        return Screen(title, (*_one_per_line(extra), *lines))
    return Screen(title, (*lines, *_one_per_line(extra)))


def _gains(step, w: Catalog, short: bool) -> list[str]:
    out = []
    for g in step.gains:
        seat = w.seat(g.seat)
        if isinstance(step, Trade):
            key = "screen.trade_gain_short" if short else "screen.trade_gain"
            out.append(w.t(key, seat=seat, spent=-g.goods, vp=g.vp))
        elif g.vp or (isinstance(step, Bonus) and step.in_vp):
            out.append(w.t("screen.gain_vp", seat=seat, n=g.vp))
        else:
            out.append(w.t("screen.gain_goods", seat=seat, n=g.goods))
    return out


def _trade(body: TradeView, w: Catalog) -> Screen:
    rates = " ".join(str(r) for r in body.rates[:3])
    lines = [
        w.t("screen.trade_rates", space=body.space, rates=rates),
        w.t("screen.trade_offer", spent=body.spent, held=body.held),
        w.t("screen.trade_vp", vp=body.vp),
        w.t("screen.trade_keys"),
    ]
    return Screen(w.t("screen.trade", seat=w.seat(body.seat)), _one_per_line(lines), cursor=1)


SCORE_TABS = (2, 40, 62, 98)  # seat, VP, goods, cards in hand


def _scores(body: ScoresView, w: Catalog) -> Screen:
    """A table: the round and the column names on top, a line per seat below."""
    heading = (
        w.t("screen.scores", n=body.round),
        w.t("screen.score.vp"),
        w.t("screen.score.goods"),
        w.t("screen.score.cards"),
    )
    lines = [(w.seat(s), str(p.vp), str(p.goods), str(p.cards)) for s, p in enumerate(body.players)]
    return Screen(lines=(heading, *lines), tabs=SCORE_TABS)


def _over(body: OverView, w: Catalog) -> Screen:
    end = body.outcome
    lines = [
        w.t("screen.place", place=place, seat=w.seat(s), vp=end.vp[s])
        for place, seats in end.places
        for s in seats
    ]
    title = w.t("screen.winner" if len(end.winners) == 1 else "screen.shared")
    return Screen(title, (*_columns(lines, 4), (w.t("screen.new_game"),)))


def _menu(body: MenuView, w: Catalog) -> Screen:
    lines = [w.t(f"screen.menu.{item}") for item in body.items]
    return Screen(w.t("screen.menu"), _one_per_line(lines), cursor=body.cursor)


def _confirm(body: ConfirmView, w: Catalog) -> Screen:
    lines = [*w.t(f"screen.confirm.{body.action}").split("\n"), "", w.t("screen.confirm_keys")]
    return Screen(w.t("screen.confirm"), _one_per_line(lines))


_BUILDERS = {
    ResumeView: _resume,
    JoinView: _join,
    OptionsView: _options,
    ChoosingView: _choosing,
    RevealView: _reveal,
    StepView: _step,
    TradeView: _trade,
    ScoresView: _scores,
    OverView: _over,
    MenuView: _menu,
    ConfirmView: _confirm,
}
