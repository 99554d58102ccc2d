"""Screens: the public view turned into a picture, on a canvas of any size.

``screen(view, words, size)`` builds a ``Screen`` from ``table.public_view()`` (never
from the table itself, so a hidden choice cannot reach the panel): data saying what to
draw where, in the catalog's language. ``render(screen)`` draws it on a 1-bit canvas; it
is a pure function of the screen, with the pixel fonts of ``font.py``. ``pieces(screen)``
gives every piece's box, for the fit test.

The main picture, while the seats choose, is the board: its three rows as tracks of the
spaces 0..15 with their markers, each value large, and one large mark per seat. Every
screen ends with a one-line hint saying what the host buttons do there.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import zip_longest

from PIL import Image, ImageDraw

from ..rules import Beggar, Bonus, Discard, Share, Trade
from ..table.view import (
    BoardView,
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
from .font import draw_text, font, ink, width
from .icons import SIZE as ICON
from .icons import icon

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
    w = size[0]
    words = words.with_bots(view.bots)
    build = _BUILDERS.get(type(view.body), _settings)
    items, hint, right = build(view, words, w)
    notice = None
    if view.notice is not None:
        key, values = view.notice
        notice = words.t(key, **{k: _named(words, k, v) for k, v in values})
    return Screen(size, (*items, *_hint(words.t(hint), right, size)), notice)


def _named(words: Catalog, name: str, value: object) -> object:
    """A notice's value as people read it: a seat's name, a card's, a host button's."""
    if name == "seat":
        return words.seat(value)
    if name == "card":
        return words.card(value)
    if name == "button":
        return words.t(f"keys.{value}")
    return value


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


def _hint(text: str, right: str | None, size: tuple[int, int]) -> list[Item]:
    """The bottom line: what the host buttons do here, and a fact on the right."""
    w, h = size
    y = h - font("small").height
    items: list[Item] = [_text(text, "small", 0, y)]
    if right and width(text, font("small")) + 10 + width(right, font("small")) <= w:
        items.append(_right(right, "small", w - 1, y))
    return items


def _title(text: str, w: int) -> Text:
    return _text(text, _fitting(text, w), 0, 0)


def _lines(texts: list[str], w: int, top: int = LIST_TOP, pitch: int = 12) -> list[Item]:
    return [_text(t, _fitting(t, w), 0, top + i * pitch) for i, t in enumerate(texts)]


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


def _columns(
    full: list[str], short: list[str], w: int, top: int, extra: tuple[str, ...] = ()
) -> list[Item]:
    """Lines of text down to the hint: in one column if they fit (the long forms, else
    the short), else in two, each line long where it fits a column and short where not;
    in the body font if that fits, else the small one. ``extra`` lines follow, whole."""
    bottom = HEIGHT - font("small").height
    half = w // 2 - 2
    for name, pitch in (("body", 12), ("small", 9)):
        f = font(name)
        for texts in (full, short):
            rows = len(texts) + len(extra)
            if top + rows * pitch <= bottom + 1 and all(width(t, f) <= w for t in texts):
                return _set(texts, (), name, pitch, w, top, extra)
        texts = [a if width(a, f) <= half else b for a, b in zip(full, short, strict=True)]
        rows = (len(texts) + 1) // 2 + len(extra)
        fits = top + rows * pitch <= bottom + 1 and all(width(t, f) <= half for t in texts)
        if fits or name == "small":
            return _set(texts[::2], texts[1::2], name, pitch, w, top, extra)
    raise AssertionError("unreachable: the small font always lays out")


def _set(left, right, name: str, pitch: int, w: int, top: int, extra) -> list[Item]:
    items: list[Item] = []
    for i, (a, b) in enumerate(zip_longest(left, right, fillvalue="")):
        items.append(_text(a, name, 0, top + i * pitch))
        if b:
            items.append(_text(b, name, w // 2 + 2, top + i * pitch))
    y = top + max(len(left), len(right)) * pitch
    return items + [_text(t, _fitting(t, w), 0, y + i * pitch) for i, t in enumerate(extra)]


# --- the board -----------------------------------------------------------------------


def _space(w: int) -> int:
    """Pixels a space: the track leaves room for the icon, the value and the rate."""
    return max(4, (w - 32 - 30) // SPACES)


def _row(name: str, value: int, y: int, w: int, moved: int | None = None) -> list[Item]:
    """One board row: its picture, its value large, its track."""
    large = font("large")
    return [
        Icon(name, 0, y + 2),
        _right(str(value), "large", 29, y - 2 - (large.height - 16)),
        Track(value, 32, y, _space(w), moved),
    ]


def _rate(board: BoardView, w: int, y: int) -> list[Item]:
    """The rate on the trader marker's space, ``?`` while the shipped table is unverified."""
    rate = board.rate
    text = "-" if rate is None else f"{rate.goods}:{rate.vp}"
    if not board.verified:
        text += "?"
    x = 32 + SPACES * _space(w) + 2
    return [_text(text, _fitting(text, w - x), x, y)]


def _board(board: BoardView, w: int) -> list[Item]:
    """The three rows, stacked: VP, goods, trader (as on the board)."""
    items: list[Item] = []
    moved = dict([board.moved]) if board.moved else {}
    for i, name in enumerate(("vp", "goods", "trader")):
        items += _row(name, getattr(board.rows, name), i * ROW, w, moved.get(name))
    return items + _rate(board, w, 2 * ROW)


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


def _named_labels(view: View, w: Catalog, seats: int) -> list[str]:
    """Each seat's name, or its label P1.. where it has none."""
    return [_seat_name(view, s) or w.seat(s) for s in range(seats)]


def _label_width(labels: list[str]) -> int:
    """The widest label in the body font; at least a seat label's (P1)."""
    return max(12, *(width(label, font("body")) for label in labels))


def _label(seat: str, name: str | None, room: int) -> str:
    """A pad's name where it fits ``room`` pixels (in the small font at least), else its
    label P1.."""
    return name if name and width(name, font("small")) <= room else seat


def _seat_name(view: View, seat: int) -> str | None:
    names = view.body.names  # the scores' and the ranking's
    return names[seat] if seat < len(names) else None


# --- the screens ---------------------------------------------------------------------


Built = tuple[list[Item], str, str | None]  # the items, the hint's key, the hint's right


def _resume(view: View, w: Catalog, width_: int) -> Built:
    body: ResumeView = view.body
    lines = [w.t("screen.resume_game", players=body.players, n=body.rounds)]
    if body.backup:
        lines.append(w.t("screen.resume_backup"))
    return [_title(w.t("screen.resume"), width_), *_lines(lines, width_)], "hint.resume", None


def _join(view: View, w: Catalog, width_: int) -> Built:
    body: JoinView = view.body
    seated = [1 if j else 0 for j in body.joined]
    room = min(width_ // max(len(body.joined), 1) - 4, 36) - 2  # a mark's inside
    labels = [_label(w.seat(pad), name, room) for pad, name in enumerate(body.names)]
    labels += [w.seat(pad) for pad in range(len(labels), len(body.joined))]
    say = w.t("screen.join_hint")
    items = [_title(w.t("screen.join"), width_), _text(say, _fitting(say, width_), 0, 14)]
    right = w.t("screen.seated", n=sum(body.joined))
    return [*items, *_marks(labels, seated, 0, width_)], "hint.join", right


def _options(view: View, w: Catalog, width_: int) -> Built:
    body: OptionsView = view.body
    name = w.t(f"board.{body.board}") if body.board else w.t("board.custom")
    if not body.verified:
        name += "?"
    values = {"board": name, "target": body.target}
    lines = [w.t(f"screen.option.{item}", **values) for item in body.items if item != "bot"]
    lines[2:2] = _bot_options(body, w)
    item = body.items[body.cursor]
    hint = "hint.start" if item == "start" else "hint.option_first" if body.first else "hint.option"
    items = [_title(w.t("screen.options"), width_), *_list(lines, body.cursor, width_)]
    return items, hint, None


def _bot_options(body: OptionsView, w: Catalog) -> list[str]:
    """A line per bot seat, "B3: bot, strong", and one to add a bot if a seat is left."""
    seats = (w.t("seat.bot", n=body.people + i + 1) for i in range(len(body.bots)))
    lines = [
        w.t("screen.option.bot", seat=seat, strength=w.t(f"bot.{strength}"))
        for seat, strength in zip(seats, body.bots, strict=True)
    ]
    if body.items.count("bot") > len(body.bots):
        lines.append(w.t("screen.option.add_bot"))
    return lines


def _choosing(view: View, w: Catalog, width_: int) -> Built:
    body: ChoosingView = view.body
    items = _board(view.board, width_)
    round_ = w.t("screen.round", n=body.round)
    if body.countdown is not None:
        say = w.t("screen.countdown")
        x = (width_ - width(say, font("body")) - 4 - 8) // 2
        items += [
            _text(say, "body", x, MARKS_Y),
            _text(str(body.countdown), "large", x + width(say, font("body")) + 4, MARKS_Y - 3),
        ]
        return items, "hint.countdown", round_
    labels = [w.seat(s) for s in range(len(body.placed))]
    items += _marks(labels, list(body.placed), body.need, width_)
    hint = "hint.supply" if view.phase.value == "supply" else "hint.choose"
    return items, hint, round_


def _reveal(view: View, w: Catalog, width_: int) -> Built:
    body: RevealView = view.body
    full = [
        f"{w.seat(s)} {' '.join(w.card(c) for c in cards)}" for s, cards in enumerate(body.plays)
    ]
    short = [
        f"{w.seat(s)} {' '.join(w.short_card(c) for c in cards)}"
        for s, cards in enumerate(body.plays)
    ]
    items = [_title(w.t("screen.reveal"), width_), *_columns(full, short, width_, LIST_TOP)]
    return items, "hint.next", w.t("screen.round", n=body.round)


def _step(view: View, w: Catalog, width_: int) -> Built:
    body: StepView = view.body
    step = body.step
    times = w.t("screen.times", n=len(step.gains)) if len(step.gains) > 1 else ""
    title = w.card(step.card) + times if step.card else w.t("screen.discard")
    items: list[Item] = [_title(title, width_)]
    top = LIST_TOP
    if isinstance(step, Share | Trade) and view.board is not None:
        name = step.row.value if isinstance(step, Share) else "trader"
        moved = view.board.moved[1] if view.board.moved else None
        items += _row(name, getattr(view.board.rows, name), top, width_, moved)
        if name == "trader":
            items += _rate(view.board, width_, top)
        top += ROW + 1
    if isinstance(step, Discard):
        seats = " ".join(w.seat(s) for s, _ in step.cards)
        items += _lines([w.t("screen.discards"), seats], width_, top, 11)
    else:
        full, short = _gains(step, w, False), _gains(step, w, True)
        extra = []
        if isinstance(step, Beggar):
            extra = [w.t("screen.take_back")]
        elif isinstance(step, Bonus):
            extra = [w.t("screen.not_from_board")]
        items += _columns(full, short, width_, top, tuple(extra))
    return items, "hint.next", w.t("screen.round", n=body.round)


def _gains(step, w: Catalog, short: bool) -> list[str]:
    out = []
    for g in step.gains:
        seat = w.seat(g.seat)
        if isinstance(step, Trade) and not g.goods:  # nothing on offer, or chose none
            key = "screen.no_trade_gain_short" if short else "screen.no_trade_gain"
            out.append(w.t(key, seat=seat))
        elif isinstance(step, Trade):
            key = "screen.trade_gain_short" if short else "screen.trade_gain"
            out.append(w.t(key, seat=seat, spent=-g.goods, vp=g.vp))
        elif g.vp or (isinstance(step, Bonus) and step.in_vp):
            out.append(w.t("screen.gain_vp", seat=seat, n=g.vp))
        else:
            key = "screen.gain_goods_short" if short else "screen.gain_goods"
            out.append(w.t(key, seat=seat, n=g.goods))
    return out


def _trade(view: View, w: Catalog, width_: int) -> Built:
    body: TradeView = view.body
    title = w.t("screen.trade", seat=w.seat(body.seat))
    held = w.t("screen.trade_held", n=body.held)
    items: list[Item] = [_title(title, width_)]
    if width(title, font("body")) + 6 + width(held, font("small")) <= width_:
        items.append(_right(held, "small", width_ - 1, 2))
    items += _row("trader", body.space, LIST_TOP, width_)
    board = BoardView(view.board.rows, body.rates[0] if body.rates else None, view.board.verified)
    items += _rate(board, width_, LIST_TOP)
    if body.spent:
        offer = w.t("screen.trade_offer", spent=body.spent)
        buys = w.t("screen.trade_buys", vp=body.vp)
    else:
        offer, buys = w.t("screen.no_trade"), w.t("screen.trade_keeps", n=body.held)
    whole = f"{offer} {buys}"
    if width(whole, font("body")) <= width_:
        items.append(_text(whole, "body", 0, 29))
    else:  # the VP it buys large, on a line of its own
        big = ("large", "body", "small") if body.spent else ("body", "small")
        items += [
            _text(offer, _fitting(offer, width_), 0, 27),
            _text(buys, _fitting(buys, width_, big), 0, 36 if body.spent else 39),
        ]
    return items, "hint.trade", None


def _scores(view: View, w: Catalog, width_: int) -> Built:
    """A line per seat: VP and goods large, cards in hand; two columns past three seats,
    with a rule between them. The columns move right as the VP grow a digit."""
    body: ScoresView = view.body
    n = len(body.players)
    columns = 1 if n <= 3 else 2
    col_w = width_ // columns
    digits = max(2, *(len(str(p.vp)) for p in body.players))
    hand_r = col_w - 4  # at the column's edge: apart from the goods, not read as one number
    labels = _named_labels(view, w, len(body.players))
    vp_r = _label_width(labels) + 1 + 8 * digits  # each value's last column, from the left
    if hand_r - font("body").advance < vp_r + 19 + 4:  # the names leave no room: P1..
        labels = [w.seat(s) for s in range(len(body.players))]
        vp_r = 12 + 1 + 8 * digits
    goods_r = vp_r + 3 + 16
    hand = "body" if hand_r - font("body").advance >= goods_r + 4 else "small"
    items: list[Item] = []
    if columns == 2:
        items.append(Box((col_w - 2, 8, col_w - 2, HEIGHT - font("small").height - 2)))
    for c in range(columns):
        x = c * col_w
        items += [
            Icon("vp", x + vp_r - 7, 0),
            Icon("goods", x + goods_r - 7, 0),
            Icon("hand", x + max(hand_r - 6, goods_r + 1), 0),
        ]
    pitch = 13 if columns == 2 or n == 3 else 16
    for s, p in enumerate(body.players):
        c = s % columns if columns == 2 else 0
        x, y = c * col_w, 9 + (s // columns) * pitch
        items += [
            _text(labels[s], "body", x, y),
            _right(str(p.vp), "large", x + vp_r, y - 3),
            _right(str(p.goods), "large", x + goods_r, y - 3),
            _right(str(p.cards), hand, x + hand_r, y + (0 if hand == "body" else 2)),
        ]
    hint = "hint.back" if body.back else "hint.scores"
    return items, hint, w.t("screen.round", n=body.round)


def _over(view: View, w: Catalog, width_: int) -> Built:
    body: OverView = view.body
    end = body.outcome
    if len(end.winners) == 1:
        seat = end.winners[0]
        title = w.t("screen.winner", seat=w.seat(seat))
        named = w.t("screen.winner", seat=_seat_name(view, seat) or w.seat(seat))
        title = named if width(named, font("small")) <= width_ else title
    else:
        title = w.t("screen.shared")
    places = [(place, s) for place, seats in end.places for s in seats]
    columns = 1 if len(places) <= 3 else 2
    col_w = width_ // columns
    items: list[Item] = [_title(title, width_)]
    labels = _named_labels(view, w, len(end.vp))
    digits = 8 * max(2, *(len(str(v)) for v in end.vp))
    vp_r = max(4 * font("body").advance, 2 * 6 + _label_width(labels)) + 1 + digits
    if vp_r + 3 + ICON > col_w:  # the names leave no room for the VP: P1..
        labels = [w.seat(s) for s in range(len(end.vp))]
        vp_r = 4 * font("body").advance + 1 + digits
    for i, (place, s) in enumerate(places):
        x, y = (i % columns) * col_w, LIST_TOP + 1 + (i // columns) * 13
        if columns == 1:
            x, y = 0, LIST_TOP + 1 + i * 13
        label = f"{place}.{labels[s]}"
        items += [_text(label, "body", x, y), _right(str(end.vp[s]), "large", x + vp_r, y - 3)]
        items.append(Icon("vp", x + vp_r + 3, y + 3))
    return items, "hint.over", None


def _menu(view: View, w: Catalog, width_: int) -> Built:
    body: MenuView = view.body
    lines = [w.t(f"screen.menu.{item}") for item in body.items]
    hint = "hint.menu_first" if body.cursor == 0 else "hint.menu"
    return [_title(w.t("screen.menu"), width_), *_list(lines, body.cursor, width_)], hint, None


def _confirm(view: View, w: Catalog, width_: int) -> Built:
    body: ConfirmView = view.body
    if body.action == "undo":
        key = "screen.confirm.undo_end" if body.ended else "screen.confirm.undo"
        title = w.t("screen.confirm_undo", n=body.rounds)
    else:
        key, title = "screen.confirm.end", w.t("screen.confirm")
    lines = w.t(key, n=body.rounds).split("\n")
    return [_title(title, width_), *_lines(lines, width_)], "hint.confirm", None


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


def _settings(view: View, w: Catalog, width_: int) -> Built:
    """The settings, the rates editor and its question (``settings_screens``), laid out
    as the menu is."""
    page = settings_screens.BUILDERS[type(view.body)](view.body, w)
    lines = list(page.lines)
    listed = _lines(lines, width_) if page.cursor is None else _list(lines, page.cursor, width_)
    return [_title(page.title, width_), *listed], page.hint, None


# --- drawing ------------------------------------------------------------------------


def render(screen: Screen) -> Image.Image:
    """Draw a screen: a pure function of it."""
    image = Image.new("1", screen.size)
    canvas = ImageDraw.Draw(image)
    for item in screen.items:
        _DRAW[type(item)](canvas, image, item)
    notice = _notice(screen)
    if notice is not None:
        w, h = screen.size
        canvas.rectangle((0, MARKS_Y - 1, w - 1, h - 1), fill=0, outline=1)
        _draw_text(canvas, image, notice)
    return image


def _notice(screen: Screen) -> Text | None:
    """The notice's text, in a box of its own over the bottom of the screen."""
    if not screen.notice:
        return None
    w, h = screen.size
    name = _fitting(screen.notice, w - 6)
    return Text(screen.notice, name, 3, (MARKS_Y + h - font(name).height) // 2)


def _draw_text(canvas: ImageDraw.ImageDraw, image: Image.Image, item: Text) -> None:
    draw_text(canvas, (item.x, item.y), item.text, font(item.font), item.fill)


def _draw_box(canvas: ImageDraw.ImageDraw, image: Image.Image, item: Box) -> None:
    canvas.rectangle(item.box, fill=item.fill, outline=item.outline)


def _draw_icon(canvas: ImageDraw.ImageDraw, image: Image.Image, item: Icon) -> None:
    canvas.bitmap((item.x, item.y), icon(item.name), fill=1)


def _draw_track(canvas: ImageDraw.ImageDraw, image: Image.Image, item: Track) -> None:
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


_DRAW = {Text: _draw_text, Box: _draw_box, Icon: _draw_icon, Track: _draw_track}


# --- for the fit test ----------------------------------------------------------------


def pieces(screen: Screen) -> list[tuple[Item, tuple[int, int, int, int]]]:
    """Every text, icon and track with the box (x0, y0, x1, y1, inclusive) of what it
    lights; boxes (backgrounds) are left out. Nothing may leave the canvas, and no two
    of these may touch."""
    out = []
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


__all__ = ["HEIGHT", "SIZE", "WIDTH", "Screen", "draw", "pieces", "render", "screen", "splash"]
