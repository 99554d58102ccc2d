"""Every worked example in the rulebooks (EN, NL, FR tell the same ones), as a test."""

from __future__ import annotations

import pytest
from helpers import before_supply, table

from companion.rules import (
    Beggar,
    Bonus,
    Card,
    Rows,
    Share,
    Trade,
    new_game,
    play_round,
    resolve_round,
    supply,
)


def steps_of(result, kind):
    return [s for s in result.steps if isinstance(s, kind)]


@pytest.mark.parametrize(("players", "spaces"), [(2, 3), (3, 5), (4, 3), (5, 4), (6, 5)])
def test_supply_table(board, players, spaces):
    """Supply phase: 'Player Count 2 3 4 5 6 / Space Number 3 5 3 4 5'."""
    state = new_game(players, board)
    assert state.rows == Rows(1, 1, 1)  # every marker starts on the 1st space
    after = supply(state.rows, players)
    assert after == Rows(1 + spaces, 1 + spaces, 1 + spaces)


def test_supply_example_four_players(board):
    """'In a 4-player game, all 3 markers are advanced 3 squares in the supply phase.'"""
    state = table(4, board, rows=(2, 7, 0))
    assert supply(state.rows, 4) == Rows(5, 10, 3)


def test_supply_stops_at_15(board):
    """'If a marker reaches space 15 it ends there and any additional advance is lost.'"""
    assert supply(Rows(13, 15, 11), 3) == Rows(15, 15, 15)


def test_setup(board):
    """Each player begins with as many goods as there are players, no VP, all 8 cards."""
    state = new_game(4, board)
    assert state.vp == (0, 0, 0, 0)
    assert state.goods == (4, 4, 4, 4)
    assert all(h == frozenset(range(1, 9)) for h in state.hands)
    assert all(not d for d in state.discards)


def test_governor_example(board):
    """1 Captain, 2 Admirals, 1 Governor; 9 VP on the row.

    Captain gets 2; the Admirals split the 7 left, 3 each, 1 stays on the row; the
    Governor gets 8 goods (4 + 2×2), not from the goods row.
    """
    state = table(4, board, rows=(before_supply(4, 9), 5, 1), goods=[0, 0, 0, 0])
    result = resolve_round(state, [[1], [2], [2], [3]])
    after = result.state
    assert after.vp == (2, 3, 3, 0)
    assert after.rows.vp == 1
    assert after.goods == (0, 0, 0, 8)
    assert after.rows.goods == 5 + 3  # the Governor does not touch the goods row
    captain, admirals = steps_of(result, Share)
    assert (captain.card, captain.before, captain.after, captain.each) == (Card.CAPTAIN, 9, 7, 2)
    assert (admirals.before, admirals.after, admirals.each) == (7, 1, 3)
    (governor,) = steps_of(result, Bonus)
    assert governor.gains[0].goods == 8
    assert dict(governor.gains[0].counted) == {Card.CAPTAIN: 1, Card.ADMIRAL: 2}


def test_customs_example(board):
    """1 Frigate, 1 Galleon, 1 Customs; 10 goods on the row.

    The Frigate takes 3, the Galleon all 7 left (row to 0), the Customs 4 VP, not from
    the VP row.
    """
    state = table(4, board, rows=(1, before_supply(4, 10), 1), goods=[0, 0, 0, 0])
    result = resolve_round(state, [[4], [5], [6], [1]])
    after = result.state
    assert after.goods[:2] == (3, 7)
    assert after.rows.goods == 0
    assert after.vp[2] == 4
    # The Captain took 2 of the 4 VP on its row; Customs took nothing from it.
    assert after.rows.vp == 4 - 2


def test_trader_example(board):
    """Two Traders: the marker goes back 2 spaces, to a 3:2 space.

    Alex hands in 9 goods for 6 VP. He could also hand in his last 2 goods for 1 VP at
    the worse 2:1 rate, but does not. Then the marker goes to 0.
    """
    # Marker at 6 before trading -> 4 after the pushback: 3:2, and 2:1 below it.
    state = table(4, board, rows=(1, 1, before_supply(4, 6)), goods=[11, 5, 0, 0])
    result = resolve_round(state, [[7], [7], [8], [8]], [9, 0, 0, 0])
    (trade,) = steps_of(result, Trade)
    assert (trade.before, trade.space, trade.pushback, trade.after) == (6, 4, 2, 0)
    assert [str(r) for r in trade.rates] == ["3:2", "2:1"]
    alex = next(g for g in trade.gains if g.seat == 0)
    assert (alex.goods, alex.vp) == (-9, 6)
    assert result.state.goods[0] == 2 and result.state.vp[0] == 6
    assert result.state.rows.trader == 0


def test_trader_example_worse_rate_taken(board):
    """Had Alex offered all 11 goods, the last 2 would buy 1 VP at the worse 2:1 rate."""
    state = table(4, board, rows=(1, 1, before_supply(4, 6)), goods=[11, 5, 0, 0])
    after = play_round(state, [[7], [7], [8], [8]], [11, 0, 0, 0])
    assert (after.goods[0], after.vp[0]) == (0, 7)


def test_three_traders_move_the_marker_back_four(board):
    """'If 3 Traders were played, you must move the yellow marker back 4 spaces.'"""
    state = table(4, board, rows=(1, 1, before_supply(4, 9)))
    result = resolve_round(state, [[7], [7], [7], [8]])
    (trade,) = steps_of(result, Trade)
    assert (trade.before, trade.space) == (9, 5)
    assert result.state.rows.trader == 0


def test_beggar_example(board):
    """3 players: Alex plays Trader and Beggar with 2 cards left in hand; another player
    also plays a Trader. Alex gets 3 goods for his hand and 2 for the other Trader, none
    for his own, then takes back every card, this round's and earlier ones.
    """
    alex_hand = {1, 2, 7, 8}  # 2 cards left once he plays Trader and Beggar
    state = table(3, board, goods=[0, 0, 0], hands=[alex_hand, set(range(1, 9)), set(range(1, 9))])
    result = resolve_round(state, [[7, 8], [7, 4], [3, 5]], [0, 0, 0])
    (beggar,) = steps_of(result, Beggar)
    gain = beggar.gains[0]
    assert (gain.in_hand, gain.hand_goods, gain.traders, gain.trader_goods) == (2, 3, 1, 2)
    assert result.state.goods[0] == 5
    assert result.state.hands[0] == frozenset(range(1, 8 + 1))
    assert result.state.discards[0] == frozenset()
    assert gain.returned == (3, 4, 5, 6, 7, 8)


@pytest.mark.parametrize(
    ("in_hand", "goods"), [(0, 4), (1, 3), (2, 3), (3, 2), (4, 2), (5, 1), (6, 1), (7, 1)]
)
def test_beggar_table(board, in_hand, goods):
    """'Cards in Hand 0 / 1-2 / 3-4 / 5-7 — Goods +4 / +3 / +2 / +1'."""
    hand = set(range(1, in_hand + 1)) | {8}  # the Beggar plus ``in_hand`` other cards
    state = table(4, board, goods=[0, 0, 0, 0], hands=[hand, *[set(range(1, 9))] * 3])
    after = play_round(state, [[8], [1], [2], [3]])
    assert after.goods[0] == goods


def test_goods_over_15_are_lost_but_taken_from_the_row(board):
    """'any excess past 15 are forfeited but are still removed from the game board row.'"""
    state = table(4, board, rows=(1, before_supply(4, 12), 1), goods=[10, 0, 0, 0])
    after = play_round(state, [[5], [1], [2], [3]])
    assert after.goods[0] == 15
    assert after.rows.goods == 0


def test_end_of_round_discards_and_beggar_keeps(board):
    """Players who did not play a Beggar discard their cards; the Beggar's owner keeps all."""
    state = new_game(4, board)
    after = play_round(state, [[1], [8], [3], [4]])
    assert after.hands[0] == frozenset(range(2, 9)) and after.discards[0] == {1}
    assert after.hands[1] == frozenset(range(1, 9)) and after.discards[1] == frozenset()


def test_game_ends_at_30_after_the_round(board):
    """'The game ends as soon as at least one player has 30 or more VP at the end of a round.'"""
    state = table(4, board, vp=[27, 0, 0, 0], rows=(before_supply(4, 5), 1, 1))
    assert not state.finished
    after = play_round(state, [[2], [3], [4], [5]])
    assert after.vp[0] == 32 and after.finished
