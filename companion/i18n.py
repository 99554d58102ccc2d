"""The message catalog: every word a user reads comes from ``locale/<lang>.json``."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

DEFAULT = "en"


@cache
def catalog(lang: str = DEFAULT) -> dict[str, str]:
    path = resources.files(__package__).joinpath(f"locale/{lang}.json")
    messages = json.loads(path.read_text("utf-8"))
    if lang != DEFAULT:  # a missing translation falls back to English, never to a key
        messages = {**catalog(DEFAULT), **messages}
    return messages


def t(key: str, lang: str = DEFAULT, /, **values: object) -> str:
    """The message ``key`` in ``lang``, with ``values`` filled in."""
    return catalog(lang)[key].format(**values)


def card_name(card: int, lang: str = DEFAULT) -> str:
    return catalog(lang)[f"card.{card}"]


def seat_name(seat: int, lang: str = DEFAULT) -> str:
    """Seats are 0-based in data and P1..P6 to people."""
    return t("seat", lang, n=seat + 1)
