"""A round at the table: supply, secret selection, countdown, reveal, resolution, trades."""

from __future__ import annotations

from dataclasses import replace

from ..game.record import RoundRecord
from ..rules import Trade, choices_in, resolve_round
from . import bots as _bots
from .effects import CLICK, LOCKED, REFUSED, REVEAL, YOUR_TRADE, GameChanged, GameFinished
from .events import HostKey, HostPress, PadDown, Press
from .state import (
    Choosing,
    Flow,
    Game,
    Over,
    Phase,
    Resolving,
    Scores,
    Step,
    counting_down,
    current_game,
    not_now,
    notice,
    seat_names,
)

# The Trader dialog on the trading seat's own pad.
PAD_FEWER, PAD_MORE, PAD_ACCEPT = 1, 2, 7
_PAD_KEYS = {PAD_FEWER: HostKey.LEFT, PAD_MORE: HostKey.RIGHT, PAD_ACCEPT: HostKey.OK}


def next_round(flow: Flow, now: float) -> Flow:
    """The supply phase of the next round; the seats may choose while the rows move."""
    mode = Choosing(Phase.SUPPLY, ((),) * flow.players)
    return replace(flow, mode=mode, deadline=now + flow.settings.timing.supply)


def supply_over(flow: Flow, mode: Choosing, now: float) -> Flow:
    """The rows have moved: the seats choose on, or, every seat locked in meanwhile (bots
    answer during the supply phase), the countdown starts, as at the last lock-in."""
    if all(locked(flow, mode.chosen)):
        return counting_down(flow, mode.chosen, now)
    return replace(flow, mode=replace(mode, phase=Phase.SELECT), deadline=None)


def locked(flow: Flow, chosen: tuple[tuple[int, ...], ...]) -> tuple[bool, ...]:
    need = current_game(flow).state.setup.cards_per_round
    return tuple(len(c) == need for c in chosen)


def choose(flow: Flow, mode: Choosing, event: Press, now: float) -> Step:
    """A pad press selects a card, or takes it back; a full seat locks in. OK skips the
    supply phase's animation, and the countdown: the reveal comes at once."""
    if isinstance(event, HostPress) and event.key is HostKey.OK:
        if mode.phase is Phase.SUPPLY:
            return supply_over(flow, mode, now), ()
        if mode.phase is Phase.COUNTDOWN:
            return reveal(replace(flow, deadline=None), mode, now)
    if not isinstance(event, PadDown):
        return flow, ()  # nothing else for the host buttons while the seats choose
    if event.seat not in flow.pads:
        return not_now(flow, event, now)
    seat, card = flow.pads.index(event.seat), event.card
    state, mine = current_game(flow).state, mode.chosen[seat]
    if card in mine:
        mine = tuple(c for c in mine if c != card)
    elif card not in state.hands[seat]:
        return notice(flow, "notice.not_in_hand", now, seat=seat), (REFUSED,)
    elif len(mine) == state.setup.cards_per_round:
        return notice(flow, "notice.take_back", now, seat=seat), (REFUSED,)
    else:
        mine = (*mine, card)
    chosen = (*mode.chosen[:seat], mine, *mode.chosen[seat + 1 :])
    all_in = locked(flow, chosen)
    if all(all_in):
        after = counting_down(flow, chosen, now)
    else:
        after = replace(flow, mode=Choosing(Phase.SELECT, chosen), deadline=None)
    return after, (LOCKED if all_in[seat] else CLICK,)


def reveal(flow: Flow, mode: Choosing, now: float) -> Step:
    """Every choice at once; the round is resolved now, trades to follow."""
    plays = tuple(tuple(sorted(c)) for c in mode.chosen)
    offers = (0,) * flow.players
    result = resolve_round(current_game(flow).state, plays, offers)
    traders = tuple(c for c in choices_in(result) if len(c.offers) > 1)
    resolving = Resolving(Phase.REVEAL, result, traders=traders, offers=offers)
    return replace(flow, mode=resolving, deadline=now + flow.settings.timing.reveal), (REVEAL,)


def advance(flow: Flow, mode: Resolving, now: float) -> Step:
    """On to the next resolution step, a Trader's dialog, or the end of the round."""
    index = 0 if mode.phase is Phase.REVEAL else mode.step + 1
    if index >= len(mode.steps):
        return end_round(flow, mode, now)
    if isinstance(mode.steps[index], Trade) and mode.traders:
        mode = replace(mode, step=index)
        return open_trade(replace(flow, mode=mode), mode, now)
    mode = replace(mode, phase=Phase.STEP, step=index)
    return replace(flow, mode=mode, deadline=now + flow.settings.timing.step), ()


def open_trade(flow: Flow, mode: Resolving, now: float) -> Step:
    """A Trader's dialog opens on everything its goods can buy, with a sound that says
    whose turn it is (the seat's name is on the screen). A bot's seat trades at once.
    ``mode`` is the flow's, with a Trader still to pick."""
    choice = mode.trader
    goods = _bots.offer(flow, mode)
    if goods is not None:
        return _accept(flow, mode, now, choice.quote(goods).spent)
    best = len(choice.offers) - 1
    mode = replace(mode, phase=Phase.TRADE, offer=best)
    return replace(flow, mode=mode, deadline=None), (YOUR_TRADE,)


def trade(flow: Flow, mode: Resolving, event: Press, now: float) -> Step:
    """The trading seat's pad (1 fewer, 2 more, 7 accepts) or the host buttons."""
    choice = mode.trader
    if isinstance(event, PadDown):
        if event.seat not in flow.pads or flow.pads.index(event.seat) != choice.seat:
            return not_now(flow, event, now, "notice.trading", trader=choice.seat)
        key = _PAD_KEYS.get(event.card)
    else:
        key = event.key
    if key is HostKey.OK:
        return _accept(flow, mode, now)
    if key not in (HostKey.LEFT, HostKey.RIGHT):
        return flow, ()
    offer = mode.offer + (1 if key is HostKey.RIGHT else -1)
    if not 0 <= offer < len(choice.offers):
        return flow, (REFUSED,)  # nothing fewer than no trade, nothing more than it all
    return replace(flow, mode=replace(mode, offer=offer)), (CLICK,)


def _accept(flow: Flow, mode: Resolving, now: float, spent: int | None = None) -> Step:
    """The current Trader's offer on screen taken (or ``spent``, a bot's)."""
    choice = mode.trader
    if spent is None:
        spent = choice.offers[mode.offer].spent
    offers = tuple(spent if s == choice.seat else o for s, o in enumerate(mode.offers))
    mode = replace(mode, offers=offers, traders=mode.traders[1:])
    if mode.traders:
        return open_trade(replace(flow, mode=mode), mode, now)
    result = resolve_round(current_game(flow).state, mode.result.plays, offers)
    mode = replace(mode, result=result, phase=Phase.STEP)
    return replace(flow, mode=mode, deadline=now + flow.settings.timing.step), (CLICK,)


def end_round(flow: Flow, mode: Resolving, now: float) -> Step:
    """The round is played: recorded, saved, and on to the scores or the ranking."""
    game = current_game(flow)
    record = replace(
        game.record, rounds=(*game.record.rounds, RoundRecord(mode.result.plays, mode.offers))
    )
    game = Game(record, mode.result.state, (*game.history, game.state))
    flow = replace(flow, game=game)
    if game.over:
        finished = GameFinished(record, seat_names(flow))
        return replace(flow, mode=Over(), deadline=None), (finished,)
    deadline = now + flow.settings.timing.scores
    return replace(flow, mode=Scores(), deadline=deadline), (GameChanged(record),)
