"""``companion replay``: one game record, or JSON Lines of them, replayed and reported.

The format is in docs/record-format.md. Whatever the input holds, the command answers
0 (every game replayed) or 2 (something refused, one line on stderr per problem),
never a traceback. A JSON Lines batch gives exactly one answer per input line, in
order: a game that cannot be replayed never stops the games after it.
"""

from __future__ import annotations

import codecs
import json
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, AnyStr, TextIO

from ..errors import CompanionError, clip
from ..game.jsontext import parse_json
from ..game.record import GameRecord, state_to_dict
from ..rules import RecordError
from ..ui.catalog import DEFAULT, catalog

if TYPE_CHECKING:  # the process pool and the narration load only when a batch needs them
    import concurrent.futures

EXIT_BAD_INPUT = 2
Lines = list[str] | list[bytes]  # a batch's lines: text, or bytes if not all UTF-8


def replay_command(
    path: str, *, as_json: bool, out: TextIO, err: TextIO, jobs: int = 0, lang: str = DEFAULT
) -> int:
    """Replay FILE (or - for stdin); ``jobs`` processes for JSON Lines (0: every usable CPU).

    ``lang`` is the narration's language; ``--json`` output has no words to translate."""
    name = "<stdin>" if path == "-" else clip(path)
    try:
        data = read_input(path)
    except OSError as e:
        err.write(f"{name}: cannot read: {e.strerror or type(e).__name__}\n")
        return EXIT_BAD_INPUT
    except (ValueError, MemoryError) as e:  # a NUL in the path; a file larger than memory
        err.write(f"{name}: cannot read: {clip(str(e)) or type(e).__name__}\n")
        return EXIT_BAD_INPUT
    try:
        doc = parse_json(data)
    except Exception as e:  # not one document: JSON Lines, or a broken file
        lines = json_lines(data)
        if lines is None:
            err.write(f"{name}: {_why(e)}\n")
            return EXIT_BAD_INPUT
        return _replay_many(lines, name, as_json, out, err, jobs, lang)
    return _replay_one(doc, name, as_json, out, err, lang)


READ_MAX = 256 * 1024 * 1024  # about 250,000 games; more is not a batch but /dev/zero


def read_input(path: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input), at most ``READ_MAX``: OSError when it
    cannot be read, ValueError when it is larger."""
    if path == "-":
        if sys.stdin is None:  # started with standard input closed
            raise OSError(0, "no standard input")
        data = sys.stdin.buffer.read(READ_MAX + 1)
    else:
        with open(path, "rb") as f:
            data = f.read(READ_MAX + 1)
    if len(data) > READ_MAX:
        raise ValueError(f"larger than {READ_MAX // 2**20} MB: split it into smaller batches")
    return data


def json_lines(data: bytes) -> Lines | None:
    """The lines of ``data`` if it is a JSON Lines batch, else None (one document).

    It is a batch when its first non-blank line is a whole JSON object on its own and
    another non-blank line follows: a pretty-printed record with a mistake, or a file of
    a single line, stays one document with one error. Lines end at "\\n" only (a "\\r"
    before it is JSON whitespace); the newline that ends the last line does not start
    another. The lines are text, or bytes if the file is not all UTF-8: each line is
    then decoded on its own, and a bad one is only that line's error.
    """
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        lines: Lines = _split(data.decode("utf-8"), "\n")
    except UnicodeDecodeError:
        lines = _split(data, b"\n")
    filled = (line for line in lines if not _blank(line))
    first, second = next(filled, None), next(filled, None)
    if first is None or second is None:
        return None
    return lines if _is_object(first) else None


def _split(text: AnyStr, newline: AnyStr) -> list[AnyStr]:
    # split, not splitlines: U+2028 may sit inside a JSON string, and "\r" alone is no end.
    lines = text.split(newline)
    if not lines[-1]:
        lines.pop()
    return lines


def _blank(line: str | bytes) -> bool:
    return not line or line.isspace()


def _is_object(line: str | bytes) -> bool:
    """Whether ``line`` has the shape of one JSON object, whatever its values hold.

    Only the shape counts: a first game with NaN, a number too long or a byte that is
    not UTF-8 inside a string is that line's error in a batch, not the whole file's.
    """
    try:
        text = line if isinstance(line, str) else line.decode("utf-8", "replace")
        return isinstance(_SHAPE.decode(text), dict)
    except (ValueError, RecursionError):
        return False


# Numbers stay unconverted (their length stands in): shape only, at any length.
_SHAPE = json.JSONDecoder(parse_int=len, parse_float=len, parse_constant=len)


def _replayed(doc: object, as_json: bool, lang: str) -> str:
    """What one parsed record prints: its state as a JSON line, or its narration.

    Everything is built before anything is printed, so a bad round prints nothing.
    """
    record = GameRecord.from_dict(doc)
    if as_json:
        return json.dumps(state_to_dict(record.replay(), record.ended)) + "\n"
    from ..game.narrate import narrate_game

    return "".join(line + "\n" for line in narrate_game(record, catalog(lang)))


def _why(e: BaseException) -> str:
    """The one-line reason for a failure, whatever it was."""
    if isinstance(e, CompanionError):
        return str(e)
    if isinstance(e, RecursionError):
        return "nested too deeply to replay"
    if isinstance(e, MemoryError):
        return "too large to replay in the memory there is"
    # Not a refusal of ours: still the input's answer, and still one line.
    return f"cannot replay it ({type(e).__name__}: {clip(str(e))})"


def _replay_one(doc: object, name: str, as_json: bool, out: TextIO, err: TextIO, lang: str) -> int:
    try:
        printed = _replayed(doc, as_json, lang)
    except Exception as e:  # whatever the input: one line, never a traceback
        err.write(f"{name}: {_why(e)}\n")
        return EXIT_BAD_INPUT
    out.write(printed)
    return 0


def _replay_many(
    lines: Lines, name: str, as_json: bool, out: TextIO, err: TextIO, jobs: int, lang: str
) -> int:
    status = 0
    for printed, errors in _map_chunks(lines, as_json, name, jobs, lang):
        if errors:
            err.write(errors)
            status = EXIT_BAD_INPUT
        out.write(printed)
    return status


def _replay_line(
    number: int, line: str | bytes, as_json: bool, name: str, lang: str
) -> tuple[str, str]:
    """One line of a batch: (what goes to stdout, what goes to stderr). Never raises."""
    try:
        if _blank(line):
            raise RecordError("empty line")
        printed = _replayed(parse_json(line), as_json, lang)
    except Exception as e:  # a failure is this line's answer, never the batch's end
        message = f"line {number}: {_why(e)}"
        return (json.dumps({"error": message}) + "\n" if as_json else ""), f"{name}: {message}\n"
    if as_json:
        return printed, ""
    return f"=== {name}: line {number}\n{printed}\n", ""


Chunk = tuple[int, Lines, bool, str, str]  # first line number, lines, as_json, name, lang


def _replay_chunk(chunk: Chunk) -> tuple[str, str]:
    """A run of lines: all they print, joined, so a worker sends back two strings."""
    first, lines, as_json, name, lang = chunk
    batch: list[str | bytes] = list(lines)
    answers = [_replay_line(first + i, line, as_json, name, lang) for i, line in enumerate(batch)]
    return "".join(a[0] for a in answers), "".join(a[1] for a in answers)


def _map_chunks(
    lines: Lines, as_json: bool, name: str, jobs: int, lang: str
) -> Iterator[tuple[str, str]]:
    """Replay every line, in order; large batches spread over ``jobs`` processes."""
    jobs = jobs or usable_cpus()
    if jobs == 1 or len(lines) < PARALLEL_MIN_GAMES:
        batch: list[str | bytes] = list(lines)
        yield from (_replay_line(n, line, as_json, name, lang) for n, line in enumerate(batch, 1))
        return
    size = max(16, len(lines) // (jobs * 8))  # a few chunks per worker keeps them all busy
    chunks = [(i + 1, lines[i : i + size], as_json, name, lang) for i in range(0, len(lines), size)]
    from concurrent.futures.process import BrokenProcessPool

    done = 0
    try:
        pool = _pool(jobs)
        try:
            for answer in pool.map(_replay_chunk, chunks):
                yield answer
                done += 1
        finally:  # a reader that stops early (`| head`) leaves no work running
            pool.shutdown(cancel_futures=True)
    except (BrokenProcessPool, OSError):
        # A worker died (killed for memory, say) or none could start: the chunks not yet
        # answered are replayed here, so every line still gets its answer, in order.
        yield from map(_replay_chunk, chunks[done:])


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _pool(jobs: int) -> concurrent.futures.ProcessPoolExecutor:
    # fork where the platform has it: the workers start with everything imported. A
    # process pool (not multiprocessing.Pool) reports a dead worker instead of hanging.
    import concurrent.futures
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    return concurrent.futures.ProcessPoolExecutor(jobs, mp_context=ctx)


PARALLEL_MIN_GAMES = 256  # below this a pool costs more than it saves
