"""The rules made exact: sharing, caps, exclusions, trades, the end, errors."""

from __future__ import annotations

import dataclasses

import pytest
from helpers import TEST_RATES, before_supply, table

from companion.rules import (
    Board,
    BoardError,
    Card,
    GameOverError,
    IllegalPlayError,
    PlayProblem,
    Quote,
    SetupError,
    Share,
    TieBreak,
    Trade,
    check_plays,
    check_selection,
    legal_cards,
    new_game,
    outcome,
    play_round,
    replay,
    resolve_round,
    trade_choices,
)
from companion.rules.cards import ALL_CARDS

# --- sharing a row ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "row", "players", "on_row", "each", "left"),
    [
        (1, "vp", 4, 9, 2, 5),  # Captain: cap 2 each
        (1, "vp", 4, 3, 1, 1),  # 3 // 2 = 1 each, 1 stays
        (2, "vp", 4, 15, 5, 5),  # Admiral: cap 5 each
        (2, "vp", 4, 7, 3, 1),  # 7 // 2 = 3, 1 stays
        (4, "goods", 4, 15, 3, 9),  # Frigate: cap 3 each
        (4, "goods", 4, 5, 2, 1),
        (5, "goods", 4, 15, 7, 1),  # Galleon: no cap, 15 // 2 = 7, 1 stays
        (5, "goods", 4, 1, 0, 1),  # 1 // 2 = 0: nobody gets anything
    ],
)
def test_two_seats_share_a_row(board, card, row, players, on_row, each, left):
    rows = {"vp": (1, 1, 1), "goods": (1, 1, 1)}[row]
    index = 0 if row == "vp" else 1
    rows = tuple(before_supply(players, on_row) if i == index else r for i, r in enumerate(rows))
    state = table(players, board, rows=rows, goods=[0] * players)
    result = resolve_round(state, [[card], [card], [3], [6]])
    (share,) = [s for s in result.steps if isinstance(s, Share)]
    assert (share.before, share.each, share.after) == (on_row, each, left)
    got = result.state.vp if row == "vp" else result.state.goods
    assert got[:2] == (each, each)


def test_three_galleons_leave_the_remainder(board):
    state = table(4, board, rows=(1, before_supply(4, 11), 1), goods=[0, 0, 0, 0])
    after = play_round(state, [[5], [5], [5], [1]])
    assert after.goods[:3] == (3, 3, 3) and after.rows.goods == 2


def test_frigates_before_galleons(board):
    """Cards resolve in ascending order: Frigates empty the row before the Galleons."""
    state = table(4, board, rows=(1, before_supply(4, 7), 1), goods=[0, 0, 0, 0])
    after = play_round(state, [[4], [4], [5], [5]])
    assert after.goods == (3, 3, 0, 0) and after.rows.goods == 1


def test_goods_cap_for_bonuses(board):
    """The 15-goods cap holds for the Governor and the Beggar too."""
    state = table(4, board, goods=[0, 14, 0, 15])
    result = resolve_round(state, [[1], [3], [1], [8]])  # Governor: 2 Captains = 8 goods
    assert result.state.goods[1] == 15 and result.state.goods[3] == 15
    lost = {g.seat: g.lost for step in result.steps for g in step.gains if g.lost}
    assert lost == {1: 7, 3: 1}  # 14 + 8 and 15 + 1 (7 cards left in hand)


def test_vp_have_no_cap(board):
    state = table(4, board, vp=[40, 0, 0, 0], rows=(before_supply(4, 10), 1, 1), target=45)
    after = play_round(state, [[2], [3], [5], [6]])
    assert after.vp[0] == 45


# --- own cards never pay a bonus (2-3 players) -----------------------------------------


def test_governor_ignores_own_captain_in_three_player_game(board):
    state = table(3, board, goods=[0, 0, 0])
    after = play_round(state, [[1, 3], [2, 4], [5, 6]])
    assert after.goods[0] == 2  # the other seat's Admiral only, not its own Captain


def test_customs_ignores_own_frigate_and_galleon(board):
    state = table(3, board, vp=[0, 0, 0])
    after = play_round(state, [[4, 6], [5, 1], [2, 8]])
    (customs_vp,) = [after.vp[0]]
    assert customs_vp == 1  # P2's Galleon; not its own Frigate


def test_customs_counts_every_other_seats_cards(board):
    state = table(3, board, vp=[0, 0, 0], goods=[0, 0, 0])
    after = play_round(state, [[6, 1], [4, 5], [4, 5]])
    assert after.vp[0] == 2 + 3 * 2 + 1 * 2  # its Captain, plus 2 Frigates and 2 Galleons


def test_beggar_ignores_own_trader(board):
    state = table(2, board, goods=[0, 0])
    after = play_round(state, [[7, 8], [7, 1]], [0, 0])
    assert after.goods[0] == 1 + 2  # 6 cards left: +1; the other Trader: +2; own: 0


# --- the Trader ------------------------------------------------------------------------


def test_trader_pushback_stops_at_zero(board):
    state = table(6, board, rows=(1, 1, 0), goods=[9] * 6)
    result = resolve_round(state, [[7], [7], [7], [7], [1], [2]], [9, 9, 9, 9])
    (trade,) = [s for s in result.steps if isinstance(s, Trade)]
    assert (trade.before, trade.space, trade.after) == (5, 0, 0)
    assert result.state.goods[:4] == (9, 9, 9, 9)  # no rate on space 0


def test_marker_goes_to_zero_even_without_trades(board):
    state = table(4, board, rows=(1, 1, 5))
    after = play_round(state, [[7], [1], [2], [3]], [0, 0, 0, 0])
    assert after.rows.trader == 0


def test_trader_marker_untouched_without_trader(board):
    state = table(4, board, rows=(1, 1, 5))
    assert play_round(state, [[1], [2], [3], [4]]).rows.trader == 8


def test_trade_order_is_most_vp_first(board):
    state = table(4, board, rows=(1, 1, 10), vp=[1, 9, 5, 9], goods=[6, 6, 6, 6])
    result = resolve_round(state, [[7], [7], [7], [7]], [6, 6, 6, 6])
    (trade,) = [s for s in result.steps if isinstance(s, Trade)]
    assert [g.seat for g in trade.gains] == [1, 3, 2, 0]


def test_offer_beyond_goods_hands_in_what_is_held(board):
    state = table(4, board, rows=(1, 1, 6), goods=[4, 0, 0, 0])
    after = play_round(state, [[7], [1], [2], [3]], [15, 0, 0, 0])
    assert (after.goods[0], after.vp[0]) == (1, 2)  # one 3:2 trade; 1 good cannot buy more


def test_offer_ignored_without_trader(board):
    state = table(4, board, rows=(1, 1, 6), goods=[4, 4, 4, 4])
    after = play_round(state, [[1], [2], [3], [4]], [4, 4, 4, 4])
    assert after.goods[0] == 4


@pytest.mark.parametrize(
    ("space", "offer", "quote"),
    [
        (0, 15, Quote(0, 0)),  # no rate on space 0
        (1, 1, Quote(0, 0)),  # 2:1 needs 2 goods
        (1, 5, Quote(4, 2)),  # spends only what the VP need
        (4, 5, Quote(5, 3)),  # 3:2 + 2:1
        (4, 7, Quote(6, 4)),  # 3:2 twice; the 7th good buys nothing more
        (4, 8, Quote(8, 5)),  # 3:2 twice + 2:1
        (10, 15, Quote(15, 15)),  # 1:1 everything
    ],
)
def test_quotes_mix_rates(board, space, offer, quote):
    assert board.quote(space, offer) == quote


def test_offers_worth_making(board):
    assert board.offers(4, 6) == [Quote(0, 0), Quote(2, 1), Quote(3, 2), Quote(5, 3), Quote(6, 4)]


def test_rates_below_the_marker_are_never_better():
    """'any worse rate' means the rates on the spaces below: a table where a lower rate
    gives more VP per good than a higher one is refused, naming both spaces."""
    with pytest.raises(BoardError, match=r"^trader space 1: 1:1 gives more VP per good than 3:1"):
        Board.from_rates([None, [1, 1]] + [[3, 1]] * 14)
    # Equal VP per good is allowed, and every rate at or below the marker counts.
    b = Board.from_rates([None, [1, 1]] + [[2, 2]] * 14)
    assert b.quote(8, 5) == Quote(5, 5)


def test_trade_choices_show_what_each_trader_faces(board):
    rows = (before_supply(4, 3), before_supply(4, 9), before_supply(4, 6))
    state = table(4, board, rows=rows, vp=[0, 0, 0, 0], goods=[2, 9, 0, 0])
    # P3's Frigate and P4's Galleon resolve first, but give the Traders nothing; with
    # equal VP the Traders trade in seat order.
    first, second = trade_choices(state, [[7], [7], [4], [5]])
    assert (first.seat, first.held, first.space) == (0, 2, 4)
    assert (second.seat, second.held, second.space) == (1, 9, 4)
    assert second.quote(15) == Quote(9, 6) and second.quote(4) == Quote(3, 2)
    assert first.offers == [Quote(0, 0), Quote(2, 1)]
    assert trade_choices(state, [[1], [2], [3], [4]]) == []


def test_trading_order_is_most_vp_first(board):
    state = table(4, board, rows=(1, 1, 10), vp=[3, 8, 0, 0])
    assert [c.seat for c in trade_choices(state, [[7], [7], [1], [2]])] == [1, 0]


# --- the end ---------------------------------------------------------------------------


def ended(board, vp, goods, hands):
    return table(len(vp), board, vp=vp, goods=goods, hands=hands, target=30)


def test_conversion_three_to_one_keeps_the_remainder(board):
    end = outcome(ended(board, [30, 20], [14, 3], [set(range(1, 9))] * 2))
    assert end.vp == (34, 21) and end.goods == (2, 0)


def test_tie_break_vp(board):
    end = outcome(ended(board, [30, 29], [0, 0], [{1}, {1, 2}]))
    assert end.winners == (0,) and end.decided_by is TieBreak.VP


def test_tie_break_goods(board):
    end = outcome(ended(board, [30, 30], [1, 2], [{1, 2}, {1}]))  # 1 and 2 left after 3:1
    assert end.winners == (1,) and end.decided_by is TieBreak.GOODS


def test_tie_break_cards(board):
    end = outcome(ended(board, [30, 30, 31], [2, 2, 0], [{1}, {1, 2}, {1}]))
    assert end.ranking == ((2,), (1,), (0,))
    end = outcome(ended(board, [30, 30], [2, 2], [{1}, {1, 2}]))
    assert end.winners == (1,) and end.decided_by is TieBreak.CARDS


def test_shared_victory(board):
    end = outcome(ended(board, [30, 30, 10], [2, 2, 0], [{1}, {5}, {1}]))
    assert end.winners == (0, 1) and end.decided_by is TieBreak.SHARED
    assert end.ranking == ((0, 1), (2,))
    assert end.places == ((1, (0, 1)), (3, (2,)))


def test_target_45(board):
    state = table(3, board, vp=[40, 0, 0], rows=(before_supply(3, 10), 1, 1), target=45)
    after = play_round(state, [[1, 3], [4, 5], [6, 8]])
    assert after.vp[0] == 42 and not after.finished  # 30 is no longer the end
    after = dataclasses.replace(after, vp=(44, 0, 0), rows=after.rows._replace(vp=9))
    assert play_round(after, [[2, 4], [1, 2], [1, 2]]).finished


# --- errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plays", "problem", "seat", "words"),
    [
        ([[1, 2], [3, 4]], PlayProblem.WRONG_SEATS, None, "2 seat(s) played; the game has 3"),
        ([[1, 9], [3, 4], [5, 6]], PlayProblem.OUT_OF_RANGE, 0, "card 9 does not exist"),
        ([[1, 2], [0, 4], [5, 6]], PlayProblem.OUT_OF_RANGE, 1, "card 0 does not exist"),
        ([[1, 2], [3, 4], [5, "6"]], PlayProblem.OUT_OF_RANGE, 2, "card '6' is not a card"),
        ([[1, True], [3, 4], [5, 6]], PlayProblem.OUT_OF_RANGE, 0, "card True is not a card"),
        ([[1, 2.0], [3, 4], [5, 6]], PlayProblem.OUT_OF_RANGE, 0, "card 2.0 is not a card"),
        ([[1, 1], [3, 4], [5, 6]], PlayProblem.REPEATED, 0, "card 1 is chosen twice"),
        ([[1], [3, 4], [5, 6]], PlayProblem.WRONG_COUNT, 0, "1 card(s) chosen; with 3 players"),
        ([[1, 2], [3, 4, 5], [6, 7]], PlayProblem.WRONG_COUNT, 1, "3 card(s) chosen"),
        ([[1, 2], [3, 4], [5, 7]], PlayProblem.NOT_IN_HAND, 2, "card 7 (Trader) is not in hand"),
    ],
)
def test_illegal_plays_are_named_and_change_nothing(board, plays, problem, seat, words):
    state = table(3, board, hands=[set(range(1, 9)), set(range(1, 9)), {1, 2, 5, 6}])
    with pytest.raises(IllegalPlayError) as err:
        play_round(state, plays)
    assert err.value.problem is problem and err.value.seat == seat and err.value.round == 1
    assert words in str(err.value)
    prefix = "round 1" if seat is None else f"round 1, seat P{seat + 1}"
    assert str(err.value).startswith(prefix + ": ")


def test_not_in_hand_lists_hand_and_discard(board):
    state = table(3, board, hands=[set(range(1, 9)), set(range(1, 9)), {1, 2, 5, 6}])
    with pytest.raises(IllegalPlayError, match=r"hand: 1 2 5 6; discard: 3 4 7 8"):
        check_selection(state, 2, [5, 7])


def test_check_plays_sorts(board):
    assert check_plays(new_game(2, board), [[8, 1], [3, 2]]) == ((1, 8), (2, 3))


def test_legal_cards_are_the_hand(board):
    state = table(4, board, hands=[{2, 4}, ALL_CARDS, ALL_CARDS, ALL_CARDS])
    assert legal_cards(state, 0) == {2, 4}


@pytest.mark.parametrize("offers", [[-1, 0, 0, 0], ["5", 0, 0, 0], [None, 0, 0, 0]])
def test_bad_trade_offer(board, offers):
    with pytest.raises(IllegalPlayError) as err:
        play_round(new_game(4, board), [[7], [1], [2], [3]], offers)
    assert err.value.problem is PlayProblem.BAD_OFFER and err.value.seat == 0


def test_too_many_offers(board):
    with pytest.raises(IllegalPlayError, match="5 trade offers; the game has 4 seats"):
        play_round(new_game(4, board), [[7], [1], [2], [3]], [0] * 5)


def test_round_after_the_end(board):
    state = table(4, board, vp=[30, 0, 0, 0])
    with pytest.raises(GameOverError, match="round 1: the game already ended after round 0"):
        play_round(state, [[1], [2], [3], [4]])


def test_replay_stops_at_the_first_bad_round(board):
    words = r"round 2, seat P1: card 1 \(Captain\) is not in hand"
    with pytest.raises(IllegalPlayError, match=words):
        replay(new_game(4, board), [([[1], [2], [3], [4]], ()), ([[1], [5], [6], [7]], ())])


@pytest.mark.parametrize(("players", "target"), [(1, 30), (7, 30), (True, 30), (3, 0), (3, "30")])
def test_bad_setup(board, players, target):
    with pytest.raises(SetupError):
        new_game(players, board, target)


@pytest.mark.parametrize(
    ("rates", "words"),
    [
        (TEST_RATES[:15], "has 16 spaces (0..15), got 15"),
        ([*TEST_RATES[:15], [0, 1]], "trader space 15: expected null or [goods, vp]"),
        ([*TEST_RATES[:15], [1, -1]], "trader space 15"),
        ([*TEST_RATES[:15], [1, 2, 3]], "trader space 15"),
        ([*TEST_RATES[:15], [1.0, 2]], "trader space 15"),
        ([*TEST_RATES[:15], "3:2"], "trader space 15"),
        ("standard", "trader_rates must be a list"),
    ],
)
def test_bad_trader_tables(rates, words):
    with pytest.raises(BoardError) as err:
        Board.from_rates(rates)
    assert words in str(err.value)


def test_board_round_trip(board):
    assert Board.from_rates(board.to_rates()) == board


def test_states_are_values(board):
    """Playing a round never changes the state it started from: undo is keeping it."""
    state = new_game(3, board)
    copy = dataclasses.replace(state)
    play_round(state, [[1, 2], [3, 4], [5, 6]])
    assert state == copy
    assert state.players[0].hand == ALL_CARDS and state.player(1).goods == 3


def test_card_enum_values_are_accepted(board):
    after = play_round(new_game(4, board), [[Card.CAPTAIN], [2], [3], [4]])
    assert after.vp[0] == 2
