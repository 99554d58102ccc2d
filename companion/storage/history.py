"""The history of games: ``history.sqlite`` in the state folder, one row per game.

A row holds the game record (docs/record-format.md, completed rounds only: a hidden
choice is never stored), when the game ended (UTC, ISO 8601), whether it was finished
or abandoned, the winners and the result as ``companion replay --json`` gives them,
the seat names (optional) and the board. A row is keyed by a game id: saving the same
game again (finished, undone, finished again) updates its row. The id of the game in
progress is kept in the ``current`` table with its last record, so a game resumed after
a restart keeps its id (see ``History.game_id``).

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS`` are applied in
order. A database newer than this code is refused, never altered. ``History.summary``
gives the few facts the device's history screen shows. A file that is not a
database is moved aside (``history.bad.sqlite``, never overwritten) and said.
"""

from __future__ import annotations

import json
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import Closing, CompanionError, where
from ..game.boards import board_spec
from ..game.names import HistorySummary, PastGame, Tally
from ..game.record import GameRecord, state_to_dict
from .errors import StorageError, one_line
from .found import continues

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
)
VERSION = len(MIGRATIONS)
READABLE = 2  # the oldest version a reader takes as it is (3 added a table readers skip)
COLUMNS = {
    "games": ("game_id", "date", "finished", "winners", "result", "names", "board", "record"),
    "current": ("slot", "game_id", "record"),
    "kept": ("file", "digest", "game_id", "stamp"),
}


class WrongTables(sqlite3.DatabaseError):
    """A database whose tables are not a history's (another program's file)."""


Report = Callable[[str], None]


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
            _check_tables(db, VERSION)
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
        """The history in ``folder`` to read from another thread (the page's): opened
        with SQLite's ``mode=ro``, so it is never made, migrated or set aside. A file
        missing, damaged, or of another schema version raises a one-line StorageError."""
        history = cls(folder, name=name)
        uri = history.path.resolve().as_uri() + "?mode=ro"
        try:
            db = sqlite3.connect(
                uri, uri=True, timeout=TIMEOUT, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as e:
            raise StorageError(f"history {history.path}: {one_line(str(e))}") from None
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # reads the header
            if not READABLE <= version <= VERSION:
                raise StorageError(
                    f"history {history.path} has schema version {version}, not {READABLE} to "
                    f"{VERSION}: read once the table has opened it"
                )
            _check_tables(db, version)
        except (sqlite3.Error, StorageError) as e:
            db.close()
            if isinstance(e, StorageError):
                raise
            raise StorageError(f"history {history.path}: {one_line(str(e))}") from None
        history._db = db
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

    # --- writing ------------------------------------------------------------------------

    def game_id(self, record: GameRecord, *, fresh: bool = False, revive: bool = False) -> str:
        """The id of the game ``record`` is a moment of: the current game's, when the
        record continues it (and ``fresh`` is false), else (``revive``: a game set aside
        resumed) the id of the abandoned game of that very record, else a new id, which
        becomes the current game's (the one it replaces is stored abandoned if it had not
        ended and is not in the history). The current game's record is updated either way."""
        db = self.connect()
        row = db.execute("SELECT game_id, record FROM current WHERE slot = 0").fetchone()
        last = None if row is None else GameRecord.from_json(row[1])
        same = last is not None and not fresh and continues(record, last)
        if last is not None and not same:
            self._left(row[0], last)
        game_id = row[0] if same else (revive and self._abandoned(record)) or uuid.uuid4().hex
        db.execute(
            "INSERT OR REPLACE INTO current (slot, game_id, record) VALUES (0, ?, ?)",
            (game_id, record.to_json()),
        )
        return game_id

    def _abandoned(self, record: GameRecord) -> str | None:
        """The latest abandoned game of exactly ``record``, if any: it goes on, so the
        file it was kept in is no longer its (the game file holds it now)."""
        db = self.connect()
        row = db.execute(
            "SELECT game_id FROM games WHERE finished = 0 AND record = ?"
            " ORDER BY date DESC, rowid DESC LIMIT 1",
            (record.to_json(),),
        ).fetchone()
        if row is None:
            return None
        db.execute("DELETE FROM kept WHERE game_id = ?", (row[0],))
        return str(row[0])

    def _left(self, game_id: str, record: GameRecord) -> None:
        """The game in progress gives way to another before it ended (a new game was
        started over it some other way than the table's, as ``simulate --new`` does):
        it is stored abandoned, unless it is in the history already."""
        if record.ended or record.replay().finished:
            return
        known = self.connect().execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,))
        if known.fetchone() is None:
            self.put(record, game_id=game_id)

    def in_progress(self) -> GameRecord | None:
        """The record of the game in progress as last saved, unless it finished."""
        current = self.current()
        if current is None:
            return None
        row = (
            self.connect()
            .execute("SELECT finished FROM games WHERE game_id = ?", (current[0],))
            .fetchone()
        )
        return None if row is not None and row[0] else current[1]

    def current(self) -> tuple[str, GameRecord] | None:
        """The game in progress as last saved: its id and record."""
        row = self.connect().execute("SELECT game_id, record FROM current").fetchone()
        return None if row is None else (row[0], GameRecord.from_json(row[1]))

    def put(
        self,
        record: GameRecord,
        *,
        game_id: str | None = None,
        names: tuple[str | None, ...] | None = None,
        date: str | None = None,
    ) -> Game:
        """Store ``record`` (replayed here: a record the rules refuse raises their error)
        under ``game_id`` (a new one if None), replacing that game's row, dated ``date``
        (UTC ISO 8601; None: now). Finished: the target was reached; any other record
        (ended from the menu, set aside unfinished) is stored abandoned."""
        state = record.replay()
        out = state_to_dict(state, record.ended)
        result = out.get("result")
        game = Game(
            game_id=game_id or uuid.uuid4().hex,
            date=date or self.clock().astimezone(UTC).isoformat(timespec="seconds"),
            finished=state.finished,
            winners=tuple(result["winners"]) if result else (),
            result=result,
            names=names,
            board=board_spec(record.board),
            record=record,
        )
        self.connect().execute(
            "INSERT INTO games (game_id, date, finished, winners, result, names, board, record)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " date = excluded.date, finished = excluded.finished, winners = excluded.winners,"
            " result = excluded.result, names = excluded.names, board = excluded.board,"
            " record = excluded.record",
            (
                game.game_id,
                game.date,
                int(game.finished),
                json.dumps(list(game.winners)),
                None if result is None else json.dumps(result),
                None if names is None else json.dumps(list(names)),
                json.dumps(game.board),
                record.to_json(),
            ),
        )
        return game

    def keep(
        self,
        record: GameRecord,
        *,
        file: str,
        digest: str,
        stamp: str = "",
        date: str | None = None,
        game_file: bool = False,
    ) -> bool:
        """Make sure the history holds a game kept in the state folder: the file named
        ``file``, its contents' ``digest``, its ``stamp`` (what stays the same when it is
        renamed: inode and time written; ``game_file``: the file is the game file, whose
        name every game uses). A file is matched to a game once, and two files of the
        same record (the same keys pressed) are two games:

        - a file seen before (by name, or by stamp under another name: the game file set
          aside since) is held;
        - else one is matched to the latest game with its record that no file is matched to
          (written at its end, or set aside), else to the game in progress when the file is a
          later moment of it that the history has no row of (its writes failed), else it
          is a new row, dated ``date``.

        Whether a game was added."""
        db = self.connect()
        # The game file's name is used again by every game, and two games may have one
        # digest: only its stamp tells it. A kept file's name is its own (a copied
        # folder gives its files new stamps, not new names).
        by_name = "stamp = ?" if game_file else "1"
        seen = db.execute(
            f"SELECT file FROM kept WHERE digest = ? AND ((file = ? AND {by_name})"
            " OR (stamp = ? AND stamp != ''))",
            (digest, file, *((stamp,) if game_file else ()), stamp),
        ).fetchone()
        db.execute("BEGIN")
        try:
            if seen is not None:
                if seen[0] != file:  # renamed: the name it has now
                    db.execute(
                        "UPDATE kept SET file = ? WHERE file = ? AND digest = ?",
                        (file, seen[0], digest),
                    )
                added = False
            else:
                game_id, added = self._kept_game(record, date)
                db.execute(
                    "INSERT OR REPLACE INTO kept (file, digest, game_id, stamp)"
                    " VALUES (?, ?, ?, ?)",
                    (file, digest, game_id, stamp),
                )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return added

    def _kept_game(self, record: GameRecord, date: str | None) -> tuple[str, bool]:
        """The game a file not seen before is, and whether it is a new row."""
        row = (
            self.connect()
            .execute(
                "SELECT game_id FROM games WHERE record = ? AND game_id NOT IN"
                " (SELECT game_id FROM kept) ORDER BY date DESC, rowid DESC LIMIT 1",
                (record.to_json(),),
            )
            .fetchone()
        )
        if row is not None:
            return row[0], False
        game_id = self._moment_of_current(record)
        return self.put(record, game_id=game_id, date=date).game_id, True

    def _moment_of_current(self, record: GameRecord) -> str | None:
        """The id of the game in progress if ``record`` is a moment of it (as late, or
        later: its last writes failed) and the history has no row of it; else None. A
        game in progress of no rounds yet is only its own record: any game of the same
        setup begins as it does."""
        current = self.current()
        if current is None:
            return None
        game_id, last = current
        if len(record.rounds) < len(last.rounds) or not continues(record, last):
            return None
        if not last.rounds and record != last:
            return None
        db = self.connect()
        row = db.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone()
        return None if row is not None else game_id

    def add_all(self, records: list[GameRecord], kept: list[Kept] | None = None) -> int:
        """Store every record as a game of its own, all or none, but those already in the
        history (the same record JSON: a file imported twice): the number added.
        ``kept`` gives each record's date and names as exported (None: now, none). A
        history that says no (read-only, full, locked) raises a one-line StorageError."""
        try:
            return self._add_all(records, kept)
        except sqlite3.Error as e:
            raise StorageError(f"history {where(self.path)}: {one_line(str(e))}") from None

    def _add_all(self, records: list[GameRecord], kept: list[Kept] | None) -> int:
        db = self.connect()
        known = {text for (text,) in db.execute("SELECT record FROM games")}
        kept = kept or [Kept()] * len(records)
        added = 0
        db.execute("BEGIN")
        try:
            for record, (date, names) in zip(records, kept, strict=True):
                if record.to_json() not in known:
                    self.put(record, names=names, date=date)
                    added += 1
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return added

    # --- reading ------------------------------------------------------------------------

    def games(self, limit: int | None = None) -> Iterator[Game]:
        """Every game, newest first (the first ``limit`` of them, when given)."""
        rows = self._rows(
            "SELECT game_id, date, finished, winners, result, names, board, record"
            " FROM games ORDER BY date DESC, rowid DESC LIMIT ?",
            -1 if limit is None else limit,
        )
        self.skipped = 0
        for game_id, date, finished, winners, result, names, board, record in rows:
            try:
                game = Game(
                    str(game_id),
                    _date_text(date),
                    bool(finished),
                    _seats(json.loads(winners)),
                    None if result is None else _dict(json.loads(result)),
                    None if names is None else tuple(json.loads(names)),
                    json.loads(board),
                    GameRecord.from_json(record),
                )
                _usable(game)
            except (ValueError, TypeError, RecursionError, CompanionError):
                self.skipped += 1  # a row another program wrote: the rest are shown
                continue
            yield game

    def _rows(self, sql: str, *args: object) -> sqlite3.Cursor:
        try:
            return self.connect().execute(sql, args)
        except sqlite3.Error as e:
            raise StorageError(f"history {where(self.path)}: {one_line(str(e))}") from None

    def summary(self, last: int = LAST) -> HistorySummary:
        """What the device's history screen shows: the ``last`` games (an abandoned one
        marked so, with no winner), the wins per person over the finished games (a pad's
        name or a bot's strength, as ``history stats`` counts them; an unnamed seat is
        nobody known and left out) and the names of recent games, newest first."""
        seen = self._seen()
        return HistorySummary(tuple(_past(g) for g in seen[:last]), _tally(seen), _recent(seen))

    def _seen(self) -> list[_Seen]:
        """Every game, newest first, with only what the summary reads: told after each
        game on the table's own thread, so no record is parsed (SQLite's JSON reads the
        two keys needed; the records were checked when they were put)."""
        rows = self._rows(
            "SELECT date, winners, iif(json_valid(result), json_extract(result, '$.vp'), NULL),"
            " names, iif(json_valid(record), json_extract(record, '$.players'), NULL),"
            " iif(json_valid(record), json_extract(record, '$.bots'), NULL), result IS NULL,"
            " finished FROM games ORDER BY date DESC, rowid DESC"
        )
        seen, self.skipped = [], 0
        for date, winners, vp, names, players, bots, no_result, finished in rows:
            try:
                game = _Seen(
                    _date_text(date),
                    _seats(json.loads(winners)),
                    None if vp is None else _vps(json.loads(vp)),
                    () if names is None else _texts(json.loads(names)),
                    int(players),
                    () if bots is None else _texts(json.loads(bots)),
                    bool(finished),
                )
                if (
                    any(seat >= game.players for seat in game.winners)
                    or (game.vp is not None and len(game.vp) != game.players)
                    or (game.vp is None and not no_result)
                ):
                    raise TypeError("not a result of its seats")
                _past(game)  # what the screen shows of it can be said
            except (ValueError, TypeError, IndexError, RecursionError):
                self.skipped += 1  # a row another program wrote: the rest are shown
                continue
            seen.append(game)
        return seen


def skipped(history: History) -> str:
    """What a reader says of the rows its last read skipped."""
    n = history.skipped
    games = "1 game" if n == 1 else f"{n} games"
    return f"{games} in {history.path} cannot be read (skipped); the others are shown"


class _Seen(NamedTuple):
    """A game as the summary sees it: ``vp`` None when it has no result; ``finished``
    false when it was abandoned (ended from the menu with a ranking, or set aside)."""

    date: str
    winners: tuple[int, ...]
    vp: list[int] | None
    names: tuple[str | None, ...]
    players: int
    bots: tuple[str | None, ...]
    finished: bool

    @property
    def won(self) -> bool:
        """Whether the game counts: finished, with its result and a winner."""
        return self.finished and self.vp is not None and bool(self.winners)

    def name(self, seat: int) -> str | None:
        return self.names[seat] if seat < len(self.names) else None

    def bot(self, seat: int) -> str | None:
        return self.bots[seat] if seat < len(self.bots) else None


def _past(game: _Seen) -> PastGame:
    """The game's line: abandoned (no winner), or its first winner."""
    when = datetime.fromisoformat(game.date)
    if not game.won:
        return PastGame(when.day, when.month, None, None, None)
    assert game.vp is not None
    seat = game.winners[0]
    vp, shared = game.vp[seat], len(game.winners) > 1
    return PastGame(when.day, when.month, game.name(seat), seat, vp, shared, game.bot(seat))


def _tally(games: list[_Seen]) -> tuple[Tally, ...]:
    """Wins and games per person over the finished games, most wins first: a person is a
    pad's name or a bot's strength; an unnamed seat is nobody known (the P1 of one game
    is not the P1 of another) and is left out, as an abandoned game is."""
    counts: dict[tuple[str | None, str | None], list[int]] = {}
    for game in games:
        if not game.won:
            continue
        for seat in range(game.players):
            key = _person(game, seat)
            if key is None:
                continue
            count = counts.setdefault(key, [0, 0])
            count[0] += seat in game.winners
            count[1] += 1
    tally = [Tally(name, wins, n, bot) for (name, bot), (wins, n) in counts.items()]
    order = lambda t: (-t.wins, t.games, t.bot or "", t.name or "")  # noqa: E731
    return tuple(sorted(tally, key=order))


def _person(game: _Seen, seat: int) -> tuple[str | None, str | None] | None:
    """Who ``seat`` of ``game`` is for the tally: (name, bot strength), None if nobody
    known. A bot is its strength, whatever the pad's name."""
    bot = game.bot(seat)
    if bot:
        return None, bot
    name = game.name(seat)
    return (name, None) if name else None


def _recent(games: list[_Seen]) -> tuple[str, ...]:
    """Each name once, from the newest game on."""
    names = (g.name(s) for g in games for s in range(g.players))
    return tuple(dict.fromkeys(n for n in names if n))


def _corrupt(e: sqlite3.DatabaseError) -> bool:
    """A file that is not a database (or a damaged one, or another program's), rather than
    a locked one."""
    text = str(e)
    return isinstance(e, WrongTables) or "not a database" in text or "malformed" in text


def _tables(db: sqlite3.Connection) -> set[str]:
    return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _check_tables(db: sqlite3.Connection, version: int) -> None:
    """Raise WrongTables unless the tables of ``version`` have a history's columns."""
    for table in tuple(COLUMNS)[:version]:
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if not set(COLUMNS[table]) <= columns:
            raise WrongTables(f"its table {table!r} is not a history's")


def _usable(game: Game) -> None:
    """Raise TypeError unless what the commands read of ``game`` fits its seats."""
    players = game.record.players
    if any(seat >= players for seat in game.winners):
        raise TypeError("a winner is not a seat")
    if game.names is not None and len(_texts(list(game.names))) != players:
        raise TypeError("not a name per seat")
    if game.result is not None and len(_vps(game.result.get("vp"))) != players:
        raise TypeError("not a result per seat")


def _date_text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError("a date is text")
    datetime.fromisoformat(value)
    return value


def _seats(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(v) is int and v >= 0 for v in value):
        raise TypeError("seats are a list of numbers")
    return tuple(value)


def _vps(value: object) -> list[int]:
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise TypeError("VP are a list of numbers")
    return value


def _dict(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError("a result is an object")
    return value


def _texts(value: object) -> tuple[str | None, ...]:
    if not isinstance(value, list) or not all(v is None or isinstance(v, str) for v in value):
        raise TypeError("names are a list of text or null")
    return tuple(value)
