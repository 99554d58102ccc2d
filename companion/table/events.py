"""What the inputs tell the table: pure data, put on one queue by every source.

Sources (the pad matrix, the host buttons, later the hub, the keyboard and bots) sit
behind one seam: ``start(put)`` begins sending events to ``put``, ``close()`` stops and
releases the parts (idempotent). Host buttons report raw ``HostDown``/``HostUp`` edges;
the table turns them into ``HostPress`` gestures (a long press is a matter of time, so
it is worked out where time is: in ``table``, from the loop's clock).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ..game.names import HistorySummary
from ..rules import GameState


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
class HostDown:
    """A host button went down (debounced by the source)."""

    key: HostKey


@dataclass(frozen=True, slots=True)
class HostUp:
    key: HostKey


@dataclass(frozen=True, slots=True)
class HostPress:
    """A host button gesture: a press, or ``long`` for OK held (the menu)."""

    key: HostKey
    long: bool = False


@dataclass(frozen=True, slots=True)
class Tick:
    """Time has passed: the loop sends one when a deadline is due."""


@dataclass(frozen=True, slots=True)
class SaveFailed:
    """The game could not be saved (the store says why, in one short line). The table
    shows it once; the next round's save tries again."""

    reason: str


@dataclass(frozen=True, slots=True)
class NameSet:
    """A pad's name set from outside the host buttons (a simulator script): checked by
    whoever sends it (``game.names.check_name``); None takes the name away."""

    pad: int  # 0-based
    name: str | None


@dataclass(frozen=True, slots=True)
class HistoryKnown:
    """What the history screen shows, read by the app at power-on and after each game
    it writes (the table does not read files)."""

    summary: HistorySummary


STUCK = 10.0  # seconds a key may be held before it counts as stuck (a short, a book on it)


@dataclass(frozen=True, slots=True)
class KeyStuck:
    """A pad key has been down for ``STUCK`` seconds: said once by its source (the pad
    matrix, the hub), which ignores the key until it comes up; its ``PadUp`` still
    follows then. Seats (pads) are 0-based, cards 1..8, as in ``PadDown``."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class HubMismatch:
    """The pad hub's firmware speaks protocol ``hub``, this companion ``ours``: the
    hub sends no keys until it is flashed from this version. The table says so."""

    hub: int
    ours: int


@dataclass(frozen=True, slots=True)
class HubRefused:
    """The pad hub's port is there but has refused the companion for a while (a driver
    loaded after the service started, whose device class the service was not allowed):
    the table says so, and the service restarts, which lets the port in. ``why``: the line
    that says so, for a log."""

    why: str


@dataclass(frozen=True, slots=True)
class ShowCode:
    """The phone page asks to pair: the table shows ``code`` for ``seconds`` (a notice),
    so only someone at the table can type it into the page."""

    code: str = field(repr=False)  # a log line or a traceback must not show it
    seconds: float


@dataclass(frozen=True, slots=True)
class CodeUsed:
    """The page paired with the code on show: the table stops showing it."""


@dataclass(frozen=True, slots=True)
class ChangeSettings:
    """Settings changed on the phone page, already checked there (``DeviceSettings``'
    types): the table applies them as if they were made on the device."""

    values: tuple[tuple[str, object], ...]


@dataclass(frozen=True, slots=True)
class BotChose:
    """A bot's cards for ``seat``, chosen from ``state`` (the game when it was asked: the
    answer to an ``effects.AskBot``). The table takes them only while that seat still
    chooses in that state: an answer that comes after an undo, a new game or from the menu
    is dropped."""

    seat: int
    state: GameState = field(repr=False)
    cards: tuple[int, ...] = field(repr=False)  # SECRET until the reveal


Event = (
    PadDown
    | PadUp
    | HostDown
    | HostUp
    | HostPress
    | Tick
    | SaveFailed
    | KeyStuck
    | HubMismatch
    | HubRefused
    | NameSet
    | HistoryKnown
    | ShowCode
    | CodeUsed
    | ChangeSettings
    | BotChose
)
Put = Callable[[Event], None]
Press = PadDown | HostPress  # what the mode on the table acts on (a handler's event)


class Source(Protocol):
    """An input: sends events to ``put`` from ``start`` until ``close``."""

    def start(self, put: Put) -> None: ...

    def close(self) -> None: ...
