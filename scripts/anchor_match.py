"""The strong bot of this checkout against two copies of a fixed anchor's strong bot.

    git archive e5d8e86 | (mkdir -p /tmp/anchor && tar -x -C /tmp/anchor)
    .venv/bin/python scripts/anchor_match.py --anchor /tmp/anchor [--games 200]
        [--budget-ms 100] [--seed 1]

Three seats, every one a ``companion bot --strength strong`` process driven over JSON
Lines: one runs this checkout's code, two run the anchor's (``python -m companion`` in
the anchor's folder imports that folder's package, whatever is installed). This
checkout's seat moves round the table game by game; boards alternate between a shipped
side and a random custom table. Prints its share of the wins (a shared win counts as a
fraction; a fair share is 1/3) with Wilson's 95% interval, its decision times, and stops
at the first illegal answer (the rules refuse it). Real clock: decisions stop at their
deadline, so a loaded machine gives every seat fewer playouts alike.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.game.boards import profile  # noqa: E402
from companion.game.randgame import random_board  # noqa: E402
from companion.game.record import GameRecord, RoundRecord  # noqa: E402
from companion.game.tournament import wilson  # noqa: E402
from companion.rules import new_game, outcome, play_round  # noqa: E402

SEATS = 3


class Bot:
    """``companion bot --strength strong`` as a child process, run in ``folder``."""

    def __init__(self, folder: Path, budget_ms: int, seed: int) -> None:
        command = [sys.executable, "-m", "companion", "bot", "--strength", "strong"]
        command += ["--budget-ms", str(budget_ms), "--seed", str(seed)]
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=folder
        )

    def ask(self, request: dict) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait()


def play(bots: list[Bot], board, mine: int, times: list[float]) -> tuple[int, ...]:
    """One game, seat by seat ``bots``; the decision times of seat ``mine``."""
    state = new_game(SEATS, board)
    rounds: list[RoundRecord] = []
    while not state.finished:
        game = json.loads(GameRecord(SEATS, board, 30, tuple(rounds)).to_json())
        plays = []
        for seat, bot in enumerate(bots):
            start = time.perf_counter()
            answer = bot.ask({"ask": "cards", "game": game, "seat": seat})
            if seat == mine:
                times.append(time.perf_counter() - start)
            plays.append(tuple(answer["cards"]))  # KeyError on an error answer
        offers = [
            bot.ask({"ask": "trade", "game": game, "seat": seat, "plays": plays})["offer"]
            for seat, bot in enumerate(bots)
        ]
        state = play_round(state, plays, offers)  # IllegalPlayError on an illegal answer
        rounds.append(RoundRecord(tuple(plays), tuple(offers)))
    return outcome(state).winners


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchor", type=Path, required=True, help="a checkout of the anchor")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget-ms", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ours = Bot(ROOT, args.budget_ms, args.seed)
    anchors = [Bot(args.anchor, args.budget_ms, args.seed + n) for n in (1, 2)]
    share, times = 0.0, []
    try:
        for game in range(args.games):
            mine = game % SEATS
            others = iter(anchors)
            bots = [ours if seat == mine else next(others) for seat in range(SEATS)]
            board = random_board(rng) if game % 2 else profile(rng.choice(["standard", "winter"]))
            winners = play(bots, board, mine, times)
            share += (mine in winners) / len(winners)
            print(f"game {game + 1}: won {share:g} of {game + 1}", file=sys.stderr, flush=True)
    finally:
        for bot in (ours, *anchors):
            bot.close()
    low, high = wilson(share, args.games)
    times = sorted(times[1:])  # the first answer waits for start-up
    print(
        f"strong ({args.budget_ms} ms) vs 2 x anchor strong, {args.games} games of {SEATS}: "
        f"won {share:g} = {share / args.games:.1%} (95% CI {low:.1%} .. {high:.1%}; fair "
        f"share 33.3%); decisions: median {times[len(times) // 2] * 1000:.0f} ms, 99th "
        f"percentile {times[int(len(times) * 0.99)] * 1000:.0f} ms, longest "
        f"{times[-1] * 1000:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
