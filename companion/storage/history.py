"""The history of games: ``history.sqlite`` in the state folder, one row per game.

A row holds the game record (docs/record-format.md, completed rounds only: a hidden
choice is never stored), when the game ended (UTC, ISO 8601), whether it was finished
or abandoned, the winners and the result as ``companion replay --json`` gives them,
the seat names (optional) and the board. A row is keyed by the game's id, which the
game's record carries from its start (``GameRecord.game_id``): saving the same game again
(finished, undone, finished again; set aside, resumed, finished) updates its row.

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS`` are applied in
order. A database newer than this code is refused, never altered. ``History.summary``
gives the few facts the device's history screen shows. A file that is not a
database is moved aside (``history.bad.sqlite``, never overwritten) and said.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import Closing, CompanionError, where
from ..game.boards import board_spec
from ..game.names import HistorySummary, PastGame, Tally
from ..game.record import GameRecord, legacy_id, state_to_dict
from . import cards, fields, seen
from .errors import StorageError, one_line
from .seen import Seen

HISTORY_FILE = "history.sqlite"
TIMEOUT = 0.25  # seconds a statement waits for another process's lock, then fails
LAST = 12  # games the device's history screen lists: four pages

MIGRATIONS: tuple[str, ...] = (
    # 1: the games
    """
    CREATE TABLE games (
        game_id TEXT PRIMARY KEY,
        date TEXT NOT NULL,
        finished INTEGER NOT NULL,
        winners TEXT NOT NULL,
        result TEXT,
        names TEXT,
        board TEXT NOT NULL,
        record TEXT NOT NULL
    );
    """,
    # 2: the game in progress (its id survives a restart), listing by date
    """
    CREATE TABLE current (
        slot INTEGER PRIMARY KEY CHECK (slot = 0),
        game_id TEXT NOT NULL,
        record TEXT NOT NULL
    );
    CREATE INDEX games_by_date ON games (date);
    """,
    # 3: which game each game file kept in the state folder is (its name and SHA-256)
    """
    CREATE TABLE kept (
        file TEXT NOT NULL,
        digest TEXT NOT NULL,
        game_id TEXT NOT NULL,
        PRIMARY KEY (file, digest)
    );
    """,
    # 4: the file's identity when seen (inode and time written: a rename keeps them), so
    # game files with the same keys pressed stay games of their own
    """
    ALTER TABLE kept ADD COLUMN stamp TEXT NOT NULL DEFAULT '';
    """,
    # 5: games carry their ids in their records: a game written before is keyed by the id
    # its record makes (``legacy_id``: the id its files in the state folder are known by),
    # unless another row of the same record has it; the guesses of versions 2 to 4 go.
    # The game in progress (``current``) takes the id its game file will be known by.
    """
    UPDATE OR IGNORE games SET game_id = coalesce(legacy_id(record), game_id)
        WHERE iif(json_valid(record), json_extract(record, '$.id'), NULL) IS NULL
        AND game_id NOT IN (SELECT game_id FROM current);
    UPDATE OR IGNORE games
        SET game_id = coalesce(legacy_id((SELECT record FROM current)), game_id)
        WHERE game_id IN (SELECT game_id FROM current);
    DROP TABLE kept;
    DROP TABLE current;
    """,
    # 6: the VP each card's steps paid each seat, found once when the game is written:
    # ``history stats`` sums them without replaying every game (NULL: a row from before)
    """
    ALTER TABLE games ADD COLUMN earned TEXT;
    """,
    # 7: how often each seat played each card, found once likewise (NULL: a row from before)
    """
    ALTER TABLE games ADD COLUMN played TEXT;
    """,
)
VERSION = len(MIGRATIONS)
READABLE = 2  # the oldest version a reader takes as it is (3 added a table readers skip)
COLUMNS = ("game_id", "date", "finished", "winners", "result", "names", "board", "record")


class WrongTables(sqlite3.DatabaseError):
    """A database whose tables are not a history's (another program's file)."""


Report = Callable[[str], None]


BATCH = 500  # games an import writes per transaction


class Held(NamedTuple):
    """What the history holds of a game: whether it finished, and its record."""

    finished: bool
    record: GameRecord


class Kept(NamedTuple):
    """What an exported game carries beside its record (``history export``)."""

    date: str | None = None
    names: tuple[str | None, ...] | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """One row of the history."""

    game_id: str
    date: str
    finished: bool
    winners: tuple[int, ...]
    result: dict[str, Any] | None  # as ``companion replay --json`` gives it
    names: tuple[str | None, ...] | None
    board: object
    record: GameRecord

    def to_dict(self) -> dict[str, Any]:
        """The ``history --json`` form."""
        return {
            "id": self.game_id,
            "date": self.date,
            "finished": self.finished,
            "winners": list(self.winners),
            "result": self.result,
            "names": None if self.names is None else list(self.names),
            "board": self.board,
            "record": self.record.to_dict(),
        }


def utc_now() -> datetime:
    return datetime.now(UTC)


class History(Closing):
    """``history.sqlite`` in ``folder``. Opened at the first use; ``clock`` gives the
    dates (a seam: tests pass a fixed time)."""

    def __init__(
        self,
        folder: Path,
        *,
        clock: Callable[[], datetime] = utc_now,
        report: Report | None = None,
        name: str = HISTORY_FILE,
    ) -> None:
        self.folder = folder
        self.path = folder / name
        self.clock = clock
        self._report = report or (lambda _line: None)
        self._db: sqlite3.Connection | None = None
        self._copy: tempfile.TemporaryDirectory[str] | None = None  # read_only()'s copy
        self.skipped = 0  # rows the last read could not use (said by the caller)

    # --- opening ------------------------------------------------------------------------

    def connect(self) -> sqlite3.Connection:
        """The open database, migrated to ``VERSION``. A file that is not a database is
        moved aside and a new one made; a newer schema, or a disk that says no, raises a
        one-line StorageError."""
        if self._db is not None:
            return self._db
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            db = self._open()
        except sqlite3.DatabaseError as e:
            if not _corrupt(e):
                raise StorageError(f"history {where(self.path)}: {one_line(str(e))}") from None
            db = self._reopen(str(e))
        except OSError as e:
            raise StorageError(f"history {where(self.path)}: {one_line(str(e))}") from None
        self._db = db
        return db

    def _open(self) -> sqlite3.Connection:
        # The app thread writes, the thread that opened the parts closes.
        db = sqlite3.connect(
            self.path, timeout=TIMEOUT, isolation_level=None, check_same_thread=False
        )
        db.create_function("legacy_id", 1, _legacy_id, deterministic=True)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # reads the header
            if version > VERSION:
                raise StorageError(
                    f"history {where(self.path)} has schema version {version}, newer than this "
                    f"companion knows ({VERSION}); it is left as it is"
                )
            if version == 0 and _tables(db):
                raise WrongTables("its tables are not a history's")
            for number in range(version, VERSION):
                try:
                    db.executescript(
                        f"BEGIN; {MIGRATIONS[number]} PRAGMA user_version = {number + 1}; COMMIT;"
                    )
                except sqlite3.OperationalError as e:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    if "already exists" in str(e) or "no such" in str(e):
                        raise WrongTables(f"its tables are not a history's ({e})") from None
                    raise
            _check_tables(db)
        except BaseException:
            db.close()
            raise
        return db

    def _reopen(self, why: str) -> sqlite3.Connection:
        try:
            self._set_aside(why)
            return self._open()
        except (OSError, sqlite3.Error) as e:
            raise StorageError(f"history {where(self.path)}: {one_line(str(e))}") from None

    def _set_aside(self, why: str) -> None:
        self.close()
        n = 1
        while True:
            counter = "" if n == 1 else f"-{n}"
            aside = self.path.with_name(f"{self.path.stem}.bad{counter}{self.path.suffix}")
            if not os.path.lexists(aside):
                break
            n += 1
        os.replace(self.path, aside)
        self._report(
            f"{where(self.path)} is not a usable history ({one_line(why)}); kept as {aside.name}, "
            "a new history is started"
        )

    @classmethod
    def read_only(cls, folder: Path, name: str = HISTORY_FILE) -> History:
        """The history in ``folder`` to read (a command's, or the page's thread): opened
        with SQLite's ``mode=ro``, so it is never made, migrated or set aside. A history
        left with a hot journal (a writer cut in mid-commit) cannot be read so until a
        writer opens it again: a copy of the two files is read instead, which SQLite
        brings back to the last commit, and the folder is left as it is. A file missing,
        damaged, or of another schema version raises a one-line StorageError."""
        history = cls(folder, name=name)
        try:
            history._db = _read_only(history.path, f"{history.path.resolve().as_uri()}?mode=ro")
        except _HotJournal:
            history._copy = tempfile.TemporaryDirectory(prefix="companion-history-")
            copy = _copied(history.path, Path(history._copy.name))
            history._db = _read_only(history.path, str(copy))
        return history

    @property
    def connected(self) -> bool:
        """Whether the database is open now (it opens at its first use)."""
        return self._db is not None

    def close(self) -> None:
        """Close the database (opened again at the next use). Safe to call more than once."""
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._copy is not None:
            self._copy.cleanup()
            self._copy = None

    # --- writing ------------------------------------------------------------------------

    def put(
        self,
        record: GameRecord,
        *,
        game_id: str | None = None,
        names: tuple[str | None, ...] | None = None,
        date: str | None = None,
    ) -> Game:
        """Store ``record`` (replayed here: a record the rules refuse raises their error)
        under ``game_id`` (else its own id; else, a record without one, a new id), replacing
        that game's row, dated ``date`` (UTC ISO 8601; None: now). Finished: the target was
        reached; any other record (ended from the menu, set aside unfinished) is stored
        abandoned."""
        results = list(record.results())  # one replay, with its steps
        state = results[-1].state if results else record.start()
        out = state_to_dict(state, record.ended)
        result = out.get("result")
        game_id = game_id or record.game_id or uuid.uuid4().hex
        record = replace(record, game_id=game_id)
        game = Game(
            game_id=game_id,
            date=date or self.clock().astimezone(UTC).isoformat(timespec="seconds"),
            finished=state.finished,
            winners=tuple(result["winners"]) if result else (),
            result=result,
            names=names,
            board=board_spec(record.board),
            record=record,
        )
        self.connect().execute(
            "INSERT INTO games"
            " (game_id, date, finished, winners, result, names, board, record, earned, played)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " date = excluded.date, finished = excluded.finished, winners = excluded.winners,"
            " result = excluded.result, names = coalesce(excluded.names, games.names),"
            " board = excluded.board, record = excluded.record, earned = excluded.earned,"
            " played = excluded.played",
            (
                game.game_id,
                game.date,
                int(game.finished),
                json.dumps(list(game.winners)),
                None if result is None else json.dumps(result),
                None if names is None else json.dumps(list(names)),
                json.dumps(game.board),
                record.to_json(),
                cards.to_json(cards.earned_by_seat(record.players, results)),
                cards.to_json(cards.played_by_seat(record)),
            ),
        )
        return game

    def held(self, ids: Iterable[str]) -> dict[str, Held]:
        """What the history holds of each of ``ids`` that it has (a row it cannot read is
        left out: it is written again)."""
        held: dict[str, Held] = {}
        db = self.connect()
        for game_id in set(ids):
            row = db.execute(
                "SELECT finished, record FROM games WHERE game_id = ?", (game_id,)
            ).fetchone()
            if row is None:
                continue
            try:
                record = replace(GameRecord.from_json(row[1]), game_id=game_id)
            except (CompanionError, ValueError, RecursionError):
                continue
            held[game_id] = Held(bool(row[0]), record)
        return held

    def add_all(self, games: Iterable[tuple[GameRecord, Kept]], batch: int = BATCH) -> int:
        """Store each game not in the history yet (by its id: a record without one has the
        id its contents make, so a file imported twice adds nothing the second time), one
        transaction per ``batch`` games; ``Kept`` gives each its date and names as exported
        (None: now, none). The number added. A history that says no (read-only, full,
        locked) raises a one-line StorageError; the batches before it stay."""
        added, chunk = 0, []
        try:
            for game in games:
                chunk.append(game)
                if len(chunk) == batch:
                    added += self._add_batch(chunk)
                    chunk = []
            return added + self._add_batch(chunk)
        except sqlite3.Error as e:
            raise StorageError(f"history {where(self.path)}: {one_line(str(e))}") from None

    def _add_batch(self, games: list[tuple[GameRecord, Kept]]) -> int:
        if not games:
            return 0
        db = self.connect()
        added = 0
        db.execute("BEGIN")
        try:
            for record, (date, names) in games:
                game_id = record.game_id or legacy_id(record)
                known = db.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,))
                if known.fetchone() is None:
                    self.put(record, game_id=game_id, names=names, date=date)
                    added += 1
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return added

    # --- reading ------------------------------------------------------------------------

    def games(self, *, oldest_first: bool = False) -> Iterator[Game]:
        """Every game, newest first (``oldest_first``: as played), one row at a time: a
        history of any size is read in the memory of a few games."""
        order = "ASC" if oldest_first else "DESC"
        rows = self.query(
            "SELECT game_id, date, finished, winners, result, names, board, record"
            f" FROM games ORDER BY date {order}, rowid {order}"
        )
        self.skipped = 0
        for game_id, date, finished, winners, result, names, board, record in rows:
            try:
                game = Game(
                    str(game_id),
                    fields.date_text(date),
                    bool(finished),
                    fields.seats(json.loads(winners)),
                    None if result is None else fields.an_object(json.loads(result)),
                    None if names is None else tuple(json.loads(names)),
                    json.loads(board),
                    replace(GameRecord.from_json(record), game_id=str(game_id)),
                )
                _usable(game)
            except (ValueError, TypeError, RecursionError, CompanionError):
                self.skipped += 1  # a row another program wrote: the rest are shown
                continue
            yield game

    def query(self, sql: str, *args: object) -> sqlite3.Cursor:
        """``sql`` read from the history; an error is a one-line StorageError."""
        try:
            return self.connect().execute(sql, args)
        except sqlite3.Error as e:
            raise StorageError(f"history {where(self.path)}: {one_line(str(e))}") from None

    def columns(self, *names: str) -> tuple[str, ...]:
        """Each of ``names`` if the games table has that column, else ``NULL`` (a reader of
        a history written before it was added), to select in its place."""
        there = {row[1] for row in self.query("PRAGMA table_info(games)")}
        return tuple(name if name in there else "NULL" for name in names)

    def summary(self, last: int = LAST) -> HistorySummary:
        """What the device's history screen shows: the ``last`` games (an abandoned one
        marked so, with no winner), the wins per person over the finished games (a pad's
        name or a bot's strength, as ``history stats`` counts them; an unnamed seat is
        nobody known and left out) and the names of recent games, newest first."""
        shown: list[PastGame] = []
        counts: dict[tuple[str | None, str | None], list[int]] = {}
        recent: dict[str, None] = {}
        for game in self.seen():  # one row at a time: a history of any size
            if len(shown) < last:
                shown.append(_past(game))
            _count_wins(game, counts)
            recent.update(dict.fromkeys(n for s in range(game.players) if (n := game.name(s))))
        return HistorySummary(tuple(shown), _tally(counts), tuple(recent))

    def seen(
        self, limit: int | None = None, *, oldest_first: bool = False, cards: bool = False
    ) -> Iterator[Seen]:
        """Every game, newest first (``oldest_first``: as played), the first ``limit`` of
        them, with what a list shows of it (``storage.seen``): no record is parsed, so the
        table's thread reads it after each game and a big history lists in seconds.
        ``cards``: with the cards each seat played and the VP they paid it (the stats)."""
        played = self.columns("played", "earned") if cards else ()
        sql = seen.select("ASC" if oldest_first else "DESC", *played)
        rows = self.query(sql, -1 if limit is None else limit)
        self.skipped = 0
        for row in rows:
            try:
                game = seen.parse(row)
            except (ValueError, TypeError, IndexError, RecursionError, CompanionError):
                self.skipped += 1  # a row another program wrote: the rest are shown
                continue
            yield game


class _HotJournal(Exception):
    """The history has a journal to roll back, which a read-only opening cannot."""


def _read_only(path: Path, target: str) -> sqlite3.Connection:
    """``target`` (a URI with ``mode=ro``, or a copy's path) opened and checked as a
    history of a version the commands read; ``path`` names it in messages."""
    try:
        db = sqlite3.connect(
            target, uri=True, timeout=TIMEOUT, isolation_level=None, check_same_thread=False
        )
    except sqlite3.Error as e:
        raise StorageError(f"history {path}: {one_line(str(e))}") from None
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # reads the header
        if not READABLE <= version <= VERSION:
            raise StorageError(
                f"history {path} has schema version {version}, not {READABLE} to "
                f"{VERSION}: read once the table has opened it"
            )
        _check_tables(db)
    except sqlite3.OperationalError as e:
        db.close()
        if "readonly" in str(e) and _journal(path).exists():
            raise _HotJournal from None
        raise StorageError(f"history {path}: {one_line(str(e))}") from None
    except (sqlite3.Error, StorageError) as e:
        db.close()
        if isinstance(e, StorageError):
            raise
        raise StorageError(f"history {path}: {one_line(str(e))}") from None
    return db


def _journal(path: Path) -> Path:
    return path.with_name(path.name + "-journal")


def _copied(path: Path, folder: Path) -> Path:
    """The history and its journal copied into ``folder``: the copy's path."""
    copy = folder / path.name
    try:
        shutil.copyfile(path, copy)
        shutil.copyfile(_journal(path), _journal(copy))
    except OSError as e:
        raise StorageError(f"history {path}: {one_line(str(e))}") from None
    return copy


def skipped(history: History) -> str:
    """What a reader says of the rows its last read skipped."""
    n = history.skipped
    games = "1 game" if n == 1 else f"{n} games"
    return f"{games} in {history.path} cannot be read (skipped); the others are shown"


def _past(game: Seen) -> PastGame:
    """The game's line: abandoned (no winner), or its first winner."""
    when = datetime.fromisoformat(game.date).astimezone()  # the day here, as the page says it
    if not game.won:
        return PastGame(when.day, when.month, None, None, None)
    assert game.vp is not None
    seat = game.winners[0]
    vp, shared = game.vp[seat], len(game.winners) > 1
    return PastGame(when.day, when.month, game.name(seat), seat, vp, shared, game.bot(seat))


def _count_wins(game: Seen, counts: dict[tuple[str | None, str | None], list[int]]) -> None:
    """``game``'s wins and games added per person, if it was finished: a person is a
    pad's name or a bot's strength; an unnamed seat is nobody known (the P1 of one game
    is not the P1 of another) and is left out, as an abandoned game is."""
    if not game.won:
        return
    for seat in range(game.players):
        key = _person(game, seat)
        if key is None:
            continue
        count = counts.setdefault(key, [0, 0])
        count[0] += seat in game.winners
        count[1] += 1


def _tally(counts: dict[tuple[str | None, str | None], list[int]]) -> tuple[Tally, ...]:
    """The wins and games per person, most wins first."""
    tally = [Tally(name, wins, n, bot) for (name, bot), (wins, n) in counts.items()]
    order = lambda t: (-t.wins, t.games, t.bot or "", t.name or "")  # noqa: E731
    return tuple(sorted(tally, key=order))


def _person(game: Seen, seat: int) -> tuple[str | None, str | None] | None:
    """Who ``seat`` of ``game`` is for the tally: (name, bot strength), None if nobody
    known. A bot is its strength, whatever the pad's name."""
    bot = game.bot(seat)
    if bot:
        return None, bot
    name = game.name(seat)
    return (name, None) if name else None


def _corrupt(e: sqlite3.DatabaseError) -> bool:
    """A file that is not a database (or a damaged one, or another program's), rather than
    a locked one."""
    text = str(e)
    return isinstance(e, WrongTables) or "not a database" in text or "malformed" in text


def _tables(db: sqlite3.Connection) -> set[str]:
    return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _check_tables(db: sqlite3.Connection) -> None:
    """Raise WrongTables unless the games table has a history's columns."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if not set(COLUMNS) <= columns:
        raise WrongTables("its table 'games' is not a history's")


def _legacy_id(text: object) -> str | None:
    """``legacy_id`` of a row's record, for the migration (None: a row it cannot read,
    left under its own id)."""
    try:
        return legacy_id(GameRecord.from_json(text))  # type: ignore[arg-type]
    except (CompanionError, ValueError, TypeError, RecursionError):
        return None


def _usable(game: Game) -> None:
    """Raise TypeError unless what the commands read of ``game`` fits its seats."""
    players = game.record.players
    if any(seat >= players for seat in game.winners):
        raise TypeError("a winner is not a seat")
    if game.names is not None and len(fields.texts(list(game.names))) != players:
        raise TypeError("not a name per seat")
    if game.result is not None and len(fields.vps(game.result.get("vp"))) != players:
        raise TypeError("not a result per seat")
