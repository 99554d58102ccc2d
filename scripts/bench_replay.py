"""Whole-process batch replay: ``companion replay --json`` against the reference model.

    .venv/bin/python scripts/bench_replay.py [--games 3000] [--seed 5] [--repeat 3]

Writes a JSON Lines file of random legal games, then times each command as a whole
process (start-up, parsing and output included), best of ``--repeat`` runs, and checks
that every command printed the same results. The sources are byte-compiled first, as
an installed package is: with PYTHONDONTWRITEBYTECODE set, every run would otherwise
spend its start-up compiling the same modules again.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.game.randgame import random_game  # noqa: E402


def best_time(cmd: list[str], repeat: int) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds, output): each the best of ``repeat`` runs.

    CPU time (user + system, of the command and any workers it waits for) is the
    steadier figure on a shared machine; wall time is what a user waits."""
    best, best_cpu, out = float("inf"), float("inf"), b""
    for _ in range(repeat):
        before = _children_cpu()
        start = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, check=True).stdout
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, _children_cpu() - before)
    return best, best_cpu, out


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.jsonl"
        path.write_text("".join(random_game(rng).to_json() + "\n" for _ in range(args.games)))
        python = sys.executable
        for source in (ROOT / "companion", ROOT / "tests" / "model.py"):
            compileall = [python, "-m", "compileall", "-q", str(source)]
            subprocess.run(compileall, check=True)
        commands = {
            "reference (tests/reference_replay.py)": [
                python, str(ROOT / "tests" / "reference_replay.py"), str(path)
            ],
            "companion replay --json --jobs 1": [
                python, "-m", "companion", "replay", str(path), "--json", "--jobs", "1"
            ],
            "companion replay --json": [python, "-m", "companion", "replay", str(path), "--json"],
        }  # fmt: skip
        times, outputs = {}, set()
        for name, cmd in commands.items():
            *times[name], out = best_time(cmd, args.repeat)
            outputs.add(out.replace(b", ", b",").replace(b": ", b":"))
        wall, cpu = next(iter(times.values()))
        print(f"{args.games} games, {path.stat().st_size / 1e6:.1f} MB, best of {args.repeat}")
        for name, (seconds, cpu_seconds) in times.items():
            print(
                f"  {name:40s} {seconds:6.2f} s   {wall / seconds:4.1f}x"
                f"   CPU {cpu_seconds:6.2f} s   {cpu / cpu_seconds:4.1f}x"
            )
        if len(outputs) != 1:
            print("  the commands printed DIFFERENT results")
            return 1
        print("  every command printed the same results")
    return 0


if __name__ == "__main__":
    sys.exit(main())
