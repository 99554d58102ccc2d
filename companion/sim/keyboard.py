"""Keys typed at a terminal: a pure decoder from bytes to key names, and a thin reader
that puts the terminal in raw mode while it reads.

A key is a one-character string as typed (``"q"``, ``"Q"``, ``"<"``, ``"é"``) or a name
(``NAMES``): ``"left"``, ``"enter"``, ``"esc"``, ``"ctrl-c"``... Arrows and the other
special keys reach a terminal as escape sequences (``ESC [ C`` is →). The Esc key alone
sends the same ESC byte that begins them, so a lone ESC is the Esc key only once nothing
has followed it for a moment: the decoder keeps it pending and ``flush`` decides.
"""

from __future__ import annotations

import atexit
import codecs
import os
import select
import termios
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

ESC = "\x1b"
# CSI and SS3 final characters: ESC [ C, or ESC O C in the terminal's application mode.
_FINALS = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end"}
# ESC [ <n> ~ sequences, by their first parameter.
_TILDES = {"1": "home", "2": "insert", "3": "delete", "4": "end", "5": "pageup", "6": "pagedown"}
_CONTROLS = {"\r": "enter", "\n": "enter", "\t": "tab", "\x7f": "backspace", "\x08": "backspace"}
NAMES = frozenset(
    {*_FINALS.values(), *_TILDES.values(), *_CONTROLS.values(), "space", "esc"}
    | {f"ctrl-{chr(c)}" for c in range(ord("a"), ord("z") + 1)}
)
ESC_WAIT = 0.1  # seconds without a byte after ESC: the Esc key itself (vim's ttimeoutlen)


class KeyDecoder:
    """Bytes from a terminal in, key names out; holds an unfinished sequence between calls."""

    def __init__(self) -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = ""

    @property
    def pending(self) -> bool:
        """True while an escape sequence may still be coming (wait, then ``flush``)."""
        return bool(self._pending)

    def feed(self, data: bytes) -> list[str]:
        """The keys that ``data`` completes."""
        text = self._pending + self._utf8.decode(data)
        keys: list[str] = []
        i = 0
        while i < len(text):
            if text[i] != ESC:
                keys.append(_plain(text[i]))
                i += 1
                continue
            key, end = _escape(text, i)
            if end is None:  # the sequence goes on in a later read
                break
            if key is not None:
                keys.append(key)
            i = end
        self._pending = text[i:]
        return keys

    def flush(self) -> list[str]:
        """Nothing more came: a lone ESC was the Esc key; half a sequence is dropped."""
        pending, self._pending = self._pending, ""
        return ["esc"] if pending == ESC else []


def _plain(char: str) -> str:
    if char in _CONTROLS:
        return _CONTROLS[char]
    if char == " ":
        return "space"
    if ord(char) < 0x20:
        return f"ctrl-{chr(ord(char) + 0x60)}"
    return char


def _escape(text: str, i: int) -> tuple[str | None, int | None]:
    """The key of the escape sequence at ``text[i]`` and where it ends; end None: it is
    not complete yet. Sequences of no key we know (F-keys, focus reports) give None."""
    if i + 1 >= len(text):
        return None, None
    kind = text[i + 1]
    if kind == ESC:  # Esc pressed twice: the first is a key of its own
        return "esc", i + 1
    if kind == "O":  # SS3: one final character
        if i + 2 >= len(text):
            return None, None
        return _FINALS.get(text[i + 2]), i + 3
    if kind != "[":
        return f"alt-{kind}", i + 2  # Alt+key; no key of ours
    j = i + 2
    while j < len(text) and "\x20" <= text[j] <= "\x3f":  # parameters, intermediates
        j += 1
    if j >= len(text):
        return None, None
    final, params = text[j], text[i + 2 : j]
    if final == "~":
        return _TILDES.get(params.split(";")[0]), j + 1
    return (_FINALS.get(final) if "\x40" <= final <= "\x7e" else None), j + 1


# --- the terminal ----------------------------------------------------------------------


def raw_attributes(attrs: list[Any]) -> list[Any]:
    """``attrs`` (from ``termios.tcgetattr``) in raw mode: every byte as typed, at once,
    not echoed; Ctrl-C a byte, not a signal. Output processing stays on, so a newline
    still starts a new line."""
    iflag, oflag, cflag, lflag, ispeed, ospeed, cc = attrs
    iflag &= ~(termios.BRKINT | termios.ICRNL | termios.INPCK | termios.ISTRIP | termios.IXON)
    lflag &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN | termios.ISIG)
    cc = list(cc)
    cc[termios.VMIN], cc[termios.VTIME] = 1, 0
    return [iflag, oflag, cflag, lflag, ispeed, ospeed, cc]


@contextmanager
def raw_terminal(fd: int) -> Iterator[None]:
    """The terminal on ``fd`` in raw mode, and as it was on the way out: on return, on an
    exception, on Ctrl-C, and at interpreter exit should the ``finally`` never run."""
    saved = termios.tcgetattr(fd)
    done = False

    def restore() -> None:
        nonlocal done
        if not done:
            done = True
            with suppress(termios.error):  # a terminal that hung up has nothing to restore
                termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    atexit.register(restore)
    try:
        termios.tcsetattr(fd, termios.TCSADRAIN, raw_attributes(saved))
        yield
    finally:
        restore()
        atexit.unregister(restore)


def read_keys(fd: int, wait: float = ESC_WAIT) -> Iterator[str]:
    """Keys typed on ``fd`` until its end (a closed terminal). Sleeps in ``select``
    between keys; after an ESC it waits ``wait`` seconds for the rest of a sequence."""
    decoder = KeyDecoder()
    while True:
        ready, _, _ = select.select([fd], [], [], wait if decoder.pending else None)
        if not ready:
            yield from decoder.flush()
            continue
        try:
            data = os.read(fd, 1024)
        except OSError:  # EIO: the terminal hung up (a pty whose other end closed)
            data = b""
        if not data:
            yield from decoder.flush()
            return
        yield from decoder.feed(data)
