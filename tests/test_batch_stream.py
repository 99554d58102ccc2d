"""A JSON Lines batch is streamed: memory stays the same whatever the number of games."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

GAME = {"players": 3, "rounds": [{"plays": [[1, 3], [2, 5], [4, 8]]}]}
# One game with a long note (ignored) and 200 short bad lines: 200 KB and 201 answers.
PATTERN = json.dumps({**GAME, "note": "a" * 200_000}) + "\n" + "[1]\n" * 200
MEMORY_LIMIT = 256 * 1024 * 1024  # address space: the old whole-file read needed more


# Run from a small Python of its own: a child's peak RSS starts at its parent's (fork and
# exec keep the high-water mark), and a pytest worker may be large.
MEASURE = """
import resource, subprocess, sys
limit, out = int(sys.argv[1]), sys.argv[2]

def limited():
    if limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

with open(out, "wb") as answers:
    done = subprocess.run(sys.argv[3:], stdout=answers, stderr=subprocess.DEVNULL,
                          preexec_fn=limited)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def replay(path, jobs: int, limit: int | None = None) -> tuple[int, int, int]:
    """(exit status, answer lines, peak RSS in KB) of ``companion replay --json``."""
    out = path.with_suffix(".out")
    command = [sys.executable, "-m", "companion", "replay", str(path), "--json"]
    measured = subprocess.run(
        [sys.executable, "-c", MEASURE, str(limit or 0), str(out), *command, "--jobs", str(jobs)],
        capture_output=True,
        text=True,
        cwd=path.parent,
        timeout=120,
        check=True,
    )
    code, peak_kb = map(int, measured.stdout.split())
    with open(out, "rb") as answers:
        count = sum(1 for _ in answers)
    return code, count, peak_kb


def write(path, head: str, times: int) -> None:
    """``head`` and then ``PATTERN`` ``times`` over, written piece by piece."""
    with open(path, "w") as f:
        f.write(head)
        for _ in range(times):
            f.write(PATTERN)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_peak_memory_does_not_grow_with_the_batch(tmp_path, jobs):
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    write(small, "", 5)
    write(large, "", 200)  # 40 MB, 40,200 lines
    assert large.stat().st_size > 40_000_000
    code, lines, small_kb = replay(small, jobs)
    assert (code, lines) == (2, 201 * 5)
    code, lines, large_kb = replay(large, jobs, MEMORY_LIMIT)
    assert (code, lines) == (2, 201 * 200)
    assert large_kb < small_kb + 16 * 1024, (small_kb, large_kb)
    first = json.loads(large.with_suffix(".out").read_text().split("\n", 1)[0])
    assert first["round"] == 1


@pytest.mark.slow
def test_a_large_batch_with_a_bad_first_line_is_answered_within_the_limit(tmp_path):
    """Its kind is told by reading ahead at most 16 MB: memory still bounded."""
    large = tmp_path / "large.jsonl"
    write(large, "{oops\n", 200)
    code, lines, peak_kb = replay(large, 1, MEMORY_LIMIT)
    assert (code, lines) == (2, 1 + 201 * 200)
    assert peak_kb < 80 * 1024, peak_kb
    answers = large.with_suffix(".out").read_text().split("\n", 2)
    assert json.loads(answers[0])["error"].startswith("line 1: not valid JSON")
    assert json.loads(answers[1])["round"] == 1
