"""The rules of Santo Domingo, exact and pure: standard library only, no I/O, clocks or threads.

Everything else in the companion depends on this package, never the reverse.
"""

from .board import Board, Quote, Rate
from .cards import ALL_CARDS, Card, Row
from .ending import Outcome, TieBreak, outcome
from .errors import (
    BoardError,
    GameOverError,
    IllegalPlayError,
    PlayProblem,
    RecordError,
    SetupError,
)
from .resolve import (
    TradeChoice,
    check_plays,
    check_selection,
    choices_in,
    legal_cards,
    play_round,
    replay,
    resolve_round,
    supply,
    trade_choices,
)
from .state import GameState, PlayerState, Rows, Setup, new_game
from .steps import (
    Beggar,
    BeggarGain,
    Bonus,
    BonusGain,
    Discard,
    Gain,
    RoundResult,
    Share,
    Step,
    Trade,
    TradeGain,
)
from .steps import Supply as SupplyStep
from .tables import TARGETS, cards_per_round

__all__ = [
    "ALL_CARDS",
    "TARGETS",
    "Beggar",
    "BeggarGain",
    "Board",
    "BoardError",
    "Bonus",
    "BonusGain",
    "Card",
    "Discard",
    "Gain",
    "GameOverError",
    "GameState",
    "IllegalPlayError",
    "Outcome",
    "PlayProblem",
    "PlayerState",
    "Quote",
    "Rate",
    "RecordError",
    "RoundResult",
    "Row",
    "Rows",
    "Setup",
    "SetupError",
    "Share",
    "Step",
    "SupplyStep",
    "TieBreak",
    "Trade",
    "TradeChoice",
    "TradeGain",
    "cards_per_round",
    "check_plays",
    "check_selection",
    "choices_in",
    "legal_cards",
    "new_game",
    "outcome",
    "play_round",
    "replay",
    "resolve_round",
    "supply",
    "trade_choices",
]
