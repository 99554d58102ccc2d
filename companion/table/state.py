"""The table as one immutable value: its settings, the mode it is in, and the game.

Each mode is a small value holding only what that mode needs. ``Choosing.chosen``
holds the hidden selections: nothing outside this package reads it, and
``public_view()`` drops it (design: the only place secrets are dropped).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import ClassVar, Literal

from ..game.names import NO_HISTORY, NO_NAMES, HistorySummary, Names
from ..game.record import GameRecord
from ..game.settings import DeviceSettings, board_of
from ..rules import Board, GameState, Rate, RoundResult, TradeChoice, play_round
from ..rules import Step as RoundStep
from .effects import REFUSED, Effect
from .events import PadDown
from .gestures import NO_KEYS, Keys
from .timing import TABLE, Timing

DEFAULT_PREFS = DeviceSettings()
PADS = 6  # pads on the matrix: one per seat, at most six seats
HOLD = 1.0  # seconds OK is held to open the menu
MENU_ITEMS = ("back", "scores", "undo", "end", "settings", "history")
OPTION_ITEMS = ("board", "target", "start")


class Phase(enum.Enum):
    RESUME = "resume"  # power on with a game in progress: resume it, or a new game
    JOIN = "join"  # seats join by pressing any key on their pad
    OPTIONS = "options"  # board side, target; start
    SUPPLY = "supply"  # the rows advance
    SELECT = "select"  # secret choices; one mark per seat
    COUNTDOWN = "countdown"  # everyone locked; any change cancels
    REVEAL = "reveal"
    STEP = "step"  # one resolution step at a time
    TRADE = "trade"  # a Trader picks how many goods to hand in
    SCORES = "scores"  # between rounds
    OVER = "over"  # conversion and ranking
    MENU = "menu"
    CONFIRM = "confirm"  # "End the game?"
    SETTINGS = "settings"  # the device's settings, one item at a time
    RATES = "rates"  # your own board's trader rates, one space at a time
    DISCARD = "discard"  # "Discard changes?" on leaving the rates unsaved
    NAMES = "names"  # the pads' names, one line a pad
    NAME = "name"  # one pad's name: a recent one, or spelled on the letter wheel
    HISTORY = "history"  # the last games and wins per name, a page at a time
    KEPT = "kept"  # the games set aside unfinished, to resume one


@dataclass(frozen=True, slots=True)
class Settings:
    """What stays the same for the whole time the table is on."""

    boards: tuple[Board, ...]  # the board sides setup offers
    timing: Timing = TABLE
    hold: float = HOLD
    languages: tuple[str, ...] = ("en",)  # the catalogs there are (the ui's to know)
    volume: bool = True  # the buzzer can play softer and louder (a passive one)
    seed: int = 0  # the bots' seed: their cards and trades (the device draws one at power-on)


@dataclass(frozen=True, slots=True)
class Choice:
    """Setup's choices, kept from one game to the next."""

    board: int = 0  # index into Settings.boards
    target: int = 30
    bots: tuple[str, ...] = ()  # the strength of each bot, seated after the pads' seats


@dataclass(frozen=True, slots=True)
class Game:
    """The game on the table: its record, the state at the start of the round in
    progress, and the state before each round played (for undo)."""

    record: GameRecord
    state: GameState
    history: tuple[GameState, ...] = field(default=(), repr=False)

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        """A saved game, at the start of its next round, with every round undoable."""
        state, history = record.start(), []
        for r in record.rounds:
            history.append(state)
            state = play_round(state, r.plays, r.trades)
        return cls(record, state, tuple(history))

    @property
    def over(self) -> bool:
        return self.state.finished or self.record.ended


@dataclass(frozen=True, slots=True)
class Notice:
    """A short message over the screen: a catalog key, its values, and when it goes."""

    key: str
    values: tuple[tuple[str, object], ...]
    until: float


# --- the modes --------------------------------------------------------------------------

ChoosingPhase = Literal[Phase.SUPPLY, Phase.SELECT, Phase.COUNTDOWN]
ResolvingPhase = Literal[Phase.REVEAL, Phase.STEP, Phase.TRADE]


@dataclass(frozen=True, slots=True)
class Resume:
    saved: GameRecord
    backup: bool = False  # the saved game was unusable: this is its previous version
    phase: ClassVar[Phase] = Phase.RESUME


@dataclass(frozen=True, slots=True)
class Join:
    phase: ClassVar[Phase] = Phase.JOIN


@dataclass(frozen=True, slots=True)
class Options:
    cursor: int = 0
    phase: ClassVar[Phase] = Phase.OPTIONS


@dataclass(frozen=True, slots=True)
class Choosing:
    """Supply, secret selection and countdown. ``chosen`` is SECRET until the reveal."""

    phase: ChoosingPhase
    chosen: tuple[tuple[int, ...], ...] = field(repr=False)


@dataclass(frozen=True, slots=True)
class Resolving:
    """The reveal, each resolution step, and the Traders' dialogs."""

    phase: ResolvingPhase
    result: RoundResult  # resolved with the offers so far
    step: int = 0  # the resolution step on screen (after the supply phase)
    traders: tuple[TradeChoice, ...] = ()  # Traders still to pick their trade
    offers: tuple[int, ...] = ()
    offer: int = 0  # index into the current Trader's offers

    @property
    def steps(self) -> tuple[RoundStep, ...]:
        return self.result.steps[1:]  # the supply phase came before the choices

    @property
    def trader(self) -> TradeChoice:
        """The Trader whose turn it is to trade: ask only while ``traders`` holds one (the
        dialog is open, or about to open)."""
        return self.traders[0]


@dataclass(frozen=True, slots=True)
class Scores:
    back: Mode | None = None  # opened from the menu: OK goes back there
    phase: ClassVar[Phase] = Phase.SCORES


@dataclass(frozen=True, slots=True)
class Over:
    phase: ClassVar[Phase] = Phase.OVER


@dataclass(frozen=True, slots=True)
class Menu:
    back: Mode
    cursor: int = 0
    phase: ClassVar[Phase] = Phase.MENU


@dataclass(frozen=True, slots=True)
class Confirm:
    """A question before what cannot be taken back by a key: "undo" a round, "end" the
    game (from the menu or the ranking), "new": leave the ranking for a new game, "aside":
    set the saved game aside at power-on for a new one. OK does it; ◀ ▶ go back."""

    action: str  # "undo", "end", "new" or "aside"
    back: Menu | Over | Resume  # where ◀ ▶ go back to
    phase: ClassVar[Phase] = Phase.CONFIRM


@dataclass(frozen=True, slots=True)
class SettingsList:
    """The device's settings (``settings.py``); leaving goes back to ``back``."""

    back: Mode
    cursor: int = 0
    phase: ClassVar[Phase] = Phase.SETTINGS


@dataclass(frozen=True, slots=True)
class RatesEditor:
    """Your own board's rates being entered; kept only once the whole table is right.
    ``space`` is the line under the cursor: a trader space, or the *Keep* line after the
    last; ``editing``, whether ◀ ▶ change its rate (else they move between the lines)."""

    back: SettingsList
    opened: tuple[Rate | None, ...]  # the table it opened with: its rates stay on offer
    rates: tuple[Rate | None, ...]
    space: int = 0
    editing: bool = False
    phase: ClassVar[Phase] = Phase.RATES

    @property
    def edited(self) -> bool:
        return self.rates != self.opened


@dataclass(frozen=True, slots=True)
class DiscardRates:
    editor: RatesEditor  # where ◀ ▶ go back to
    phase: ClassVar[Phase] = Phase.DISCARD


@dataclass(frozen=True, slots=True)
class NamesList:
    """The pads' names (``names.py``); leaving goes back to ``back`` (the settings, or
    the seats joining)."""

    back: SettingsList | Join
    cursor: int = 0  # the pad
    phase: ClassVar[Phase] = Phase.NAMES


@dataclass(frozen=True, slots=True)
class NameEditor:
    """One pad's name: first a choice of recent names, a new one or none; a new one is
    spelled a letter at a time (``spelled``, the wheel on ``letter``)."""

    back: NamesList
    choices: tuple[str, ...]  # the recent names offered, then NEW and NONE
    choice: int = 0
    spelled: str | None = None  # None: choosing; else the letters so far
    letter: int = 0  # index into the wheel
    phase: ClassVar[Phase] = Phase.NAME


@dataclass(frozen=True, slots=True)
class KeptList:
    """The games set aside unfinished, newest first, after a "back" item: OK resumes the
    one on the cursor (``setup.py``)."""

    cursor: int = 0
    phase: ClassVar[Phase] = Phase.KEPT


KEPT_SHOWN = 5  # games set aside the list offers: the newest


@dataclass(frozen=True, slots=True)
class KeptGame:
    """A game set aside unfinished: its record, and when it was last played (local time,
    ISO 8601 to the minute, "2026-11-26T20:15"; the list says it in its language; empty:
    set aside just now)."""

    record: GameRecord
    when: str = ""


@dataclass(frozen=True, slots=True)
class HistoryPages:
    """The history, a page at a time; leaving goes back to ``back`` (a menu, the settings)."""

    back: Mode
    page: int = 0
    phase: ClassVar[Phase] = Phase.HISTORY


Mode = (
    Resume
    | Join
    | Options
    | Choosing
    | Resolving
    | Scores
    | Over
    | Menu
    | Confirm
    | SettingsList
    | RatesEditor
    | DiscardRates
    | NamesList
    | NameEditor
    | HistoryPages
    | KeptList
)


@dataclass(frozen=True, slots=True)
class Flow:
    """The whole table. ``step()`` gives the next one; nothing here changes in place."""

    settings: Settings
    mode: Mode = Join()
    pads: tuple[int, ...] = ()  # the pad of each game seat, in pad order
    choice: Choice = Choice()
    game: Game | None = None  # kept after the game ends, until the next one starts
    deadline: float | None = None  # when the mode moves on by itself
    notice: Notice | None = None
    keys: Keys = NO_KEYS
    prefs: DeviceSettings = DEFAULT_PREFS  # the device's settings, every layer applied
    names: Names = NO_NAMES  # each pad's name, set on the device
    past: HistorySummary = NO_HISTORY  # what the history screen shows (the app's)
    kept: tuple[KeptGame, ...] = ()  # games set aside unfinished, newest first (the app's)
    # The id the next game started here takes (the app draws the first at power-on; each
    # game's is followed by the next of a chain); "": games without ids (bare tests).
    next_id: str = ""

    @property
    def phase(self) -> Phase:
        return self.mode.phase

    @property
    def players(self) -> int:
        return len(self.pads) + len(self.choice.bots)

    def bot(self, seat: int) -> str | None:
        """The strength of the bot at seat ``seat`` of the game on the table, or None (a
        person, or no game). The game's record is the one source, for the table and its
        view alike: it is what is saved, resumed and kept in the history, while
        ``choice.bots`` is setup's draft of the next game (edited on the options screen
        while the last game is still on the table)."""
        return None if self.game is None else self.game.record.bot(seat)

    @property
    def board(self) -> Board:
        """The board side setup has chosen."""
        return self.settings.boards[self.choice.board]


# What a step of the table gives: the next flow, and the effects it asks for.
Step = tuple[Flow, tuple[Effect, ...]]


def current_game(flow: Flow) -> Game:
    """The game on the table, for a mode that plays or shows one (a round, the scores, the
    ranking, the menu over them): setup puts a game there before any of them opens."""
    game = flow.game
    assert game is not None, f"no game on the table in {type(flow.mode).__name__}"
    return game


def counting_down(flow: Flow, chosen: tuple[tuple[int, ...], ...], now: float) -> Flow:
    """Every seat locked in: the countdown to the reveal starts."""
    return replace(
        flow, mode=Choosing(Phase.COUNTDOWN, chosen), deadline=now + flow.settings.timing.countdown
    )


def new_flow(
    boards: tuple[Board, ...],
    timing: Timing = TABLE,
    *,
    hold: float = HOLD,
    prefs: DeviceSettings | None = None,
    languages: tuple[str, ...] | None = None,
    seed: int = 0,
    next_id: str = "",
) -> Flow:
    """A table at power-on, waiting for seats to join. Setup's board and target start
    from ``prefs`` (the device's settings). ``languages``: those the settings offer.
    ``seed``: the bots' (the same seed and the same presses make the same game).
    ``next_id``: the id of the first game started here (``Flow.next_id``)."""
    prefs = prefs or DEFAULT_PREFS
    languages = languages or (prefs.language,)
    settings = Settings(boards, timing, hold, languages, seed=seed)
    flow = Flow(settings, choice=Choice(0, prefs.target), prefs=prefs, next_id=next_id)
    return choose_board(flow, board_of(prefs))


def with_volume(flow: Flow, volume: bool) -> Flow:
    """``flow`` knowing whether the buzzer has a volume to set (none here has: a buzzer
    that could act on one, on the kernel's hardware PWM, would)."""
    return replace(flow, settings=replace(flow.settings, volume=volume))


def choose_board(flow: Flow, board: Board) -> Flow:
    """``flow`` with ``board`` chosen, first added to the sides on offer if it is one of
    its own (a custom table, a saved game's)."""
    boards = flow.settings.boards
    if board not in boards:
        boards = (board, *boards)
        flow = replace(flow, settings=replace(flow.settings, boards=boards))
    return replace(flow, choice=replace(flow.choice, board=boards.index(board)))


NOT_NOW = ("notice.not_now", "notice.trading", "notice.no_seat")  # what ``not_now`` says


def not_now(
    flow: Flow, event: PadDown, now: float, why: str = "notice.not_now", **values: object
) -> Step:
    """A pad press that may not act now, said (never silently dropped): a seated pad's
    with ``why``, a pad with no seat in this game as that. A notice of another kind on
    show (a save that failed, say) stays: the press is refused by its sound alone."""
    shown = flow.notice
    if shown is not None and now < shown.until and shown.key not in NOT_NOW:
        return flow, (REFUSED,)
    if event.seat not in flow.pads:
        return notice(flow, "notice.no_seat", now, pad=event.seat + 1), (REFUSED,)
    return notice(flow, why, now, seat=flow.pads.index(event.seat), **values), (REFUSED,)


def notice(flow: Flow, key: str, now: float, **values: object) -> Flow:
    """``flow`` with a notice shown for the timing's message pause."""
    until = now + flow.settings.timing.message
    return replace(flow, notice=Notice(key, tuple(values.items()), until))


def seat_names(flow: Flow, record: GameRecord | None = None) -> tuple[str | None, ...]:
    """The name of each seat of the game: its pad's (None where the pad has none, and
    for a seat at no pad). With ``record`` and no game on the table (a saved game set
    aside from the resume screen), the seats as resuming would seat them: the people
    at pads 1.. in order, then the bots."""
    pads, players = flow.pads, flow.players
    if record is not None and flow.game is None:
        players = record.players
        pads = tuple(range(sum(record.bot(s) is None for s in range(players))))
    names = tuple(flow.names[pad] if pad < len(flow.names) else None for pad in pads)
    return names + (None,) * (players - len(names))
