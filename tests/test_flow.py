"""The table flow, driven by events alone (no pins, no clock), seen through its view."""

from __future__ import annotations

import random
from dataclasses import replace

import model
import pytest
from helpers import BOARDS, Driver, fast_game

from companion.game.record import state_to_dict
from companion.table import (
    FAST,
    GameChanged,
    GameFinished,
    KeepAside,
    Phase,
    Sound,
    Timing,
    new_flow,
    next_change,
    offer_resume,
    start,
)
from companion.table.effects import REFUSED, ResumeKept
from companion.table.events import (
    HostDown,
    HostKey,
    HostUp,
    NameSet,
    PadDown,
    PadUp,
    SaveFailed,
)
from companion.table.state import KeptGame
from companion.table.view import OverView, TradeView


def records(driver: Driver) -> list:
    return [e.record for e in driver.effects if isinstance(e, GameChanged | GameFinished)]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_whole_games_equal_the_model(players):
    rng = random.Random(players)
    for _ in range(5):
        target = rng.choice([30, 45])
        board = BOARDS[rng.randrange(2)]
        table = fast_game(players, board, target)
        game = model.new_game(players, board.to_rates(), target)
        need = 2 if players <= 3 else 1
        while not model.finished(game):
            assert table.view.phase is Phase.SELECT
            plays = [rng.sample(sorted(s["hand"]), need) for s in game["seats"]]
            table.play(plays)
            while table.view.phase is Phase.TRADE:
                table.ok()  # accepted as offered: all the trader's goods
            model.play(game, plays, [16] * players)
        assert table.view.phase is Phase.OVER
        assert state_to_dict(table.flow.game.state) == model.output(game)
        last = records(table)[-1]
        assert isinstance(table.effects[-1], GameFinished)
        assert state_to_dict(last.replay()) == model.output(game)


def test_every_round_is_saved_once_with_every_round_so_far():
    table = fast_game(4)
    assert [len(r.rounds) for r in records(table)] == [0]  # the new game
    for _ in range(3):
        table.play([(1,), (2,), (3,), (4,)] if table.flow.game.state.round == 0 else [(8,)] * 4)
    assert [len(r.rounds) for r in records(table)] == [0, 1, 2, 3]


def test_selecting_unselecting_and_locking():
    table = fast_game(3)
    table.press(0, 1)
    assert table.view.body.placed == (1, 0, 0)
    table.press(0, 1)  # pressing it again takes it back
    assert table.view.body.placed == (0, 0, 0)
    table.press(0, 1)
    table.press(0, 2)
    assert table.view.body.placed == (2, 0, 0)
    # every press is heard: placed, taken back, placed, and the last one locks the seat
    assert table.beeps == [Sound.CLICK, Sound.CLICK, Sound.CLICK, Sound.LOCKED]
    table.ok()  # OK does nothing while the seats choose
    assert table.view.phase is Phase.SELECT


def test_refusals_change_nothing():
    table = fast_game(3)
    table.play([(1, 2), (3, 4), (5, 6)])  # fast: reveal, resolution, next round
    assert table.view.phase is Phase.SELECT and table.view.body.round == 2
    before = table.flow
    table.send(PadDown(0, 1))  # discarded last round
    assert table.flow.mode == before.mode and table.beeps[-1] is Sound.REFUSED
    assert table.view.notice == ("notice.not_in_hand", (("seat", 0),))
    table.send(PadUp(0, 1))  # with no pauses the notice lasts one frame
    assert table.view.notice is None
    table.press(0, 3)
    table.press(0, 4)
    table.press(0, 5)  # a third card in a 2-card game
    assert table.view.body.placed == (2, 0, 0) and table.beeps[-1] is Sound.REFUSED


def test_countdown_cancelled_by_any_change():
    timing = Timing(supply=0, countdown=3, reveal=1, step=1, scores=1, message=1)
    table = Driver(*start(new_flow(BOARDS, timing), 4, BOARDS[0], 30, 0.0))
    table.play([(1,), (2,), (3,), (4,)])
    assert table.view.phase is Phase.COUNTDOWN and table.view.body.countdown == 3
    table.wait(1)
    assert table.view.body.countdown == 2
    table.press(3, 4)  # takes the card back: the countdown stops
    assert table.view.phase is Phase.SELECT and table.flow.deadline is None
    table.press(3, 8)
    table.wait(2.9)
    assert table.view.phase is Phase.COUNTDOWN
    table.wait(0.2)
    assert table.view.phase is Phase.REVEAL
    assert table.view.body.plays == ((1,), (2,), (3,), (8,))
    table.ok()  # OK moves on without waiting
    assert table.view.phase is Phase.STEP


def test_trader_dialog_on_the_seats_own_pad():
    table = fast_game(4)
    table.play([(3,), (4,), (5,), (6,)])  # round 1: everyone gathers goods
    goods = table.flow.game.state.goods[0]
    table.play([(7,), (1,), (2,), (8,)])
    view = table.view.body
    assert isinstance(view, TradeView) and view.seat == 0 and view.held == goods
    full = (view.spent, view.vp)  # opens on everything its goods buy
    table.press(1, 1)  # another seat's pad does nothing
    assert (table.view.body.spent, table.view.body.vp) == full
    table.press(0, 1)  # fewer
    table.press(0, 1)
    table.press(0, 2)  # more
    chosen = table.view.body.spent
    assert chosen < full[0]
    table.press(0, 7)  # the Trader key accepts
    assert records(table)[-1].rounds[-1].trades[0] == chosen


def test_setup_join_options_and_start():
    table = Driver(new_flow(BOARDS, Timing(0, 0, 0, 0, 0, 0)))
    table.ok()  # nobody seated is not a game
    assert table.view.phase is Phase.JOIN and table.beeps[-1] is Sound.REFUSED
    table.press(2, 5)
    table.ok()  # one person: on to the options, where bots may take seats
    assert table.view.phase is Phase.OPTIONS
    table.key(HostKey.LEFT)  # ◀ on the first item: back to the seats
    assert table.view.phase is Phase.JOIN
    table.press(0, 1)
    table.press(2, 3)  # already in
    assert table.view.body.joined == (True, False, True, False, False, False)
    table.ok()
    assert table.view.phase is Phase.OPTIONS
    table.key(HostKey.RIGHT)  # board: winter
    table.ok()
    table.key(HostKey.RIGHT)  # target: 45
    table.key(HostKey.RIGHT)  # there is no target past the last: refused, nothing changes
    assert table.beeps[-1] is Sound.REFUSED and table.view.body.target == 45
    table.ok()
    table.key(HostKey.LEFT)  # ◀ on "add a bot": back to the target
    assert table.view.body.cursor == 1
    table.ok()
    table.ok()  # no bot
    table.ok()  # start
    assert table.view.phase is Phase.SELECT
    setup = table.flow.game.state.setup
    assert setup.board == BOARDS[1] and setup.target == 45
    table.press(2, 1)  # pad 3 plays as seat 2 of 2
    assert table.view.body.placed == (0, 1)


def test_menu_undo_asks_first():
    table = fast_game(4)
    table.play([(1,), (2,), (3,), (4,)])
    table.menu("undo")
    assert table.view.phase is Phase.MENU and table.view.body.undo
    table.ok()
    assert table.view.phase is Phase.CONFIRM and table.view.body.action == "undo"
    table.key(HostKey.LEFT)  # not sure: back to the menu, nothing undone
    assert table.view.phase is Phase.MENU and len(records(table)[-1].rounds) == 1
    table.ok()
    table.ok()  # yes
    assert table.view.phase is Phase.SELECT and table.view.body.round == 1
    assert records(table)[-1].rounds == ()


def test_left_on_the_first_menu_item_goes_back_to_the_game():
    table = fast_game(4)
    table.press(0, 3)
    table.key(HostKey.OK, long=True)
    table.key(HostKey.LEFT)
    assert table.view.phase is Phase.SELECT and table.view.body.placed == (1, 0, 0, 0)


def test_nothing_to_undo_in_the_first_round_is_refused():
    table = fast_game(4)
    table.menu("undo")
    assert not table.view.body.undo
    table.ok()
    assert table.view.phase is Phase.MENU and table.beeps[-1] is Sound.REFUSED


def test_undo_from_the_ranking():
    table = fast_game(2, target=1)
    table.play([(1, 2), (3, 4)])  # a Captain reaches the target of 1 VP at once
    assert table.view.phase is Phase.OVER
    table.key(HostKey.LEFT)
    assert table.view.phase is Phase.CONFIRM and table.view.body.action == "undo"
    table.ok()
    assert table.view.phase is Phase.SELECT and table.view.body.round == 1
    assert records(table)[-1].rounds == () and not table.flow.game.over


def test_undo_a_game_ended_from_the_menu_goes_on_with_it():
    table = fast_game(4)
    table.play([(1,), (2,), (3,), (4,)])
    table.menu("end")
    table.ok()
    table.ok()
    assert table.view.phase is Phase.OVER
    table.key(HostKey.LEFT)
    table.ok()
    assert table.view.phase is Phase.SELECT and table.view.body.round == 2
    record = records(table)[-1]
    assert len(record.rounds) == 1 and not record.ended


def test_end_the_game_asks_then_ends_it_as_the_rules_do():
    table = fast_game(4)
    table.play([(5,), (5,), (6,), (7,)])
    table.menu("end")
    table.ok()
    assert table.view.phase is Phase.CONFIRM
    table.key(HostKey.RIGHT)  # changed our mind: back to the menu
    assert table.view.phase is Phase.MENU
    table.ok()
    table.ok()  # yes, end it
    view = table.view.body
    assert isinstance(view, OverView) and view.ended
    state = table.flow.game.state
    assert view.outcome.vp == tuple(v + g // 3 for v, g in zip(state.vp, state.goods, strict=True))
    finished = table.saves[-1]
    assert isinstance(finished, GameFinished) and finished.record.ended
    replayed = state_to_dict(finished.record.replay(), finished.record.ended)
    assert replayed["finished"] and replayed["result"]["vp"] == list(view.outcome.vp)


def test_a_game_that_ends_carries_its_seats_names_for_the_history():
    table = fast_game(3)
    table.send(NameSet(2, "ZOE"))  # pad 3's name, set as a script or the device sets it
    table.play([(1, 2), (3, 4), (5, 6)])
    table.menu("end")
    table.ok()
    table.ok()  # yes, end it
    finished = table.saves[-1]
    assert isinstance(finished, GameFinished) and finished.names == (None, None, "ZOE")


def test_after_the_end_ok_sets_up_a_new_game_with_the_same_seats():
    table = fast_game(4)
    table.play([(1,), (2,), (3,), (4,)])
    table.menu("end")
    table.ok()
    table.ok()
    assert table.view.phase is Phase.OVER
    table.ok()  # one OK never leaves the ranking: it asks
    assert table.view.phase is Phase.CONFIRM and table.view.body.action == "new"
    table.key(HostKey.LEFT)  # no: the ranking again
    assert table.view.phase is Phase.OVER
    table.ok()
    table.ok()  # yes
    assert table.view.phase is Phase.JOIN and table.flow.pads == (0, 1, 2, 3)
    assert table.view.board is None  # no stale rows once the game is over
    for _ in range(5):
        table.ok()  # options: board, target, no bot, start
    assert table.view.phase is Phase.SELECT and table.view.body.round == 1


def test_menu_scores_return_to_the_round_with_its_rows():
    timing = Timing(supply=0, countdown=3, reveal=1, step=1, scores=1, message=1)
    table = Driver(*start(new_flow(BOARDS, timing), 4, BOARDS[0], 30, 0.0))
    table.press(0, 1)
    rows = table.view.board
    table.key(HostKey.OK, long=True)
    assert table.view.board == rows  # the menu shows the round's rows, not stale ones
    table.key(HostKey.RIGHT)  # "scores"
    table.ok()
    assert table.view.phase is Phase.SCORES and table.view.board == rows
    table.ok()
    assert table.view.phase is Phase.SELECT and table.view.body.placed == (1, 0, 0, 0)


def test_long_press_is_a_gesture_of_edges_and_time():
    table = fast_game(4)
    table.send(HostDown(HostKey.OK))
    assert table.flow.keys.due(table.flow.settings.hold) == pytest.approx(1.0)
    table.wait(0.5)
    assert table.view.phase is Phase.SELECT
    table.wait(0.5)  # held for the hold time: the menu opens while OK is still down
    assert table.view.phase is Phase.MENU
    table.send(HostUp(HostKey.OK))  # the release after a long press is nothing
    assert table.view.phase is Phase.MENU and table.view.body.cursor == 0
    table.send(HostDown(HostKey.RIGHT))  # ◀ ▶ act as they go down
    assert table.view.body.cursor == 1
    table.send(HostUp(HostKey.RIGHT))
    table.send(HostDown(HostKey.OK))
    table.wait(0.2)
    table.send(HostUp(HostKey.OK))  # a short OK acts on release: "scores"
    assert table.view.phase is Phase.SCORES


def test_resume_or_keep_the_saved_game_aside():
    table = fast_game(3)
    table.play([(1, 2), (3, 4), (5, 6)])
    saved = records(table)[-1]
    resumed = Driver(offer_resume(new_flow(BOARDS, Timing(0, 0, 0, 0, 0, 0)), saved))
    assert resumed.view.phase is Phase.RESUME and resumed.view.body.rounds == 1
    resumed.ok()
    assert resumed.view.phase is Phase.SELECT and resumed.view.body.round == 2
    assert resumed.flow.game.state == table.flow.game.state
    other = Driver(offer_resume(new_flow(BOARDS, Timing(0, 0, 0, 0, 0, 0)), saved))
    other.key(HostKey.LEFT)  # a new game? It asks first: one ◀ changes nothing
    assert other.view.phase is Phase.CONFIRM and other.view.body.action == "aside"
    assert other.view.body.rounds == 1 and not any(isinstance(e, KeepAside) for e in other.effects)
    other.key(HostKey.RIGHT)  # no: back to the question of resuming
    assert other.view.phase is Phase.RESUME
    other.key(HostKey.LEFT)
    other.ok()  # yes: the saved one is kept, not overwritten
    assert other.view.phase is Phase.JOIN and isinstance(other.effects[-1], KeepAside)
    assert other.effects[-1] == KeepAside(saved, (None,) * 3)  # the game, its seats unnamed


def test_a_new_game_after_the_ranking_keeps_the_finished_one_aside():
    table = fast_game(4)
    table.play([(1,), (2,), (3,), (4,)])
    table.menu("end")
    table.ok()
    table.ok()  # ended: the ranking
    table.ok()
    table.ok()  # a new game, yes: the same seats, on to the options
    seen = len(table.saves)
    for _ in range(5):
        table.ok()  # options: board, target, no bot, start
    assert table.view.phase is Phase.SELECT
    kept, began = table.saves[seen:]
    assert isinstance(kept, KeepAside) and isinstance(began, GameChanged)
    assert began.record.rounds == ()
    assert kept.record.ended and len(kept.record.rounds) == 1  # the game ended, as it was
    assert kept.names == (None,) * 4


def test_supply_moves_the_markers_one_space_at_a_time():
    timing = Timing(supply=1.2, countdown=3, reveal=1, step=1, scores=1, message=1)
    table = Driver(*start(new_flow(BOARDS, timing), 3, BOARDS[0], 30, 0.0))
    seen = []
    while table.view.phase is Phase.SUPPLY:
        seen.append(table.view.board.rows)
        wake = next_change(table.flow, table.now)
        table.wait((wake or table.flow.deadline) - table.now)
    # 3 seats: every row moves 5 spaces from space 1, one space a move, all together
    assert [r.vp for r in seen] == [1, 2, 3, 4, 5, 6]
    assert all(r.vp == r.goods == r.trader for r in seen)
    assert table.view.board.rows == (6, 6, 6)


def test_ok_skips_the_supply_and_the_countdown():
    timing = Timing(supply=5, countdown=3, reveal=5, step=5, scores=5, message=5)
    table = Driver(*start(new_flow(BOARDS, timing), 4, BOARDS[0], 30, 0.0))
    assert table.view.phase is Phase.SUPPLY
    table.ok()
    assert table.view.phase is Phase.SELECT and table.view.board.rows == (4, 4, 4)
    table.play([(1,), (2,), (3,), (4,)])
    assert table.view.phase is Phase.COUNTDOWN
    table.ok()
    assert table.view.phase is Phase.REVEAL and table.beeps[-1] is Sound.REVEAL


def test_the_trader_hears_its_turn_and_the_ends_of_the_offers():
    table = fast_game(4)
    table.play([(3,), (4,), (5,), (6,)])
    table.play([(7,), (1,), (2,), (8,)])
    assert table.view.phase is Phase.TRADE and table.beeps[-1] is Sound.TRADE
    table.key(HostKey.RIGHT)  # it opens on everything the goods buy: no more
    assert table.beeps[-1] is Sound.REFUSED
    while table.view.body.spent:
        table.key(HostKey.LEFT)
    table.key(HostKey.LEFT)  # fewer than no trade: refused
    assert table.beeps[-1] is Sound.REFUSED and table.view.body.vp == 0


def test_a_press_that_may_not_act_now_is_said_and_changes_nothing():
    """P1's key while P2 trades, a key during the reveal, the pad of no seat: each said
    on the screen with the refusal's sound, never silently dropped."""
    said = replace(FAST, message=5)  # no pauses, but a notice stays to be read
    table = Driver(*start(new_flow(BOARDS, said), 4, BOARDS[0], 30, 0.0))
    table.play([(3,), (4,), (5,), (6,)])
    table.play([(7,), (1,), (2,), (8,)])
    assert table.view.phase is Phase.TRADE and table.view.body.seat == 0
    before = table.view.body
    table.press(2, 1)  # P3 while P1 trades
    assert table.view.notice == ("notice.trading", (("seat", 2), ("trader", 0)))
    assert table.beeps[-1] is Sound.REFUSED and table.view.body == before
    table.press(5, 1)  # the sixth pad: no seat in a game of four
    assert table.view.notice == ("notice.no_seat", (("pad", 6),))
    slow = Timing(supply=5, countdown=3, reveal=5, step=5, scores=5, message=5)
    table = Driver(*start(new_flow(BOARDS, slow), 4, BOARDS[0], 30, 0.0))
    table.ok()
    table.play([(1,), (2,), (3,), (4,)])
    table.ok()
    assert table.view.phase is Phase.REVEAL
    table.press(1, 5)
    assert table.view.notice == ("notice.not_now", (("seat", 1),))
    assert table.view.phase is Phase.REVEAL and table.beeps[-1] is Sound.REFUSED


def test_a_stray_press_never_hides_a_notice_of_another_kind():
    """ "Game not saved" on show stays over a pad pressed during the reveal: the press is
    refused by its sound alone."""
    slow = Timing(supply=5, countdown=3, reveal=5, step=5, scores=5, message=5)
    table = Driver(*start(new_flow(BOARDS, slow), 4, BOARDS[0], 30, 0.0))
    table.ok()
    table.play([(1,), (2,), (3,), (4,)])
    table.ok()
    table.send(SaveFailed("disk full"))
    said = table.view.notice
    assert said is not None and said[0] == "notice.save_failed"
    table.press(1, 5)
    assert table.view.notice == said and table.beeps[-1] is Sound.REFUSED


def test_left_on_the_first_option_goes_back_to_the_seats():
    table = Driver(new_flow(BOARDS, FAST))
    table.press(0, 1)
    table.press(1, 1)
    table.ok()
    assert table.view.phase is Phase.OPTIONS and table.view.body.first
    table.key(HostKey.LEFT)
    assert table.view.phase is Phase.JOIN and table.flow.pads == (0, 1)


# --- games set aside, resumed from the seats' screen ------------------------------------


def test_a_game_set_aside_at_power_on_can_be_resumed_from_the_seats_screen():
    table = fast_game(3)
    table.play([(1, 2), (3, 4), (5, 6)])
    saved = records(table)[-1]
    other = fast_game(4)
    other.play([(1,), (2,), (3,), (4,)])
    older = records(other)[-1]
    flow = replace(new_flow(BOARDS, FAST), kept=(KeptGame(older, "2025-11-25T21:40"),))
    power_on = Driver(offer_resume(flow, saved))
    power_on.key(HostKey.LEFT)
    power_on.ok()  # set it aside: it comes first among the games set aside
    kept = (KeptGame(saved), KeptGame(older, "2025-11-25T21:40"))
    assert power_on.view.phase is Phase.JOIN and power_on.flow.kept == kept
    assert power_on.view.body.kept
    power_on.key(HostKey.LEFT)  # ◀ on the seats' screen: the games set aside
    games = ((3, 1, ""), (4, 1, "2025-11-25T21:40"))  # the one just set aside, then the older
    assert power_on.view.phase is Phase.KEPT and power_on.view.body.games == games
    assert power_on.view.body.cursor == 1  # on the newest: OK resumes it
    power_on.key(HostKey.LEFT)  # "back"
    power_on.key(HostKey.LEFT)  # nothing before "back"
    assert power_on.effects[-1] == REFUSED
    power_on.key(HostKey.RIGHT)
    power_on.key(HostKey.RIGHT)
    power_on.ok()  # the older one, four seats, after its first round
    assert power_on.view.phase is Phase.SELECT and power_on.view.body.round == 2
    older = older.identified()  # a table without ids (new_flow's): its contents' id
    assert power_on.flow.game.record == older and power_on.effects[-1] == ResumeKept(older)
    assert power_on.flow.kept == (KeptGame(saved),)  # no longer one set aside
    assert power_on.flow.pads == (0, 1, 2, 3)


def test_the_seats_screen_offers_no_list_without_games_set_aside():
    table = Driver(new_flow(BOARDS, FAST))
    assert not table.view.body.kept
    table.key(HostKey.LEFT)
    assert table.view.phase is Phase.JOIN
    table = Driver(replace(new_flow(BOARDS, FAST), kept=(KeptGame(records(fast_game(2))[-1]),)))
    table.key(HostKey.LEFT)
    table.key(HostKey.LEFT)
    table.ok()  # "back"
    assert table.view.phase is Phase.JOIN
