"""Figures over the history's games, per name: what `companion history stats` prints and
the page for phones charts. Who a seat is (a name, a bot, a seat label) is worded by the
caller's ``Who``: the words live above this layer."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from .history import Game

Who = Callable[[int, str | None, str | None], str]  # (seat, name, bot strength) -> label


def labels(game: Game, who: Who) -> list[str]:
    """Each seat of ``game`` as ``who`` names it."""
    names = game.names or (None,) * game.record.players
    return [who(seat, name, game.record.bot(seat)) for seat, name in enumerate(names)]


def stats(games: Iterable[Game], who: Who) -> dict[str, dict[str, Any]]:
    """Per label, over the games that have a result: games, wins, win rate, average final
    VP, rounds per game, and per card (by its number) how often it was played and the VP
    its steps paid that seat."""
    totals: dict[str, dict[str, Any]] = defaultdict(
        lambda: {
            "games": 0,
            "wins": 0,
            "vp": 0,
            "rounds": 0,
            "played": Counter(),
            "earned": Counter(),
        }
    )
    for g in games:
        if g.result is None:
            continue
        names = labels(g, who)
        for seat, name in enumerate(names):
            t = totals[name]
            t["games"] += 1
            t["wins"] += seat in g.winners
            t["vp"] += g.result["vp"][seat]
            t["rounds"] += len(g.record.rounds)
            t["played"].update(c for r in g.record.rounds for c in r.plays[seat])
        for result in g.record.results():
            for step in result.steps:
                if step.card is not None:
                    for gain in step.gains:
                        totals[names[gain.seat]]["earned"][int(step.card)] += gain.vp
    return {name: _figures(t) for name, t in sorted(totals.items())}


def _figures(t: dict[str, Any]) -> dict[str, Any]:
    games = t["games"]
    return {
        "games": games,
        "wins": t["wins"],
        "win_rate": t["wins"] / games,
        "average_vp": t["vp"] / games,
        "rounds_per_game": t["rounds"] / games,
        "cards": {
            str(c): {"played": n, "vp": t["earned"][c]} for c, n in sorted(t["played"].items())
        },
    }
