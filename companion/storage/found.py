"""What one saved file holds: a usable game, nothing, or why it cannot be used.

A record that parses but cannot be replayed is as unusable as one that does not
parse: resuming it would fail at the table, so it is found here, at load.
"""

from __future__ import annotations

import enum
import stat
from dataclasses import dataclass
from pathlib import Path

from ..errors import CompanionError
from ..game.record import GameRecord
from .errors import REASON_LIMIT, one_line, os_reason
from .files import FileOps, read_head

# A game of many rounds is a few kilobytes; a file far larger is not a game, and reading
# all of it could exhaust a Pi's memory.
MAX_BYTES = 1 << 20


class Kind(enum.Enum):
    MISSING = "missing"
    USABLE = "usable"
    CORRUPT = "corrupt"  # read, but not a game that replays
    UNREADABLE = "unreadable"  # there, but the OS will not give its bytes
    NOT_A_FILE = "not a file"  # a folder (or a device, a pipe) where the file should be


@dataclass(frozen=True, slots=True)
class Found:
    path: Path
    kind: Kind
    record: GameRecord | None = None
    finished: bool = False
    why: str = ""  # what is wrong, one line (or what is there instead of a file)

    @property
    def unusable(self) -> bool:
        """A file is there that holds no usable game and may be moved, never overwritten."""
        return self.kind in (Kind.CORRUPT, Kind.UNREADABLE)

    def problem(self) -> str:
        """What is wrong with the file, to follow its name in a message."""
        if self.kind is Kind.CORRUPT:
            return f"is not a usable game ({self.why})"
        if self.kind is Kind.UNREADABLE:
            return f"cannot be read ({self.why})"
        if self.kind is Kind.NOT_A_FILE:
            return f"is {self.why}, not a game file"
        return "is missing"  # never asked of a usable file


def examine(ops: FileOps, path: Path, written: bytes | None = None) -> Found:
    """What ``path`` holds. Only reads: this works in a read-only folder. ``written``:
    the bytes this program last wrote there; a file that still holds exactly those is a
    usable game without parsing and replaying it again."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return Found(path, Kind.MISSING)
    except OSError as e:
        return Found(path, Kind.UNREADABLE, why=os_reason(e))
    if not stat.S_ISREG(mode):  # opening a pipe would wait forever
        return Found(path, Kind.NOT_A_FILE, why="a folder" if stat.S_ISDIR(mode) else "a device")
    try:
        data = read_head(ops, path, MAX_BYTES)
    except FileNotFoundError:  # removed since the look: as good as never there
        return Found(path, Kind.MISSING)
    except OSError as e:
        return Found(path, Kind.UNREADABLE, why=os_reason(e))
    if len(data) > MAX_BYTES:
        return Found(path, Kind.CORRUPT, why=f"larger than {MAX_BYTES >> 20} MiB")
    if written is not None and data == written:
        return Found(path, Kind.USABLE)
    return _parse(path, data)


def _parse(path: Path, data: bytes) -> Found:
    try:
        record = GameRecord.from_json(data)
        finished = record.replay().finished
    except (CompanionError, ValueError, RecursionError) as e:
        return Found(path, Kind.CORRUPT, why=one_line(str(e), REASON_LIMIT))
    return Found(path, Kind.USABLE, record, finished)


def continues(record: GameRecord, other: GameRecord) -> bool:
    """Whether two records can be the same game at two moments (a round later, or a
    round undone): the same setup, and one's rounds begin the other's."""
    if (record.players, record.board, record.target) != (
        other.players,
        other.board,
        other.target,
    ):
        return False
    n = min(len(record.rounds), len(other.rounds))
    return record.rounds[:n] == other.rounds[:n]


def same_game(record: GameRecord, other: GameRecord) -> bool:
    """Whether two records are of one game: by their ids, when both have one; else (one
    written before games had ids) as ``continues`` finds it."""
    if record.game_id is not None and other.game_id is not None:
        return record.game_id == other.game_id
    return continues(record, other)


def behind(record: GameRecord, later: GameRecord) -> bool:
    """Whether ``record`` is an earlier moment of the game ``later`` is a moment of: its
    rounds begin ``later``'s, and are fewer."""
    return len(record.rounds) < len(later.rounds) and continues(record, later)


def at_or_behind(record: GameRecord, other: GameRecord) -> bool:
    """Whether ``record`` is ``other``'s moment of the game, or an earlier one."""
    return record == other or behind(record, other)
