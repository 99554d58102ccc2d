"""Screens: a model built from the flow, drawn by a pure function onto a 1-bit canvas.

``model(flow, now)`` keeps only what the table may see: the rows, who has locked in,
notices, and after the reveal the cards and every number. It never reads the secret
selections before ``Phase.REVEAL``. ``render(screen)`` draws a model on a 128×64
image with pixel fonts shipped as data (luma's legacy fonts), so every machine draws
the same pixels. Every word comes from the message catalog.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from itertools import zip_longest

from luma.core.legacy import text as draw_text
from luma.core.legacy.font import LCD_FONT, TINY_FONT, proportional
from PIL import Image, ImageDraw

from ..rules import Beggar, Bonus, Discard, Share, Trade, outcome
from ..table.flow import MENU_ITEMS, OPTION_ITEMS, Flow, Phase
from .catalog import catalog

WIDTH, HEIGHT = 128, 64


def t(key: str, lang: str, /, **values: object) -> str:
    return catalog(lang).t(key, **values)


def card_name(card: int, lang: str) -> str:
    return catalog(lang).card(card)


BODY = proportional(LCD_FONT)
SMALL = proportional(TINY_FONT)
LINE = 8  # body line height in pixels
BODY_TOP, BODY_LINES = 9, 5  # five lines between the header and the seat marks
MARKS_Y = HEIGHT - 7
COLUMN = "\t"  # in a line: what follows starts the right-hand column


@dataclass(frozen=True)
class Screen:
    """Everything one frame shows, as data."""

    title: str = ""
    lines: tuple[str, ...] = ()
    header: str | None = None  # the board rows, when a game is on
    marks: tuple[bool, ...] | None = None  # one per seat: locked in or waiting
    notice: str | None = None  # a short message over the body
    cursor: int | None = None  # the highlighted line (options, menu)
    big: str | None = None  # one large word or number (splash, countdown)


def model(flow: Flow, now: float, lang: str = "en") -> Screen:
    build = _BUILDERS[flow.phase]
    screen = build(flow, now, lang)
    notice = None
    if flow.message is not None:
        key, values = flow.message
        values = {k: t("seat", lang, n=v + 1) if k == "seat" else v for k, v in values}
        notice = t(key, lang, **values)
    header = _header(flow, lang) if flow.game is not None else None
    return replace(screen, header=header, notice=notice)


def render(screen: Screen) -> Image.Image:
    """Draw a screen model: a pure function of it."""
    img = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(img)
    if screen.header is not None:
        draw_text(draw, (0, 0), screen.header, fill=1, font=SMALL)
        draw.line((0, 7, WIDTH - 1, 7), fill=1)
    top = BODY_TOP if screen.header is not None else 1
    if screen.title:
        draw_text(draw, (0, top), screen.title, fill=1, font=BODY)
        top += LINE + 1
    if screen.big is not None:
        _big(draw, screen.big, top)
    for i, line in enumerate(screen.lines):
        y = top + i * LINE
        ink = 1
        if screen.cursor == i:
            draw.rectangle((0, y - 1, WIDTH - 1, y + LINE - 2), fill=1)
            ink = 0
        for x, part in zip((2, WIDTH // 2 + 2), line.split(COLUMN), strict=False):
            draw_text(draw, (x, y), part, fill=ink, font=BODY)
    if screen.marks is not None:
        _marks(draw, screen.marks)
    if screen.notice:
        y = HEIGHT - 18
        draw.rectangle((0, y - 2, WIDTH - 1, y + LINE), fill=0, outline=1)
        draw_text(draw, (3, y), screen.notice, fill=1, font=BODY)
    return img


def _marks(draw: ImageDraw.ImageDraw, marks: tuple[bool, ...]) -> None:
    """One mark per seat at a fixed place, so a seat locking in changes only its own."""
    step = WIDTH // 6
    for seat, locked in enumerate(marks):
        x = seat * step
        draw_text(draw, (x, MARKS_Y), f"P{seat + 1}", fill=1, font=SMALL)
        box = (x + 10, MARKS_Y, x + 15, MARKS_Y + 5)
        draw.rectangle(box, fill=1 if locked else 0, outline=1)


def _big(draw: ImageDraw.ImageDraw, word: str, top: int) -> None:
    """A word at the largest whole scale that fits the width, centred."""
    small = Image.new("1", (WIDTH, LINE))
    draw_text(ImageDraw.Draw(small), (0, 0), word, fill=1, font=BODY)
    box = small.getbbox() or (0, 0, 1, 1)
    width, height = box[2] - box[0], box[3] - box[1]
    scale = max(1, min(3, (WIDTH - 4) // width))
    glyphs = small.crop(box).resize((width * scale, height * scale))
    draw.bitmap(((WIDTH - glyphs.width) // 2, top + 4), glyphs, fill=1)


# --- what each phase shows -----------------------------------------------------------


def _header(flow: Flow, lang: str) -> str:
    rows = flow.rows
    board = flow.game.setup.board
    rate = board.rates[rows.trader]
    rate_text = str(rate) if rate is not None else "-"
    if not board.verified:
        rate_text += "?"
    return t(
        "screen.header", lang, vp=rows.vp, goods=rows.goods, trader=rows.trader, rate=rate_text
    )


def _seat(seat: int, lang: str) -> str:
    return t("seat", lang, n=seat + 1)


def _resume(flow: Flow, now: float, lang: str) -> Screen:
    saved = flow.saved
    lines = (
        t("screen.resume_game", lang, players=saved.players, n=len(saved.rounds)),
        "",
        t("screen.resume_ok", lang),
        t("screen.resume_new", lang),
    )
    return Screen(t("screen.resume", lang), lines)


def _join(flow: Flow, now: float, lang: str) -> Screen:
    joined = tuple(pad in flow.pads for pad in range(6))  # pads, not game seats
    lines = (t("screen.join_hint", lang), t("screen.join_ok", lang, n=len(flow.pads)))
    return Screen(t("screen.join", lang), lines, marks=joined)


def _options(flow: Flow, now: float, lang: str) -> Screen:
    board = flow.boards[flow.board]
    name = t(f"board.{board.name}", lang) if board.name else t("board.custom", lang)
    if not board.verified:
        name += "?"
    values = {"board": name, "target": flow.target}
    lines = tuple(t(f"screen.option.{item}", lang, **values) for item in OPTION_ITEMS)
    return Screen(t("screen.options", lang), lines, cursor=flow.cursor)


def _supply(flow: Flow, now: float, lang: str) -> Screen:
    game = flow.game
    return Screen(
        t("screen.round", lang, n=game.round + 1),
        (t("screen.supply", lang),),
        marks=tuple(False for _ in flow.pads),
    )


def _select(flow: Flow, now: float, lang: str) -> Screen:
    game = flow.game
    need = game.setup.cards_per_round
    lines = (t("screen.choose", lang, n=need),)
    big = None
    if flow.phase is Phase.COUNTDOWN and flow.deadline is not None:
        big = str(max(1, math.ceil(flow.deadline - now)))
        lines = (t("screen.countdown", lang),)
    # Only the lock marks: which cards a seat holds is never on screen.
    return Screen(t("screen.round", lang, n=game.round + 1), lines, marks=flow.locked, big=big)


def _reveal(flow: Flow, now: float, lang: str) -> Screen:
    plays = flow.result.plays
    lines = []
    for seat, cards in enumerate(plays):
        names = " ".join(t(f"card.short.{c}", lang) for c in cards)
        lines.append(f"{_seat(seat, lang)} {names}")
    return Screen(t("screen.reveal", lang), tuple(_pairs(lines)))


def _step(flow: Flow, now: float, lang: str) -> Screen:
    step = flow.steps[flow.step_index]
    times = f" x{len(step.gains)}" if len(step.gains) > 1 else ""
    title = card_name(step.card, lang) + times if step.card else ""
    gains = []
    for g in step.gains:
        if isinstance(step, Trade):
            gains.append(
                t("screen.trade_gain", lang, seat=_seat(g.seat, lang), spent=-g.goods, vp=g.vp)
            )
        elif g.vp:
            gains.append(t("screen.gain_vp", lang, seat=_seat(g.seat, lang), n=g.vp))
        else:
            gains.append(t("screen.gain_goods", lang, seat=_seat(g.seat, lang), n=g.goods))
    lines = _pairs(gains)
    if isinstance(step, Share):
        row = t(f"screen.row.{step.row.value}", lang)
        lines.append(t("screen.row_move", lang, row=row, before=step.before, after=step.after))
    elif isinstance(step, Trade):
        key = "screen.marker" if step.pushback else "screen.marker_on"
        lines.insert(0, t(key, lang, before=step.before, space=step.space))
    elif isinstance(step, Beggar):
        lines.append(t("screen.take_back", lang))
    elif isinstance(step, Discard):
        title = t("screen.discard", lang)
        seats = " ".join(_seat(s, lang) for s, _ in step.cards)
        lines = [t("screen.discards", lang, seats=seats)]
    elif isinstance(step, Bonus):
        lines.append(t("screen.not_from_board", lang))
    return Screen(title, tuple(lines[:BODY_LINES]))


def _pairs(items: list[str]) -> list[str]:
    """Two items to a line, in two columns, when they do not fit one per line."""
    if len(items) <= BODY_LINES - 1:
        return list(items)
    return [f"{a}{COLUMN}{b}" for a, b in zip_longest(items[::2], items[1::2], fillvalue="")]


def _trade(flow: Flow, now: float, lang: str) -> Screen:
    choice = flow.trader
    quote = choice.offers[flow.offer]
    board = flow.game.setup.board
    rates = " ".join(str(r) for r in board.available(choice.space)[:3])
    lines = (
        t("screen.trade_rates", lang, space=choice.space, rates=rates),
        t("screen.trade_offer", lang, spent=quote.spent, held=choice.held),
        t("screen.trade_vp", lang, vp=quote.vp),
        t("screen.trade_keys", lang),
    )
    return Screen(t("screen.trade", lang, seat=_seat(choice.seat, lang)), lines, cursor=1)


def _scores(flow: Flow, now: float, lang: str) -> Screen:
    game = flow.game
    lines = [
        t("screen.score", lang, seat=_seat(s, lang), vp=p.vp, goods=p.goods, cards=len(p.hand))
        for s, p in enumerate(game.players)
    ]
    return Screen(t("screen.scores", lang, n=game.round), tuple(_pairs(lines)))


def _over(flow: Flow, now: float, lang: str) -> Screen:
    end = outcome(flow.game)
    lines = [
        t("screen.place", lang, place=place, seat=_seat(s, lang), vp=end.vp[s])
        for place, seats in end.places
        for s in seats
    ]
    title = t("screen.winner" if len(end.winners) == 1 else "screen.shared", lang)
    return Screen(title, (*_pairs(lines), t("screen.new_game", lang)))


def _menu(flow: Flow, now: float, lang: str) -> Screen:
    lines = tuple(t(f"screen.menu.{item}", lang) for item in MENU_ITEMS)
    return Screen(t("screen.menu", lang), lines, cursor=flow.cursor)


_BUILDERS = {
    Phase.RESUME: _resume,
    Phase.JOIN: _join,
    Phase.OPTIONS: _options,
    Phase.SUPPLY: _supply,
    Phase.SELECT: _select,
    Phase.COUNTDOWN: _select,
    Phase.REVEAL: _reveal,
    Phase.STEP: _step,
    Phase.TRADE: _trade,
    Phase.SCORES: _scores,
    Phase.OVER: _over,
    Phase.MENU: _menu,
}


def splash(lang: str = "en") -> Screen:
    return Screen(
        big=t("screen.splash", lang), lines=("", "", "", "", t("screen.splash_sub", lang))
    )
