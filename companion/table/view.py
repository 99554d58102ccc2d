"""``public_view(flow, now)``: what anyone at the table may see. The only place hidden
choices are dropped: the screens and the web page read this and never the flow. Before
the reveal a seat shows only how many cards it has placed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import assert_never

from ..game.names import PastGame, Tally
from ..game.settings import board_of
from ..rules import Outcome, Rate, Rows, Share, Step, Trade, outcome, supply
from .menu import can_undo
from .names import WHEEL, pages
from .settings import items as settings_items
from .settings import space_values
from .settings import values as settings_values
from .setup import option_items, option_values
from .state import (
    MENU_ITEMS,
    PADS,
    Choosing,
    Confirm,
    DiscardRates,
    Flow,
    HistoryPages,
    Join,
    KeptList,
    Menu,
    Mode,
    NameEditor,
    NamesList,
    Options,
    Over,
    Phase,
    RatesEditor,
    Resolving,
    Resume,
    Scores,
    SettingsList,
    current_game,
    seat_names,
)


@dataclass(frozen=True, slots=True)
class BoardView:
    """The three board rows, and the rate printed on the trader marker's space.
    ``moved`` is the row the step on screen moved, and the space its marker left."""

    rows: Rows
    rate: Rate | None
    verified: bool
    moved: tuple[str, int] | None = None  # ("vp" | "goods" | "trader", the space before)


@dataclass(frozen=True, slots=True)
class ResumeView:
    players: int
    rounds: int
    backup: bool  # the last save was unusable: this is the version before it


@dataclass(frozen=True, slots=True)
class JoinView:
    joined: tuple[bool, ...]  # one per pad
    names: tuple[str | None, ...] = ()  # one per pad, None: no name
    kept: bool = False  # games set aside to resume (◀ lists them)


@dataclass(frozen=True, slots=True)
class KeptView:
    """The games set aside, newest first, after "back": each one's seats, rounds and when
    it was last played (empty: just now)."""

    games: tuple[tuple[int, int, str], ...]
    cursor: int


@dataclass(frozen=True, slots=True)
class OptionsView:
    items: tuple[str, ...]
    cursor: int
    board: str | None  # a shipped side's name, or None for a custom table
    verified: bool
    target: int
    first: bool  # the item's first value: ◀ goes back
    last: bool  # the item's last value: ▶ does nothing
    people: int = 0  # seats at a pad; the bots' seats follow
    bots: tuple[str, ...] = ()  # each bot's strength


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
    back: bool = False  # opened from the menu: OK goes back there
    names: tuple[str | None, ...] = ()  # each seat's name, None: none


@dataclass(frozen=True, slots=True)
class OverView:
    outcome: Outcome
    ended: bool  # ended from the menu before the target
    names: tuple[str | None, ...] = ()  # each seat's name, None: none


@dataclass(frozen=True, slots=True)
class MenuView:
    items: tuple[str, ...]
    cursor: int
    undo: bool  # a round to take back (or an ending)


@dataclass(frozen=True, slots=True)
class ConfirmView:
    action: str  # "undo", "end", "new" (leave the ranking) or "aside" (the saved game)
    rounds: int  # rounds played
    ended: bool  # the game was ended from the menu (undo goes on with it)


@dataclass(frozen=True, slots=True)
class SettingsView:
    """The device's settings: every item's value, the cursor's item first or last."""

    items: tuple[str, ...]
    cursor: int
    language: str  # a catalog's code
    board: str | None  # a shipped side's name, or None for your own board's rates
    verified: bool
    target: int
    sound: bool
    volume: int
    contrast: int
    first: bool  # the item's first value: ◀ goes back
    last: bool  # the item's last value: ▶ does nothing


@dataclass(frozen=True, slots=True)
class RatesView:
    """Your board's rates being entered: every space, the line under the cursor (a
    space, or ``len(rates)``: *Keep*) and whether its rate is being changed."""

    rates: tuple[Rate | None, ...]
    space: int
    editing: bool
    first: bool  # changing a rate: "none", ◀ does nothing
    last: bool  # changing a rate: the best offered, ▶ does nothing


@dataclass(frozen=True, slots=True)
class DiscardView:
    """ "Discard changes?" on leaving the rates editor."""


@dataclass(frozen=True, slots=True)
class NamesView:
    """The pads' names, one line a pad."""

    names: tuple[str | None, ...]
    cursor: int


@dataclass(frozen=True, slots=True)
class NameView:
    """One pad's name being set: the choices (recent names, ``NEW``, ``NONE``), or the
    letters spelled so far and the wheel's letter (a letter, ``DEL`` or ``END``)."""

    pad: int
    choices: tuple[str, ...]
    choice: int
    spelled: str | None
    letter: str


@dataclass(frozen=True, slots=True)
class HistoryView:
    """A page of the history: wins per person, or last games."""

    kind: str  # "wins" or "games"
    lines: tuple[Tally, ...] | tuple[PastGame, ...]
    page: int
    pages: int
    played: bool = False  # whether the history has any game (abandoned ones too)


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
    | SettingsView
    | RatesView
    | DiscardView
    | NamesView
    | NameView
    | HistoryView
    | KeptView
)


@dataclass(frozen=True, slots=True)
class View:
    phase: Phase
    board: BoardView | None  # while a game is on the table
    body: Body
    notice: tuple[str, tuple[tuple[str, object], ...]] | None  # catalog key, values
    bots: tuple[bool, ...] = ()  # the game's seats a bot plays (named as bots)
    names: tuple[str | None, ...] = ()  # the game's seats' names (public: on the pads)
    pads: tuple[int, ...] = ()  # the pad of each person's seat in the game (public: who sits)


def public_view(flow: Flow, now: float) -> View:
    mode = flow.mode
    notice = (flow.notice.key, flow.notice.values) if flow.notice is not None else None
    # the game's record, as ``Flow.bot`` reads it: the seats the table asks bots for
    bots = () if flow.game is None else tuple(b is not None for b in flow.game.record.bots)
    names = () if flow.game is None else seat_names(flow)
    body = _body(flow, mode, now)
    pads = () if flow.game is None else flow.pads
    return View(mode.phase, _board(flow, mode, now), body, notice, bots, names, pads)


def next_change(flow: Flow, now: float) -> float | None:
    """When the view changes by itself next, with no event (a marker moving in the
    supply phase, the countdown's number), or None: the loop wakes then to draw it."""
    if flow.deadline is None or not isinstance(flow.mode, Choosing):
        return None
    if flow.phase is Phase.COUNTDOWN:
        left = flow.deadline - now
        return now + (left - math.floor(left) or 1.0)
    if flow.phase is Phase.SUPPLY:
        start, pace, spaces = _supply_clock(flow, flow.deadline)
        if pace > 0:
            moves = math.floor((now - start) / pace) + 1
            return start + moves * pace if moves <= spaces else None
    return None


def _board(flow: Flow, mode: Mode, now: float) -> BoardView | None:
    shown = _rows(flow, mode, now)
    if shown is None:
        return None
    rows, moved = shown
    board = current_game(flow).state.setup.board
    return BoardView(rows, board.rates[rows.trader], board.verified, moved)


def _rows(flow: Flow, mode: Mode, now: float) -> tuple[Rows, tuple[str, int] | None] | None:
    """The rows as the table shows them in ``mode``: moving up in the supply phase, then
    as each resolution step moves them; between rounds, as the round left them."""
    if isinstance(mode, Menu | Confirm | Scores) and mode.back is not None:
        return _rows(flow, mode.back, now)
    if isinstance(mode, Resume | Join | Options | SettingsList | RatesEditor | DiscardRates):
        return None
    if isinstance(mode, NamesList | NameEditor | HistoryPages | KeptList):
        return None
    if flow.game is None:
        return None
    state = flow.game.state
    if isinstance(mode, Scores | Over):
        return state.rows, None
    if mode.phase is Phase.SUPPLY and flow.deadline is not None:
        return _supplying(flow, flow.deadline, now), None
    rows, moved = supply(state.rows, state.setup.players), None
    if isinstance(mode, Resolving) and mode.phase is not Phase.REVEAL:
        for shown in mode.steps[: mode.step + (mode.phase is Phase.STEP)]:
            if isinstance(shown, Share):
                rows = rows._replace(**{shown.row.value: shown.after})
                moved = (shown.row.value, shown.before)
            elif isinstance(shown, Trade):
                rows, moved = rows._replace(trader=shown.after), ("trader", shown.before)
            else:
                moved = None
    return rows, moved


def _supply_clock(flow: Flow, deadline: float) -> tuple[float, float, int]:
    """The supply phase's animation: when it began, the seconds between two moves, and
    how many spaces the farthest marker moves. Every marker moves one space a move,
    together, and the last move comes a move's time before the pause ends (``deadline``,
    the flow's)."""
    state = current_game(flow).state
    before, after = state.rows, supply(state.rows, state.setup.players)
    spaces = max(a - b for a, b in zip(after, before, strict=True))
    length = flow.settings.timing.supply
    return deadline - length, length / (spaces + 1), spaces


def _supplying(flow: Flow, deadline: float, now: float) -> Rows:
    state = current_game(flow).state
    before, after = state.rows, supply(state.rows, state.setup.players)
    start, pace, _ = _supply_clock(flow, deadline)
    if pace <= 0:
        return after
    moves = max(0, math.floor((now - start) / pace))
    return Rows(*(min(a, b + moves) for a, b in zip(after, before, strict=True)))


def _body(flow: Flow, mode: Mode, now: float) -> Body:
    """What the screen shows of ``mode`` (the flow's), by its class."""
    match mode:
        case Resume():
            return ResumeView(mode.saved.players, len(mode.saved.rounds), mode.backup)
        case Join():
            joined = tuple(pad in flow.pads for pad in range(PADS))
            return JoinView(joined, flow.names[:PADS], bool(flow.kept))
        case KeptList():
            games = tuple((k.record.players, len(k.record.rounds), k.when) for k in flow.kept)
            return KeptView(games, mode.cursor)
        case Options():
            return _options(flow, mode)
        case Choosing():
            return _choosing(flow, mode, now)
        case Resolving():
            return _resolving(flow, mode)
        case Scores():
            state = current_game(flow).state
            players = tuple(PlayerView(p.vp, p.goods, len(p.hand)) for p in state.players)
            return ScoresView(state.round, players, mode.back is not None, seat_names(flow))
        case Over():
            game = current_game(flow)
            return OverView(outcome(game.state), game.record.ended, seat_names(flow))
        case Menu():
            return MenuView(MENU_ITEMS, mode.cursor, can_undo(flow))
        case SettingsList() | RatesEditor() | DiscardRates():
            return _settings(flow, mode)
        case NamesList() | NameEditor() | HistoryPages():
            return _names(flow, mode)
        case Confirm():
            back = mode.back
            record = back.saved if isinstance(back, Resume) else current_game(flow).record
            return ConfirmView(mode.action, len(record.rounds), record.ended)
        case _:
            assert_never(mode)


def _options(flow: Flow, mode: Options) -> OptionsView:
    board = flow.board
    values, index = option_values(flow, mode.cursor)
    first, last = index <= 0, index >= len(values) - 1
    items, choice = option_items(flow), flow.choice
    return OptionsView(
        items,
        mode.cursor,
        board.name,
        board.verified,
        choice.target,
        first,
        last,
        len(flow.pads),
        choice.bots,
    )


def _choosing(flow: Flow, mode: Choosing, now: float) -> ChoosingView:
    state = current_game(flow).state
    countdown = None
    if mode.phase is Phase.COUNTDOWN and flow.deadline is not None:
        countdown = max(1, math.ceil(flow.deadline - now))
    placed = tuple(len(cards) for cards in mode.chosen)  # how many, never which
    return ChoosingView(state.round + 1, state.setup.cards_per_round, placed, countdown)


def _resolving(flow: Flow, mode: Resolving) -> RevealView | TradeView | StepView:
    number = current_game(flow).state.round + 1
    if mode.phase is Phase.REVEAL:
        return RevealView(number, mode.result.plays)
    if mode.phase is Phase.TRADE:
        choice = mode.trader
        quote = choice.offers[mode.offer]
        rates = tuple(choice.board.available(choice.space))
        return TradeView(choice.seat, choice.space, rates, quote.spent, quote.vp, choice.held)
    return StepView(number, mode.steps[mode.step])


def _settings(
    flow: Flow, mode: SettingsList | RatesEditor | DiscardRates
) -> SettingsView | RatesView | DiscardView:
    if isinstance(mode, DiscardRates):
        return DiscardView()
    if isinstance(mode, RatesEditor):
        if not mode.editing:
            return RatesView(mode.rates, mode.space, False, False, False)
        choices, index = space_values(mode)
        return RatesView(mode.rates, mode.space, True, index <= 0, index >= len(choices) - 1)
    p, shown = flow.prefs, settings_items(flow)
    values, index = settings_values(flow, shown[mode.cursor])
    board = board_of(p)
    ends = (index <= 0, index >= len(values) - 1)
    sound = (p.sound, p.volume, p.contrast)
    return SettingsView(
        shown, mode.cursor, p.language, board.name, board.verified, p.target, *sound, *ends
    )


def _names(
    flow: Flow, mode: NamesList | NameEditor | HistoryPages
) -> NamesView | NameView | HistoryView:
    if isinstance(mode, NamesList):
        return NamesView(flow.names, mode.cursor)
    if isinstance(mode, NameEditor):
        letter = WHEEL[mode.letter]
        return NameView(mode.back.cursor, mode.choices, mode.choice, mode.spelled, letter)
    shown = pages(flow.past)
    kind, lines = shown[mode.page]
    return HistoryView(kind, lines, mode.page, len(shown), bool(flow.past.games))
