"""The end of the game: goods convert to VP at 3:1, then the ranking with its tie-breaks."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .state import GameState
from .tables import END_RATE


class TieBreak(enum.Enum):
    """What decided first place."""

    VP = "most VP"
    GOODS = "most goods remaining"
    CARDS = "most cards in hand"
    SHARED = "shared victory"


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final scores by seat, and the ranking: places best first, each a tuple of tied seats."""

    vp: tuple[int, ...]  # after the conversion
    goods: tuple[int, ...]  # what each seat keeps after the conversion
    cards: tuple[int, ...]  # cards in hand, the last tie-break
    ranking: tuple[tuple[int, ...], ...]
    decided_by: TieBreak

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0]

    @property
    def places(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """(place, tied seats) best first; tied seats share a place: 1, 2, 2, 4."""
        out, place = [], 1
        for seats in self.ranking:
            out.append((place, seats))
            place += len(seats)
        return tuple(out)


def outcome(state: GameState) -> Outcome:
    """Convert every seat's goods at 3:1 (remainder kept) and rank the seats.

    Most VP wins; a tie goes to most goods remaining, then most cards in hand; a tie
    on all three is a shared win.
    """
    vp, goods, cards, _ = final_scores(state.vp, state.goods, tuple(map(len, state.hands)))
    keys = list(zip(vp, goods, cards, strict=True))
    # reverse=True keeps the sort stable: tied seats stay in seat order.
    order = sorted(range(len(vp)), key=keys.__getitem__, reverse=True)
    ranking: list[tuple[int, ...]] = []
    for seat in order:
        if ranking and keys[ranking[-1][0]] == keys[seat]:
            ranking[-1] += (seat,)
        else:
            ranking.append((seat,))
    return Outcome(vp, goods, cards, tuple(ranking), _decided_by(keys, ranking))


class FinalScores(NamedTuple):
    """What the end of the game makes of each seat's VP, goods and cards, and who won."""

    vp: tuple[int, ...]
    goods: tuple[int, ...]
    cards: tuple[int, ...]
    winners: tuple[int, ...]


def final_scores(vp: Sequence[int], goods: Sequence[int], cards: Sequence[int]) -> FinalScores:
    """``outcome``'s scores and winners from the seats' numbers alone (a working table's):
    the winners are every seat level with the best on VP, goods and cards, in seat order."""
    vp = tuple([v + g // END_RATE for v, g in zip(vp, goods, strict=True)])
    goods = tuple([g % END_RATE for g in goods])
    keys = list(zip(vp, goods, cards, strict=True))
    best = max(keys)
    winners = tuple([seat for seat, key in enumerate(keys) if key == best])
    return FinalScores(vp, goods, tuple(cards), winners)


def _decided_by(keys: list[tuple[int, int, int]], ranking: list[tuple[int, ...]]) -> TieBreak:
    if len(ranking[0]) > 1:
        return TieBreak.SHARED
    first, second = keys[ranking[0][0]], keys[ranking[1][0]]
    level = next(i for i in range(3) if first[i] != second[i])
    return (TieBreak.VP, TieBreak.GOODS, TieBreak.CARDS)[level]
