"""The eight action cards."""

from __future__ import annotations

import enum


class Card(enum.IntEnum):
    """An action card; its value is the number printed on it and the order it resolves in."""

    CAPTAIN = 1
    ADMIRAL = 2
    GOVERNOR = 3
    FRIGATE = 4
    GALLEON = 5
    CUSTOMS = 6
    TRADER = 7
    BEGGAR = 8


ALL_CARDS: frozenset[int] = frozenset(range(1, 9))  # plain ints: hands are compared and printed


class Row(enum.Enum):
    """The three rows of the board."""

    VP = "vp"
    GOODS = "goods"
    TRADER = "trader"
