"""The state of a game between rounds, as immutable values.

A ``GameState`` is cheap to keep: undo is holding on to the previous one, and a
replay is a fold of ``play_round`` over the record's rounds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..errors import shown
from .board import Board
from .cards import ALL_CARDS
from .errors import SetupError
from .tables import PLAYER_COUNTS, START_SPACE, cards_per_round

# The rulebook's targets are 30 and 45; a house rule may pick another, up to 999 so
# that a score always fits the device's display.
TARGET_MAX = 999


@dataclass(frozen=True, slots=True)
class Setup:
    """What is fixed for a whole game."""

    players: int
    board: Board
    target: int = 30
    cards_per_round: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if type(self.players) is not int or self.players not in PLAYER_COUNTS:
            raise SetupError(f"a game has 2 to 6 players, got {shown(self.players)}")
        if type(self.target) is not int or not 0 < self.target <= TARGET_MAX:
            raise SetupError(
                f"the target is a number of VP 1..{TARGET_MAX}, got {shown(self.target)}"
            )
        object.__setattr__(self, "cards_per_round", cards_per_round(self.players))


class Rows(NamedTuple):
    """The spaces of the three board markers."""

    vp: int = START_SPACE
    goods: int = START_SPACE
    trader: int = START_SPACE


START_ROWS = Rows()
_NO_CARDS: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One seat: its VP and goods, the cards in hand and on its discard pile."""

    vp: int
    goods: int
    hand: frozenset[int] = ALL_CARDS
    discard: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole table between two rounds. ``round`` counts the rounds played.

    Seats are stored by column (a tuple of every seat's VP, one of goods, ...): a round
    then builds one state, not one object per seat. ``players`` gives per-seat records.
    """

    setup: Setup
    vp: tuple[int, ...]
    goods: tuple[int, ...]
    hands: tuple[frozenset[int], ...]
    discards: tuple[frozenset[int], ...]
    rows: Rows = START_ROWS
    round: int = 0

    @property
    def finished(self) -> bool:
        """The game ends once a round leaves any seat at or above the target."""
        return max(self.vp) >= self.setup.target

    def player(self, seat: int) -> PlayerState:
        return PlayerState(self.vp[seat], self.goods[seat], self.hands[seat], self.discards[seat])

    @property
    def players(self) -> tuple[PlayerState, ...]:
        return tuple(map(PlayerState, self.vp, self.goods, self.hands, self.discards))


def new_game(players: int, board: Board, target: int = 30) -> GameState:
    """A game before its first supply phase: each seat holds 8 cards and ``players`` goods."""
    setup = Setup(players, board, target)
    return GameState(
        setup,
        vp=(0,) * players,
        goods=(players,) * players,
        hands=(ALL_CARDS,) * players,
        discards=(_NO_CARDS,) * players,
    )
