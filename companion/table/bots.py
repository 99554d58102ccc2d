"""Bots at the table's seats: the table asks, the app runs the bot, the table takes it.
The code that makes the question (an effect) and takes the answer (an event).

A bot may take a while (the strong one searches for its time budget), so the table never
runs one inside a step: when a round's choosing begins it returns an ``AskBot`` effect
per bot seat still to choose, with the bot's view built from the public state alone, and
the app puts the answer back on the queue as ``BotChose`` (both are defined with the
other effects and events, in their unions, and named here too). A Trader's offer is
quick for every strength (one resolution of the revealed round), so the table decides
it at once.
"""

from __future__ import annotations

from dataclasses import replace

from ..game.bots import View as BotView
from ..game.bots import make_bot
from .effects import LOCKED, AskBot
from .events import BotChose
from .state import Choosing, Flow, Phase, Resolving, Step, counting_down, current_game

__all__ = ["AskBot", "BotChose", "asks", "chose", "offer"]


def asks(before: Flow, after: Flow) -> tuple[AskBot, ...]:
    """The bots to ask after a step from ``before`` to ``after``: every bot seat still to
    choose, when the seats start choosing (a new round, or back from the menu: an answer
    that came while the menu was open was dropped)."""
    mode = after.mode
    if not isinstance(mode, Choosing) or isinstance(before.mode, Choosing):
        return ()
    state = current_game(after).state
    return tuple(
        AskBot(BotView(state, seat), strength, after.settings.seed)
        for seat in range(after.players)
        if (strength := after.bot(seat)) is not None and not mode.chosen[seat]
    )


def chose(flow: Flow, event: BotChose, now: float) -> Step:
    """A bot's cards, taken as a seat's full selection (locked, hidden until the reveal),
    if the seat still chooses in the state it was asked about; else dropped."""
    mode, seat = flow.mode, event.seat
    if not isinstance(mode, Choosing) or mode.phase is Phase.COUNTDOWN:
        return flow, ()
    if flow.bot(seat) is None or mode.chosen[seat]:
        return flow, ()
    state = current_game(flow).state
    if event.state != state:
        return flow, ()
    cards, need = tuple(sorted(event.cards)), state.setup.cards_per_round
    hand = state.hands[seat]
    if len(set(cards)) != len(cards) or len(cards) != need or not hand.issuperset(cards):
        return flow, ()  # not a play of this seat: never from the shipped bots
    chosen = (*mode.chosen[:seat], cards, *mode.chosen[seat + 1 :])
    if all(len(c) == need for c in chosen) and mode.phase is Phase.SELECT:
        return counting_down(flow, chosen, now), (LOCKED,)
    return replace(flow, mode=replace(mode, chosen=chosen)), (LOCKED,)


def offer(flow: Flow, mode: Resolving) -> int | None:
    """The goods the current Trader of ``mode`` (the flow's) offers if a bot plays that
    seat, else None (a person picks on the pad)."""
    seat = mode.trader.seat
    strength = flow.bot(seat)
    if strength is None:
        return None
    view = BotView(current_game(flow).state, seat)
    return make_bot(strength, flow.settings.seed).trade(view, mode.result.plays)
