"""Flat Monte Carlo over one seat's selections, for the strong bot.

The search goes in sweeps. A sweep draws every other seat's play from a model of that
seat (selections with weights, built from public information only) and the random
numbers of one more round, in which the others play at random and the seat the best of a
few replies; then each of the seat's candidate selections is played against that same
draw with the rules engine, and the position reached is scored for the seat. Every
candidate meets the same draws (common random numbers), so the luck of a draw falls on
all of them alike and the comparison measures their differences, not the draws' noise.
It sweeps until the clock passes the deadline and plays the candidate with the best mean
over the sweeps every candidate finished. Time comes from an injected clock, so a fake
clock that advances per call fixes the number of playouts: the answer is then a function
of the random generator's seed and the question alone.
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

# The seat's replies tried in the round after the decided one (the others play at random
# there), the best of them scored: a candidate is worth what the seat can make of the
# hand it leaves, not what a random play of it makes. Best of 4 won 80.0% of 300 games
# against normal where one random reply won 75.2% (docs/bot-protocol.md).
REPLIES = 4
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
class Draw:
    """One sweep's luck: each other seat's play (a bitmask; the searching seat's place is
    overwritten by each candidate in turn) and, for the round after, one random number
    in [0, 1) per seat that picks its selection among those its hand allows (the
    seat's own picks where its replies start)."""

    plays: list[int]
    roll: tuple[float, ...]


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
        """The candidate with the best mean score over the sweeps every candidate
        finished by ``deadline``; the first candidate if there was no time for one
        playout. A sweep cut by the deadline is left out (its draw would favour the
        candidates it reached), unless it is the only one."""
        self.arms = arms = [Arm(sel) for sel in candidates]
        owns = [mask(sel) for sel in candidates]
        while True:
            draw = self.draw()
            sweep = []
            for own in owns:
                if clock() >= deadline:
                    break
                sweep.append(self._playout(own, draw))
                self.iterations += 1
            if len(sweep) < len(owns) and arms[0].visits:
                break
            for arm, value in zip(arms, sweep, strict=False):
                arm.total += value
                arm.visits += 1
            if len(sweep) < len(owns):
                break
        tried = [a for a in arms if a.visits]
        if not tried:
            return arms[0].selection
        # max keeps the first of equal means: candidates come best-first from the caller
        return max(tried, key=lambda a: a.mean).selection

    def draw(self) -> Draw:
        """The others' plays drawn from their models and the next round's random numbers."""
        rnd = self.rng.random
        # random.choices with cum_weights, inlined: the same draw, without its set-up
        plays = [-1 if d is None else d[0][bisect(d[1], rnd() * d[1][-1])] for d in self._draws]
        return Draw(plays, tuple([rnd() for _ in plays]))

    def playout(self, mine: Selection, draw: Draw | None = None) -> float:
        """The decided round with the others' plays of ``draw`` (a fresh one if None),
        then the next round with the others at random and the seat's best of ``REPLIES``
        replies; the seat's score in the position reached."""
        return self._playout(mask(mine), self.draw() if draw is None else draw)

    def _playout(self, own: int, draw: Draw) -> float:
        plays = draw.plays
        plays[self.seat] = own
        table = self._root.fork()
        table.play_known(plays, self.offers(table))
        k = table.setup.cards_per_round
        # a hand short of a selection is only met in made-up positions (a hand keeps
        # the Beggar until it brings every card back): score what is there
        if table.finished or min(map(card_count, table.hands)) < k:
            return score_table(table, self.seat)
        drawn = []
        for hand, x in zip(table.hands, draw.roll, strict=True):
            some = selections_of(hand, k)
            drawn.append(some[int(x * len(some))])
        return self._best_reply(table, drawn, draw.roll[self.seat])

    def _best_reply(self, table: Table, drawn: list[int], x: float) -> float:
        """The seat's best score over ``REPLIES`` of its selections, spread evenly through
        them from the one ``x`` picks, each played against the others' ``drawn``."""
        seat = self.seat
        some = selections_of(table.hands[seat], table.setup.cards_per_round)
        n = len(some)
        first, replies = int(x * n), min(REPLIES, n)
        offers = self.offers(table)
        best = -math.inf
        for j in range(replies):
            drawn[seat] = some[(first + j * n // replies) % n]
            after = table.fork()
            after.play_known(drawn, offers)
            best = max(best, score_table(after, seat))
        return best

    def offers(self, table: Table) -> list[int]:
        """Each seat's offer should it play the Trader, ``best_offer`` on the trader space
        the round starts from (it may be pushed back)."""
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
    """The goods to hand in on ``space`` for the most VP over their 3:1 worth; at equal
    worth, the most goods. Goods handed in at par lose nothing at the end, and now
    their VP count toward the target and they free room under the 15-goods cap for
    what comes in (a full store wastes it)."""
    quotes = board.offers(space, goods)
    return max(quotes, key=lambda q: (q.vp * END_RATE - q.spent, q.spent)).spent


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
