"""The numbers of the rulebook, as data. The engine reads them; it hard-codes none.

Where the rulebook leaves room, docs/rules.md ("the rules, made exact") settles it.
"""

from __future__ import annotations

from .cards import Card, Row

PLAYER_COUNTS = range(2, 7)
TARGETS = (30, 45)  # 30 is the rule; 45 is the rulebook's variant for experienced players
START_SPACE = 1  # every board row starts on space 1
ROW_MAX = 15  # a row marker never passes space 15
GOODS_MAX = 15  # a player never holds more than 15 goods; VP have no cap

# Supply phase: spaces every row advances at the start of each round, by player count.
SUPPLY = {2: 3, 3: 5, 4: 3, 5: 4, 6: 5}


def cards_per_round(players: int) -> int:
    """2 cards in a 2- or 3-player game, 1 card with 4 to 6."""
    return 2 if players <= 3 else 1


# Cards that take from a board row, shared evenly among everyone who played them:
# card -> (row, most each player takes, or None for "no cap").
SHARES: dict[Card, tuple[Row, int | None]] = {
    Card.CAPTAIN: (Row.VP, 2),
    Card.ADMIRAL: (Row.VP, 5),
    Card.FRIGATE: (Row.GOODS, 3),
    Card.GALLEON: (Row.GOODS, None),
}

# Cards paid by what the *other* seats played this round, not from the board:
# card -> (what it pays, {card counted: amount per such card}).
BONUSES: dict[Card, tuple[Row, dict[Card, int]]] = {
    Card.GOVERNOR: (Row.GOODS, {Card.CAPTAIN: 4, Card.ADMIRAL: 2}),
    Card.CUSTOMS: (Row.VP, {Card.FRIGATE: 3, Card.GALLEON: 1}),
    Card.BEGGAR: (Row.GOODS, {Card.TRADER: 2}),
}

# Beggar, first part: goods by cards left in hand after this round's plays.
# (most cards in hand, goods), checked in order.
BEGGAR_HAND = ((0, 4), (2, 3), (4, 2), (7, 1))

TRADER_PUSHBACK = 2  # spaces the marker goes back for each Trader after the first
END_RATE = 3  # at the end, goods convert to VP at 3:1, the remainder is kept


def beggar_hand_goods(cards_in_hand: int) -> int:
    """Goods the Beggar pays for the cards a seat still holds."""
    for most, goods in BEGGAR_HAND:
        if cards_in_hand <= most:
            return goods
    raise ValueError(f"a hand cannot hold {cards_in_hand} cards")
