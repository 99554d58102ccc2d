"""``companion replay``: one game record, or JSON Lines of them, replayed and reported.

The format is in docs/record-format.md. Whatever the input holds, the command answers
0 (every game replayed) or 2 (something refused, one line on stderr per problem),
never a traceback. A JSON Lines batch gives exactly one answer per input line, in
order: a game that cannot be replayed never stops the games after it.
"""

from __future__ import annotations

import codecs
import collections
import itertools
import json
import os
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, TextIO

from ..errors import CompanionError, clip
from ..game.jsontext import parse_json
from ..game.record import GameRecord, replay_json
from ..rules import RecordError
from ..ui.catalog import DEFAULT, catalog
from .lines import (
    LINE_MAX,
    TOO_LONG_MESSAGE,
    Line,
    ReadError,
    TooLong,
    open_input,
    read_lines,
    reason,
)
from .status import EXIT_BAD_INPUT

if TYPE_CHECKING:  # the process pool and the narration load only when a batch needs them
    import concurrent.futures


def replay_command(
    path: str, *, as_json: bool, out: TextIO, err: TextIO, jobs: int = 0, lang: str = DEFAULT
) -> int:
    """Replay FILE (or - for stdin); ``jobs`` processes for JSON Lines (0: every usable CPU).

    ``lang`` is the narration's language; ``--json`` output has no words to translate.
    A batch is read and answered a line at a time: memory stays bounded whatever its size."""
    name = "<stdin>" if path == "-" else clip(path)
    try:
        stream = open_input(path)
    except OSError as e:
        err.write(f"{name}: cannot read: {reason(e)}\n")
        return EXIT_BAD_INPUT
    except ValueError as e:  # a NUL in the path
        err.write(f"{name}: cannot read: {clip(str(e)) or type(e).__name__}\n")
        return EXIT_BAD_INPUT
    try:
        return _replay_stream(stream, name, as_json, out, err, jobs, lang)
    except ReadError as e:  # the input failed while it was read: the answers so far stand
        err.write(f"{name}: cannot read: {reason(e.error)}\n")
        return EXIT_BAD_INPUT
    finally:
        if path != "-":
            stream.close()


def _replay_stream(
    stream: IO[bytes], name: str, as_json: bool, out: TextIO, err: TextIO, jobs: int, lang: str
) -> int:
    try:
        head, whole = _head(stream)
    except OSError as e:
        raise ReadError(e) from e
    if whole:  # the whole input, small: one document, or a small batch
        text = b"".join(head)
        try:
            doc = parse_json(text)
        except RecordError as e:
            if not is_batch(text):
                err.write(f"{name}: {e}\n")
                return EXIT_BAD_INPUT
        else:
            return _replay_one(doc, name, as_json, out, err, lang)
    lines = read_lines(_Prefixed(head, stream))
    return _replay_many(lines, name, as_json, out, err, jobs, lang)


DOCUMENT_MAX = 16 * 1024 * 1024  # one document is at most this; a larger input is a batch


def _head(stream: IO[bytes]) -> tuple[list[bytes], bool]:
    """The first lines of ``stream``, each with its newline, read until what the input is
    can be told, and whether they are the whole input (else a batch follows).

    A batch is known as soon as its first non-blank line is a whole JSON object and
    another non-blank line follows, or the input is longer than ``DOCUMENT_MAX``: a big
    batch costs a line or two of look-ahead. A line longer than ``LINE_MAX`` is read in
    pieces of that size (a document may be one long line).
    """
    head: list[bytes] = []
    size = 0
    first_is_object: bool | None = None
    while line := stream.readline(LINE_MAX + 1):
        if not head and line.startswith(codecs.BOM_UTF8):
            line = line[len(codecs.BOM_UTF8) :]
        head.append(line)
        size += len(line)
        body = line[:-1] if line.endswith(b"\n") else line
        if size > DOCUMENT_MAX:
            return head, False
        if _blank(body):
            continue
        if first_is_object is None:
            first_is_object = _is_object(body)
        elif first_is_object:
            return head, False
    return head, True


def is_batch(text: bytes) -> bool:
    """Whether ``text``, which is not one JSON document, is a JSON Lines batch.

    It is when it has two non-blank lines or more and one of them, any one, is a whole
    JSON object on its own: a bad first line is only that line's error. A pretty-printed
    record with a mistake has no line that is a whole object, and a file of a single line
    is one document: either gives one error. Lines end at "\\n" only.
    """
    filled = [line for line in text.split(b"\n") if not _blank(line)]
    return len(filled) >= 2 and any(map(_is_object, filled))


class _Prefixed:
    """The lines already read (``head``), then the rest of ``stream``, as ``readline``."""

    def __init__(self, head: list[bytes], stream: IO[bytes]):
        self._head = collections.deque(head)
        self._stream = stream

    def readline(self, size: int = -1) -> bytes:
        if not self._head:
            return self._stream.readline(size)
        line = self._head.popleft()
        if 0 <= size < len(line):
            self._head.appendleft(line[size:])
            return line[:size]
        if line.endswith(b"\n") or self._head:
            return line
        # The head ends inside this line: the stream continues it.
        return line + self._stream.readline(size - len(line) if size >= 0 else -1)


def _replayed(doc: object, as_json: bool, lang: str) -> str:
    """What one parsed record prints: its state as a JSON line, or its narration.

    Everything is built before anything is printed, so a bad round prints nothing.
    """
    if as_json:
        return replay_json(doc) + "\n"
    record = GameRecord.from_dict(doc)
    from ..game.narrate import narrate_game

    words = catalog(lang).with_bots(tuple(map(bool, record.bots)))  # B2, as on the table
    return "".join(line + "\n" for line in narrate_game(record, words))


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


def _blank(line: bytes) -> bool:
    return not line or line.isspace()


def _is_object(line: bytes) -> bool:
    """Whether ``line`` has the shape of one JSON object, whatever its values hold.

    Only the shape counts: a game with NaN, a number too long or a byte that is not
    UTF-8 inside a string is that line's error in a batch, not the whole file's.
    """
    try:
        return isinstance(_SHAPE.decode(line.decode("utf-8", "replace")), dict)
    except (ValueError, RecursionError):
        return False


# Numbers stay unconverted (their length stands in): shape only, at any length.
_SHAPE = json.JSONDecoder(parse_int=len, parse_float=len, parse_constant=len)


def _replay_many(
    lines: Iterable[Line], name: str, as_json: bool, out: TextIO, err: TextIO, jobs: int, lang: str
) -> int:
    status = 0
    for printed, errors in _map_chunks(lines, as_json, name, jobs, lang):
        if errors:
            err.write(errors)
            status = EXIT_BAD_INPUT
        out.write(printed)
    return status


def _replay_line(number: int, line: Line, as_json: bool, name: str, lang: str) -> tuple[str, str]:
    """One line of a batch: (what goes to stdout, what goes to stderr). Never raises."""
    try:
        if isinstance(line, TooLong):
            raise RecordError(TOO_LONG_MESSAGE)
        if _blank(line):
            raise RecordError("empty line")
        printed = _replayed(parse_json(line), as_json, lang)
    except Exception as e:  # a failure is this line's answer, never the batch's end
        message = f"line {number}: {_why(e)}"
        return (json.dumps({"error": message}) + "\n" if as_json else ""), f"{name}: {message}\n"
    if as_json:
        return printed, ""
    return f"=== {name}: line {number}\n{printed}\n", ""


Chunk = tuple[int, list[Line], bool, str, str]  # first line number, lines, as_json, name, lang


def _replay_chunk(chunk: Chunk) -> tuple[str, str]:
    """A run of lines: all they print, joined, so a worker sends back two strings."""
    first, lines, as_json, name, lang = chunk
    answers = [_replay_line(first + i, line, as_json, name, lang) for i, line in enumerate(lines)]
    return "".join(a[0] for a in answers), "".join(a[1] for a in answers)


CHUNK_LINES = 128  # lines a worker replays at a time
CHUNK_BYTES = 256 * 1024  # a chunk ends at this size too, so that a few long lines fill it


def _chunks(lines: Iterable[Line]) -> Iterator[tuple[int, list[Line]]]:
    """``lines`` in runs of at most ``CHUNK_LINES`` lines and about ``CHUNK_BYTES`` bytes,
    each with the number of its first line."""
    chunk: list[Line] = []
    size, first = 0, 1
    for line in lines:
        chunk.append(line)
        size += len(line) if isinstance(line, bytes) else 0
        if len(chunk) >= CHUNK_LINES or size >= CHUNK_BYTES:
            yield first, chunk
            first += len(chunk)
            chunk, size = [], 0
    if chunk:
        yield first, chunk


def _map_chunks(
    lines: Iterable[Line], as_json: bool, name: str, jobs: int, lang: str
) -> Iterator[tuple[str, str]]:
    """Replay every line, in order, as it is read; large batches spread over ``jobs``
    processes, with at most a few chunks per process read ahead."""
    jobs = jobs or usable_cpus()
    if jobs == 1:
        yield from (_replay_line(n, line, as_json, name, lang) for n, line in enumerate(lines, 1))
        return
    chunks = ((first, chunk, as_json, name, lang) for first, chunk in _chunks(lines))
    ahead: list[Chunk] = []  # read before the pool starts: a small batch needs none
    for chunk in chunks:
        ahead.append(chunk)
        if sum(len(c[1]) for c in ahead) >= PARALLEL_MIN_GAMES:
            break
    else:
        yield from map(_replay_chunk, ahead)
        return
    yield from _in_pool(itertools.chain(ahead, chunks), jobs)


def _in_pool(chunks: Iterator[Chunk], jobs: int) -> Iterator[tuple[str, str]]:
    """The chunks' answers, in order, from ``jobs`` processes."""
    from concurrent.futures.process import BrokenProcessPool

    waiting: collections.deque[tuple[Chunk, concurrent.futures.Future[tuple[str, str]]]]
    waiting = collections.deque()
    try:
        pool = _pool(jobs)
        try:
            for chunk in chunks:
                waiting.append((chunk, pool.submit(_replay_chunk, chunk)))
                if len(waiting) >= jobs * IN_FLIGHT:
                    yield waiting[0][1].result()
                    waiting.popleft()
            while waiting:
                yield waiting[0][1].result()
                waiting.popleft()
        finally:  # a reader that stops early (`| head`) leaves no work running
            pool.shutdown(cancel_futures=True)
    except (BrokenProcessPool, OSError):
        # A worker died (killed for memory, say) or none could start: the chunks not yet
        # answered are replayed here, so every line still gets its answer, in order.
        yield from (_replay_chunk(chunk) for chunk, _ in waiting)
        yield from map(_replay_chunk, chunks)


IN_FLIGHT = 3  # chunks per process submitted and not yet answered: memory stays bounded


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
