"""Random legal games, for benchmarks and demos. Seeded: the same seed gives the same games."""

from __future__ import annotations

import random

from ..rules import Board, Card, GameState, new_game, play_round
from ..rules.board import SPACES
from .boards import profile
from .record import GameRecord, RoundRecord

MAX_ROUNDS = 500  # random play always ends long before; this only guards the loop


def random_board(rng: random.Random) -> Board:
    """A custom trader table: some spaces without a trade, small random rates elsewhere."""
    rates = [
        None if rng.random() < 0.2 else [rng.randint(1, 5), rng.randint(1, 4)]
        for _ in range(SPACES)
    ]
    return Board.from_rates(rates)


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
    rounds = []
    while not state.finished and len(rounds) < MAX_ROUNDS:
        plays = random_plays(rng, state)
        trades = tuple(rng.randint(0, 15) if Card.TRADER in p else 0 for p in plays)
        rounds.append(RoundRecord(plays, trades))
        state = play_round(state, plays, trades)
    return GameRecord(players, board, target, tuple(rounds))
