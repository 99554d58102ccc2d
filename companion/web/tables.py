"""The history as the page shows it: the last games, and per name the wins and VP.

Read from ``history.sqlite`` with a connection of the request's own (SQLite's are not
shared between threads), and only finished rounds are there: nothing hidden.
"""

from __future__ import annotations

from pathlib import Path

from ..storage.history import Game, History
from ..storage.stats import labels, stats
from ..ui.catalog import Catalog

LAST = 50  # games the page lists


def _games(state_dir: Path | None) -> list[Game]:
    if state_dir is None:
        return []
    history = History(state_dir)
    if not history.path.exists():  # no history yet: none is made by looking
        return []
    try:
        return list(history.games())
    finally:
        history.close()


def history_data(state_dir: Path | None, words: Catalog) -> list[dict]:
    """The last games, newest first: date, names, winners, final VP, rounds, board."""
    games = []
    for g in _games(state_dir)[:LAST]:
        games.append(
            {
                "date": g.date,
                "finished": g.finished,
                "names": labels(g, words.who),
                "winners": list(g.winners),
                "vp": None if g.result is None else list(g.result["vp"]),
                "rounds": len(g.record.rounds),
                "board": g.board if isinstance(g.board, str) else None,
            }
        )
    return games


def stats_data(state_dir: Path | None, words: Catalog) -> dict[str, dict]:
    """Per name (a seat's label when unnamed, a bot by its strength), over the games with
    a result: what `companion history stats --json` gives."""
    return stats(_games(state_dir), words.who)
