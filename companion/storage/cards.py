"""What each seat's cards did in a game: how often each was played and the VP its steps
paid that seat. Found once, when the history writes a game, and kept in its row (two
columns of JSON, one list of ``[card, n]`` pairs per seat): the stats sum them without
parsing or replaying any record.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

from ..game.record import GameRecord
from ..rules import ALL_CARDS, RoundResult

PerSeat = tuple[dict[int, int], ...]  # per seat: a card's number -> a count or VP


def played_by_seat(record: GameRecord) -> PerSeat:
    """Per seat, how often each card was played in ``record``."""
    played = [Counter[int]() for _ in range(record.players)]
    for r in record.rounds:
        for seat, cards in enumerate(r.plays):
            played[seat].update(cards)
    return tuple(dict(seat) for seat in played)


def earned_by_seat(players: int, results: Iterable[RoundResult]) -> PerSeat:
    """Per seat, the VP each card's steps paid it over ``results``."""
    earned: list[dict[int, int]] = [{} for _ in range(players)]
    for result in results:
        for step in result.steps:
            if step.card is not None:
                card = int(step.card)
                for gain in step.gains:
                    earned[gain.seat][card] = earned[gain.seat].get(card, 0) + gain.vp
    return tuple(earned)


def to_json(seats: PerSeat) -> str:
    """The column's text: per seat, its ``[card, n]`` pairs in card order."""
    return json.dumps([sorted(seat.items()) for seat in seats], separators=(",", ":"))


def from_json(text: object, players: int) -> PerSeat | None:
    """The column as written, or None: not there (a row from before it was kept), or
    not ``players`` seats' figures (the caller finds them from the record instead)."""
    if not isinstance(text, str):
        return None
    try:
        seats = json.loads(text)
        if not isinstance(seats, list) or len(seats) != players:
            return None
        kept = tuple(map(dict, seats))
        if all(_counts(seat) for seat in kept):
            return kept
    except (ValueError, TypeError, RecursionError):
        pass
    return None


def _counts(seat: dict[object, object]) -> bool:
    """Whether ``seat`` is cards (by their numbers) to whole numbers: 1.0 or true is no
    card's number, though equal to one."""
    return seat.keys() <= ALL_CARDS and {*map(type, seat), *map(type, seat.values())} <= {int}
