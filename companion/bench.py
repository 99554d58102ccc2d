"""``companion bench``: how fast the engine resolves random legal games, on one core."""

from __future__ import annotations

import json
import random
import time
from typing import TextIO

from .randgame import random_game


def engine_games_per_s(games: int, seed: int) -> tuple[float, int]:
    """Random legal games fully replayed per second, and the rounds they held.

    The games are drawn first; only their replay is timed.
    """
    rng = random.Random(seed)
    records = [random_game(rng) for _ in range(games)]
    rounds = sum(len(r.rounds) for r in records)
    start = time.perf_counter()
    for record in records:
        record.replay()
    elapsed = time.perf_counter() - start
    return games / elapsed, rounds


def bench_command(*, games: int, seed: int, as_json: bool, out: TextIO) -> int:
    per_s, rounds = engine_games_per_s(games, seed)
    figures = {
        "engine_games_per_s": round(per_s, 1),
        "engine_rounds_per_s": round(per_s * rounds / games, 1),
        "games": games,
        "seed": seed,
    }
    if as_json:
        out.write(json.dumps(figures) + "\n")
    else:
        for key, value in figures.items():
            out.write(f"{key:>22}  {value}\n")
    return 0
