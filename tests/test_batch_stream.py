"""A JSON Lines batch is streamed: memory stays the same whatever the number of games."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

import pytest

GAME = {"players": 3, "rounds": [{"plays": [[1, 3], [2, 5], [4, 8]]}]}
# One game with a long note (ignored) and 200 short bad lines: 200 KB and 201 answers.
PATTERN = json.dumps({**GAME, "note": "a" * 200_000}) + "\n" + "[1]\n" * 200
MEMORY_LIMIT = 256 * 1024 * 1024  # address space: the old whole-file read needed more


def replay(path, jobs: int, limit: int | None = None) -> tuple[int, int, int]:
    """(exit status, answer lines, peak RSS in KB) of ``companion replay --json``."""

    def limited() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    out = path.with_suffix(".out")
    with open(out, "wb") as answers:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "replay", str(path), "--json", "--jobs", str(jobs)],
            stdout=answers,
            stderr=subprocess.DEVNULL,
            cwd=path.parent,
            preexec_fn=limited,
        )
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            proc.returncode = 0  # reaped by wait4 above
    with open(out, "rb") as answers:
        count = sum(1 for _ in answers)
    return os.waitstatus_to_exitcode(status), count, usage.ru_maxrss


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_peak_memory_does_not_grow_with_the_batch(tmp_path, jobs):
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    small.write_text(PATTERN * 5)
    large.write_text(PATTERN * 200)  # 40 MB, 40,200 lines
    assert large.stat().st_size > 40_000_000
    code, lines, small_kb = replay(small, jobs)
    assert (code, lines) == (2, 201 * 5)
    code, lines, large_kb = replay(large, jobs, MEMORY_LIMIT)
    assert (code, lines) == (2, 201 * 200)
    assert large_kb < small_kb + 16 * 1024, (small_kb, large_kb)
    first = json.loads(large.with_suffix(".out").read_text().split("\n", 1)[0])
    assert first["round"] == 1
