"""The shared kernel: the companion's one exception base class, how a user's value is
shown in a one-line message, and ``Closing``, the context manager of every part that holds
something to let go. Every layer may import it; it imports only the standard library.

``CompanionError`` is the base of everything the companion raises on purpose, so a caller
can catch "the user's mistake" in one place. A message names the offending value through
``shown``: a value is echoed at most 80 characters long, however large it is.
"""

from __future__ import annotations

import reprlib
from abc import ABC, abstractmethod
from typing import Self

SHOWN_MAX = 80  # characters of a user's value echoed in a message


def clip(text: str, limit: int = SHOWN_MAX) -> str:
    """``text`` as part of a one-line message: control characters (a newline, say) and
    undecodable bytes escaped, cut to at most ``limit`` characters, a cut marked "..."."""
    head = text[: limit + 1]
    if not head.isprintable():
        head = "".join(c if c.isprintable() else repr(c)[1:-1] for c in head)
    return head if len(head) <= limit else head[: limit - 3] + "..."


def where(path: object) -> str:
    """A path (or a file's name) for a message: control characters escaped, and a long one
    cut at its start, where it says least (``.../santo-domingo/game.json``)."""
    text = str(path)[-(SHOWN_MAX * 64) :]  # a path longer than this is cut anyway
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= SHOWN_MAX else "..." + text[-(SHOWN_MAX - 3) :]


def shown(value: object) -> str:
    """``repr(value)`` for a message: at most 80 characters, and cheap for any value.

    A 10 MB string, a list of a million items, JSON nested a thousand deep or a whole
    number too long to print all give one short line; the repr is built only from the
    part of the value that will be seen.
    """
    return clip(_SHORT.repr(value))


class _ShortRepr(reprlib.Repr):
    """reprlib's bounded repr, with whole numbers too long to convert named, not printed."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxlong = self.maxother = SHOWN_MAX
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = self.maxdeque = 8
        self.maxdict = 4

    def repr_int(self, x: int, level: int) -> str:
        # str() of a whole number past Python's digit limit raises ValueError; even below
        # it, thousands of digits cost more than the 80 characters shown.
        if x.bit_length() <= _BITS_SHOWN:
            return super().repr_int(x, level)
        digits = int(x.bit_length() * _LOG10_2) + 1
        return f"<a {'negative ' if x < 0 else ''}number of about {digits} digits>"


_SHORT = _ShortRepr()
_BITS_SHOWN = 256  # 78 digits: a whole number this long still fits the 80 characters
_LOG10_2 = 0.30103


class CompanionError(Exception):
    """Base class of every error the companion raises on purpose."""


class Closing(ABC):
    """A part that holds something until ``close()`` (pins, a port, a file, a window): a
    context manager that closes it on the way out. ``close`` is safe to call more than once,
    so a part may be closed early inside its ``with``, or closed again by its owner."""

    @abstractmethod
    def close(self) -> None:
        """Let go of what the part holds. Safe to call more than once."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
