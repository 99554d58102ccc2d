"""What a step of the table asks the world to do, as data. The loop hands each to a sink."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..game.bots import View as BotView
from ..game.names import Names
from ..game.record import GameRecord
from ..game.settings import DeviceSettings
from .events import HostKey, KeyStuck


class Sound(enum.Enum):
    """What the buzzer says; the notes of each are data (``companion/data/sounds.toml``)."""

    CLICK = "click"  # a press was taken: a card placed or taken back, a seat joined, a choice
    LOCKED = "locked"  # a seat holds its full selection
    REFUSED = "refused"  # a press the table cannot take
    REVEAL = "reveal"  # every choice is shown
    TRADE = "trade"  # a Trader's turn to pick a trade


@dataclass(frozen=True, slots=True)
class Beep:
    sound: Sound


CLICK, LOCKED, REFUSED = Beep(Sound.CLICK), Beep(Sound.LOCKED), Beep(Sound.REFUSED)
REVEAL, YOUR_TRADE = Beep(Sound.REVEAL), Beep(Sound.TRADE)


@dataclass(frozen=True, slots=True)
class GameChanged:
    """Save this record: a game began, a round ended, or a round was undone."""

    record: GameRecord


@dataclass(frozen=True, slots=True)
class GameFinished:
    """The game ended (the target reached, or ended from the menu): save it finished, and
    keep it in the history with its seats' names (None: a seat without one)."""

    record: GameRecord
    names: Names


@dataclass(frozen=True, slots=True)
class KeepAside:
    """The people chose a new game over the saved one (``record``, its seats named
    ``names``): keep that one beside the new. One that never finished is abandoned."""

    record: GameRecord
    names: Names


@dataclass(frozen=True, slots=True)
class ResumeKept:
    """A game set aside is resumed (``record``): it is the game in progress again, its
    file no longer one set aside."""

    record: GameRecord


@dataclass(frozen=True, slots=True)
class SettingsChanged:
    """A person changed the device's settings: apply them at once, and save them."""

    settings: DeviceSettings


@dataclass(frozen=True, slots=True)
class NamesChanged:
    """A pad's name was set or taken away: save every pad's name (``names``)."""

    names: Names


@dataclass(frozen=True, slots=True)
class Stuck:
    """A key held down for ``events.STUCK`` seconds and ignored until it comes up: say it
    in the log. ``key``: a pad's key, as its source told it, or a host button."""

    key: KeyStuck | HostKey


@dataclass(frozen=True, slots=True)
class AskBot:
    """The seats start choosing (a new round, or back from the menu) with the bot at
    ``view.seat`` still to choose. Run a bot of ``strength`` on ``view`` (the public state
    and that seat, nothing of the others' choices) and put its ``events.BotChose``."""

    view: BotView
    strength: str
    seed: int = 0  # the table's (``Settings.seed``): the same seed, the same answer


Effect = (
    Beep
    | GameChanged
    | GameFinished
    | KeepAside
    | ResumeKept
    | SettingsChanged
    | Stuck
    | NamesChanged
    | AskBot
)
