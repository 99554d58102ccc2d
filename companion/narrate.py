"""A readable narration of a game, built only from the steps the rules report."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .boards import profile_names
from .i18n import card_name, catalog, seat_name, t
from .record import GameRecord
from .rules import (
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

INDENT = "  "


def narrate_game(record: GameRecord, lang: str = "en") -> Iterator[str]:
    """Every line of the narration, round by round, then the end of the game."""
    yield t(
        "narrate.header", lang, players=record.players, board=_board(record), target=record.target
    )
    state = record.start()
    for result in record.results():
        yield ""
        yield t("narrate.round", lang, n=result.state.round)
        reveal = " · ".join(
            f"{seat_name(s, lang)} {', '.join(card_name(c, lang) for c in cards)}"
            for s, cards in enumerate(result.plays)
        )
        supply, *resolution = result.steps  # the supply phase comes before the choices
        for line in narrate_step(supply, lang):
            yield INDENT + line
        yield INDENT + t("narrate.reveal", lang, plays=reveal)
        for step in resolution:
            for line in narrate_step(step, lang):
                yield INDENT + line
        state = result.state
        yield INDENT + _scores(state, lang)
    yield ""
    yield from ending(state, lang)


def narrate_step(step: Step, lang: str = "en") -> list[str]:
    """The lines for one step."""
    if isinstance(step, SupplyStep):
        return _supply(step, lang)
    card = card_name(step.card, lang) if step.card else ""
    # A seat plays each card at most once: one gain per player of the card.
    times = f" ×{len(step.gains)}" if len(step.gains) > 1 else ""
    return _NARRATORS[type(step)](step, card, times, lang)


def _supply(step: SupplyStep, lang: str) -> list[str]:
    moves = ", ".join(
        t("narrate.row_move", lang, row=t(f"row.{r}", lang), before=b, after=a)
        for r, b, a in zip(("vp", "goods", "trader"), step.before, step.after, strict=True)
    )
    return [t("narrate.supply", lang, rows=moves)]


def _share(step: Share, card: str, times: str, lang: str) -> list[str]:
    gains = ", ".join(_gain(g, lang) for g in step.gains)
    row = t(f"row.{step.row.value}", lang)
    values = {"card": card, "times": times, "gains": gains, "row": row}
    return [t("narrate.share", lang, before=step.before, after=step.after, **values)]


def _bonus(step: Bonus, card: str, times: str, lang: str) -> list[str]:
    gains = ", ".join(
        t(
            "narrate.bonus_gain",
            lang,
            seat=seat_name(g.seat, lang),
            gain=_amount(g, lang),
            counted=_counted(g.counted, lang),
        )
        for g in step.gains
    )
    return [t("narrate.bonus", lang, card=card, times=times, gains=gains)]


def _beggars(step: Beggar, card: str, times: str, lang: str) -> list[str]:
    return [f"{card}{times}:"] + [INDENT + _beggar(g, lang) for g in step.gains]


def _discard(step: Discard, card: str, times: str, lang: str) -> list[str]:
    discards = " · ".join(
        f"{seat_name(s, lang)} {' '.join(map(str, cards))}" for s, cards in step.cards
    )
    return [t("narrate.discard", lang, discards=discards)]


def _trade(step: Trade, card: str, times: str, lang: str) -> list[str]:
    rates = " ".join(map(str, step.rates)) or t("narrate.no_rates", lang)
    if step.pushback:
        marker = t("narrate.pushback", lang, before=step.before, space=step.space, n=step.pushback)
    else:
        marker = t("narrate.marker", lang, space=step.space)
    lines = [t("narrate.trader", lang, card=card, times=times, marker=marker, rates=rates)]
    for g in step.gains:
        key = "narrate.trade" if g.vp else "narrate.no_trade"
        lines.append(
            INDENT
            + t(
                key,
                lang,
                seat=seat_name(g.seat, lang),
                spent=-g.goods,
                vp=g.vp,
                offer=g.offer,
                held=g.held,
            )
        )
    lines.append(INDENT + t("narrate.trader_reset", lang, after=step.after))
    return lines


def _beggar(g: BeggarGain, lang: str) -> str:
    why = [t("narrate.beggar_hand", lang, n=g.in_hand, goods=g.hand_goods)]
    if g.traders:
        why.append(t("narrate.beggar_traders", lang, n=g.traders, goods=g.trader_goods))
    return t(
        "narrate.beggar_gain",
        lang,
        seat=seat_name(g.seat, lang),
        gain=_amount(g, lang),
        why="; ".join(why),
        returned=" ".join(map(str, g.returned)),
    )


_NARRATORS = {
    Share: _share,
    Bonus: _bonus,
    Trade: _trade,
    Beggar: _beggars,
    Discard: _discard,
}


def _board(record: GameRecord, lang: str = "en") -> str:
    board = record.board
    if board.name is None or board.name not in profile_names():
        return t("board.custom", lang)
    text = t("board.named", lang, title=board.name.title())
    return text if board.verified else f"{text} ({t('board.unverified', lang)})"


def _amount(g: Gain, lang: str) -> str:
    if g.vp:
        return t("gain.vp", lang, n=g.vp)
    text = t("gain.goods", lang, n=g.goods)
    return f"{text}, {t('gain.lost', lang, n=g.lost)}" if g.lost else text


def _gain(g: Gain, lang: str) -> str:
    return f"{seat_name(g.seat, lang)} {_amount(g, lang)}"


def _counted(counted: Iterable[tuple[int, int]], lang: str) -> str:
    parts = [f"{card_name(c, lang)} ×{k}" for c, k in counted if k]
    return ", ".join(parts) or t("narrate.nothing_counted", lang)


def _scores(state: GameState, lang: str) -> str:
    return t(
        "narrate.scores",
        lang,
        scores=" · ".join(
            t(
                "narrate.score",
                lang,
                seat=seat_name(s, lang),
                vp=p.vp,
                goods=p.goods,
                cards=len(p.hand),
            )
            for s, p in enumerate(state.players)
        ),
    )


def _seats(seats: Iterable[int], lang: str) -> str:
    return ", ".join(seat_name(s, lang) for s in seats)


def ending(state: GameState, lang: str = "en") -> Iterator[str]:
    """The end of the game (conversion, ranking, winner), or where it stands."""
    target = state.setup.target
    if not state.finished:
        yield t("narrate.in_progress", lang, n=state.round, target=target)
        return
    reached = [s for s, p in enumerate(state.players) if p.vp >= target]
    yield t("narrate.game_over", lang, n=state.round, seats=_seats(reached, lang), target=target)
    end = outcome(state)
    conversions = " · ".join(
        t(
            "narrate.convert",
            lang,
            seat=seat_name(s, lang),
            goods=p.goods,
            vp=end.vp[s] - p.vp,
            kept=end.goods[s],
        )
        for s, p in enumerate(state.players)
    )
    yield INDENT + t("narrate.conversion", lang, conversions=conversions)
    yield INDENT + t("narrate.ranking", lang)
    for place, seats in end.places:
        s = seats[0]
        yield INDENT * 2 + t(
            "narrate.place",
            lang,
            place=place,
            seats=_seats(seats, lang),
            vp=end.vp[s],
            goods=end.goods[s],
            cards=end.cards[s],
        )
    if len(end.winners) > 1:
        yield INDENT + t("narrate.winners", lang, seats=_seats(end.winners, lang))
    else:
        why = catalog(lang)[f"tiebreak.{end.decided_by.name}"]
        yield INDENT + t("narrate.winner", lang, seats=_seats(end.winners, lang), why=why)
