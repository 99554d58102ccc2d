"""``companion history``: the games kept in the state folder's ``history.sqlite``.

``history`` lists them newest first (``--json``: a list of objects), ``export`` writes
their records as JSON Lines that ``companion replay`` takes, ``import FILE`` adds
records played elsewhere (all or none), ``stats`` sums them up per name.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from ..app.config import load
from ..game.record import GameRecord
from ..rules import CompanionError
from ..storage.errors import os_reason
from ..storage.history import Game, History
from ..storage.stats import labels, stats
from ..ui.catalog import Catalog, catalog
from .replay import READ_MAX

EXIT_BAD_INPUT = 2
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
        config = load(_path(config_path))
        folder = Path(state_dir).expanduser() if state_dir else config.state_dir
        words = catalog(config.language)
        store = History(folder, report=report)
        try:
            if verb == "import":
                assert file is not None
                store.add_all(read_records(file))
                return 0
            games = list(_games(store))
            write = {"list": _list, "export": _export, "stats": _stats}[verb]
            write(games, as_json, words, out)
        finally:
            store.close()
    except (CompanionError, OSError) as e:
        report(str(e) if isinstance(e, CompanionError) else f"{e.filename}: {os_reason(e)}")
        return EXIT_BAD_INPUT
    return 0


def _path(config_path: str | None) -> Path | None:
    return Path(config_path) if config_path else None


def _games(store: History) -> Iterable[Game]:
    """The games, none when there is no history yet (and no file is made for it)."""
    if not store.path.exists():
        return ()
    return store.games()


def read_records(file: str) -> list[GameRecord]:
    """Every line of ``file`` as a record the rules accept; the first bad line raises a
    CompanionError naming ``file`` and the line."""
    with open(file, "rb") as f:
        data = f.read(READ_MAX + 1)
    if len(data) > READ_MAX:
        raise CompanionError(f"{file}: larger than {READ_MAX // 2**20} MB")
    lines = data.split(b"\n")
    if not lines[-1]:
        lines.pop()
    records = []
    for number, line in enumerate(lines, 1):
        try:
            if not line.strip():
                raise CompanionError("empty line")
            record = GameRecord.from_json(line)
            record.replay()
        except (CompanionError, RecursionError) as e:
            why = str(e) if isinstance(e, CompanionError) else "nested too deeply to replay"
            raise CompanionError(f"{file}: line {number}: {why}") from None
        records.append(record)
    return records


# --- the outputs ------------------------------------------------------------------------


def _list(games: list[Game], as_json: bool, words: Catalog, out: TextIO) -> None:
    if as_json:
        out.write(json.dumps([g.to_dict() for g in games]) + "\n")
        return
    rows = [(*_heads(words, "date", "seats", "winners", "rounds", "board"), "")]
    for g in games:
        names = _names(g, words)
        seats = ", ".join(names)
        winners = ", ".join(names[s] for s in g.winners)
        board = g.board if isinstance(g.board, str) else words.t("history.own_board")
        end = "" if g.finished else words.t("history.abandoned")
        rows.append((g.date, seats, winners, str(len(g.record.rounds)), board, end))
    _table(rows, out)


def _export(games: list[Game], as_json: bool, words: Catalog, out: TextIO) -> None:
    for g in games:
        out.write(g.record.to_json() + "\n")


def _stats(games: list[Game], as_json: bool, words: Catalog, out: TextIO) -> None:
    stats = summary(games, words)
    if as_json:
        out.write(json.dumps(stats) + "\n")
        return
    rows = [
        _heads(words, "name", "games", "wins", "win_rate", "average_vp", "rounds_per_game", "cards")
    ]
    for name, s in stats.items():
        cards = " ".join(f"{c}:{f['played']}({f['vp']:+d})" for c, f in s["cards"].items())
        rows.append(
            (
                name,
                str(s["games"]),
                str(s["wins"]),
                f"{s['win_rate']:.0%}",
                f"{s['average_vp']:.1f}",
                f"{s['rounds_per_game']:.1f}",
                cards,
            )
        )
    _table(rows, out)


def summary(games: Iterable[Game], words: Catalog | None = None) -> dict[str, dict]:
    """Per name (a seat's label, P1.., when unnamed; a bot by its strength), over the games
    that have a result (``companion.storage.stats``)."""
    return stats(games, (words or catalog()).who)


def _names(game: Game, words: Catalog) -> list[str]:
    return labels(game, words.who)


def _heads(words: Catalog, *keys: str) -> tuple[str, ...]:
    return tuple(words.t(f"history.{key}") for key in keys)


def _table(rows: list[tuple[str, ...]], out: TextIO) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        out.write("\n")
