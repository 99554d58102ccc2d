"""Playing rounds: the public functions over the working ``Table``.

``play_round`` gives the next state; ``resolve_round`` gives it together with every
step as data; ``replay`` plays many rounds at once. All of them run the same code in
``table.py``: the steps are only written down when asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .state import GameState, Rows
from .steps import RoundResult, Step, Trade
from .table import Plays, Table
from .tables import ROW_MAX, SUPPLY


def supply(rows: Rows, players: int) -> Rows:
    """The rows after a supply phase (what the table shows before anyone chooses)."""
    step = SUPPLY[players]
    return Rows(*(min(ROW_MAX, r + step) for r in rows))


def legal_cards(state: GameState, seat: int) -> frozenset[int]:
    """The cards ``seat`` may choose this round: those in its hand."""
    return state.hands[seat]


def check_plays(state: GameState, plays: Plays) -> tuple[tuple[int, ...], ...]:
    """Every seat's selection, sorted, or IllegalPlayError for the first one wrong."""
    Table(state).check(plays)
    return tuple(tuple(sorted(cards)) for cards in plays)


def check_selection(state: GameState, seat: int, cards: Sequence[int]) -> tuple[int, ...]:
    """One seat's complete selection, sorted, or IllegalPlayError saying what is wrong."""
    Table(state).check_seat(seat, cards)
    return tuple(sorted(cards))


def play_round(state: GameState, plays: Plays, offers: Sequence[int] = ()) -> GameState:
    """The state after one whole round (supply, resolution, discards).

    ``plays[seat]`` lists the cards that seat plays; ``offers[seat]`` is how many goods
    it offers to trade if it plays the Trader ("hand in up to G goods"; missing or 0:
    no trade; ignored for seats without a Trader).
    """
    table = Table(state)
    table.play(plays, offers)
    return table.state()


def resolve_round(state: GameState, plays: Plays, offers: Sequence[int] = ()) -> RoundResult:
    """Like ``play_round``, with every step written down for narration."""
    log: list[Step] = []
    table = Table(state)
    table.play(plays, offers, log)
    return RoundResult(state, check_plays(state, plays), tuple(log), table.state())


def replay(state: GameState, rounds: Iterable[tuple[Plays, Sequence[int]]]) -> GameState:
    """The state after playing every ``(plays, offers)`` in turn, from ``state``."""
    table = Table(state)
    for plays, offers in rounds:
        table.play(plays, offers)
    return table.state()


def trade_options(state: GameState, plays: Plays) -> dict[int, tuple[int, int]]:
    """For each seat playing the Trader: (goods it will hold, marker space) when it trades.

    Nothing before the Trader depends on the trades, so a round resolved without
    trades shows exactly what each Trader will face.
    """
    for step in resolve_round(state, plays).steps:
        if isinstance(step, Trade):
            return {g.seat: (g.held, step.space) for g in step.gains}
    return {}
