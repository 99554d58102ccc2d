"""``say(view, words)``: what the screen says for a public view, in ``words``' language.

Built from ``table.public_view()`` only (never from the table itself, so a hidden
choice cannot reach the panel or the page). The result (``said.Said``) is words and
numbers, nothing measured: the OLED's layouter and the page's JSON both read it.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import datetime

from ..rules import Beggar, Bonus, Discard, Gain, Outcome, Rate, Share, Step, Trade
from ..rules import Row as BoardRow
from ..table.view import (
    BoardView,
    ChoosingView,
    ConfirmView,
    JoinView,
    KeptView,
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
from .said import (
    Board,
    Both,
    Choices,
    Content,
    Countdown,
    Discards,
    Lines,
    Mark,
    Marks,
    Offer,
    PerSeat,
    Place,
    Ranking,
    Row,
    Said,
    Score,
    Scores,
    Seat,
    Seated,
    Tally,
)

ROWS = ("vp", "goods", "trader")  # stacked as on the board


def say(view: View, words: Catalog) -> Said:
    """What the screen says for ``view``."""
    words = words.with_bots(view.bots)
    rows = board_rows(view, words)
    title, content, hint, fact = _content(view, words, rows)
    fact, short = fact if isinstance(fact, tuple) else (fact, None)
    return Said(title, content, words.t(hint), fact, notice(view, words), rows, short)


def notice(view: View, words: Catalog) -> str | None:
    """The view's notice in words, its values named as people read them."""
    if view.notice is None:
        return None
    key, values = view.notice
    return words.t(key, **{k: _named(words, k, v) for k, v in values})


def _named(words: Catalog, name: str, value: object) -> object:
    """A notice's value as people read it: a seat's name, a card's, a host button's."""
    if name in ("seat", "trader") and isinstance(value, int):
        return words.seat(value)
    if name == "card" and isinstance(value, int):
        return words.card(value)
    if name == "button":
        return words.t(f"keys.{value}")
    return value


# (the title, what is under it, the hint's catalog key, the fact on the hint's right)
# A fact, or (a fact, its shorter form for where it does not fit: a moment's day).
Fact = str | tuple[str, str] | None
Parts = tuple[str | None, Content, str, Fact]


def _content(view: View, w: Catalog, rows: tuple[Row, ...]) -> Parts:
    body = view.body
    if isinstance(body, ResumeView):
        return _resume(body, w)
    if isinstance(body, JoinView):
        return _join(body, w)
    if isinstance(body, OptionsView):
        return _options(body, w)
    if isinstance(body, ChoosingView):
        return _choosing(view, body, w, rows)
    if isinstance(body, RevealView):
        return _reveal(body, w)
    if isinstance(body, StepView):
        return _step(body, w, rows)
    if isinstance(body, TradeView):
        return _trade(body, w, rows)
    if isinstance(body, ScoresView):
        return _scores(body, w)
    if isinstance(body, OverView):
        return _over(body, w)
    if isinstance(body, MenuView):
        return _menu(body, w)
    if isinstance(body, ConfirmView):
        return _confirm(body, w)
    if isinstance(body, KeptView):
        return _kept(body, w)
    page = settings_screens.page(body, w)
    return page.title, page.content, page.hint, None


# --- the board -----------------------------------------------------------------------


def board_rows(view: View, w: Catalog) -> tuple[Row, ...]:
    """The board's rows as this screen shows them, VP, goods, trader; () off the board.

    While a Trader chooses, the trader marker stands where the trades happen: pushed back
    2 spaces for each other Trader this round (the view's board still has it where the
    supply left it), at the best rate a Trader gets there.
    """
    board = view.board
    if board is None:
        return ()
    moved = dict([board.moved]) if board.moved else {}
    vp, goods, trader = (_row(board, name, moved.get(name), w) for name in ROWS)
    body = view.body
    if isinstance(body, TradeView):
        best = body.rates[0] if body.rates else None
        trader = _trader(body.space, None, best, board.verified, w)
    return vp, goods, trader


def rate(pays: Rate | None, verified: bool, w: Catalog) -> str:
    """A trader space's rate (``-``: none), marked (``~2:1``) while the shipped table is
    unverified: the board screen's legend says what the mark means."""
    if pays is None:
        return "-"
    shown = f"{pays.goods}:{pays.vp}"
    return shown if verified else w.t("board.unsure_rate", rate=shown)


def legend(verified: bool, w: Catalog) -> tuple[str, ...]:
    """What the unverified rates' mark means, a short line each (none when verified)."""
    return () if verified else tuple(w.t("board.legend").split("\n"))


def _row(board: BoardView, name: str, moved: int | None, w: Catalog) -> Row:
    value = getattr(board.rows, name)
    if name != "trader":
        return Row(name, value, moved)
    return _trader(value, moved, board.rate, board.verified, w)


def _trader(value: int, moved: int | None, pays: Rate | None, verified: bool, w: Catalog) -> Row:
    return Row("trader", value, moved, pays, verified, rate(pays, verified, w))


def _shown(rows: tuple[Row, ...], name: str) -> Row:
    """The row called ``name`` of the screen's board."""
    return next(row for row in rows if row.name == name)


def _seat_name(names: tuple[str | None, ...], seat: int) -> str | None:
    return names[seat] if seat < len(names) else None


# --- the screens ---------------------------------------------------------------------


def _resume(body: ResumeView, w: Catalog) -> Parts:
    lines = [w.t("screen.resume_game", players=body.players, n=body.rounds)]
    if body.backup:
        lines.append(w.t("screen.resume_backup"))
    return w.t("screen.resume"), Lines(tuple(lines)), "hint.resume", None


def _join(body: JoinView, w: Catalog) -> Parts:
    seats = [Seat(w.seat(pad), name) for pad, name in enumerate(body.names)]
    seats += [Seat(w.seat(pad)) for pad in range(len(seats), len(body.joined))]
    marks = tuple(Mark(seat, 1 if j else 0) for seat, j in zip(seats, body.joined, strict=True))
    seated = Seated(w.t("screen.join_hint"), marks)
    hint = "hint.join_kept" if body.kept else "hint.join"
    return w.t("screen.join"), seated, hint, w.t("screen.seated", n=sum(body.joined))


def _kept(body: KeptView, w: Catalog) -> Parts:
    games = (w.t("screen.resume_game", players=p, n=n) for p, n, _when in body.games)
    lines = (w.t("screen.kept_back"), *games)
    # when the game on the cursor was last played, beside the hint: what tells apart
    # two games of the same seats and rounds
    when = body.games[body.cursor - 1][2] if body.cursor else ""
    return w.t("screen.kept"), Choices(lines, body.cursor), "hint.kept", _moment(when, w)


def _moment(when: str, w: Catalog) -> Fact:
    """When a kept game was last played, as the language writes it, and its day alone
    where that does not fit (None: not known)."""
    if not when:
        return None
    try:
        at = datetime.fromisoformat(when)
    except ValueError:  # not a moment at all: said as it is
        return when
    return w.moment(when), w.date(at.day, at.month)


def _options(body: OptionsView, w: Catalog) -> Parts:
    name = w.t(f"board.{body.board}") if body.board else w.t("board.custom")
    values = {"board": settings_screens.board_name(name, body.verified, w), "target": body.target}
    lines = [w.t(f"screen.option.{item}", **values) for item in body.items if item != "bot"]
    lines[2:2] = _bot_options(body, w)
    item = body.items[body.cursor]
    hint = "hint.start" if item == "start" else "hint.option_first" if body.first else "hint.option"
    return w.t("screen.options"), Choices(tuple(lines), body.cursor), hint, None


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


def _choosing(view: View, body: ChoosingView, w: Catalog, rows: tuple[Row, ...]) -> Parts:
    assert view.board is not None and rows, "the seats choose on a board"
    round_ = w.t("screen.round", n=body.round)
    below: Marks | Countdown
    if body.countdown is not None:
        below, hint = Countdown(w.t("screen.countdown"), body.countdown), "hint.countdown"
    else:
        marks = tuple(Mark(Seat(w.seat(s)), n) for s, n in enumerate(body.placed))
        below = Marks(marks, body.need)
        hint = "hint.supply" if view.phase.value == "supply" else "hint.choose"
    board = Board(rows, below, legend(view.board.verified, w))
    return None, board, hint, round_


def _reveal(body: RevealView, w: Catalog) -> Parts:
    lines = tuple(
        Both(
            f"{w.seat(s)} {' '.join(w.card(c) for c in cards)}",
            f"{w.seat(s)} {' '.join(w.cut_card(c) for c in cards)}",
        )
        for s, cards in enumerate(body.plays)
    )
    return w.t("screen.reveal"), PerSeat(lines), "hint.next", w.t("screen.round", n=body.round)


def _step(body: StepView, w: Catalog, rows: tuple[Row, ...]) -> Parts:
    step = body.step
    times = w.t("screen.times", n=len(step.gains)) if len(step.gains) > 1 else ""
    title = w.card(step.card) + times if step.card else w.t("screen.discard")
    round_ = w.t("screen.round", n=body.round)
    if isinstance(step, Discard):
        seats = " ".join(w.seat(s) for s, _ in step.cards)
        return title, Discards(w.t("screen.discards"), seats), "hint.next", round_
    row = None
    if isinstance(step, Share | Trade) and rows:
        row = _shown(rows, step.row.value if isinstance(step, Share) else "trader")
    extra: tuple[str, ...] = ()
    if isinstance(step, Beggar):
        extra = (w.t("screen.take_back"),)
    elif isinstance(step, Bonus):
        extra = (w.t("screen.not_from_board"),)
    return title, PerSeat(_gains(step, w), row, extra), "hint.next", round_


def _gains(step: Step, w: Catalog) -> tuple[Both, ...]:
    """What each seat got in the step: a line each, at length and short (and shorter
    still where goods were lost over the cap of 15; as numbers and pictures for a trade)."""
    return tuple(replace(_gain(step, g, w), tally=_tally(step, g, w)) for g in step.gains)


def _tally(step: Step, g: Gain, w: Catalog) -> Tally | None:
    """A trade, or goods gained, as numbers with their units' pictures, for a panel too
    narrow for words: the goods' picture, never a word cut short."""
    seat = w.seat(g.seat)
    if isinstance(step, Trade):
        goods = ((f"-{-g.goods}", "goods"), (f"+{g.vp}", "vp"))
        return Tally(seat, goods) if g.goods else None
    if g.vp or _in_vp(step):
        return None
    after = ("screen.lost_after", "screen.lost_after_least") if g.lost else ()
    return Tally(seat, ((f"+{g.goods}", "goods"),), tuple(w.t(k, lost=g.lost) for k in after))


def _in_vp(step: Step) -> bool:
    """Whether the step pays VP, even where it paid a seat none (a Captain on an empty
    VP row, Customs with nothing to count): its gains are said in VP, never "+0 goods"."""
    if isinstance(step, Share):
        return step.row is BoardRow.VP
    return isinstance(step, Bonus) and step.in_vp


def _gain(step: Step, g: Gain, w: Catalog) -> Both:
    seat = w.seat(g.seat)
    if isinstance(step, Trade) and not g.goods:  # nothing on offer, or chose none
        return _both(w, "screen.no_trade_gain", seat=seat)
    if isinstance(step, Trade):
        return _both(w, "screen.trade_gain", seat=seat, spent=-g.goods, vp=g.vp)
    if g.vp or _in_vp(step):
        line = w.t("screen.gain_vp", seat=seat, n=g.vp)
        return Both(line, line)
    if g.lost:  # the goods over 15 are lost: said, never a silent "+0"
        return _both(w, "screen.gain_lost", seat=seat, n=g.goods, lost=g.lost)
    line = w.t("screen.gain_goods", seat=seat, n=g.goods)
    return Both(line, line)


def _both(w: Catalog, key: str, **values: object) -> Both:
    """The message ``key`` at length, and ``key_short`` in short."""
    return Both(*_both_texts(w, key, **values))


def _both_texts(w: Catalog, key: str, **values: object) -> tuple[str, str]:
    return w.t(key, **values), w.t(f"{key}_short", **values)


def _trade(body: TradeView, w: Catalog, rows: tuple[Row, ...]) -> Parts:
    assert rows, "a Trader trades on a board"
    title = w.t("screen.trade", seat=w.seat(body.seat))
    held, held_short = _both_texts(w, "screen.trade_held", n=body.held)
    row = _shown(rows, "trader")
    if body.spent:
        offer = w.t("screen.trade_offer", spent=body.spent)
        buys = w.t("screen.trade_buys", vp=body.vp)
        spelled = f"{w.t('web.trade_offer', spent=body.spent)} {buys}"
    else:
        offer, buys = w.t("screen.no_trade"), w.t("screen.trade_keeps", n=body.held)
        spelled = f"{offer} {w.t('web.trade_keeps', n=body.held)}"
    whole = (w.t("web.trade_held", n=body.held), spelled)
    offered = Offer(held, row, offer, buys, bool(body.spent), held_short, whole)
    return title, offered, "hint.trade", None


def _scores(body: ScoresView, w: Catalog) -> Parts:
    lines = tuple(
        Score(Seat(w.seat(s), _seat_name(body.names, s)), p.vp, p.goods, p.cards)
        for s, p in enumerate(body.players)
    )
    hint = "hint.back" if body.back else "hint.scores"
    return None, Scores(lines), hint, w.t("screen.round", n=body.round)


def _over(body: OverView, w: Catalog) -> Parts:
    end = body.outcome
    seats = [Seat(w.seat(s), _seat_name(body.names, s)) for s in range(len(end.vp))]
    if len(end.winners) == 1:
        winner = seats[end.winners[0]]
        title = w.t("screen.winner", seat=winner.named)
        short = w.t("screen.winner", seat=winner.label)
    else:
        title = short = w.t("screen.shared")
    order = [(place, s) for place, tied in end.places for s in tied]
    splits = _splits(end, order)
    places = tuple(
        Place(place, seats[s], end.vp[s], end.goods[s], end.cards[s], splits.get(s, ()))
        for place, s in order
    )
    broken = [level for levels in splits.values() for level in levels]
    level = broken[0].upper() if broken else None
    tie = w.t(f"tiebreak.{level}") if level else None
    tie_short = w.t(f"tiebreak.short.{level}") if level else None
    ranking = Ranking(places, short, tie, "cards" in broken, tie_short)
    return title, ranking, "hint.over", None


def _splits(end: Outcome, order: list[tuple[int, int]]) -> dict[int, tuple[str, ...]]:
    """For each seat set apart from the next one down by a tie-break (same VP, another
    place), the value that did it: "goods" (the goods left), else "cards" (in hand)."""
    splits: dict[int, tuple[str, ...]] = {}
    for (place, a), (other, b) in itertools.pairwise(order):
        if place == other or end.vp[a] != end.vp[b]:
            continue
        level = "goods" if end.goods[a] != end.goods[b] else "cards"
        for seat in (a, b):
            if level not in splits.get(seat, ()):
                splits[seat] = (*splits.get(seat, ()), level)
    return splits


def _menu(body: MenuView, w: Catalog) -> Parts:
    lines = tuple(w.t(f"screen.menu.{item}") for item in body.items)
    hint = "hint.menu_first" if body.cursor == 0 else "hint.menu"
    return w.t("screen.menu"), Choices(lines, body.cursor), hint, None


def _confirm(body: ConfirmView, w: Catalog) -> Parts:
    if body.action == "undo":
        key = "screen.confirm.undo_end" if body.ended else "screen.confirm.undo"
        title = w.t("screen.confirm_undo", n=body.rounds)
    elif body.action in ("new", "aside"):
        key, title = f"screen.confirm.{body.action}", w.t(f"screen.confirm_{body.action}")
    else:
        key, title = "screen.confirm.end", w.t("screen.confirm")
    lines = tuple(w.t(key, n=body.rounds).split("\n"))
    return title, Lines(lines), "hint.confirm", None
