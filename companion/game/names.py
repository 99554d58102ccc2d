"""Seat names: a short name per pad, set on the device and kept in the state folder.

A name is what a person spells on the letter wheel: up to ``MAX`` of ``LETTERS`` (the
capitals, the accented ones Dutch and French names need, and a space), never only
spaces. The table, the state folder and the simulator's scripts all check it here.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import shown
from ..rules import RecordError

MAX = 8  # letters: a name fits a seat's place on the 128-pixel screen in the body font
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÀÂÇÉÈÊËÏÎÖÔÜÛÙ "
PADS = 6  # a name per pad, at most six pads

Names = tuple[str | None, ...]  # one per pad, None where the pad has no name
NO_NAMES: Names = (None,) * PADS


class SeatNameError(RecordError):
    """A name that cannot be used; the message says which letter or why."""


def check_name(name: object) -> str:
    """``name`` if it is one (else SeatNameError naming the fault)."""
    if not isinstance(name, str):
        raise SeatNameError(f"a name is text, got {shown(name)}")
    if not name.strip():
        raise SeatNameError("a name has at least one letter")
    if len(name) > MAX:
        raise SeatNameError(f"a name has at most {MAX} letters, got {len(name)}: {shown(name)}")
    bad = next((ch for ch in name if ch not in LETTERS), None)
    if bad is not None:
        raise SeatNameError(f"{bad!r} is not a letter a name may have ({LETTERS.strip()}, space)")
    if name != name.strip():
        raise SeatNameError(f"a name neither begins nor ends with a space: {shown(name)}")
    return name


def check_names(names: object) -> Names:
    """A list of a name or null per pad (``PADS`` of them) as the table holds it."""
    if not isinstance(names, list | tuple) or len(names) != PADS:
        raise SeatNameError(f"names are a list of {PADS} names or nulls, got {shown(names)}")
    return tuple(None if n is None else check_name(n) for n in names)


# --- what the device shows of the history ---------------------------------------------


class PastGame(NamedTuple):
    """A game of the history as the device lists it: the day it ended (local time), its winner
    (the first one, by name or else by seat) and the winner's VP; None for a game
    abandoned (ended from the menu, or set aside unfinished): it has no winner."""

    day: int
    month: int
    winner: str | None  # the winning seat's name, if it had one
    seat: int | None  # the winning seat (0-based), None: no result
    vp: int | None
    shared: bool = False  # more than one winner
    bot: str | None = None  # the winning seat's bot strength, if a bot played it


class Tally(NamedTuple):
    """Wins and games per person over the finished games: a pad's ``name``, or a bot by
    its strength (``bot``, ``name`` None), so a bot never mixes with a person. An unnamed
    seat is nobody known and has no tally."""

    name: str | None
    wins: int
    games: int
    bot: str | None = None


class HistorySummary(NamedTuple):
    """The few facts of the history the device shows: the last games (newest first),
    wins per person (most first) and the names of recent games (newest first)."""

    games: tuple[PastGame, ...] = ()
    tally: tuple[Tally, ...] = ()
    recent: tuple[str, ...] = ()


NO_HISTORY = HistorySummary()
