"""What keeps the state folder and the history in step: each game once, by its id.

``reconcile()`` is a pure function. Given the games the state folder holds (the game
file, the games set aside) and what the history holds of their ids, it returns the
actions that make the two agree: ``Put`` a game into the history (a new row, or its row
brought up to date), ``Forget`` a file the history no longer needs the folder to keep.
The history's writer only carries them out. Every action can be carried out twice, and
the Puts come before the Forgets, so a cut anywhere leaves each game in the history
once, in the folder, or both; the next look finishes the work.

Which of two copies of one game is the later is never guessed from the files' names or
bytes: the game file is the game in progress, the newest file set aside is the last
time it was set aside, and a copy whose rounds begin another's, and are fewer, is the
earlier moment of that game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..game.record import GameRecord
from .found import at_or_behind, behind
from .history import Held


@dataclass(frozen=True, slots=True)
class FileGame:
    """A game as the state folder holds it."""

    name: str  # the file's name in the folder
    record: GameRecord  # with its id (``GameRecord.identified``)
    finished: bool  # the target was reached
    kept: bool  # a game set aside; else the game file (the game in progress, or just ended)
    date: str | None = None  # when the file was written (UTC ISO 8601)
    also: tuple[str, ...] = ()  # files that go with it: its previous version, of this game
    # The game file's previous version, when of this game: the moment saved before it
    before: GameRecord | None = None

    @property
    def game_id(self) -> str:
        assert self.record.game_id is not None, "files are given with their ids"
        return self.record.game_id

    @property
    def over(self) -> bool:
        return self.finished or self.record.ended


class Put(NamedTuple):
    """Write ``record`` as its game's row (dated ``date``: the file's time)."""

    record: GameRecord
    date: str | None


class Forget(NamedTuple):
    """Remove these files from the state folder: the history, or the game file, holds
    their game as late as they do."""

    names: tuple[str, ...]


Action = Put | Forget


def reconcile(files: Sequence[FileGame], rows: Mapping[str, Held], keep: int) -> list[Action]:
    """The actions that bring the history and the state folder into step. ``files``: the
    games set aside, oldest first, and the game file; ``rows``: what the history holds of
    their ids; ``keep``: how many games that ended, kept as files of their own, stay in
    the folder once the history holds them (the oldest go first)."""
    puts: list[Put] = []
    forgets: list[Forget] = []
    held: list[FileGame] = []
    for group in _by_game(files).values():
        put, forget, kept = _one_game(group, rows.get(group[0].game_id))
        puts += put
        forgets += forget
        held += kept
    order = {f.name: n for n, f in enumerate(files)}
    held.sort(key=lambda f: order[f.name])
    forgets += [_forget(f) for f in held[: max(0, len(held) - keep)]]
    return [*puts, *forgets]


def _by_game(files: Sequence[FileGame]) -> dict[str, list[FileGame]]:
    games: dict[str, list[FileGame]] = {}
    for file in files:
        games.setdefault(file.game_id, []).append(file)
    return games


def _one_game(
    group: list[FileGame], row: Held | None
) -> tuple[list[Put], list[Forget], list[FileGame]]:
    """One game's files (oldest set aside first) and its row: (puts, forgets, and the file
    set aside that may be pruned, the history holding it)."""
    playing = next((f for f in group if not f.kept), None)
    kept = [f for f in group if f.kept]
    if playing is not None:  # it goes on in the game file: copies set aside up to its
        # moment are leftovers (a resume cut short); one ahead of it, or gone another way
        # after an undo, stays
        put = [Put(playing.record, playing.date)] if _put_playing(playing, row) else []
        leftovers = [f for f in kept if at_or_behind(f.record, playing.record)]
        return put, [_forget(f) for f in leftovers], []
    # The copies set aside: one at or behind another is an earlier moment (set aside
    # again since); the others are the game (more than one if it went on two ways). The
    # files' times are no guide: a Pi's clock may go back after a power cut.
    latest = [f for n, f in enumerate(kept) if not _superseded(n, kept)]
    forget = [_forget(f) for f in kept if f not in latest]
    newest = latest[-1]
    if not newest.record.rounds:  # nothing played: no row
        return [], forget, []
    if row is not None and behind(newest.record, row.record):
        if row.finished:  # resumed and finished since: the history holds all of it
            return [], [*forget, _forget(newest)], []
        return [], forget, []  # the history is ahead and not done: the file stays
    put = [Put(newest.record, newest.date)] if _newer(newest, row) else []
    # Only a game that ended is pruned: one set aside unfinished stays to be resumed.
    return put, forget, [newest] if len(latest) == 1 and newest.over else []


def _put_playing(playing: FileGame, row: Held | None) -> bool:
    """Whether the game file's moment is to be written: it ended and the history lacks
    it; or it was undone after the end the history shows (the save before it was that
    end). A game file merely behind a finished row is not enough: its save at the end
    may have failed, or not happened yet."""
    if playing.over:
        return _newer(playing, row)
    return (
        row is not None
        and row.finished
        and playing.before == row.record
        and behind(playing.record, row.record)
    )


def _superseded(n: int, kept: list[FileGame]) -> bool:
    """Whether the copy ``kept[n]`` is at or behind another (the later file, of two equal)."""
    mine = kept[n].record
    return any(
        behind(mine, other.record) or (mine == other.record and m > n)
        for m, other in enumerate(kept)
        if m != n
    )


def _newer(file: FileGame, row: Held | None) -> bool:
    """Whether the history lacks the file's moment of the game and is not ahead of it."""
    if row is None:
        return bool(file.record.rounds)
    return row.record != file.record and not behind(file.record, row.record)


def _forget(file: FileGame) -> Forget:
    return Forget((file.name, *file.also))
