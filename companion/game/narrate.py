"""A readable narration of a game, built only from the steps the rules report."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from ..rules import (
    Beggar,
    BeggarGain,
    Bonus,
    Discard,
    Gain,
    GameState,
    Share,
    Step,
    SupplyStep,
    Trade,
    outcome,
)
from .boards import profile_names
from .record import GameRecord

INDENT = "  "


class Words(Protocol):
    """The message catalog of one language (``companion.ui.catalog.Catalog``)."""

    def t(self, key: str, /, **values: object) -> str: ...
    def card(self, card: int) -> str: ...
    def seat(self, seat: int) -> str: ...


def narrate_game(record: GameRecord, w: Words) -> Iterator[str]:
    """Every line of the narration, round by round, then the end of the game."""
    yield w.t(
        "narrate.header", players=record.players, board=_board(record, w), target=record.target
    )
    state = record.start()
    for result in record.results():
        yield ""
        yield w.t("narrate.round", n=result.state.round)
        reveal = " · ".join(
            f"{w.seat(s)} {', '.join(w.card(c) for c in cards)}"
            for s, cards in enumerate(result.plays)
        )
        supply, *resolution = result.steps  # the supply phase comes before the choices
        for line in narrate_step(supply, w):
            yield INDENT + line
        yield INDENT + w.t("narrate.reveal", plays=reveal)
        for step in resolution:
            for line in narrate_step(step, w):
                yield INDENT + line
        state = result.state
        yield INDENT + _scores(state, w)
    yield ""
    yield from ending(state, w, record.ended)


def narrate_step(step: Step, w: Words) -> list[str]:
    """The lines for one step."""
    if isinstance(step, SupplyStep):
        return _supply(step, w)
    card = w.card(step.card) if step.card else ""
    # A seat plays each card at most once: one gain per player of the card.
    times = w.t("narrate.times", n=len(step.gains)) if len(step.gains) > 1 else ""
    match step:
        case Share():
            return _share(step, card, times, w)
        case Bonus():
            return _bonus(step, card, times, w)
        case Trade():
            return _trade(step, card, times, w)
        case Beggar():
            return _beggars(step, card, times, w)
        case Discard():
            return _discard(step, card, times, w)


def _supply(step: SupplyStep, w: Words) -> list[str]:
    moves = ", ".join(
        w.t("narrate.row_move", row=w.t(f"row.{r}"), before=b, after=a)
        for r, b, a in zip(("vp", "goods", "trader"), step.before, step.after, strict=True)
    )
    return [w.t("narrate.supply", rows=moves)]


def _share(step: Share, card: str, times: str, w: Words) -> list[str]:
    gains = ", ".join(_gain(g, w) for g in step.gains)
    row = w.t(f"row.{step.row.value}")
    values = {"card": card, "times": times, "gains": gains, "row": row}
    return [w.t("narrate.share", before=step.before, after=step.after, **values)]


def _bonus(step: Bonus, card: str, times: str, w: Words) -> list[str]:
    gains = ", ".join(
        w.t(
            "narrate.bonus_gain",
            seat=w.seat(g.seat),
            gain=_amount(g, w, in_vp=step.in_vp),
            counted=_counted(g.counted, w),
        )
        for g in step.gains
    )
    return [w.t("narrate.bonus", card=card, times=times, gains=gains)]


def _beggars(step: Beggar, card: str, times: str, w: Words) -> list[str]:
    head = w.t("narrate.beggars", card=card, times=times)
    return [head] + [INDENT + _beggar(g, w) for g in step.gains]


def _discard(step: Discard, card: str, times: str, w: Words) -> list[str]:
    discards = " · ".join(f"{w.seat(s)} {' '.join(map(str, cards))}" for s, cards in step.cards)
    return [w.t("narrate.discard", discards=discards)]


def _trade(step: Trade, card: str, times: str, w: Words) -> list[str]:
    rates = " ".join(map(str, step.rates)) or w.t("narrate.no_rates")
    if step.pushback:
        marker = w.t("narrate.pushback", before=step.before, space=step.space, n=step.pushback)
    else:
        marker = w.t("narrate.marker", space=step.space)
    lines = [w.t("narrate.trader", card=card, times=times, marker=marker, rates=rates)]
    for g in step.gains:
        key = "narrate.trade" if g.vp else "narrate.no_trade"
        lines.append(
            INDENT
            + w.t(
                key,
                seat=w.seat(g.seat),
                spent=-g.goods,
                vp=g.vp,
                offer=g.offer,
                held=g.held,
            )
        )
    lines.append(INDENT + w.t("narrate.trader_reset", after=step.after))
    return lines


def _beggar(g: BeggarGain, w: Words) -> str:
    why = [w.t("narrate.beggar_hand", n=g.in_hand, goods=g.hand_goods)]
    if g.traders:
        why.append(w.t("narrate.beggar_traders", n=g.traders, goods=g.trader_goods))
    return w.t(
        "narrate.beggar_gain",
        seat=w.seat(g.seat),
        gain=_amount(g, w),
        why="; ".join(why),
        returned=" ".join(map(str, g.returned)),
    )


def _board(record: GameRecord, w: Words) -> str:
    board = record.board
    if board.name is None or board.name not in profile_names():
        return w.t("board.custom")
    text = w.t("board.named", title=w.t(f"board.{board.name}"))  # a side is named per language
    return text if board.verified else f"{text} ({w.t('board.unverified')})"


def _amount(g: Gain, w: Words, in_vp: bool = False) -> str:
    """What a seat got: VP, or goods (and any lost over 15). ``in_vp``: the step pays in
    VP, so nothing at all is "+0 VP"."""
    if g.vp or (in_vp and not g.goods):
        return w.t("gain.vp", n=g.vp)
    text = w.t("gain.goods", n=g.goods)
    return f"{text}, {w.t('gain.lost', n=g.lost)}" if g.lost else text


def _gain(g: Gain, w: Words) -> str:
    return f"{w.seat(g.seat)} {_amount(g, w)}"


def _counted(counted: Iterable[tuple[int, int]], w: Words) -> str:
    parts = [w.card(c) + w.t("narrate.times", n=k) for c, k in counted if k]
    return ", ".join(parts) or w.t("narrate.nothing_counted")


def _scores(state: GameState, w: Words) -> str:
    return w.t(
        "narrate.scores",
        scores=" · ".join(
            w.t(
                "narrate.score",
                seat=w.seat(s),
                vp=p.vp,
                goods=p.goods,
                cards=len(p.hand),
            )
            for s, p in enumerate(state.players)
        ),
    )


def _seats(seats: Iterable[int], w: Words) -> str:
    return ", ".join(w.seat(s) for s in seats)


def ending(state: GameState, w: Words, ended: bool = False) -> Iterator[str]:
    """The end of the game (conversion, ranking, winner), or where it stands. ``ended``:
    the table ended it before the target ("End the game")."""
    target = state.setup.target
    if state.finished:
        reached = [s for s, p in enumerate(state.players) if p.vp >= target]
        yield w.t("narrate.game_over", n=state.round, seats=_seats(reached, w), target=target)
    elif ended:
        yield w.t("narrate.ended", n=state.round, target=target)
    else:
        key = "narrate.in_progress" if state.round else "narrate.not_begun"  # no "round 0"
        yield w.t(key, n=state.round, target=target)
        return
    end = outcome(state)
    conversions = " · ".join(
        w.t(
            "narrate.convert",
            seat=w.seat(s),
            goods=p.goods,
            vp=end.vp[s] - p.vp,
            kept=end.goods[s],
        )
        for s, p in enumerate(state.players)
    )
    yield INDENT + w.t("narrate.conversion", conversions=conversions)
    yield INDENT + w.t("narrate.ranking")
    for place, seats in end.places:
        s = seats[0]
        yield INDENT * 2 + w.t(
            "narrate.place",
            place=place,
            seats=_seats(seats, w),
            vp=end.vp[s],
            goods=end.goods[s],
            cards=end.cards[s],
        )
    if len(end.winners) > 1:
        yield INDENT + w.t("narrate.winners", seats=_seats(end.winners, w))
    else:
        why = w.t(f"tiebreak.{end.decided_by.name}")
        yield INDENT + w.t("narrate.winner", seats=_seats(end.winners, w), why=why)
