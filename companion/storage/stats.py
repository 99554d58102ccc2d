"""Figures over the history's games, per person: what `companion history stats` prints and
the page for phones charts. Who a seat is (a name, a bot, a seat label) is worded by the
caller's ``Who``: the words live above this layer.

A person is a pad's name, a bot its strength. An unnamed seat is nobody known: the P1 of
one game is not the P1 of another, so each unnamed seat is a person of its own game,
worded by the caller's ``Unnamed`` (its label and the game's date). Only finished games
count towards the figures (games, wins, VP); a game abandoned (ended from the menu, or
set aside unfinished) is counted apart, never as a win.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .history import Game, earned_by_seat

Who = Callable[[int, str | None, str | None], str]  # (seat, name, bot strength) -> label
Unnamed = Callable[[int, str], str]  # (seat, the game's date) -> label
CardName = Callable[[int], str]  # a card's number -> its name

KINDS = ("name", "bot", "seat")  # who a person is: a pad's name, a bot, an unnamed seat


def labels(game: Game, who: Who) -> list[str]:
    """Each seat of ``game`` as ``who`` names it."""
    names = game.names or (None,) * game.record.players
    return [who(seat, name, game.record.bot(seat)) for seat, name in enumerate(names)]


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


def person(game: Game, seat: int, who: Who, unnamed: Unnamed) -> tuple[str, str]:
    """Who sits at ``seat`` of ``game``: (kind, label); see ``KINDS``."""
    name = game.names[seat] if game.names else None
    bot = game.record.bot(seat)
    if bot:
        return "bot", who(seat, None, bot)
    if name:
        return "name", name
    return "seat", unnamed(seat, game.date)


def stats(
    games: Iterable[Game],
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
    its own game).

    One pass over ``games`` (in date order, as the history gives them), in bounded
    memory: a name or a bot is summed as it goes; an unnamed seat is a person of one game,
    whose figures are complete with it, and wait in a sorted table on disk until the end."""
    totals: dict[str, _Totals] = {}
    with _SortedOnDisk() as persons:
        for g in games:
            kinds = [person(g, seat, who, unnamed) for seat in range(g.record.players)]
            labels = [persons.numbered(label) if kind == "seat" else label for kind, label in kinds]
            own: dict[str, _Totals] = {}  # this game's unnamed seats
            for (kind, _), label in zip(kinds, labels, strict=True):
                if kind != "seat":
                    totals.setdefault(label, _Totals(kind))
                elif seats:
                    own[label] = _Totals(kind)
            _add(g, labels, own | totals if own else totals)
            for label, t in own.items():
                persons.add(label, _figures(t, card))
        for label, t in totals.items():
            persons.add(label, _figures(t, card))
        yield from persons.sorted()


def _add(g: Game, labels: list[str], totals: dict[str, _Totals]) -> None:
    """A game's figures added to each of its seats' person (those in ``totals``)."""
    if not g.finished or g.result is None:
        for label in labels:
            if label in totals:
                totals[label].abandoned += 1
        return
    _count(g, labels, totals)


class _SortedOnDisk:
    """Persons' figures kept in a private temporary SQLite database (on disk, removed on
    close) and read back in the order of their labels (SQLite's binary order of UTF-8 is
    Python's order of text); and how many unnamed seats had each label so far."""

    def __enter__(self) -> _SortedOnDisk:
        self._db = sqlite3.connect("")
        self._db.execute("CREATE TABLE persons (label TEXT PRIMARY KEY, figures TEXT)")
        self._db.execute("CREATE TABLE seen (label TEXT PRIMARY KEY, n INTEGER)")
        return self

    def numbered(self, label: str) -> str:
        """An unnamed seat's label, numbered when another game's seat had it already (two
        games of the same minute: ``#2``, ``#3``): never merged with it."""
        row = self._db.execute(
            "INSERT INTO seen VALUES (?, 1) ON CONFLICT (label) DO UPDATE SET n = n + 1"
            " RETURNING n",
            (label,),
        ).fetchone()
        return label if row[0] == 1 else f"{label} #{row[0]}"

    def __exit__(self, *exc: object) -> None:
        self._db.close()

    def add(self, label: str, figures: dict[str, Any]) -> None:
        self._db.execute("INSERT INTO persons VALUES (?, ?)", (label, json.dumps(figures)))

    def sorted(self) -> Iterator[tuple[str, dict[str, Any]]]:
        rows = self._db.execute("SELECT label, figures FROM persons ORDER BY label")
        for label, figures in rows:
            yield label, json.loads(figures)


def _count(g: Game, seats: list[str], totals: dict[str, _Totals]) -> None:
    """Add a finished game's figures to each of its seats' person."""
    assert g.result is not None
    for seat, label in enumerate(seats):
        if label not in totals:  # an unnamed seat left out
            continue
        t = totals[label]
        t.games += 1
        t.wins += seat in g.winners
        t.vp += g.result["vp"][seat]
        t.rounds += len(g.record.rounds)
        t.played.update(c for r in g.record.rounds for c in r.plays[seat])
    earned = g.earned if g.earned is not None else _replayed(g)
    for seat, label in enumerate(seats):
        if label in totals:
            totals[label].earned.update(earned[seat])


def _replayed(g: Game) -> tuple[dict[int, int], ...]:
    """Per seat, the VP each card's steps paid it, by replaying the record (a row written
    before the history kept them)."""
    return tuple(earned_by_seat(g.record.players, g.record.results()))


def _figures(t: _Totals, card: CardName) -> dict[str, Any]:
    games = t.games
    return {
        "kind": t.kind,
        "games": games,
        "wins": t.wins,
        "abandoned": t.abandoned,
        "win_rate": t.wins / games if games else None,
        "average_vp": t.vp / games if games else None,
        "rounds_per_game": t.rounds / games if games else None,
        "cards": {
            str(c): {"name": card(c), "played": n, "vp": t.earned[c]}
            for c, n in sorted(t.played.items())
        },
    }
