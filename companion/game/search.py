"""Flat Monte Carlo over one seat's selections, for the strong bot.

Each iteration picks one of the seat's candidate selections (UCB1), draws every other
seat's play from a model of that seat (selections with weights, built from public
information only), plays the round with the rules engine, then a few more rounds of
random play, and scores the position reached for the seat. It iterates until the clock
passes the deadline. Time comes from an injected clock, so a fake clock that advances
per call fixes the number of iterations: the answer is then a function of the random
generator's seed and the question alone.
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..rules import Board, GameState, outcome
from ..rules.table import Table, card_count, mask, selections_of
from ..rules.tables import END_RATE

Clock = Callable[[], float]  # seconds, from any origin
Selection = tuple[int, ...]

ROLLOUT_ROUNDS = 1  # random rounds after the one decided: the first round dominates
EXPLORE = 3.0  # UCB1's constant, in the score's unit (about a VP)
WIN = 10.0  # a game won (or lost) in the search counts this much over the VP margin
CARD_VALUE = 0.25  # a card kept in hand: options and Beggar goods (as the normal bot)


@dataclass(frozen=True, slots=True)
class Model:
    """What one other seat may play: its selections and their cumulative weights."""

    selections: tuple[Selection, ...]
    cum_weights: tuple[float, ...]

    def draw(self, rng: random.Random) -> Selection:
        return rng.choices(self.selections, cum_weights=self.cum_weights)[0]


@dataclass(slots=True)
class Arm:
    selection: Selection
    visits: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits


@dataclass(slots=True)
class Search:
    """One decision's search; ``iterations`` is how many playouts it made.

    Playouts run on the engine's working ``Table``: the position is copied, not rebuilt,
    and the drawn selections (legal by construction) are played without re-checking.
    """

    state: GameState
    seat: int
    models: Sequence[Model | None]  # None at the seat's own place
    rng: random.Random
    arms: list[Arm] = field(default_factory=list)
    iterations: int = 0
    _offers: dict[tuple[int, int], int] = field(default_factory=dict)
    _root: Table = field(init=False)
    _draws: list[tuple[list[int], tuple[float, ...]] | None] = field(init=False)

    def __post_init__(self) -> None:
        self._root = Table(self.state)
        self._draws = [
            None if m is None else ([mask(sel) for sel in m.selections], m.cum_weights)
            for m in self.models
        ]

    def run(self, candidates: Sequence[Selection], clock: Clock, deadline: float) -> Selection:
        """The candidate with the best mean score when the clock passes ``deadline``;
        the first candidate if there was no time for a single playout."""
        self.arms = [Arm(sel) for sel in candidates]
        while clock() < deadline:
            arm = self._pick()
            arm.total += self.playout(arm.selection)
            arm.visits += 1
            self.iterations += 1
        tried = [a for a in self.arms if a.visits]
        if not tried:
            return self.arms[0].selection
        # max keeps the first of equal means: candidates come best-first from the caller
        return max(tried, key=lambda a: a.mean).selection

    def _pick(self) -> Arm:
        for arm in self.arms:
            if not arm.visits:
                return arm
        log_n = math.log(self.iterations)
        return max(self.arms, key=lambda a: a.mean + EXPLORE * math.sqrt(log_n / a.visits))

    def playout(self, mine: Selection) -> float:
        """The decided round with the others' plays drawn from their models, then
        ``ROLLOUT_ROUNDS`` of random play; the seat's score in the position reached."""
        rnd = self.rng.random
        own = mask(mine)
        # random.choices with cum_weights, inlined: the same draw, without its set-up
        plays = [own if d is None else d[0][bisect(d[1], rnd() * d[1][-1])] for d in self._draws]
        table = self._root.fork()
        table.play_known(plays, self.offers(table))
        k = table.setup.cards_per_round
        for _ in range(ROLLOUT_ROUNDS):
            # a hand short of a selection is only met in made-up positions (a hand keeps
            # the Beggar until it brings every card back): score what is there
            if table.finished or min(map(card_count, table.hands)) < k:
                break
            drawn = []
            for hand in table.hands:
                some = selections_of(hand, k)
                drawn.append(some[int(rnd() * len(some))])
            table.play_known(drawn, self.offers(table))
        return score_table(table, self.seat)

    def offers(self, table: Table) -> list[int]:
        """Each seat's offer should it play the Trader: the best buy of VP over the 3:1
        end value, on the trader space the round starts from (it may be pushed back)."""
        space = table.rows[2]
        known = self._offers
        out = []
        for goods in table.goods:
            offer = known.get((space, goods))
            if offer is None:
                offer = known[space, goods] = best_offer(table.setup.board, space, goods)
            out.append(offer)
        return out


def best_offer(board: Board, space: int, goods: int) -> int:
    """The goods to hand in on ``space`` for the most VP over their 3:1 worth."""
    quotes = board.offers(space, goods)
    return max(quotes, key=lambda q: (q.vp - q.spent / END_RATE, -q.spent)).spent


def score(state: GameState, seat: int) -> float:
    """The seat's margin over the best other seat (VP, goods at 3:1, cards in hand),
    plus ``WIN`` for a game it won and minus it for one another seat won."""
    return score_table(Table(state), seat)


def score_table(table: Table, seat: int) -> float:
    """``score`` of the position on a working table."""
    vp, goods, hands = table.vp, table.goods, table.hands
    values = [
        vp[s] + goods[s] / END_RATE + hands[s].bit_count() * CARD_VALUE for s in range(len(vp))
    ]
    mine = values.pop(seat)
    margin = mine - max(values)
    if not table.finished:
        return margin
    winners = outcome(table.state()).winners
    return margin + (WIN / len(winners) if seat in winners else -WIN)
