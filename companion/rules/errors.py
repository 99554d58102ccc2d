"""The rules' exceptions, below the companion's one base class (``companion.errors``).

"Cannot parse" is kept apart from "not allowed": a record that is not a record is a
``RecordError``; a well-formed play the rules forbid is an ``IllegalPlayError``. Every
message names the offending value, through ``shown``.
"""

from __future__ import annotations

import enum

from ..errors import CompanionError


class RecordError(CompanionError, ValueError):
    """Text or data that cannot be parsed as what it claims to be."""


class BoardError(RecordError):
    """A trader table that is not 16 spaces of ``null`` or ``[goods, vp]``."""


class SetupError(CompanionError, ValueError):
    """A game setup the rules do not allow (player count, target)."""


class PlayProblem(enum.Enum):
    """What exactly is wrong with a seat's selection."""

    WRONG_SEATS = "wrong number of seats"
    OUT_OF_RANGE = "card out of 1..8"
    REPEATED = "repeated card"
    WRONG_COUNT = "wrong number of cards"
    NOT_IN_HAND = "card not in hand"
    BAD_OFFER = "negative trade offer"


class IllegalPlayError(CompanionError, ValueError):
    """A selection the rules forbid. ``seat`` is 0-based, or None for the whole table."""

    def __init__(self, problem: PlayProblem, message: str, *, round: int, seat: int | None):
        self.problem = problem
        self.round = round
        self.seat = seat
        where = f"round {round}" if seat is None else f"round {round}, seat P{seat + 1}"
        super().__init__(f"{where}: {message}")


class GameOverError(CompanionError, ValueError):
    """A round played after the game has ended."""
