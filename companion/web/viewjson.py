"""The public view as the phone page reads it: JSON built from ``public_view`` only.

The words are what the OLED says (``ui.say``: the semantic model the OLED's layouter
reads too), never read back from a layout: no font, no canvas, no pixel position.

Nothing here sees the flow, so nothing hidden can get in: a seat's cards before the
reveal are not in the view at all. Two things the view holds are left out as well:
the countdown's number (a clock value: the page says "counting down" instead), and the
pairing code of a notice (it is shown on the OLED only, so that only someone at the
table can pair a phone).
"""

from __future__ import annotations

import dataclasses
import enum
import json
from dataclasses import replace
from typing import TYPE_CHECKING

from ..table import View
from ..table.view import ChoosingView, JoinView, NamesView, OverView, RevealView, ScoresView
from ..ui.catalog import Catalog
from ..ui.said import (
    Board,
    Choices,
    Content,
    Discards,
    Lines,
    Offer,
    PerSeat,
    Ranking,
    Row,
    Said,
    Scores,
    Seated,
)
from ..ui.say import say

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

PAIR_NOTICE = "notice.pair_code"  # the notice that carries the pairing code
PAIR_SHOWN = "web.pair_shown"  # what the page says in its place


def view_data(view: View, words: Catalog) -> dict[str, object]:
    """The view as plain data, with the words the OLED says in ``words``' language."""
    pairing = view.notice is not None and view.notice[0] == PAIR_NOTICE
    if pairing:
        view = replace(view, notice=(PAIR_SHOWN, ()))
    body = view.body
    counting = False
    if isinstance(body, ChoosingView):  # seconds left are a clock value: only whether
        counting = body.countdown is not None
        view = replace(view, body=replace(body, countdown=None))  # the words without it too
    said = say(view, words)
    return {
        "phase": view.phase.value,
        "board": board_data(said.rows),
        "body": _body(view),
        "counting": counting,
        **said_data(said),
        "language": words.lang,
        "seats": seat_labels(view, words),
        "pairing": pairing,  # a code is on show: the page keeps its field open
    }


def view_bytes(view: View, words: Catalog) -> bytes:
    """``view_data`` as compact JSON, keys sorted: the same view gives the same bytes."""
    data = view_data(view, words)
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def said_data(said: Said) -> dict[str, object]:
    """What the screen says, as the page shows it: the ``title``; the ``lines`` under it
    at length, one a line (the page has the room), with the ``cursor``'s line (or None);
    ``hint`` (what the host buttons do), ``fact`` (the round, a count) and ``notice``.
    The board's rows, the seats' marks, the scores and the ranking are not lines: the
    page draws them from the view's ``board`` and ``body``."""
    content = said.content
    return {
        "title": said.title,
        "lines": list(_lines(content)),
        "cursor": content.cursor if isinstance(content, Choices) else None,
        "hint": said.hint,
        "fact": said.fact,
        "notice": said.notice,
    }


def board_data(rows: tuple[Row, ...]) -> dict[str, object] | None:
    """The board as the screen shows it (``Said.rows``, which the OLED draws too): each
    row's marker, the trader's ``rate`` as numbers (or None) and whether the board is
    ``verified``, and the space a marker just left (``moved``: [row, space], or None).
    None when no game is on the table."""
    if not rows:
        return None
    trader = next(row for row in rows if row.name == "trader")
    moved = next(([row.name, row.moved] for row in rows if row.moved is not None), None)
    return {
        "rows": {row.name: row.value for row in rows},
        "rate": None if trader.pays is None else trader.pays._asdict(),
        "verified": trader.verified,
        "moved": moved,
    }


def _lines(content: Content) -> tuple[str, ...]:
    if isinstance(content, Lines | Choices):
        return content.lines
    if isinstance(content, Seated):
        return (content.say,)
    if isinstance(content, PerSeat):  # spelled out: the page has room for every word
        return (*(line.long for line in content.lines), *content.extra)
    if isinstance(content, Discards):
        return (content.by, content.seats)
    if isinstance(content, Offer):
        return content.spelled
    assert isinstance(content, Board | Scores | Ranking)
    return ()


def _body(view: View) -> dict[str, object]:
    """The view's body, its class as ``kind``; a choosing view's countdown left out."""
    data = _fields(view.body)
    if isinstance(view.body, ChoosingView):
        del data["countdown"]
    return data


def seat_labels(view: View, words: Catalog) -> list[str]:
    """Each seat by its pad's name where it has one (the OLED shows names where they fit:
    the pads before a game, the scores, the ranking; the page has room on every screen),
    else as the OLED words it, P1.. or a bot's B3..; [] when the screen names no seats."""
    words = words.with_bots(view.bots)
    body = view.body
    if isinstance(body, JoinView):  # a seat per pad
        return [name or words.seat(pad) for pad, name in enumerate(body.names)]
    count = _seat_count(body) or len(view.bots)
    names = () if isinstance(body, NamesView) else getattr(body, "names", ()) or view.names
    return [(names[s] if s < len(names) else None) or words.seat(s) for s in range(count)]


def _seat_count(body: object) -> int:
    if isinstance(body, ChoosingView):
        return len(body.placed)
    if isinstance(body, RevealView):
        return len(body.plays)
    if isinstance(body, ScoresView):
        return len(body.players)
    if isinstance(body, OverView):
        return len(body.outcome.vp)
    return 0


def plain(value: object) -> object:
    """Dataclasses (with their class as ``kind``), named tuples, enums and tuples as
    JSON's objects, lists and scalars."""
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _fields(value)
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def _fields(value: DataclassInstance) -> dict[str, object]:
    """A dataclass instance as an object: its class as ``kind``, then its fields."""
    data: dict[str, object] = {"kind": type(value).__name__}
    for field in dataclasses.fields(value):
        data[field.name] = plain(getattr(value, field.name))
    return data
