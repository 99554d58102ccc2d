"""Big histories: time and peak memory of ``companion history`` on a history of N games.

    .venv/bin/python scripts/bench_history.py [--games 100000] [--distinct 400] [--seed 3]

Writes a JSON Lines file of N games (``--distinct`` random legal games, each repeated
under ids of its own; half of them without a date, as games imported from elsewhere;
some seats named, the rest not), imports it into a new state folder, then runs each read
command as a whole process: wall seconds and peak memory (max RSS), each in a process of
its own. Beside them, the leanest export one can write (SQLite's rows straight to
stdout, no parsing), as the floor a reader of these rows cannot go under.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.game.randgame import random_game  # noqa: E402

NAMES = ("ANN", "BRAM", "CY", "DEE", "EVI", "FEN")

# Runs ``argv`` and says its wall time and the peak RSS of it alone (a process of its own,
# so that RUSAGE_CHILDREN holds nothing else).
MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
wall = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"status": done.returncode, "wall_s": round(wall, 2),
                  "peak_mb": round(peak / 1024, 1), "stderr": done.stderr.decode()[-300:]}))
"""

LEAN_EXPORT = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1] + "?mode=ro", uri=True)
out = sys.stdout
for (record,) in db.execute("SELECT record FROM games ORDER BY date, rowid"):
    out.write(record + "\\n")
"""


def games_file(path: Path, games: int, distinct: int, seed: int) -> None:
    rng = random.Random(seed)
    pool = [random_game(rng, rng.randint(2, 5)).to_dict() for _ in range(distinct)]
    with path.open("w") as out:
        for n in range(games):
            record = dict(pool[n % distinct], id=f"bench{n:07d}")
            players = record["players"]
            kept: dict = {}
            if n % 2:
                day, minute = divmod(n // 2, 24 * 60)
                kept["date"] = f"2025-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T" + (
                    f"{minute // 60:02d}:{minute % 60:02d}:00+00:00"
                )
            if n % 3:
                seats = (rng.choice(NAMES) if rng.random() < 0.6 else None for _ in range(players))
                kept["names"] = list(seats)
            out.write(json.dumps({**record, "history": kept}, separators=(",", ":")) + "\n")


def measure(argv: list[str]) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *argv], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=400)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    companion = [sys.executable, "-m", "companion"]
    with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
        folder, lines = Path(tmp) / "state", Path(tmp) / "games.jsonl"
        folder.mkdir()
        start = time.perf_counter()
        games_file(lines, args.games, args.distinct, args.seed)
        size = lines.stat().st_size
        print(
            f"{args.games} games, {size / 1e6:.1f} MB of JSON Lines "
            f"({time.perf_counter() - start:.1f} s to write)"
        )
        runs = {
            "import": [*companion, "history", "import", str(lines), "--state-dir", str(folder)],
            "history": [*companion, "history", "--state-dir", str(folder)],
            "history --json": [*companion, "history", "--json", "--state-dir", str(folder)],
            "export": [*companion, "history", "export", "--state-dir", str(folder)],
            "stats": [*companion, "history", "stats", "--state-dir", str(folder)],
            "stats --json": [*companion, "history", "stats", "--json", "--state-dir", str(folder)],
            "lean export (the floor)": [
                sys.executable,
                "-c",
                LEAN_EXPORT,
                (folder / "history.sqlite").as_uri(),
            ],
        }
        figures = {}
        for name, argv in runs.items():
            figures[name] = got = measure(argv)
            said = f"  (status {got['status']}: {got['stderr'].strip()})" if got["status"] else ""
            print(f"{name:>26}  {got['wall_s']:8.2f} s  {got['peak_mb']:8.1f} MB{said}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
