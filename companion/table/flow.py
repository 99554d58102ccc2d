"""The table flow (design §5): a pure state machine from input events to screens.

``step(flow, event, now)`` gives the next ``Flow`` and the effects to carry out (a
beep). Time only enters through ``now`` and ``Tick`` events; nothing here reads a
clock, a pin or a file, so every path is a plain test. The screen to show is
``screens.model(flow)``: a function of this state.

Hidden choices live in ``Flow.chosen`` and nowhere else until the reveal; no screen
model is built from them before ``Phase.REVEAL``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from ..game.record import GameRecord, RoundRecord
from ..rules import (
    TARGETS,
    Board,
    GameState,
    RoundResult,
    Rows,
    Share,
    Trade,
    TradeChoice,
    choices_in,
    new_game,
    play_round,
    resolve_round,
    supply,
)
from .events import HostKey, HostPress, PadDown, PadUp, Tick


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


class Beep(enum.Enum):
    REFUSED = "refused"
    LOCKED = "locked"


@dataclass(frozen=True, slots=True)
class Timing:
    """Pauses in seconds. ``FAST`` has none: the flow waits only for people."""

    supply: float = 1.5
    countdown: float = 3.0
    reveal: float = 3.0
    step: float = 3.0
    scores: float = 8.0
    message: float = 2.0

    def faster(self, speed: float) -> Timing:
        """Every pause divided by ``speed`` (the simulator's --speed)."""
        return Timing(*(getattr(self, f) / speed for f in self.__dataclass_fields__))


FAST = Timing(0, 0, 0, 0, 0, 0)

# The Trader dialog on the trading seat's own pad.
PAD_FEWER, PAD_MORE, PAD_ACCEPT = 1, 2, 7

MENU_ITEMS = ("back", "scores", "undo", "end")
OPTION_ITEMS = ("board", "target", "start")


@dataclass(frozen=True)
class Flow:
    boards: tuple[Board, ...]  # the board sides setup offers; the first is the default
    timing: Timing = Timing()
    phase: Phase = Phase.JOIN
    pads: tuple[int, ...] = ()  # the pad of each game seat, in pad order
    board: int = 0  # index into ``boards``
    target: int = 30
    cursor: int = 0  # the highlighted item on the options and menu screens
    record: GameRecord | None = None  # the rounds played so far
    game: GameState | None = None  # the state at the start of this round
    chosen: tuple[tuple[int, ...], ...] = ()  # SECRET until the reveal
    result: RoundResult | None = None  # this round, resolved (offers so far)
    traders: tuple[TradeChoice, ...] = ()  # Traders still to pick their trade
    offers: tuple[int, ...] = ()
    offer: int = 0  # index into the current Trader's offers
    step_index: int = 0  # the resolution step on screen
    deadline: float | None = None
    message: tuple[str, tuple] | None = None  # a notice (catalog key, values) and its end
    message_until: float = 0.0
    back_to: Phase | None = None  # where the menu returns
    saved: GameRecord | None = None  # the game found at power-on, offered for resuming
    history: tuple[GameState, ...] = field(default=(), repr=False)  # for undo

    @property
    def players(self) -> int:
        return len(self.pads)

    @property
    def locked(self) -> tuple[bool, ...]:
        """Which seats hold their full selection (what the table may see)."""
        need = self.game.setup.cards_per_round if self.game else 0
        return tuple(len(c) == need for c in self.chosen)

    @property
    def rows(self) -> Rows:
        """The board rows on screen: after the supply phase, then as each step moves them."""
        if self.game is None:
            return Rows()
        if self.phase in (Phase.SCORES, Phase.OVER, Phase.MENU):
            return self.game.rows
        rows = supply(self.game.rows, self.game.setup.players)
        if self.phase in (Phase.STEP, Phase.TRADE):
            for shown in self.steps[: self.step_index + (self.phase is Phase.STEP)]:
                if isinstance(shown, Share):
                    rows = rows._replace(**{shown.row.value: shown.after})
                elif isinstance(shown, Trade):
                    rows = rows._replace(trader=shown.after)
        return rows

    @property
    def steps(self):
        """The resolution steps after the supply phase."""
        return self.result.steps[1:] if self.result else ()

    @property
    def trader(self) -> TradeChoice | None:
        return self.traders[0] if self.traders else None


def start(flow: Flow, players: int, board: Board, target: int, now: float) -> Flow:
    """Skip setup: a game of ``players`` seats on pads 1..players."""
    boards = flow.boards if board in flow.boards else (board, *flow.boards)
    flow = replace(
        flow, pads=tuple(range(players)), boards=boards, board=boards.index(board), target=target
    )
    return _new_game(flow, now)


def offer_resume(flow: Flow, saved: GameRecord) -> Flow:
    """Power on with an unfinished game saved: offer to resume it."""
    return replace(flow, phase=Phase.RESUME, saved=saved)


def step(flow: Flow, event: object, now: float) -> tuple[Flow, tuple[Beep, ...]]:
    """The next flow after ``event`` at time ``now``, and the beeps it asks for."""
    if flow.message is not None and now >= flow.message_until:
        flow = replace(flow, message=None)
    if isinstance(event, Tick):
        if flow.deadline is not None and now >= flow.deadline:
            return _timeout(replace(flow, deadline=None), now), ()
        return flow, ()
    if isinstance(event, HostPress) and event.long:
        return _open_menu(flow), ()
    if isinstance(event, PadUp):
        return flow, ()
    handler = _HANDLERS.get(flow.phase)
    return handler(flow, event, now) if handler else (flow, ())


# --- setup ---------------------------------------------------------------------------


def _resume_choice(flow: Flow, event: object, now: float):
    if not isinstance(event, HostPress):
        return flow, ()
    if event.key is HostKey.LEFT:
        return replace(flow, phase=Phase.JOIN, saved=None), ()
    if event.key is not HostKey.OK:
        return flow, ()
    record = flow.saved
    boards = flow.boards if record.board in flow.boards else (record.board, *flow.boards)
    state, history = record.start(), []
    for r in record.rounds:  # the states before each round, for undo
        history.append(state)
        state = play_round(state, r.plays, r.trades)
    flow = replace(
        flow,
        saved=None,
        boards=boards,
        board=boards.index(record.board),
        target=record.target,
        pads=tuple(range(record.players)),
        record=record,
        game=state,
        history=tuple(history),
    )
    return _next_round(flow, now), ()


def _join(flow: Flow, event: object, now: float):
    if isinstance(event, PadDown):
        if event.seat in flow.pads:
            return flow, ()
        return replace(flow, pads=tuple(sorted((*flow.pads, event.seat)))), (Beep.LOCKED,)
    if isinstance(event, HostPress) and event.key is HostKey.OK:
        if len(flow.pads) >= 2:
            return replace(flow, phase=Phase.OPTIONS, cursor=0), ()
        return _notice(flow, "notice.need_two", now), (Beep.REFUSED,)
    return flow, ()


def _options(flow: Flow, event: object, now: float):
    if not isinstance(event, HostPress):
        return flow, ()
    item = OPTION_ITEMS[flow.cursor]
    if event.key is HostKey.OK:
        if item == "start":
            return _new_game(flow, now), ()
        return replace(flow, cursor=flow.cursor + 1), ()
    delta = 1 if event.key is HostKey.RIGHT else -1
    if item == "board":
        return replace(flow, board=(flow.board + delta) % len(flow.boards)), ()
    if item == "target":
        i = TARGETS.index(flow.target) if flow.target in TARGETS else 0
        return replace(flow, target=TARGETS[(i + delta) % len(TARGETS)]), ()
    return flow, ()


def _new_game(flow: Flow, now: float) -> Flow:
    board = flow.boards[flow.board]
    game = new_game(len(flow.pads), board, flow.target)
    record = GameRecord(len(flow.pads), board, flow.target)
    return _next_round(replace(flow, game=game, record=record, history=()), now)


def _next_round(flow: Flow, now: float) -> Flow:
    return replace(
        flow,
        phase=Phase.SUPPLY,
        chosen=((),) * flow.players,
        result=None,
        traders=(),
        offers=(0,) * flow.players,
        step_index=0,
        deadline=now + flow.timing.supply,
    )


# --- choosing ------------------------------------------------------------------------


def _select(flow: Flow, event: object, now: float):
    if not isinstance(event, PadDown) or event.seat not in flow.pads:
        return flow, ()  # OK does nothing while the seats choose
    seat = flow.pads.index(event.seat)
    card = event.card
    mine = flow.chosen[seat]
    need = flow.game.setup.cards_per_round
    if card in mine:
        mine = tuple(c for c in mine if c != card)
    elif card not in flow.game.hands[seat]:
        return _notice(flow, "notice.not_in_hand", now, seat=seat), (Beep.REFUSED,)
    elif len(mine) == need:
        return _notice(flow, "notice.take_back", now, seat=seat), (Beep.REFUSED,)
    else:
        mine = (*mine, card)
    chosen = (*flow.chosen[:seat], mine, *flow.chosen[seat + 1 :])
    flow = replace(flow, chosen=chosen, phase=Phase.SELECT, deadline=None)
    if all(flow.locked):
        flow = replace(flow, phase=Phase.COUNTDOWN, deadline=now + flow.timing.countdown)
    beeps = (Beep.LOCKED,) if flow.locked[seat] else ()
    return flow, beeps


def _reveal(flow: Flow, now: float) -> Flow:
    plays = tuple(tuple(sorted(c)) for c in flow.chosen)
    result = resolve_round(flow.game, plays, flow.offers)  # no trades yet
    traders = tuple(c for c in choices_in(result) if len(c.offers) > 1)
    return replace(
        flow,
        phase=Phase.REVEAL,
        result=result,
        traders=traders,
        deadline=now + flow.timing.reveal,
    )


# --- resolution ----------------------------------------------------------------------


def _advance(flow: Flow, now: float) -> Flow:
    """On to the next resolution step, a Trader's dialog, or the end of the round."""
    index = 0 if flow.phase is Phase.REVEAL else flow.step_index + 1
    if index < len(flow.steps):
        if isinstance(flow.steps[index], Trade) and flow.traders:
            return _open_trade(replace(flow, step_index=index), now)
        return replace(flow, phase=Phase.STEP, step_index=index, deadline=now + flow.timing.step)
    return _end_round(flow, now)


def _open_trade(flow: Flow, now: float) -> Flow:
    return replace(flow, phase=Phase.TRADE, offer=len(flow.trader.offers) - 1, deadline=None)


def _trade(flow: Flow, event: object, now: float):
    choice = flow.trader
    if isinstance(event, PadDown):
        if event.seat not in flow.pads or flow.pads.index(event.seat) != choice.seat:
            return flow, ()
        key = {PAD_FEWER: HostKey.LEFT, PAD_MORE: HostKey.RIGHT, PAD_ACCEPT: HostKey.OK}.get(
            event.card
        )
    elif isinstance(event, HostPress):
        key = event.key
    else:
        return flow, ()
    if key is HostKey.LEFT:
        return replace(flow, offer=max(0, flow.offer - 1)), ()
    if key is HostKey.RIGHT:
        return replace(flow, offer=min(len(choice.offers) - 1, flow.offer + 1)), ()
    if key is HostKey.OK:
        spent = choice.offers[flow.offer].spent
        offers = tuple(spent if s == choice.seat else o for s, o in enumerate(flow.offers))
        flow = replace(flow, offers=offers, traders=flow.traders[1:])
        if flow.traders:
            return _open_trade(flow, now), ()
        result = resolve_round(flow.game, flow.result.plays, offers)
        return replace(flow, result=result, phase=Phase.STEP, deadline=now + flow.timing.step), ()
    return flow, ()


def _end_round(flow: Flow, now: float) -> Flow:
    result = flow.result
    record = replace(
        flow.record,
        rounds=(*flow.record.rounds, RoundRecord(result.plays, flow.offers)),
    )
    flow = replace(
        flow,
        record=record,
        game=result.state,
        history=(*flow.history, flow.game),
        chosen=(),
    )
    if result.state.finished:
        return replace(flow, phase=Phase.OVER, deadline=None)
    return replace(flow, phase=Phase.SCORES, deadline=now + flow.timing.scores)


def _continue(flow: Flow, event: object, now: float):
    """REVEAL, STEP and SCORES move on with OK (or by themselves after their pause)."""
    if isinstance(event, HostPress) and event.key is HostKey.OK:
        if flow.back_to is not None:  # the scores, opened from the menu
            return _resume(flow, now), ()
        return _timeout(replace(flow, deadline=None), now), ()
    return flow, ()


def _timeout(flow: Flow, now: float) -> Flow:
    phase = flow.phase
    if phase is Phase.SUPPLY:
        return replace(flow, phase=Phase.SELECT)
    if phase is Phase.COUNTDOWN:
        return _reveal(flow, now)
    if phase in (Phase.REVEAL, Phase.STEP):
        return _advance(flow, now)
    if phase is Phase.SCORES:
        return _next_round(flow, now)
    return flow


def _over(flow: Flow, event: object, now: float):
    """After the ranking, OK sets up the next game with the same seats. The finished
    game stays in ``game`` and ``record`` until the new one starts."""
    if isinstance(event, HostPress) and event.key is HostKey.OK:
        return replace(flow, phase=Phase.JOIN, cursor=0), ()
    return flow, ()


# --- the menu ------------------------------------------------------------------------


def _open_menu(flow: Flow) -> Flow:
    if flow.game is None or flow.phase in (Phase.MENU, Phase.JOIN, Phase.OPTIONS, Phase.OVER):
        return flow
    return replace(flow, phase=Phase.MENU, back_to=flow.phase, cursor=0, deadline=None)


def _menu(flow: Flow, event: object, now: float):
    if not isinstance(event, HostPress):
        return flow, ()
    if event.key is not HostKey.OK:
        delta = 1 if event.key is HostKey.RIGHT else -1
        return replace(flow, cursor=(flow.cursor + delta) % len(MENU_ITEMS)), ()
    item = MENU_ITEMS[flow.cursor]
    if item == "back" or (item == "undo" and not flow.history):
        return _resume(flow, now), ()
    if item == "scores":
        return replace(flow, phase=Phase.SCORES, deadline=None), ()
    if item == "undo":
        record = replace(flow.record, rounds=flow.record.rounds[:-1])
        game, history = flow.history[-1], flow.history[:-1]
        return _next_round(replace(flow, record=record, game=game, history=history), now), ()
    # "end": the game ends here, as if the last round had reached the target
    return replace(flow, phase=Phase.OVER, deadline=None, back_to=None, chosen=()), ()


def _resume(flow: Flow, now: float) -> Flow:
    """Back where the menu was opened, with that phase's pause started afresh."""
    back = flow.back_to or Phase.SELECT
    pause = {
        Phase.SUPPLY: flow.timing.supply,
        Phase.COUNTDOWN: flow.timing.countdown,
        Phase.REVEAL: flow.timing.reveal,
        Phase.STEP: flow.timing.step,
        Phase.SCORES: flow.timing.scores,
    }.get(back)
    deadline = None if pause is None else now + pause
    return replace(flow, phase=back, back_to=None, deadline=deadline)


def _notice(flow: Flow, key: str, now: float, **values: object) -> Flow:
    return replace(
        flow, message=(key, tuple(values.items())), message_until=now + flow.timing.message
    )


_HANDLERS = {
    Phase.RESUME: _resume_choice,
    Phase.JOIN: _join,
    Phase.OPTIONS: _options,
    Phase.SUPPLY: _select,  # a seat may choose while the rows still move
    Phase.SELECT: _select,
    Phase.COUNTDOWN: _select,
    Phase.REVEAL: _continue,
    Phase.STEP: _continue,
    Phase.SCORES: _continue,
    Phase.TRADE: _trade,
    Phase.OVER: _over,
    Phase.MENU: _menu,
}
