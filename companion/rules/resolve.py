"""Playing rounds: the public functions over the working ``Table``.

``play_round`` gives the next state; ``resolve_round`` gives it together with every
step as data; ``replay`` plays many rounds at once. All of them run the same code in
``table.py``: the steps are only written down when asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .board import Board, Quote
from .state import GameState, Rows
from .steps import RoundResult, Step, Trade
from .table import Plays, Table, advance_rows


def supply(rows: Rows, players: int) -> Rows:
    """The rows after a supply phase (what the table shows before anyone chooses)."""
    after = list(rows)
    advance_rows(after, players)
    return Rows(*after)


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
    # ``play`` has checked the plays; the result shows them sorted, as revealed.
    revealed = tuple(tuple(sorted(cards)) for cards in plays)
    return RoundResult(state, revealed, tuple(log), table.state())


def replay(state: GameState, rounds: Iterable[tuple[Plays, Sequence[int]]]) -> GameState:
    """The state after playing every ``(plays, offers)`` in turn, from ``state``."""
    table = Table(state)
    pairs = list(rounds)
    table.play_rounds([plays for plays, _ in pairs], [offers for _, offers in pairs])
    return table.state()


@dataclass(frozen=True, slots=True)
class TradeChoice:
    """What one Trader faces when its turn to trade comes (docs/rules.md)."""

    seat: int
    held: int  # goods the seat holds when it trades
    space: int  # the trader marker's space, after the pushback
    board: Board

    def quote(self, offer: int) -> Quote:
        """ "Hand in up to ``offer`` goods": the goods spent and the VP they buy."""
        return self.board.quote(self.space, min(offer, self.held))

    @property
    def offers(self) -> list[Quote]:
        """Every trade worth making, cheapest first (the first is no trade)."""
        return self.board.offers(self.space, self.held)


def trade_choices(state: GameState, plays: Plays) -> list[TradeChoice]:
    """The seats that play the Trader this round, in trading order (most VP first)."""
    return choices_in(resolve_round(state, plays))


def choices_in(result: RoundResult) -> list[TradeChoice]:
    """What each Trader of a resolved round faces.

    Nothing before the Trader depends on the trades, so a round resolved with any
    offers (none, say) shows exactly what each Trader will face.
    """
    board = result.before.setup.board
    for step in result.steps:
        if isinstance(step, Trade):
            return [TradeChoice(g.seat, g.held, step.space, board) for g in step.gains]
    return []
