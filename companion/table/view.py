"""``public_view(flow, now)``: what anyone at the table may see. The only place hidden
choices are dropped: screens, and later the web page and bots, read this and never
the flow. Before the reveal a seat shows only how many cards it has placed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..rules import Outcome, Rate, Rows, Share, Step, Trade, outcome, supply
from .state import (
    MENU_ITEMS,
    OPTION_ITEMS,
    PADS,
    Choosing,
    Confirm,
    Flow,
    Join,
    Menu,
    Options,
    Over,
    Phase,
    Resolving,
    Resume,
    Scores,
)


@dataclass(frozen=True, slots=True)
class BoardView:
    """The three board rows, and the rate printed on the trader marker's space."""

    rows: Rows
    rate: Rate | None
    verified: bool


@dataclass(frozen=True, slots=True)
class ResumeView:
    players: int
    rounds: int
    backup: bool  # the last save was unusable: this is the version before it


@dataclass(frozen=True, slots=True)
class JoinView:
    joined: tuple[bool, ...]  # one per pad


@dataclass(frozen=True, slots=True)
class OptionsView:
    items: tuple[str, ...]
    cursor: int
    board: str | None  # a shipped side's name, or None for a custom table
    verified: bool
    target: int


@dataclass(frozen=True, slots=True)
class ChoosingView:
    round: int
    need: int  # cards each seat plays this round
    placed: tuple[int, ...]  # cards each seat has placed (never which)
    countdown: int | None  # seconds left before the reveal, while counting down


@dataclass(frozen=True, slots=True)
class RevealView:
    round: int
    plays: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class StepView:
    round: int
    step: Step


@dataclass(frozen=True, slots=True)
class TradeView:
    seat: int
    space: int
    rates: tuple[Rate, ...]  # best first
    spent: int  # goods handed in by the offer on screen
    vp: int  # VP it buys
    held: int


@dataclass(frozen=True, slots=True)
class PlayerView:
    vp: int
    goods: int
    cards: int  # in hand


@dataclass(frozen=True, slots=True)
class ScoresView:
    round: int
    players: tuple[PlayerView, ...]


@dataclass(frozen=True, slots=True)
class OverView:
    outcome: Outcome
    ended: bool  # ended from the menu before the target


@dataclass(frozen=True, slots=True)
class MenuView:
    items: tuple[str, ...]
    cursor: int


@dataclass(frozen=True, slots=True)
class ConfirmView:
    action: str


Body = (
    ResumeView
    | JoinView
    | OptionsView
    | ChoosingView
    | RevealView
    | StepView
    | TradeView
    | ScoresView
    | OverView
    | MenuView
    | ConfirmView
)


@dataclass(frozen=True, slots=True)
class View:
    phase: Phase
    board: BoardView | None  # while a game is on the table
    body: Body
    notice: tuple[str, tuple[tuple[str, object], ...]] | None  # catalog key, values


def public_view(flow: Flow, now: float) -> View:
    mode = flow.mode
    notice = (flow.notice.key, flow.notice.values) if flow.notice is not None else None
    return View(mode.phase, _board(flow, mode), _body(flow, mode, now), notice)


def _board(flow: Flow, mode) -> BoardView | None:
    rows = _rows(flow, mode)
    if rows is None:
        return None
    board = flow.game.state.setup.board
    return BoardView(rows, board.rates[rows.trader], board.verified)


def _rows(flow: Flow, mode) -> Rows | None:
    """The rows as the table shows them in ``mode``: after the supply phase, then as
    each resolution step moves them; between rounds, as the round left them."""
    if isinstance(mode, Menu | Confirm | Scores) and getattr(mode, "back", None) is not None:
        return _rows(flow, mode.back)
    if isinstance(mode, Resume | Join | Options) or flow.game is None:
        return None
    state = flow.game.state
    if isinstance(mode, Scores | Over):
        return state.rows
    rows = supply(state.rows, state.setup.players)
    if isinstance(mode, Resolving) and mode.phase is not Phase.REVEAL:
        for shown in mode.steps[: mode.step + (mode.phase is Phase.STEP)]:
            if isinstance(shown, Share):
                rows = rows._replace(**{shown.row.value: shown.after})
            elif isinstance(shown, Trade):
                rows = rows._replace(trader=shown.after)
    return rows


def _body(flow: Flow, mode, now: float) -> Body:
    game = flow.game
    if isinstance(mode, Resume):
        return ResumeView(mode.saved.players, len(mode.saved.rounds), mode.backup)
    if isinstance(mode, Join):
        return JoinView(tuple(pad in flow.pads for pad in range(PADS)))
    if isinstance(mode, Options):
        board = flow.board
        return OptionsView(
            OPTION_ITEMS, mode.cursor, board.name, board.verified, flow.choice.target
        )
    if isinstance(mode, Choosing):
        return _choosing(flow, mode, now)
    if isinstance(mode, Resolving):
        return _resolving(flow, mode)
    if isinstance(mode, Scores):
        players = tuple(PlayerView(p.vp, p.goods, len(p.hand)) for p in game.state.players)
        return ScoresView(game.state.round, players)
    if isinstance(mode, Over):
        return OverView(outcome(game.state), game.record.ended)
    if isinstance(mode, Menu):
        return MenuView(MENU_ITEMS, mode.cursor)
    return ConfirmView(mode.action)


def _choosing(flow: Flow, mode: Choosing, now: float) -> ChoosingView:
    state = flow.game.state
    countdown = None
    if mode.phase is Phase.COUNTDOWN and flow.deadline is not None:
        countdown = max(1, math.ceil(flow.deadline - now))
    placed = tuple(len(cards) for cards in mode.chosen)  # how many, never which
    return ChoosingView(state.round + 1, state.setup.cards_per_round, placed, countdown)


def _resolving(flow: Flow, mode: Resolving):
    number = flow.game.state.round + 1
    if mode.phase is Phase.REVEAL:
        return RevealView(number, mode.result.plays)
    if mode.phase is Phase.TRADE:
        choice = mode.trader
        quote = choice.offers[mode.offer]
        rates = tuple(choice.board.available(choice.space))
        return TradeView(choice.seat, choice.space, rates, quote.spent, quote.vp, choice.held)
    return StepView(number, mode.steps[mode.step])
