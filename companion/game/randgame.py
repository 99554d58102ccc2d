"""Random legal games, for benchmarks and demos. Seeded: the same seed gives the same games."""

from __future__ import annotations

import random

from ..rules import Board, Card, GameState, new_game, play_round
from ..rules.board import SPACES
from .boards import profile
from .record import GameRecord, RoundRecord

MAX_ROUNDS = 500  # random play always ends long before; this only guards the loop


def random_board(rng: random.Random) -> Board:
    """A custom trader table: some spaces without a trade, small random rates elsewhere,
    in the order every board keeps (never more VP per good below than above)."""
    rates = [
        None if rng.random() < 0.2 else [rng.randint(1, 5), rng.randint(1, 4)]
        for _ in range(SPACES)
    ]
    return Board.from_rates(monotone(rates))


def monotone(rates: list[list[int] | None]) -> list[list[int] | None]:
    """The same table with its rates moved so that VP per good never falls going up.

    The spaces without a trade stay where they are; the rates fill the other spaces
    worst first (stable: equal rates keep their order).
    """
    # vp / goods as a float orders small rates exactly: division is correctly rounded,
    # so equal ratios (1:2 and 2:4) give equal keys and unequal ones differ.
    ordered = iter(sorted((r for r in rates if r is not None), key=lambda r: r[1] / r[0]))
    return [None if r is None else next(ordered) for r in rates]


def random_plays(rng: random.Random, state: GameState) -> tuple[tuple[int, ...], ...]:
    k = state.setup.cards_per_round
    return tuple(tuple(rng.sample(sorted(p.hand), k)) for p in state.players)


def random_game(
    rng: random.Random,
    players: int | None = None,
    board: Board | None = None,
    target: int | None = None,
) -> GameRecord:
    """A whole random game, played to its end. Unset choices are drawn at random."""
    players = players or rng.randint(2, 6)
    if board is None:
        board = (
            random_board(rng) if rng.random() < 0.5 else profile(rng.choice(["standard", "winter"]))
        )
    target = target or rng.choice((30, 45))
    state = new_game(players, board, target)
    rounds: list[RoundRecord] = []
    while not state.finished and len(rounds) < MAX_ROUNDS:
        plays = random_plays(rng, state)
        trades = tuple(rng.randint(0, 15) if Card.TRADER in p else 0 for p in plays)
        rounds.append(RoundRecord(plays, trades))
        state = play_round(state, plays, trades)
    return GameRecord(players, board, target, tuple(rounds))
