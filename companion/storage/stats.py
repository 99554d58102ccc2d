"""Figures over the history's games, per person: what `companion history stats` prints and
the page for phones charts. Who a seat is (a name, a bot, a seat label) is worded by the
caller's ``Who``: the words live above this layer.

A person is a pad's name, a bot its strength. An unnamed seat is nobody known: the P1 of
one game is not the P1 of another, so each unnamed seat is a person of its own game,
worded by the caller's ``Unnamed`` (its label and the game's date). Only finished games
count towards the figures (games, wins, VP); a game abandoned (ended from the menu, or
set aside unfinished) is counted apart, never as a win.

The games are read as ``Seen`` rows: a few keys of each record read by SQLite's JSON,
the cards per seat as the history kept them (``cards``), so no record is parsed or
replayed but those of rows written before the cards were kept.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .history import History
from .seen import Seen

Who = Callable[[int, str | None, str | None], str]  # (seat, name, bot strength) -> label
Unnamed = Callable[[int, str], str]  # (seat, the game's date) -> label
CardName = Callable[[int], str]  # a card's number -> its name

KINDS = ("name", "bot", "seat")  # who a person is: a pad's name, a bot, an unnamed seat
BATCH = 1000  # persons written to the sorted table at a time


def labels(game: Seen, who: Who) -> list[str]:
    """Each seat of ``game`` as ``who`` names it."""
    return [who(seat, game.name(seat), game.bot(seat)) for seat in range(game.players)]


def scored(history: History) -> Iterator[Seen]:
    """Every game of ``history``, oldest first, with the cards each seat played and the
    VP they paid it; a row another program wrote that does not fit its seats is skipped
    (counted in ``history.skipped``)."""
    return history.seen(oldest_first=True, cards=True)


def person(game: Seen, seat: int, who: Who, unnamed: Unnamed) -> tuple[str, str]:
    """Who sits at ``seat`` of ``game``: (kind, label); see ``KINDS``."""
    bot = game.bot(seat)
    if bot:
        return "bot", who(seat, None, bot)
    name = game.name(seat)
    if name:
        return "name", name
    return "seat", unnamed(seat, game.date)


def stats(
    games: Iterable[Seen],
    who: Who,
    unnamed: Unnamed,
    card: CardName = str,
    *,
    seats: bool = True,
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Per person, in the order of their labels: the finished games, wins, win rate,
    average final VP, rounds per game, per card (by its number, with its ``card`` name) how
    often it was played and the VP its steps paid that seat; the games abandoned apart;
    and ``kind``, who the person is. ``seats``: the unnamed seats too (each a person of
    its own game; two with one label numbered ``#2``, ``#3`` in the order of their games).

    One pass over ``games`` in bounded memory: a name or a bot is summed as it goes; an
    unnamed seat's figures are complete with its game, and wait in a sorted table on disk
    until the end."""
    totals: dict[str, _Totals] = {}
    with _Persons(card) as persons:
        for g in games:
            for seat in range(g.players):
                kind, label = person(g, seat, who, unnamed)
                if kind != "seat":
                    totals.setdefault(label, _Totals(kind)).add(g, seat)
                elif seats:
                    persons.one_game(label, g, seat)
        for label, t in totals.items():
            persons.summed(label, t)
        yield from persons.sorted()


@dataclass
class _Totals:
    kind: str
    games: int = 0
    wins: int = 0
    abandoned: int = 0
    vp: int = 0
    rounds: int = 0
    played: Counter[int] = field(default_factory=Counter)
    earned: Counter[int] = field(default_factory=Counter)

    def add(self, g: Seen, seat: int) -> None:
        """``g``'s figures for ``seat``: counted if it finished, else an abandoned game."""
        if not g.counted:
            self.abandoned += 1
            return
        assert g.vp is not None
        self.games += 1
        self.wins += seat in g.winners
        self.vp += g.vp[seat]
        self.rounds += g.rounds
        assert g.played is not None and g.earned is not None  # read with the cards
        self.played.update(g.played[seat])
        self.earned.update(g.earned[seat])


class _Persons:
    """Persons' figures kept in a private temporary SQLite database (on disk, removed on
    close) and read back in the order of their labels (SQLite's binary order of UTF-8 is
    Python's order of text). Labels met more than once (unnamed seats of games of one
    minute) are numbered there, in the order they came: a name keeps its own."""

    COLUMNS = "seq, label, named, kind, games, wins, abandoned, vp, rounds, cards"

    def __init__(self, card: CardName):
        self._card = card
        self._names: dict[int, str] = {}  # a card's number -> its name, asked once
        self._waiting: list[tuple[object, ...]] = []

    def __enter__(self) -> _Persons:
        self._db = sqlite3.connect("")
        self._db.execute(
            "CREATE TABLE persons (seq INTEGER PRIMARY KEY, label TEXT, named INTEGER,"
            " kind TEXT, games INTEGER, wins INTEGER, abandoned INTEGER, vp INTEGER,"
            " rounds INTEGER, cards TEXT)"
        )
        return self

    def __exit__(self, *exc: object) -> None:
        self._db.close()

    def one_game(self, label: str, g: Seen, seat: int) -> None:
        """An unnamed seat of ``g``: a person of that game alone."""
        if g.counted:
            assert g.vp is not None
            assert g.played is not None and g.earned is not None  # read with the cards
            played, earned = g.played[seat], g.earned[seat]
            figures = (1, int(seat in g.winners), 0, g.vp[seat], g.rounds)
            shown = [(c, n, earned.get(c, 0)) for c, n in sorted(played.items())]
        else:
            figures, shown = (0, 0, 1, 0, 0), []
        self._add(label, False, "seat", *figures, shown)

    def summed(self, label: str, t: _Totals) -> None:
        shown = [(c, n, t.earned[c]) for c, n in sorted(t.played.items())]
        self._add(label, True, t.kind, t.games, t.wins, t.abandoned, t.vp, t.rounds, shown)

    def _add(self, label: str, named: bool, kind: str, *figures: object) -> None:
        *counts, shown = figures
        row = (None, label, named, kind, *counts, json.dumps(shown, separators=(",", ":")))
        self._waiting.append(row)
        if len(self._waiting) >= BATCH:
            self._flush()

    def _flush(self) -> None:
        self._db.executemany(
            f"INSERT INTO persons ({self.COLUMNS}) VALUES (?{', ?' * 9})", self._waiting
        )
        self._waiting.clear()

    def sorted(self) -> Iterator[tuple[str, dict[str, Any]]]:
        self._flush()
        rows = self._db.execute(
            "SELECT iif(n = 1, label, label || ' #' || n) AS shown, kind, games, wins,"
            " abandoned, vp, rounds, cards FROM (SELECT *, row_number() OVER"
            " (PARTITION BY label ORDER BY named DESC, seq) AS n FROM persons) ORDER BY shown"
        )
        for label, kind, games, wins, abandoned, vp, rounds, shown in rows:
            yield (
                label,
                {
                    "kind": kind,
                    "games": games,
                    "wins": wins,
                    "abandoned": abandoned,
                    "win_rate": wins / games if games else None,
                    "average_vp": vp / games if games else None,
                    "rounds_per_game": rounds / games if games else None,
                    "cards": {
                        str(c): {"name": self._name(c), "played": n, "vp": v}
                        for c, n, v in json.loads(shown)
                    },
                },
            )

    def _name(self, card: int) -> str:
        name = self._names.get(card)
        if name is None:
            name = self._names[card] = self._card(card)
        return name
