"""The history as the page shows it: the last games, and per name the wins and VP.

Read from ``history.sqlite`` with a connection of the request's own (SQLite's are not
shared between threads), and only finished rounds are there: nothing hidden.
"""

from __future__ import annotations

from pathlib import Path

from ..storage.history import Game, History
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


def _names(game: Game, words: Catalog) -> list[str]:
    names = game.names or (None,) * game.record.players
    return [name or words.seat(seat) for seat, name in enumerate(names)]


def history_data(state_dir: Path | None, words: Catalog) -> list[dict]:
    """The last games, newest first: date, names, winners, final VP, rounds, board."""
    games = []
    for g in _games(state_dir)[:LAST]:
        games.append(
            {
                "date": g.date,
                "finished": g.finished,
                "names": _names(g, words),
                "winners": list(g.winners),
                "vp": None if g.result is None else list(g.result["vp"]),
                "rounds": len(g.record.rounds),
                "board": g.board if isinstance(g.board, str) else None,
            }
        )
    return games


def stats_data(state_dir: Path | None, words: Catalog) -> dict[str, dict]:
    """Per name (a seat's label when unnamed), over the games with a result: games,
    wins and average final VP."""
    totals: dict[str, dict] = {}
    for g in _games(state_dir):
        if g.result is None:
            continue
        for seat, name in enumerate(_names(g, words)):
            t = totals.setdefault(name, {"games": 0, "wins": 0, "vp": 0})
            t["games"] += 1
            t["wins"] += seat in g.winners
            t["vp"] += g.result["vp"][seat]
    return {
        name: {"games": t["games"], "wins": t["wins"], "average_vp": t["vp"] / t["games"]}
        for name, t in sorted(totals.items())
    }
