"""What the hardware tells the app: pure data, put on one queue by every input."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class HostKey(enum.Enum):
    """The three host buttons."""

    LEFT = "left"
    OK = "ok"
    RIGHT = "right"


@dataclass(frozen=True, slots=True)
class PadDown:
    """A key went down on a seat's pad (debounced). Seats are 0-based, cards 1..8."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class PadUp:
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class HostPress:
    """A host button was pressed; ``long`` for a long press (OK held: the menu)."""

    key: HostKey
    long: bool = False


Event = PadDown | PadUp | HostPress
