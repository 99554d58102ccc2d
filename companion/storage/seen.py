"""A history row as the lists and the figures read it: the few keys of its record they
show, read by SQLite's JSON functions, so no record is parsed (each was checked when it
was put) and a big history lists and sums in seconds. The checks are those of a row
another program wrote: one that does not fit its seats raises, and is skipped.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from ..game.record import GameRecord
from . import cards, fields

_JSON = "iif(json_valid({0}), json_extract({0}, '{1}'), NULL)".format
_ROUNDS = "iif(json_valid(record), coalesce(json_array_length(record, '$.rounds'), 0), NULL)"


class Seen(NamedTuple):
    """A game as a list shows it and the figures sum it: ``vp`` None when it has no
    result; ``finished`` false when it was abandoned (ended from the menu with a
    ranking, or set aside); ``names`` and ``bots`` empty when it has none; ``played``
    and ``earned`` per seat (``cards``), None unless asked for."""

    date: str
    winners: tuple[int, ...]
    vp: list[int] | None
    names: tuple[str | None, ...]
    players: int
    bots: tuple[str | None, ...]
    finished: bool
    rounds: int
    board_text: str
    played: cards.PerSeat | None = None
    earned: cards.PerSeat | None = None

    @property
    def won(self) -> bool:
        """Whether the game counts with a winner: finished, with its result."""
        return self.counted and bool(self.winners)

    @property
    def counted(self) -> bool:
        """Whether its figures count (finished, with its result); else it was abandoned."""
        return self.finished and self.vp is not None

    @property
    def board(self) -> object:
        """A side's name, or the game's own trader rates."""
        return json.loads(self.board_text)

    def name(self, seat: int) -> str | None:
        return self.names[seat] if seat < len(self.names) else None

    def bot(self, seat: int) -> str | None:
        return self.bots[seat] if seat < len(self.bots) else None


def select(order: str, played: str | None = None, earned: str | None = None) -> str:
    """The query of every row (``order``: ASC or DESC by date; a ``LIMIT ?`` to bind);
    ``played`` and ``earned``: those columns (or NULL, for a history from before them),
    with the record for a row that lacks them."""
    extra = f", {played}, {earned}, record" if played and earned else ""
    return (
        f"SELECT date, winners, {_JSON('result', '$.vp')}, names, {_JSON('record', '$.players')},"
        f" {_JSON('record', '$.bots')}, finished, {_ROUNDS}, board, result IS NULL{extra}"
        f" FROM games ORDER BY date {order}, rowid {order} LIMIT ?"
    )


def parse(row: tuple[Any, ...]) -> Seen:
    """A row of ``select`` as a game; raises ValueError or TypeError (or a record's
    error) for one that does not fit its seats."""
    date, winners, vp, names, players, bots, finished, rounds, board, no_result = row[:10]
    if type(players) is not int or type(rounds) is not int or not isinstance(board, str):
        raise TypeError("not a game record")
    game = Seen(
        fields.date_text(date),
        fields.seats(json.loads(winners)),
        None if vp is None else fields.vps(json.loads(vp)),
        () if names is None else fields.texts(json.loads(names)),
        players,
        () if bots is None else fields.texts(json.loads(bots)),
        bool(finished),
        rounds,
        board,
    )
    if len(row) > 10:
        played, earned = _cards(players, *row[10:])
        game = game._replace(played=played, earned=earned)
    seats = (game.names or None, game.bots or None, game.vp, game.played, game.earned)
    if any(s is not None and len(s) != players for s in seats) or (vp is None and not no_result):
        raise TypeError("not a result of its seats")
    if any(seat >= players for seat in game.winners):
        raise TypeError("a winner is not a seat")
    return game


def _cards(
    players: int, played: object, earned: object, record: Any
) -> tuple[cards.PerSeat, cards.PerSeat]:
    """The cards per seat as the row keeps them; found from its record when it does not
    (a row from before they were kept, or another program's)."""
    kept_played, kept_earned = cards.from_json(played, players), cards.from_json(earned, players)
    if kept_played is not None and kept_earned is not None:
        return kept_played, kept_earned
    whole = GameRecord.from_json(record)
    return cards.played_by_seat(whole), cards.earned_by_seat(players, whole.results())
