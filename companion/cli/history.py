"""``companion history``: the games kept in the state folder's ``history.sqlite``.

``history`` lists them newest first (``--json``: a list of objects), ``export`` writes
their records as JSON Lines that ``companion replay`` takes, each with its date and
names under ``"history"`` (a key replay ignores), oldest first; ``import FILE`` adds what
export writes (a game already in the history, by its id, is skipped; a bad line is named
and skipped, the good ones added), ``stats`` sums them up per name. Each streams: a
history of any size is read and written in the memory of a few games.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from ..app.effective import Effective, Report, effective
from ..errors import CompanionError, clip, shown, where
from ..game.jsontext import parse_json
from ..game.names import SeatNameError, check_name
from ..game.record import GameRecord
from ..rules import RecordError
from ..storage.errors import os_reason
from ..storage.history import HISTORY_FILE, Game, History, Kept, skipped
from ..storage.lock import FolderLock
from ..storage.seen import Seen
from ..storage.state import StateDir
from ..storage.stats import labels, scored, stats
from ..ui.catalog import Catalog, catalog
from .lines import TOO_LONG_MESSAGE, Line, ReadError, TooLong, open_input, read_lines, reason
from .status import EXIT_BAD_INPUT

NAME = "companion history"


def history_command(
    verb: str,
    config_path: str | None,
    state_dir: str | None,
    *,
    as_json: bool = False,
    file: str | None = None,
    out: TextIO,
    err: TextIO,
) -> int:
    """Run ``companion history [VERB]``; 2 and one line on ``err`` for bad input."""

    def report(message: str) -> None:
        err.write(f"{NAME}: {message}\n")

    try:
        heard: list[str] = []  # said once the folder is known to be one (else only that)
        found = _settings(config_path, state_dir, heard.append)
        configured = found.config.state_dir
        fresh = verb != "import" and not state_dir and not configured.exists()
        folder = configured if fresh else _folder(state_dir, configured)
        for message in heard:
            report(message)
        words = catalog(found.settings.language)
        if verb == "import":
            assert file is not None
            return _import(folder, file, words, out, report)
        write = {"list": _list, "export": _export, "stats": _stats}[verb]
        with _reading(folder, report) as store:
            if verb != "export" and not as_json and _empty(store):
                # a table that has kept nothing yet (its folder not even made): say where
                # games will be, and how to keep a simulated one; no error. A game going
                # on (or set aside) is kept, and joins the history at its end: said so.
                going = StateDir(folder)
                waiting = folder.is_dir() and (going.game.is_file() or bool(going.kept_games()))
                key = "history.none_ended" if waiting else "history.none_kept"
                out.write(words.t(key, folder=where(folder)) + "\n")
                return 0
            write(store, as_json, words, out)
    except BrokenPipeError:  # the reader went away (``history | head``): nothing to say
        _quiet(out)
        return 0
    except (CompanionError, OSError) as e:
        if isinstance(e, CompanionError):
            report(str(e))
        else:
            report(f"{where(e.filename)}: {clip(os_reason(e))}")
        return EXIT_BAD_INPUT
    return 0


def _quiet(out: TextIO) -> None:
    """Point the closed pipe's descriptor at /dev/null: the flush at exit says nothing."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())


def _settings(config_path: str | None, state_dir: str | None, report: Report) -> Effective:
    """The one resolver, as every command has it: the config file < the settings saved on
    the device (its language speaks here too). It only looks: a damaged settings.json
    is said, not moved."""
    config = Path(config_path) if config_path else None
    folder = Path(state_dir) if state_dir else None
    return effective(config, folder, report=report, set_aside=False)


def _folder(state_dir: str | None, configured: Path) -> Path:
    """The state folder, which must be there: a typo lists no games, it is said."""
    folder = Path(state_dir).expanduser() if state_dir else configured
    if not folder.is_dir():
        option = "--state-dir" if state_dir else "[paths] state_dir"
        why = "not a folder" if folder.exists() else "no such folder"
        raise CompanionError(f"{option} {where(folder)}: {why}")
    return folder


def _empty(store: Reader) -> bool:
    """Whether the history holds no row at all (one it cannot read is no empty history:
    the list says it). One row looked at, never the games sorted."""
    return store is None or store.query("SELECT 1 FROM games LIMIT 1").fetchone() is None


def _imported(words: Catalog, file: str, added: int, skipped: int) -> str:
    source = words.t("history.stdin") if file == "-" else file
    if skipped:
        return words.t("history.imported_skipped", n=added, source=source, skipped=skipped)
    return words.t("history.imported", n=added, source=source)


@contextmanager
def _reading(folder: Path, report: Report) -> Iterator[Reader]:
    """The history to read, row by row (None when there is none yet). Only reads: a read
    command never makes, migrates, or sets aside a file; a damaged history is said (the
    table sets it aside), and rows that cannot be read are counted and skipped."""
    if not (folder / HISTORY_FILE).is_file():
        yield None
        return
    store = History.read_only(folder)
    try:
        yield store
    finally:
        store.close()
    if store.skipped:
        report(skipped(store))


Reader = History | None


def _rows(store: Reader, oldest_first: bool = False) -> Iterator[Game]:
    return iter(()) if store is None else store.games(oldest_first=oldest_first)


BAD_SHOWN = 10  # bad lines an import names one by one; the rest are counted


class _Imported:
    """What an import read: the good lines go on to the history, a bad one is named (the
    first ``BAD_SHOWN``) and counted."""

    def __init__(self, report: Report):
        self.report = report
        self.good = self.bad = 0

    def games(self, file: str) -> Iterator[tuple[GameRecord, Kept]]:
        for game in read_games(file, self._bad):
            self.good += 1
            yield game

    def _bad(self, line: str) -> None:
        self.bad += 1
        if self.bad <= BAD_SHOWN:
            self.report(line)


def _import(folder: Path, file: str, words: Catalog, out: TextIO, report: Report) -> int:
    """``history import FILE``: every good line added (once: a game already there, by its
    id, is skipped), one transaction per batch, as the file streams by; each bad line said
    and skipped, and then the status is 2."""
    lock = FolderLock(folder, NAME)
    lock.take()
    store = History(folder, report=report)
    read = _Imported(report)
    try:
        added = store.add_all(read.games(file))
    finally:
        store.close()
        lock.release()
    out.write(_imported(words, file, added, read.good - added) + "\n")
    if read.bad:
        more = f" ({read.bad - BAD_SHOWN} more not shown)" if read.bad > BAD_SHOWN else ""
        lines = "1 bad line" if read.bad == 1 else f"{read.bad} bad lines"
        report(f"{lines} in {_source(file)} skipped{more}; the good ones are added")
        return EXIT_BAD_INPUT
    return 0


def _source(file: str) -> str:
    return "<stdin>" if file == "-" else where(file)


def read_games(file: str, bad: Report) -> Iterator[tuple[GameRecord, Kept]]:
    """Every line of ``file`` (``-``: standard input) as a record the rules accept, with
    what the export kept of it, one at a time; a bad line is told to ``bad`` naming
    ``file`` and the line, and skipped. A file that cannot be read raises a
    CompanionError. A line is at most 1 MB, and is read so: a longer one is that line's
    error, never read into memory whole."""
    name = _source(file)
    try:
        stream = open_input(file)
    except OSError as e:
        raise CompanionError(f"{name}: cannot read: {reason(e)}") from None
    except ValueError as e:  # a NUL in the path
        raise CompanionError(f"{name}: cannot read: {clip(str(e))}") from None
    try:
        for number, line in enumerate(read_lines(stream), 1):
            try:
                yield _game(line)
            except (CompanionError, RecursionError) as e:
                why = str(e) if isinstance(e, CompanionError) else "nested too deeply to replay"
                bad(f"{name}: line {number}: {why}")
    except ReadError as e:
        raise CompanionError(f"{name}: cannot read: {reason(e.error)}") from None
    finally:
        if file != "-":
            stream.close()


def _game(line: Line) -> tuple[GameRecord, Kept]:
    """A line as export writes it: any game the history keeps, of any number of rounds."""
    if isinstance(line, TooLong):
        raise CompanionError(TOO_LONG_MESSAGE)
    if not line.strip():
        raise CompanionError("empty line")
    data = parse_json(line)
    record = GameRecord.from_dict(data)
    record.replay()
    kept = data.get("history") if isinstance(data, dict) else None  # a record is an object
    return record, _kept(kept, record.players)


def _kept(raw: object, players: int) -> Kept:
    """The ``history`` key of an exported line (docs/history.md); absent: none."""
    if raw is None:
        return Kept()
    if type(raw) is not dict:
        raise RecordError("'history' must be an object with 'date' and 'names'")
    return Kept(_date(raw.get("date")), _names_kept(raw.get("names"), players))


def _date(raw: object) -> str | None:
    if raw is None:
        return None
    try:
        when = datetime.fromisoformat(raw) if isinstance(raw, str) else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise RecordError(
            f"'history': 'date' must be a date and time with its zone (ISO 8601), got {shown(raw)}"
        )
    return when.astimezone(UTC).isoformat(timespec="seconds")


def _names_kept(raw: object, players: int) -> tuple[str | None, ...] | None:
    if raw is None:
        return None
    if type(raw) is not list or len(raw) != players:
        raise RecordError(
            f"'history': 'names' must be a list of {players} entries (null or a name)"
        )
    for seat, name in enumerate(raw):
        try:
            if name is not None:
                check_name(name)
        except SeatNameError as e:
            raise RecordError(f"'history': 'names', seat P{seat + 1}: {e}") from None
    return tuple(raw)


# --- the outputs ------------------------------------------------------------------------


def _list(store: Reader, as_json: bool, words: Catalog, out: TextIO) -> None:
    """Newest first; read row by row (twice for the table: its widths, then its lines),
    so a history of any size lists in the memory of a few games."""
    if as_json:
        out.write("[")
        for n, g in enumerate(_rows(store)):
            out.write((", " if n else "") + json.dumps(g.to_dict()))
        out.write("]\n")
        return
    head = (*_heads(words, "date", "seats", "winners", "rounds", "board"), "")
    seen = lambda: iter(()) if store is None else store.seen()  # noqa: E731
    lines = lambda: itertools.chain([head], (_line(g, words) for g in seen()))  # noqa: E731
    widths = [len(cell) for cell in head]
    for row in lines():
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]
    _padded(lines(), widths, out)


def _line(g: Seen, words: Catalog) -> tuple[str, ...]:
    names = labels(g, words.who)
    seats = ", ".join(names)
    winners = ", ".join(names[s] for s in g.winners)
    board = g.board
    board = board if isinstance(board, str) else words.t("history.own_board")
    end = "" if g.finished else words.t("history.abandoned")
    return (g.date, seats, winners, str(g.rounds), board, end)


def _export(store: Reader, as_json: bool, words: Catalog, out: TextIO) -> None:
    """Oldest first, as the games were played: ``import`` adds them in that order, so a
    history moved to another companion lists as it did."""
    for g in _rows(store, oldest_first=True):
        out.write(json.dumps(exported(g), separators=(",", ":")) + "\n")


def exported(game: Game) -> dict:
    """A game as ``export`` writes it: its record, and under ``history`` (which replay
    ignores) its date and names, so that ``import`` keeps them."""
    kept: dict = {"date": game.date}
    if game.names is not None:
        kept["names"] = list(game.names)
    return {**game.record.to_dict(), "history": kept}


def _stats(store: Reader, as_json: bool, words: Catalog, out: TextIO) -> None:
    """Streamed: the persons come in order from ``stats``; the table's lines wait in a
    temporary file while its widths are found, so a history of any size prints in the
    memory of a few games."""
    games = iter(()) if store is None else scored(store)
    persons = stats(games, words.who, words.unnamed, words.card)
    if as_json:
        out.write("{")
        for n, (name, s) in enumerate(persons):
            out.write((", " if n else "") + f"{json.dumps(name)}: {json.dumps(s)}")
        out.write("}\n")
        return
    heads = ("name", "games", "wins", "win_rate", "average_vp", "rounds_per_game")
    head = _heads(words, *heads, "abandoned_games", "cards")
    with tempfile.TemporaryFile("w+", encoding="utf-8") as lines:
        widths = [len(cell) for cell in head]
        for name, s in persons:
            row = _stats_row(name, s, words)
            widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]
            lines.write(json.dumps(row) + "\n")
        lines.seek(0)
        _padded(itertools.chain([head], map(json.loads, lines)), widths, out)


def _stats_row(name: str, s: dict, words: Catalog) -> tuple[str, ...]:
    cards = ", ".join(
        words.t("history.card", card=f["name"], played=f["played"], vp=f["vp"])
        for f in s["cards"].values()
    )
    figures = (s["win_rate"], s["average_vp"], s["rounds_per_game"])
    forms = ("{:.0%}", "{:.1f}", "{:.1f}")
    shown = [_figure(v, form) for v, form in zip(figures, forms, strict=True)]
    return (name, str(s["games"]), str(s["wins"]), *shown, str(s["abandoned"]), cards)


def _figure(value: float | None, form: str) -> str:
    """A figure over the finished games; none when there are none (only abandoned ones)."""
    return "-" if value is None else form.format(value)


def _heads(words: Catalog, *keys: str) -> tuple[str, ...]:
    return tuple(words.t(f"history.{key}") for key in keys)


def _padded(rows: Iterable[Sequence[str]], widths: list[int], out: TextIO) -> None:
    """``rows`` as a table's lines, each cell padded to its column's width."""
    for row in rows:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        out.write("\n")
