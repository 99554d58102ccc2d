"""The history as the page shows it: the last games, and per name the wins and VP.

Read from ``history.sqlite`` opened read-only (``History.read_only``: a page never
makes, migrates or sets aside the table's database), and only finished rounds are
there: nothing hidden. Both answers are kept until the file changes (its size, time
and inode), so pages asking again cost a ``stat``, not a parse of every game.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from ..storage.errors import StorageError
from ..storage.history import HISTORY_FILE, History
from ..storage.seen import Seen
from ..storage.stats import labels, scored, stats
from ..ui.catalog import Catalog

LAST = 50  # games the page lists

Say = Callable[[str], None]
Listed = dict[str, object]  # a game as the page lists it
Stats = dict[str, dict[str, Any]]  # per name, as storage.stats gives them
T = TypeVar("T")


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class HistoryPages:
    """The history and stats answers for the history in ``state_dir`` (None: none),
    cached per language until the file changes. Thread-safe: one request computes, the
    others wait for its answer. ``say`` hears once why a file could not be read."""

    def __init__(self, state_dir: Path | None, say: Say = _stderr):
        self.state_dir = state_dir
        self._say = say
        self._lock = threading.Lock()
        self._histories: dict[str, list[Listed]] = {}  # per language
        self._stats: dict[str, Stats] = {}
        self._seen: tuple[int, int, int] | None = None  # the file's signature the cache is for
        self._told = ""

    def history(self, words: Catalog) -> list[Listed]:
        """The last games, newest first: date, names, winners (none when abandoned: the
        page says so), final VP, rounds, board."""

        def listed() -> list[Listed]:
            return [_listed(g, words) for g in self._read(lambda h: h.seen(LAST))]

        return self._cached(self._histories, words, listed)

    def stats(self, words: Catalog) -> Stats:
        """Per name (a pad's name, a bot by its strength), as `companion history stats
        --json` gives it: wins over the finished games only, the abandoned ones apart.
        The page charts wins per name: an unnamed seat, a person of one game, is left
        out."""

        def named() -> Stats:
            every = stats(self._read(scored), words.who, words.unnamed, words.card, seats=False)
            return dict(every)

        return self._cached(self._stats, words, named)

    def _cached(self, cache: dict[str, T], words: Catalog, make: Callable[[], T]) -> T:
        with self._lock:
            signature = self._signature()
            if signature != self._seen:
                self._histories.clear()
                self._stats.clear()
                self._seen = signature
            if words.lang not in cache:
                cache[words.lang] = make()
            return cache[words.lang]

    def _signature(self) -> tuple[int, int, int] | None:
        if self.state_dir is None:
            return None
        try:
            st = os.stat(self.state_dir / HISTORY_FILE)
        except OSError:
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def _read(self, rows: Callable[[History], Iterator[T]]) -> Iterator[T]:
        """The history's ``rows``, one at a time (the stats of a big history are summed as
        they stream by)."""
        folder = self.state_dir
        if self._seen is None or folder is None:  # no history yet: none is made by looking
            return
        try:
            history = History.read_only(folder)
        except StorageError as e:  # an empty page, and the reason once in the journal
            if str(e) != self._told:
                self._told = str(e)
                self._say(f"companion web: {e}")
            return
        try:
            yield from rows(history)
        finally:
            history.close()


def _listed(g: Seen, words: Catalog) -> Listed:
    return {
        "date": g.date,
        "finished": g.finished,
        "names": labels(g, words.who),
        "winners": list(g.winners) if g.finished else [],  # abandoned: nobody won
        "vp": None if g.vp is None else list(g.vp),
        "rounds": g.rounds,
        "board": board if isinstance(board := g.board, str) else None,
    }
