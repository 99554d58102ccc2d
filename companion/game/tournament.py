"""Bot tournaments: how often one strength beats another, with a confidence interval.

Two strengths meet in 3-seat games, one side holding one seat and the other two, in
the six orders of the seats (A B B, B A B, B B A, B A A, A B A, A A B) in turn. Over
every six games each side holds each seat equally often and is as often the lone seat
as the pair, so neither the seat order nor the count of seats favours it: equal bots
share the wins 50/50. A game counts 1 to the side that won it; a win shared between
the two sides counts 1/2 to each.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..rules import Board, new_game, outcome, play_round
from .boards import profile
from .bots import Bot, View, make_bot
from .randgame import random_board
from .record import GameRecord, RoundRecord
from .search import Clock

PAIRINGS = (("strong", "normal"), ("normal", "easy"), ("strong", "easy"))
SEATS = 3
ORDERS = ("ABB", "BAB", "BBA", "BAA", "ABA", "AAB")  # who holds each seat, game by game
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True, slots=True)
class Pairing:
    """The result of one pairing: ``first``'s wins against ``second`` over ``games``."""

    first: str
    second: str
    games: int
    wins: float  # for ``first``; a win shared with the other side counts 1/2
    losses: float  # for ``first``: wins + losses == games
    shared: int  # games whose win was shared between the two sides

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def as_dict(self) -> dict[str, object]:
        low, high = self.interval
        return {
            "first": self.first,
            "second": self.second,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "shared": self.shared,
            "win_rate": round(self.rate, 4),
            "ci95": [round(low, 4), round(high, 4)],
        }


MAX_ROUNDS = 500  # bots always end a game long before; this only guards the loop


def play_bots(bots: Sequence[Bot], board: Board, target: int = 30) -> GameRecord:
    """A whole game with a bot at every seat, as the table would run it: every seat
    chooses from its view, then the plays are revealed and each is asked its offer."""
    state = new_game(len(bots), board, target)
    rounds: list[RoundRecord] = []
    while not state.finished and len(rounds) < MAX_ROUNDS:
        views = [View(state, seat) for seat in range(len(bots))]
        plays = tuple(bot.cards(view) for bot, view in zip(bots, views, strict=True))
        offers = tuple(bot.trade(view, plays) for bot, view in zip(bots, views, strict=True))
        rounds.append(RoundRecord(plays, offers))
        state = play_round(state, plays, offers)
    return GameRecord(len(bots), board, target, tuple(rounds))


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / games`` (halves allowed)."""
    p = wins / games
    scale = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / scale
    half = z / scale * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    # at 0 and 1 the bound is exact; floating point would leave it a hair inside
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    return low, 1.0 if wins == games else min(1.0, centre + half)


def play_pairing(
    first: str,
    second: str,
    games: int,
    seed: int,
    budget_ms: int,
    clock: Callable[[], Clock] = lambda: time.perf_counter,
) -> Pairing:
    """``games`` games of ``first`` against ``second``; boards alternate between the
    shipped profiles and random tables, drawn from ``seed``. ``clock()`` gives each
    strong bot its clock (a fake one in tests)."""
    rng = random.Random(f"tournament/{seed}/{first}/{second}")
    wins = losses = 0.0
    shared = 0
    for game in range(games):
        order = ORDERS[game % len(ORDERS)]
        bots = [
            make_bot(first if side == "A" else second, rng.randrange(2**32), budget_ms, clock())
            for side in order
        ]
        board = random_board(rng) if game % 2 else profile(rng.choice(["standard", "winter"]))
        winners = outcome(play_bots(bots, board).replay()).winners
        sides = {order[s] for s in winners}
        if len(sides) == 2:
            shared += 1
            wins, losses = wins + 0.5, losses + 0.5
        elif "A" in sides:
            wins += 1
        else:
            losses += 1
    return Pairing(first, second, games, wins, losses, shared)


def tournament(
    games: int, seed: int, budget_ms: int, clock: Callable[[], Clock] = lambda: time.perf_counter
) -> list[Pairing]:
    """Every pairing of ``PAIRINGS``, ``games`` games each."""
    return [play_pairing(a, b, games, seed, budget_ms, clock) for a, b in PAIRINGS]
