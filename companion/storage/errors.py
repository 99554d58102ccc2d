"""What the state directory says when the disk says no: one line, what, where and why."""

from __future__ import annotations

import errno

from ..errors import CompanionError

LIMIT = 80  # a value quoted in a message is cut to this many characters
# Why a file is unusable is a sentence of the record's parser that quotes at most one
# value: room for a value of 80 characters and the words around it.
REASON_LIMIT = 120


class StorageError(CompanionError):
    """The state directory cannot be used or written; the message is one line for the user,
    and ``reason`` its last few words (why the OS refused)."""

    @property
    def reason(self) -> str:
        return str(self).rpartition(": ")[2]


# The OS says "Is a directory"; the user needs to hear what is in the way of what.
_PLAIN = {
    errno.EISDIR: "a folder is in the way",
    errno.ENOTDIR: "a file is in the way of a folder",
    errno.EEXIST: "a file is in the way",
}


def one_line(text: str, limit: int = LIMIT) -> str:
    """``text`` on one line, cut to ``limit`` characters (a corrupt file may hold anything)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def os_reason(e: OSError) -> str:
    """Why the OS refused, in a few words."""
    return one_line(_PLAIN.get(e.errno or 0) or e.strerror or str(e) or type(e).__name__)
