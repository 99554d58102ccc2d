"""Bots for empty seats: they choose cards and trade offers from what the seat may know.

A bot sees a ``View``: the game after the rounds completed so far (every seat's VP,
goods, hand and discard pile are on the table for all to see) and which seat it plays.
What the other seats select this round is hidden until the reveal, so no ``View`` holds
it: a bot cannot use it. ``trade`` is asked after the reveal, with the revealed plays.

Strengths: ``easy`` picks uniformly among the legal choices; ``normal`` scores each
legal play by what it brings this round (see ``NormalBot``); ``strong`` searches over
the others' possible plays within a time budget (see ``StrongBot``). Easy and normal
answer as a function of the bot's seed and the question, nothing else; strong also of
how many playouts its budget allowed (fixed under a fake clock).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from ..errors import CompanionError, shown
from ..rules import (
    Board,
    GameOverError,
    GameState,
    TradeChoice,
    choices_in,
    resolve_round,
)
from ..rules.table import Table, mask
from .search import Clock, Model, Search, best_offer

Plays = Sequence[Sequence[int]]
# The strong bot's default time per decision: with the last piece of work past the
# deadline, about 0.41 s on a Pi Zero 2 W by `companion bench`'s projection (at most 0.5 s).
BUDGET_MS = 400


class BotRequestError(CompanionError, ValueError):
    """A question a bot cannot answer: a seat not in the game."""


@dataclass(frozen=True, slots=True)
class View:
    """All a bot may know when it chooses: the public state and its own seat.

    ``state`` is the game after the completed rounds; this round's selections are not
    in it, and there is no other field that could hold them.
    """

    state: GameState
    seat: int


class Played(Protocol):
    """What ``view_of`` reads of a game: a ``record.GameRecord`` (not imported here: the
    record module reads this one's ``STRENGTHS``)."""

    @property
    def players(self) -> int: ...

    @property
    def ended(self) -> bool: ...

    def replay(self) -> GameState: ...


def view_of(record: Played, seat: object) -> View:
    """The view of ``seat`` (0-based) after ``record``'s rounds.

    Raises ``BotRequestError`` for a seat not in the game, the rules' errors for a record
    that does not replay, and ``GameOverError`` for a game that is over (nothing is left
    to choose).
    """
    if type(seat) is not int or not 0 <= seat < record.players:
        raise BotRequestError(f"'seat' must be a seat 0..{record.players - 1}, got {shown(seat)}")
    state = record.replay()
    if state.finished or record.ended:
        raise GameOverError(f"the game is over after round {state.round}: no more rounds")
    return View(state, seat)


class Bot(Protocol):
    """What every strength answers: the cards to play, then the goods to offer."""

    def cards(self, view: View) -> tuple[int, ...]: ...

    def trade(self, view: View, plays: Plays) -> int: ...


def make_bot(
    strength: str, seed: int = 0, budget_ms: int = BUDGET_MS, clock: Clock = time.perf_counter
) -> Bot:
    """A bot of ``strength`` (one of ``STRENGTHS``) seeded with ``seed``; ``budget_ms``
    and ``clock`` are for the strong bot's search, the others answer at once."""
    return BOTS[strength](seed, budget_ms, clock)


def legal_selections(view: View) -> list[tuple[int, ...]]:
    """Every selection the seat may make this round, sorted, in a fixed order."""
    k = view.state.setup.cards_per_round
    return list(itertools.combinations(sorted(view.state.hands[view.seat]), k))


def my_trade(view: View, plays: Plays) -> TradeChoice | None:
    """What the seat faces at the Trader this round, or None if it did not play one."""
    result = resolve_round(view.state, plays)  # IllegalPlayError for plays that are wrong
    return next((c for c in choices_in(result) if c.seat == view.seat), None)


class _Seeded:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def _rng(self, view: View, ask: str, extra: object = None) -> random.Random:
        # A string seed is hashed with SHA-512: the same on every run and machine.
        return random.Random(f"{self.seed}/{ask}/{view.seat}/{view.state!r}/{extra!r}")


class EasyBot(_Seeded):
    """Uniformly random among the legal choices."""

    def cards(self, view: View) -> tuple[int, ...]:
        return self._rng(view, "cards").choice(legal_selections(view))

    def trade(self, view: View, plays: Plays) -> int:
        choice = my_trade(view, plays)
        if choice is None:
            return 0
        return self._rng(view, "trade", plays).randint(0, choice.held)


# A good is worth a third of a VP at the end (the 3:1 conversion); a card kept in hand
# keeps options open and feeds the Beggar, worth a little.
GOOD_VP = 1 / 3
CARD_VP = 0.25
GUESSES = 4  # neutral guesses of the others' plays per decision


class NormalBot(_Seeded):
    """A one-round heuristic, simple enough to explain at the table.

    Each legal selection is played, with the rules engine, against the same few random
    guesses of what the others might play (drawn from their public hands). Its score is
    what the seat gains that round, VP + goods / 3 + cards kept in hand / 4, minus the
    average the others gain: taking a share of a row from them counts too. The trade
    it assumes, and the one it offers, is the best buy of VP for goods worth more than
    their 3:1 value at the end.
    """

    def cards(self, view: View) -> tuple[int, ...]:
        scored = _scores(view, self._rng(view, "cards"))
        # ties keep the first: a fixed order, deterministic
        return max(scored, key=lambda pair: pair[1])[0]

    def trade(self, view: View, plays: Plays) -> int:
        return _normal_offer(view, plays)


def _normal_offer(view: View, plays: Plays) -> int:
    choice = my_trade(view, plays)
    return 0 if choice is None else _best_offer(choice)[0]


def _scores(
    view: View, rng: random.Random, clock: Clock | None = None, deadline: float = math.inf
) -> list[tuple[tuple[int, ...], float]]:
    """The seat's legal selections with the normal bot's score, in a fixed order.

    With a ``clock``, selections are scored until it passes ``deadline``: those scored
    by then, possibly none.
    """
    state, seat = view.state, view.seat
    k = state.setup.cards_per_round
    guesses = [
        [mask(rng.sample(sorted(state.hands[s]), k)) for s in range(state.setup.players)]
        for _ in range(GUESSES)
    ]
    root, trades = Table(state), _TradeValues(state.setup.board)
    scored = []
    for mine in legal_selections(view):
        if clock is not None and clock() >= deadline:
            break
        total = 0.0
        for guess in guesses:
            guess[seat] = mask(mine)
            total += _gain(root, guess, seat, trades)
        scored.append((mine, total / GUESSES))
    return scored


def _best_offer(choice: TradeChoice) -> tuple[int, float]:
    """The goods to offer and what the trade is worth over keeping the goods."""
    spent, vp = max(choice.offers, key=lambda q: (q.vp - q.spent * GOOD_VP, -q.spent))
    return spent, vp - spent * GOOD_VP


class _TradeValues(dict[tuple[int, int], float]):
    """``_best_offer``'s value by (trader space, goods held), worked out once each."""

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board

    def __missing__(self, key: tuple[int, int]) -> float:
        space, held = key
        value = self[key] = _best_offer(TradeChoice(-1, held, space, self.board))[1]
        return value


def _gain(root: Table, plays: list[int], seat: int, trades: _TradeValues) -> float:
    """The normal bot's score of one round's plays (bitmasks) for ``seat``."""
    table = root.fork()
    table.play_known(plays)
    worth = [0.0] * len(plays)
    if table.trades is not None:
        space, held_by = table.trades
        for s, held in held_by:
            worth[s] = trades[space, held]
    vp0, goods0 = root.vp, root.goods
    vp, goods, hands = table.vp, table.goods, table.hands
    values = [
        vp[s] - vp0[s] + (goods[s] - goods0[s]) * GOOD_VP + hands[s].bit_count() * CARD_VP
        for s in range(len(plays))
    ]
    values = [v + w for v, w in zip(values, worth, strict=True)]
    mine = values.pop(seat)
    return mine - sum(values) / len(values)


CANDIDATES = 8  # the strong bot searches the normal bot's best few selections
TEMPERATURE = 1.0  # how sharply a modelled seat prefers what the normal bot scores high


class StrongBot(_Seeded):
    """A search over the others' possible plays, within a time budget per decision.

    The normal bot's scores give the seat's best ``CANDIDATES`` selections, and for every
    other seat a model of what it plays (weights exp(score / ``TEMPERATURE``), from its
    public hand). A flat Monte Carlo search (``search.Search``) then plays each candidate
    against plays drawn from those models, through the round and the next (the others at
    random, the seat's best of a few replies), until ``budget_ms`` has passed on
    ``clock``. It trades as its playouts do (``search.best_offer``): as the normal
    bot, but goods that buy VP at par (3:1) are handed in, not kept.
    """

    def __init__(
        self, seed: int = 0, budget_ms: int = BUDGET_MS, clock: Clock = time.perf_counter
    ) -> None:
        super().__init__(seed)
        self.budget_ms = budget_ms
        self.clock = clock
        self.last: Search | None = None  # the last decision's search, for benches

    def cards(self, view: View) -> tuple[int, ...]:
        deadline = self.clock() + self.budget_ms / 1000
        rng = self._rng(view, "cards")
        self.last, candidates = self.prepare(view, rng, deadline)
        return self.last.run(candidates, self.clock, deadline)

    def prepare(
        self, view: View, rng: random.Random, deadline: float
    ) -> tuple[Search, list[tuple[int, ...]]]:
        """The search and its candidates, best first, built before ``deadline``.

        Every step stops at the deadline, so a slow machine cannot overrun the budget
        by more than one selection's scoring: its own selections are scored first (the
        candidates are those scored in time, or one random legal selection if none
        was), then the others' models (a seat not modelled in time plays uniformly).
        """
        state, seat = view.state, view.seat
        mine = _scores(view, rng, self.clock, deadline)
        if not mine:
            mine = [(rng.choice(legal_selections(view)), 0.0)]
        mine.sort(key=lambda pair: -pair[1])  # stable: ties keep the fixed order
        models: list[Model | None] = []
        for s in range(state.setup.players):
            other = View(state, s)
            scored = [] if s == seat else _scores(other, rng, self.clock, deadline)
            if s == seat:
                models.append(None)
            elif len(scored) < len(legal_selections(other)):
                models.append(_model([(sel, 0.0) for sel in legal_selections(other)]))
            else:
                models.append(_model(scored))
        return Search(state, seat, models, rng), [sel for sel, _ in mine[:CANDIDATES]]

    def trade(self, view: View, plays: Plays) -> int:
        choice = my_trade(view, plays)
        return 0 if choice is None else best_offer(choice.board, choice.space, choice.held)


def _model(scored: list[tuple[tuple[int, ...], float]]) -> Model:
    top = max(score for _, score in scored)
    cum, total = [], 0.0
    for _, score in scored:
        total += math.exp((score - top) / TEMPERATURE)
        cum.append(total)
    return Model(tuple(sel for sel, _ in scored), tuple(cum))


# (seed, budget_ms, clock) -> a bot; only the strong bot's search uses the budget and clock.
BotFactory = Callable[[int, int, Clock], Bot]
# The one registry of strengths, weakest first: records, the table's options and the
# command line read their names here (``STRENGTHS``).
BOTS: Mapping[str, BotFactory] = MappingProxyType(
    {
        "easy": lambda seed, budget_ms, clock: EasyBot(seed),
        "normal": lambda seed, budget_ms, clock: NormalBot(seed),
        "strong": StrongBot,
    }
)
STRENGTHS = tuple(BOTS)
