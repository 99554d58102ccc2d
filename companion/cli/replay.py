"""``companion replay``: one game record, or JSON Lines of them, replayed and reported."""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.pool
import os
import sys
from collections.abc import Iterator
from typing import TextIO

from ..game.jsontext import parse_json
from ..game.narrate import narrate_game
from ..game.record import GameRecord, state_to_dict
from ..rules import CompanionError, RecordError
from ..ui.catalog import catalog

EXIT_BAD_INPUT = 2


def replay_command(path: str, *, as_json: bool, out: TextIO, err: TextIO, jobs: int = 0) -> int:
    """Replay FILE (or - for stdin); ``jobs`` processes for JSON Lines (0: every usable CPU)."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else _read(path)
        text = data.decode("utf-8-sig")
    except OSError as e:
        err.write(f"{_name(path)}: cannot read: {e.strerror or e}\n")
        return EXIT_BAD_INPUT
    except UnicodeDecodeError as e:
        err.write(f"{_name(path)}: not UTF-8 text: {e.reason} at byte {e.start}\n")
        return EXIT_BAD_INPUT
    try:
        data = parse_json(text)
    except RecordError as e:  # not one document: JSON Lines, or a broken file
        lines = _json_lines(text)
        if lines is None:
            err.write(f"{_name(path)}: {e}\n")
            return EXIT_BAD_INPUT
        return _replay_many(lines, path, as_json, out, err, jobs)
    return _replay_one(data, path, as_json, out, err)


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _json_lines(text: str) -> list[tuple[int, str]] | None:
    """The numbered non-blank lines if ``text``, which is not one JSON document, is
    JSON Lines: lines that are complete documents on their own (at least one is)."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) < 2:
        return None
    for _, line in lines:
        try:
            json.loads(line)
            return lines
        except (ValueError, RecursionError):
            continue
    return None


def _replay_game(data: object, as_json: bool) -> tuple[str, CompanionError | None]:
    """Replay one parsed record: (what to print, or the error that stopped it).

    Everything is built before anything is printed, so a bad round prints nothing.
    """
    try:
        record = GameRecord.from_dict(data)
        if as_json:
            return json.dumps(state_to_dict(record.replay())) + "\n", None
        return "".join(line + "\n" for line in narrate_game(record, catalog())), None
    except CompanionError as e:
        return "", e


def _replay_one(data: object, path: str, as_json: bool, out: TextIO, err: TextIO) -> int:
    printed, error = _replay_game(data, as_json)
    if error is not None:
        err.write(f"{_name(path)}: {error}\n")
        return EXIT_BAD_INPUT
    out.write(printed)
    return 0


def _replay_many(
    lines: list[tuple[int, str]], path: str, as_json: bool, out: TextIO, err: TextIO, jobs: int
) -> int:
    status = 0
    for printed, errors in _map_chunks(lines, as_json, _name(path), jobs):
        if errors:
            err.write(errors)
            status = EXIT_BAD_INPUT
        out.write(printed)
    return status


def _replay_line(number: int, line: str, as_json: bool, name: str) -> tuple[str, str]:
    """One game of a JSON Lines batch: (what goes to stdout, what goes to stderr)."""
    try:
        printed, error = _replay_game(parse_json(line), as_json)
    except RecordError as e:
        printed, error = "", e
    if error is not None:
        shown = json.dumps({"error": f"line {number}: {error}"}) + "\n" if as_json else ""
        return shown, f"{name}: line {number}: {error}\n"
    if as_json:
        return printed, ""
    return f"=== {name}: line {number}\n{printed}\n", ""


Chunk = tuple[list[tuple[int, str]], bool, str]


def _replay_chunk(chunk: Chunk) -> tuple[str, str]:
    """A run of games: all they print, joined, so a worker sends back two strings."""
    lines, as_json, name = chunk
    printed, errors = zip(*(_replay_line(n, line, as_json, name) for n, line in lines), strict=True)
    return "".join(printed), "".join(errors)


def _map_chunks(
    lines: list[tuple[int, str]], as_json: bool, name: str, jobs: int
) -> Iterator[tuple[str, str]]:
    """Replay every game, in order; large batches spread over ``jobs`` processes."""
    jobs = jobs or usable_cpus()
    if jobs == 1 or len(lines) < PARALLEL_MIN_GAMES:
        yield from (_replay_line(n, line, as_json, name) for n, line in lines)
        return
    size = max(16, len(lines) // (jobs * 8))  # a few chunks per worker keeps them all busy
    chunks = [(lines[i : i + size], as_json, name) for i in range(0, len(lines), size)]
    with _pool(jobs) as pool:
        yield from pool.imap(_replay_chunk, chunks)


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _pool(jobs: int) -> multiprocessing.pool.Pool:
    # fork where the platform has it: the workers start with everything imported.
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    return ctx.Pool(jobs)


PARALLEL_MIN_GAMES = 256  # below this a pool costs more than it saves
