"""The public view as the phone page reads it: JSON built from ``public_view`` only.

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

from ..table import View
from ..table.view import ChoosingView, JoinView, NamesView, OverView, RevealView, ScoresView
from ..ui.catalog import Catalog
from ..ui.font import font
from ..ui.screens import Text, screen

PAIR_NOTICE = "notice.pair_code"  # the notice that carries the pairing code
PAIR_SHOWN = "web.pair_shown"  # what the page says in its place
WIDE = (256, 64)  # the wide panel's lines: the most words a screen has


def view_data(view: View, words: Catalog) -> dict:
    """The view as plain data, with the lines the OLED shows in ``words``' language."""
    pairing = view.notice is not None and view.notice[0] == PAIR_NOTICE
    if pairing:
        view = replace(view, notice=(PAIR_SHOWN, ()))
    body = view.body
    if isinstance(body, ChoosingView):  # seconds left are a clock value: only whether
        counting = body.countdown is not None
        body = replace(body, countdown=None)
        view = replace(view, body=body)  # the OLED's lines without the number too
    else:
        counting = False
    shown = screen(view, words, WIDE)
    data = {
        "phase": view.phase.value,
        "board": None if view.board is None else plain(view.board),
        "body": plain(body),
        "counting": counting,
        **_lines(shown.items),
        "notice": shown.notice,
        "language": words.lang,
        "seats": seat_labels(view, words),
        "pairing": pairing,  # a code is on show: the page keeps its field open
    }
    if isinstance(body, ChoosingView):
        del data["body"]["countdown"]
    return data


def view_bytes(view: View, words: Catalog) -> bytes:
    """``view_data`` as compact JSON, keys sorted: the same view gives the same bytes."""
    data = view_data(view, words)
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


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
        data: dict[str, object] = {"kind": type(value).__name__}
        for field in dataclasses.fields(value):
            data[field.name] = plain(getattr(value, field.name))
        return data
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def _lines(items: tuple) -> dict[str, object]:
    """The screen's words: ``lines`` one string a line, top to bottom (the page shows
    them big), and the bottom line apart: ``hint`` (what the buttons do) on its left,
    ``fact`` (the round, a count) on its right."""
    bottom = WIDE[1] - font("small").height
    rows: dict[int, list[Text]] = {}
    hint = fact = None
    for item in items:
        if not isinstance(item, Text) or not item.text.strip():
            continue
        if item.font == "small" and item.y == bottom:
            hint, fact = (item.text, fact) if item.x == 0 else (hint, item.text)
        else:
            rows.setdefault(item.y, []).append(item)
    lines = (sorted(row, key=lambda t: t.x) for _, row in sorted(rows.items()))
    return {
        "lines": ["  ".join(t.text for t in line) for line in lines],
        "hint": hint,
        "fact": fact,
    }
