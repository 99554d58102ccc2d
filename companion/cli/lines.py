"""Input read a line at a time, with a cap on a line: what every JSON Lines reader shares.

``companion replay``, ``companion history import`` and ``companion bot`` read their
input through ``read_lines``: memory stays bounded by the cap, whatever the input holds
(a file of a million games, or one line of 100 MB). A line longer than the cap is not
kept: it is read on in bounded pieces, thrown away, and stands as ``TOO_LONG``, so that
the reader answers it with one error and goes on with the next line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import IO, Final, Protocol

from ..errors import clip

LINE_MAX = 1024 * 1024  # bytes in one line, its newline not counted
_SKIP = 64 * 1024  # the piece in which the rest of a line too long is thrown away


class TooLong:
    """A line longer than the cap, its bytes thrown away."""

    def __repr__(self) -> str:
        return "TOO_LONG"


TOO_LONG: Final = TooLong()
Line = bytes | TooLong

TOO_LONG_MESSAGE = f"longer than {LINE_MAX // (1024 * 1024)} MB ({LINE_MAX} bytes), not read"


class Readable(Protocol):
    """What ``read_lines`` reads: anything with a binary ``readline(size)``."""

    def readline(self, size: int = -1, /) -> bytes: ...


class ReadError(Exception):
    """The input failed while its lines were read (not an OSError: the reader's own
    output failing, a pipe closed, say, is another matter). ``error`` is the OSError."""

    def __init__(self, error: OSError):
        super().__init__(str(error))
        self.error = error


def read_lines(stream: Readable, cap: int = LINE_MAX) -> Iterator[Line]:
    """The lines of ``stream``, each without its ``\\n``, or ``TOO_LONG`` for one longer
    than ``cap`` bytes. Lines end at ``\\n`` only; the newline that ends the last line does
    not start another. At most ``cap`` + 64 KB of a line is ever held. An input that
    fails raises ReadError."""
    try:
        yield from _lines(stream.readline, cap)
    except OSError as e:
        raise ReadError(e) from e


def _lines(readline: Callable[[int], bytes], cap: int) -> Iterator[Line]:
    while True:
        line = readline(cap + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
            continue
        if len(line) <= cap:  # the last line, without a newline
            yield line
            return
        del line
        if not _skip_rest(readline):
            yield TOO_LONG
            return
        yield TOO_LONG


def _skip_rest(readline: Callable[[int], bytes]) -> bool:
    """Read up to the end of the line, in pieces; False when the input ended first."""
    while True:
        piece = readline(_SKIP)
        if not piece:
            return False
        if piece.endswith(b"\n"):
            return True


def open_input(path: str) -> IO[bytes]:
    """``path`` opened to read bytes (``-``: standard input). OSError when it cannot be
    read; a folder is refused with IsADirectoryError on every platform."""
    if path == "-":
        if sys.stdin is None:  # started with standard input closed
            raise OSError(0, "no standard input")
        return sys.stdin.buffer
    if os.path.isdir(path):
        raise IsADirectoryError(21, "a folder, not a file", path)
    return open(path, "rb")  # the caller closes it


def reason(e: OSError) -> str:
    """Why a file cannot be read, in a few words: a folder is said as such."""
    if isinstance(e, IsADirectoryError):
        return "a folder, not a file"
    return clip(e.strerror or type(e).__name__)
