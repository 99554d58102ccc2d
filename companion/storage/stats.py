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

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .history import Game

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
    games: Iterable[Game], who: Who, unnamed: Unnamed, card: CardName = str
) -> dict[str, dict[str, Any]]:
    """Per person, sorted by label: the finished games, wins, win rate, average final VP,
    rounds per game, per card (by its number, with its ``card`` name) how often it was
    played and the VP its steps paid that seat; the games abandoned apart; and ``kind``,
    who the person is."""
    totals: dict[str, _Totals] = {}
    for g in games:
        seats = [person(g, seat, who, unnamed) for seat in range(g.record.players)]
        seats = [(kind, _own(label, totals) if kind == "seat" else label) for kind, label in seats]
        for kind, label in seats:
            totals.setdefault(label, _Totals(kind))
        if not g.finished or g.result is None:
            for _, label in seats:
                totals[label].abandoned += 1
            continue
        _count(g, [label for _, label in seats], totals)
    return {label: _figures(t, card) for label, t in sorted(totals.items())}


def _own(label: str, totals: dict[str, _Totals]) -> str:
    """An unnamed seat's label, numbered when another game's seat has it already (two
    games of the same minute): never merged with it."""
    n, own = 1, label
    while own in totals:
        n += 1
        own = f"{label} #{n}"
    return own


def _count(g: Game, seats: list[str], totals: dict[str, _Totals]) -> None:
    """Add a finished game's figures to each of its seats' person."""
    assert g.result is not None
    for seat, label in enumerate(seats):
        t = totals[label]
        t.games += 1
        t.wins += seat in g.winners
        t.vp += g.result["vp"][seat]
        t.rounds += len(g.record.rounds)
        t.played.update(c for r in g.record.rounds for c in r.plays[seat])
    for result in g.record.results():
        for step in result.steps:
            if step.card is not None:
                for gain in step.gains:
                    totals[seats[gain.seat]].earned[int(step.card)] += gain.vp


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
