"""The state directory: the game in progress, its previous version, the history.

The game file holds the record of the game in progress, written whole after every
finished round; the backup holds the version before it. Selections in progress are
never written: the record holds finished rounds only, so a hidden choice never leaves
the table before the reveal.

A save writes a temporary file and flushes it to the disk, turns the game file into
the backup, renames the temporary file into the game file and flushes the folder. A
pulled plug therefore leaves the new game, the old game, or (between the two renames)
only the backup, which load() then uses: never half a record, never a round twice.

A file that is not a usable game is never overwritten nor made the backup: the next
save moves it aside (``game.bad.json``). The backup is replaced only by the usable game
file that followed it. A game is known by its id (``GameRecord.game_id``): a save of
another game than the file's first gives the file's a name of its own
(``game-<time>.json``), as set_aside() does, so no game is pushed out through the
backup. (A record written before games had ids continues the file's game when its
rounds begin the same way.)
"""

from __future__ import annotations

import enum
import os
import stat
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..errors import where
from ..game.record import GameRecord
from .errors import StorageError, one_line, os_reason
from .files import FileOps, discard, write_synced
from .found import Found, Kind, at_or_behind, continues, examine, same_game
from .lock import FolderLock
from .reconcile import FileGame


class Source(enum.Enum):
    """Which file a loaded game came from."""

    GAME = "game"
    BACKUP = "backup"


@dataclass(frozen=True, slots=True)
class Loaded:
    """The saved game, where it came from, and what the user should be told."""

    record: GameRecord | None = None
    source: Source | None = None
    path: Path | None = None
    finished: bool = False
    messages: tuple[str, ...] = ()

    @property
    def unfinished(self) -> bool:
        """A game to offer to resume: neither finished nor ended from the menu."""
        return self.record is not None and not self.finished and not self.record.ended


STAMP = "%Y-%m-%dT%H-%M-%S"  # no colons: the name stays usable on a FAT card too


class StateDir:
    """The folder holding the game in progress (``game_file``) and its previous version.

    ``ops`` and ``clock`` are seams: tests inject failing file operations and a fixed time.
    """

    def __init__(
        self,
        path: Path,
        game_file: str = "game.json",
        *,
        ops: FileOps | None = None,
        clock: Callable[[], datetime] = datetime.now,
    ) -> None:
        self.path = path
        self.game_file = game_file
        self.ops = ops or FileOps()
        self.clock = clock
        name = Path(game_file)
        self._stem, self._suffix = name.stem, name.suffix
        self.game = path / game_file
        self.backup = path / f"{self._stem}.prev{self._suffix}"
        self.temp = path / f"{game_file}.tmp"
        self.notes: tuple[str, ...] = ()  # what the last save() or set_aside() did besides
        # What this program wrote to the game file and the backup: a save finds them as
        # it left them without parsing and replaying them again (a save a round). None:
        # not known (a backup made of a game file this program did not write).
        self._written: dict[Path, bytes | None] = {}
        self._last: GameRecord | None = None  # the record last written to the game file
        # The game that ended the last save gave a name of its own (a new game saved over
        # it; said in ``notes``), or None.
        self.kept: Path | None = None
        self._lock: FolderLock | None = None  # held by claim() until the process ends
        # The table's saves and the history's look (another thread) take turns.
        self._guard = threading.RLock()
        self._looked: dict[str, tuple[int, int] | None] = {}  # the last look's files

    def claim(self, who: str) -> None:
        """Hold the folder for this process (``who``: its command) while it runs, or raise
        FolderBusy naming the process that holds it (``storage.lock``)."""
        self.check()
        if self._lock is None:
            lock = FolderLock(self.path, who)
            lock.take()
            self._lock = lock

    def release(self) -> None:
        """Let the folder go (``claim``). Safe to call more than once."""
        lock, self._lock = self._lock, None
        if lock is not None:
            lock.release()

    def check(self) -> None:
        """Refuse a game file name that is not a plain name, and a state folder that exists
        and is not a folder (it is created on the first save). Call it at start, to say so
        before anything runs; save() and set_aside() check too, load() only reports."""
        name = self.game_file
        if name in ("", ".", "..") or Path(name).name != name:
            raise StorageError(f"the game file must be a plain file name, got {_quoted(name)}")
        try:
            mode = self.path.stat().st_mode
        except FileNotFoundError:
            return
        except OSError as e:
            raise StorageError(f"state folder {where(self.path)}: {os_reason(e)}") from None
        if not stat.S_ISDIR(mode):
            raise StorageError(f"state folder {where(self.path)} is a file, not a folder")

    # --- reading ------------------------------------------------------------------------

    def load(self) -> Loaded:
        """The game in progress, from the game file or else the backup. Never writes, never
        raises: what stands in the way is said in ``messages``."""
        try:
            self.check()
        except StorageError as e:
            return Loaded(messages=(str(e),))
        game = examine(self.ops, self.game)
        if game.kind is Kind.USABLE:
            return _loaded(game, Source.GAME)
        backup = examine(self.ops, self.backup)
        if backup.kind is Kind.USABLE:
            using = f"using the previous version {self.backup.name}"
            return _loaded(backup, Source.BACKUP, f"{where(self.game)} {game.problem()}; {using}")
        if game.kind is Kind.MISSING:
            if backup.kind is Kind.MISSING:
                return Loaded()
            return Loaded(
                messages=(
                    f"{where(self.game)} is missing; {where(self.backup)} {backup.problem()}",
                )
            )
        if backup.kind is Kind.MISSING:
            return Loaded(
                messages=(f"{where(self.game)} {game.problem()}; there is no previous version",)
            )
        return Loaded(
            messages=(
                f"{where(self.game)} {game.problem()}",
                f"{where(self.backup)} {backup.problem()}",
            )
        )

    def has_unfinished(self) -> bool:
        """Whether a game to resume is here (a new one would have to set it aside first)."""
        return self.load().unfinished

    # --- writing ------------------------------------------------------------------------

    def save(self, record: GameRecord) -> None:
        """Write ``record`` as the game, the game before it becoming the backup. A file that
        cannot be used is moved aside first, never overwritten (said in ``notes``).

        On failure a one-line StorageError is raised and the files are as they were; only
        a failure after the first rename (the last rename, the folder's flush) leaves the
        last game in the backup, or the new one unflushed, where load() finds it."""
        with self._guard:
            return self._save(record)

    def _save(self, record: GameRecord) -> None:
        doing = "cannot save the game"
        self.notes = ()
        self.check()
        self._make_folder(doing)
        game = self._look(self.game, doing)
        self.kept = None
        before: tuple[str, ...] = ()
        if game.kind is Kind.USABLE and self._another(game, record):
            # Another game is never pushed out through the backup: it may be the only copy
            # (its history write failed). It gets a name of its own, as set_aside().
            old = game.record if game.record is not None else self._last
            self.kept = self._set_aside()
            before = self.notes
            if self.kept is not None:
                what = "that ended" if old is not None and _over(old) else "before it"
                before += (f"the game {what} is kept as {self.kept.name}",)
            game = self._look(self.game, doing)
        backup = self._look(self.backup, doing) if game.kind is Kind.USABLE else None
        data = (record.to_json() + "\n").encode("utf-8")
        self._write(self.temp, data, doing)
        notes: list[str] = []
        try:
            if game.unusable:  # never overwritten, and never made the backup
                notes.append(self._move_aside(game, doing))
            elif backup is not None:
                if backup.unusable:
                    notes.append(self._move_aside(backup, doing))
                self._rename(self.game, self.backup, doing)
                self._written[self.backup] = self._written.pop(self.game, None)
            self._rename(self.temp, self.game, doing)
        except StorageError:
            discard(self.ops, self.temp)
            self._written.clear()  # where things stand is for the next look to find
            raise
        self._written[self.game] = data
        self._last = record
        self._sync_folder(doing)
        self.notes = (*before, *notes)

    def set_aside(self) -> Path | None:
        """Move the game in progress (the one load() returns) to a new name of its own,
        beside a new game, and return that name; None if there was none. Its previous
        version goes with it (``<name>.prev<suffix>``): it may be another game entirely.
        Files that are not usable games are moved aside as at a save (said in ``notes``)."""
        with self._guard:
            return self._set_aside()

    def _set_aside(self) -> Path | None:
        doing = "cannot set the game aside"
        self.notes = ()
        self._written.clear()
        self.check()
        game = self._look(self.game, doing)
        backup = self._look(self.backup, doing)
        notes = [self._move_aside(found, doing) for found in (game, backup) if found.unusable]
        current = _first_usable(game, backup)
        kept = None
        if current is not None:
            kept, kept_backup = self._free_names("", ".prev")
            # The backup first: a cut after it leaves the game file, the game in progress.
            if current is game and backup.kind is Kind.USABLE:
                self._rename(self.backup, kept_backup, doing)
            self._rename(current.path, kept, doing)
        if notes or kept is not None:
            self._sync_folder(doing)
        self.notes = tuple(notes)
        return kept

    def unfinished_kept(self, limit: int) -> list[tuple[Path, GameRecord]]:
        """The newest ``limit`` games set aside that can be resumed (neither finished nor
        ended from the menu), newest first, each game once (its newest file), and none that
        the game file holds (a resume cut short before its file was removed)."""
        playing = self.load().record
        seen = {playing.identified().game_id} if playing is not None else set()
        found: list[tuple[Path, GameRecord]] = []
        for path in reversed(self.kept_games()):
            kept = examine(self.ops, path)
            record = kept.record
            if record is None or kept.finished or record.ended:
                continue
            game_id = record.identified().game_id
            if game_id in seen:
                continue
            seen.add(game_id)
            found.append((path, record))
            if len(found) == limit:
                break
        return found

    def resume_kept(self, record: GameRecord) -> Path | None:
        """A game set aside (``record``) is the game in progress again: saved as the game
        (another game there is set aside first, as at any save), then every file that
        kept it aside is removed, with its previous version when that is of the same game.
        Returns the newest of them (None: no kept file holds it; the game is saved all the
        same). A cut before the removal leaves the game file and a copy: the history's
        writer removes the copy (``reconcile``), and it is never offered meanwhile."""
        with self._guard:
            return self._resume_kept(record)

    def _resume_kept(self, record: GameRecord) -> Path | None:
        self._save(record)
        notes = list(self.notes)
        record = record.identified()
        mine = [
            g
            for g in self.kept_files()
            if g.game_id == record.game_id and at_or_behind(g.record, record)
        ]
        try:
            self.forget([name for g in mine for name in (g.name, *g.also)])
        except OSError as e:  # the game file holds it: the next look removes the copy
            notes.append(f"{where(self.path)}: a copy of the game set aside stays: {os_reason(e)}")
        self.notes = tuple(notes)
        return self.path / mine[-1].name if mine else None

    def forget(self, names: Iterable[str], *, as_looked: bool = False) -> None:
        """Remove the files ``names`` from the folder (one already gone is as good), then
        flush the folder. ``as_looked``: only a file still as the last ``games()`` found it
        (the same inode, written at the same time): a name given again since (a game set
        aside in the same second) is another file, and stays. A failure to remove raises
        it (OSError): tried again next time."""
        with self._guard:  # no save or set-aside between the check and the removal
            removed = False
            for name in names:
                if as_looked and _stamp(self.path / name) != self._looked.get(name):
                    continue
                try:
                    self.ops.remove(self.path / name)
                except FileNotFoundError:
                    continue
                removed = True
            if removed:
                self.ops.fsync_dir(self.path)

    def kept_files(self) -> list[FileGame]:
        """The games set aside that hold a usable game, oldest first, each with its id
        and the previous version kept with it when that is of the same game."""
        files = []
        for path in self.kept_games():
            found = examine(self.ops, path)
            if found.record is None:
                continue
            record = found.record.identified()
            prev = path.with_name(f"{path.stem}.prev{path.suffix}")
            before = examine(self.ops, prev).record
            same = before is not None and same_game(before, record)
            also = (prev.name,) if same else ()
            when = _dated(path)
            files.append(FileGame(path.name, record, found.finished, True, when, also))
        return files

    def games(self) -> list[FileGame]:
        """Every game the folder holds, for ``reconcile``: the games set aside (oldest
        first), then the game file's, if it is usable. The game file is read last: a
        game set aside since the list was read is then not in the game file either, so a
        copy is never taken for a leftover of the game in progress."""
        files = self.kept_files()
        self._looked = {name: _stamp(self.path / name) for f in files for name in (f.name, *f.also)}
        loaded = self.load()
        if loaded.record is not None and loaded.path is not None:
            record = loaded.record.identified()
            when = _dated(loaded.path)
            # Its previous save tells an undo after the end (``reconcile``): only a game
            # going on can have been undone, and only then is the backup read.
            going_on = loaded.path == self.game and loaded.unfinished
            before = examine(self.ops, self.backup).record if going_on else None
            earlier = before.identified() if before and same_game(before, record) else None
            files.append(
                FileGame(loaded.path.name, record, loaded.finished, False, when, (), earlier)
            )
        return files

    def _another(self, game: Found, record: GameRecord) -> bool:
        """Whether ``record`` is of another game than the game file's. A record without an
        id (written before games had them) is another game only over one that ended, and
        only when it does not go on from it (undoing the last round of an ended game
        keeps it: the same setup, its rounds but the last one)."""
        old = game.record if game.record is not None else self._last
        if old is None:  # the cache holds what this program wrote; it had no record
            return False
        if record.game_id is not None:
            return old.identified().game_id != record.game_id
        rounds, before = len(record.rounds), len(old.rounds)
        if continues(record, old) and rounds >= before - 1 and (rounds or not before):
            return False
        return _over(old)

    def kept_games(self) -> list[Path]:
        """The games set aside (``<stem>-<time>[-N]<suffix>``, not their previous versions
        nor files moved aside as unusable), oldest first."""
        try:
            names = os.listdir(self.path)
        except OSError:
            return []
        kept = [
            self.path / n
            for n in names
            if n.startswith(f"{self._stem}-")
            and n.endswith(self._suffix)
            and not n.endswith(f".prev{self._suffix}")
            and ".bad" not in n
            and not n.endswith(".tmp")
        ]
        return sorted(kept, key=lambda p: (_mtime(p), p.name))

    # --- helpers ------------------------------------------------------------------------

    def _look(self, path: Path, doing: str) -> Found:
        """What ``path`` holds; a folder there is the user's and is never moved."""
        found = examine(self.ops, path, self._written.get(path))
        if found.kind is Kind.NOT_A_FILE:
            raise StorageError(f"{doing}: {where(path)} {found.problem()}")
        return found

    def _move_aside(self, found: Found, doing: str) -> str:
        """Move an unusable file to a free ``<stem>.bad[-N]<suffix>``; say so."""
        stem, suffix = _split(found.path.name)
        (aside,) = _free(lambda n: (self.path / f"{stem}.bad{_counter(n)}{suffix}",))
        self._rename(found.path, aside, doing)
        return f"{where(found.path)} {found.problem()}; kept as {aside.name}"

    def _free_names(self, *tags: str) -> tuple[Path, ...]:
        """Free names for a set-aside game, ``<stem>-<time>[-N]<tag><suffix>`` per tag."""
        base = f"{self._stem}-{self.clock().strftime(STAMP)}"
        return _free(
            lambda n: tuple(self.path / f"{base}{_counter(n)}{t}{self._suffix}" for t in tags)
        )

    def _make_folder(self, doing: str) -> None:
        try:
            self.ops.make_dirs(self.path)
        except OSError as e:
            raise StorageError(f"{doing}: folder {where(self.path)}: {os_reason(e)}") from None

    def _write(self, path: Path, data: bytes, doing: str) -> None:
        try:
            write_synced(self.ops, path, data)
        except OSError as e:
            raise StorageError(f"{doing}: {where(path)}: {os_reason(e)}") from None

    def _rename(self, source: Path, target: Path, doing: str) -> None:
        try:
            self.ops.replace(source, target)
        except OSError as e:
            where = f"renaming {source} to {target.name}"
            raise StorageError(f"{doing}: {where}: {os_reason(e)}") from None

    def _sync_folder(self, doing: str) -> None:
        try:
            self.ops.fsync_dir(self.path)
        except OSError as e:
            raise StorageError(f"{doing}: folder {where(self.path)}: {os_reason(e)}") from None


def _over(record: GameRecord) -> bool:
    return record.ended or record.replay().finished


def _dated(path: Path) -> str | None:
    """When a file was last written (UTC ISO 8601): a game's end or set-aside, near enough."""
    try:
        when = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    except (OSError, ValueError, OverflowError):
        return None
    return when.isoformat(timespec="seconds")


def _stamp(path: Path) -> tuple[int, int] | None:
    """A file's inode and the time it was written: a rename keeps both, a new file of the
    same name has others."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_ino, info.st_mtime_ns


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _loaded(found: Found, source: Source, *messages: str) -> Loaded:
    return Loaded(found.record, source, found.path, found.finished, messages)


def _first_usable(*found: Found) -> Found | None:
    return next((f for f in found if f.kind is Kind.USABLE), None)


def _split(name: str) -> tuple[str, str]:
    path = Path(name)
    return path.stem, path.suffix


def _counter(n: int) -> str:
    return "" if n == 1 else f"-{n}"


def _free(names: Callable[[int], tuple[Path, ...]]) -> tuple[Path, ...]:
    """The first ``names(n)`` (n = 1, 2, ...) of which none is taken. One process owns the
    folder, so names free now are still free at the rename."""
    n = 1
    while any(map(_taken, names(n))):
        n += 1
    return names(n)


def _taken(path: Path) -> bool:
    return os.path.lexists(path)


def _quoted(value: str) -> str:
    return one_line(repr(value))
