"""What happened in a round, step by step, as data.

Each step carries every number a screen or a narration needs, so nothing downstream
recomputes the rules. Steps come in resolution order: the supply phase, then each
card that was played in ascending order, then the discards.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Rate
from .cards import Card, Row
from .state import GameState, Rows
from .tables import BONUSES


@dataclass(frozen=True, slots=True)
class Gain:
    """What one seat received in one step."""

    seat: int
    vp: int = 0
    goods: int = 0  # change to the goods the seat holds (negative when it trades)
    lost: int = 0  # goods forfeited over the cap of 15


@dataclass(frozen=True, slots=True)
class BonusGain(Gain):
    counted: tuple[tuple[Card, int], ...] = ()  # the other seats' cards that paid, with counts


@dataclass(frozen=True, slots=True)
class TradeGain(Gain):
    offer: int = 0  # "hand in up to" this many goods, as offered
    held: int = 0  # goods the seat held when it traded


@dataclass(frozen=True, slots=True)
class BeggarGain(Gain):
    in_hand: int = 0  # cards left in hand after this round's plays
    hand_goods: int = 0  # goods paid for those cards
    traders: int = 0  # the other seats' Traders counted
    trader_goods: int = 0  # goods paid for those Traders
    returned: tuple[int, ...] = ()  # cards taken back into hand


@dataclass(frozen=True, slots=True)
class Supply:
    before: Rows
    after: Rows
    card: None = None
    gains: tuple[Gain, ...] = ()


@dataclass(frozen=True, slots=True)
class Share:
    """Captain, Admiral, Frigate, Galleon: each player of ``card`` takes ``each`` from ``row``."""

    card: Card
    row: Row
    each: int
    before: int
    after: int
    gains: tuple[Gain, ...]


@dataclass(frozen=True, slots=True)
class Bonus:
    """Governor, Customs: paid for the other seats' cards, not from the board."""

    card: Card
    gains: tuple[BonusGain, ...]

    @property
    def in_vp(self) -> bool:
        """Whether the card pays VP (Customs) rather than goods (Governor), even when it
        pays nothing."""
        return BONUSES[self.card][0] is Row.VP


@dataclass(frozen=True, slots=True)
class Trade:
    """Trader: the marker goes back, the Traders trade (most VP first), the marker goes to 0."""

    before: int
    space: int  # where the marker stands for the trades, after the pushback
    rates: tuple[Rate, ...]  # the rates available there, best first
    gains: tuple[TradeGain, ...]
    after: int = 0
    card: Card = Card.TRADER

    @property
    def pushback(self) -> int:
        return self.before - self.space


@dataclass(frozen=True, slots=True)
class Beggar:
    gains: tuple[BeggarGain, ...]
    card: Card = Card.BEGGAR


@dataclass(frozen=True, slots=True)
class Discard:
    """End of the round: seats that did not play the Beggar discard their played cards."""

    cards: tuple[tuple[int, tuple[int, ...]], ...]  # (seat, cards discarded)
    card: None = None
    gains: tuple[Gain, ...] = ()


Step = Supply | Share | Bonus | Trade | Beggar | Discard


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A resolved round: the plays as revealed, every step, and the state it leads to."""

    before: GameState
    plays: tuple[tuple[int, ...], ...]
    steps: tuple[Step, ...]
    state: GameState
