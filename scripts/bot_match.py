"""The strong bot through ``companion bot`` against simple baseline bots, by hand.

    .venv/bin/python scripts/bot_match.py [--games 30] [--players 3] [--budget-ms 100]
        [--baseline random|greedy|heuristic] [--seed 1]

One seat, moving round the table game by game, is ``companion bot --strength strong``
driven over JSON Lines as any other program would drive it; the other seats are
baselines written here, not the project's bots: ``random`` (uniform legal selection and
offer), ``greedy`` (the selection that gains the most VP this round against random
guesses of the others; offers every good) and ``heuristic`` (VP plus goods / 3 this
round; trades only above the 3:1 end rate). Prints the strong seat's share of the wins
(a shared win counts as a fraction; a fair share is 1 / players), the decision times
and any illegal answer. Real clock: the numbers vary a little from run to run.
"""

from __future__ import annotations

import argparse
import itertools
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
from companion.rules import (  # noqa: E402
    choices_in,
    new_game,
    outcome,
    play_round,
    resolve_round,
)

GUESSES = 6


def selections(state, seat):
    k = state.setup.cards_per_round
    return list(itertools.combinations(sorted(state.hands[seat]), k))


def baseline_cards(kind, state, seat, rng):
    options = selections(state, seat)
    if kind == "random":
        return rng.choice(options)
    k = state.setup.cards_per_round
    guesses = [
        [rng.sample(sorted(state.hands[s]), k) for s in range(state.setup.players)]
        for _ in range(GUESSES)
    ]

    def worth(mine):
        total = 0.0
        for guess in guesses:
            plays = [mine if s == seat else g for s, g in enumerate(guess)]
            offers = [state.goods[s] for s in range(state.setup.players)]
            after = play_round(state, plays, offers if kind == "greedy" else ())
            total += after.vp[seat] - state.vp[seat]
            if kind == "heuristic":
                total += (after.goods[seat] - state.goods[seat]) / 3
        return total

    return max(options, key=worth)


def baseline_offer(kind, state, seat, plays, rng):
    choice = next((c for c in choices_in(resolve_round(state, plays)) if c.seat == seat), None)
    if choice is None:
        return 0
    if kind == "random":
        return rng.randint(0, choice.held)
    if kind == "greedy":
        return choice.held
    return max(choice.offers, key=lambda q: (q.vp - q.spent / 3, -q.spent)).spent


class Strong:
    """``companion bot --strength strong`` as a child process."""

    def __init__(self, budget_ms, seed):
        command = [sys.executable, "-m", "companion", "bot", "--strength", "strong"]
        command += ["--budget-ms", str(budget_ms), "--seed", str(seed)]
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
        )

    def ask(self, request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def play(strong, kind, players, seat, board, rng, times):
    state = new_game(players, board)
    rounds = []
    while not state.finished:
        game = json.loads(GameRecord(players, board, 30, tuple(rounds)).to_json())
        plays = []
        for s in range(players):
            if s == seat:
                start = time.perf_counter()
                answer = strong.ask({"ask": "cards", "game": game, "seat": s})
                times.append(time.perf_counter() - start)
                plays.append(tuple(answer["cards"]))  # KeyError on an error answer
            else:
                plays.append(baseline_cards(kind, state, s, rng))
        offers = []
        for s in range(players):
            if s == seat:
                request = {"ask": "trade", "game": game, "seat": s, "plays": plays}
                offers.append(strong.ask(request)["offer"])
            else:
                offers.append(baseline_offer(kind, state, s, plays, rng))
        state = play_round(state, plays, offers)  # IllegalPlayError on an illegal answer
        rounds.append(RoundRecord(tuple(plays), tuple(offers)))
    return outcome(state).winners


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--budget-ms", type=int, default=100)
    parser.add_argument("--baseline", choices=["random", "greedy", "heuristic"], default="greedy")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    strong = Strong(args.budget_ms, args.seed)
    share, times = 0.0, []
    try:
        for game in range(args.games):
            seat = game % args.players
            board = random_board(rng) if game % 2 else profile(rng.choice(["standard", "winter"]))
            winners = play(strong, args.baseline, args.players, seat, board, rng, times)
            share += (seat in winners) / len(winners)
    finally:
        strong.close()
    first, times = times[0], sorted(times[1:])  # the first answer waits for start-up
    print(
        f"strong ({args.budget_ms} ms) vs {args.players - 1} x {args.baseline}, "
        f"{args.games} games of {args.players}: won {share / args.games:.0%} "
        f"(fair share {1 / args.players:.0%}); {len(times) + 1} decisions, the first "
        f"{first * 1000:.0f} ms (start-up), then median {times[len(times) // 2] * 1000:.0f} "
        f"ms, 99th percentile {times[int(len(times) * 0.99)] * 1000:.0f} ms, "
        f"longest {times[-1] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
