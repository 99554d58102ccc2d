"""The table flow, driven by events alone (no pins, no clock), seen through its view."""

from __future__ import annotations

import random

import model
import pytest
from conftest import BOARDS, Driver, fast_game

from companion.game.record import state_to_dict
from companion.table import (
    GameChanged,
    GameFinished,
    KeepAside,
    Phase,
    Sound,
    Timing,
    new_flow,
    offer_resume,
    start,
)
from companion.table.events import HostDown, HostKey, HostUp, PadDown, PadUp
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
    assert table.beeps == [Sound.LOCKED]
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
    table.press(2, 5)
    table.ok()  # one seat is not a game
    assert table.view.phase is Phase.JOIN and table.beeps[-1] is Sound.REFUSED
    table.press(0, 1)
    table.press(2, 3)  # already in
    assert table.view.body.joined == (True, False, True, False, False, False)
    table.ok()
    assert table.view.phase is Phase.OPTIONS
    table.key(HostKey.RIGHT)  # board: winter
    table.ok()
    table.key(HostKey.RIGHT)  # target: 45
    table.ok()
    table.ok()  # start
    assert table.view.phase is Phase.SELECT
    setup = table.flow.game.state.setup
    assert setup.board == BOARDS[1] and setup.target == 45
    table.press(2, 1)  # pad 3 plays as seat 2 of 2
    assert table.view.body.placed == (0, 1)


def test_menu_undo():
    table = fast_game(4)
    table.play([(1,), (2,), (3,), (4,)])
    table.key(HostKey.OK, long=True)
    assert table.view.phase is Phase.MENU
    table.key(HostKey.RIGHT)
    table.key(HostKey.RIGHT)  # "undo"
    table.ok()
    assert table.view.phase is Phase.SELECT and table.view.body.round == 1
    assert records(table)[-1].rounds == ()


def test_end_the_game_asks_then_ends_it_as_the_rules_do():
    table = fast_game(4)
    table.play([(5,), (5,), (6,), (7,)])
    table.key(HostKey.OK, long=True)
    table.key(HostKey.LEFT)  # "end"
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
    finished = table.effects[-1]
    assert isinstance(finished, GameFinished) and finished.record.ended
    replayed = state_to_dict(finished.record.replay(), finished.record.ended)
    assert replayed["finished"] and replayed["result"]["vp"] == list(view.outcome.vp)


def test_after_the_end_ok_sets_up_a_new_game_with_the_same_seats():
    table = fast_game(4)
    table.play([(1,), (2,), (3,), (4,)])
    table.key(HostKey.OK, long=True)
    table.key(HostKey.LEFT)
    table.ok()
    table.ok()
    assert table.view.phase is Phase.OVER
    table.ok()
    assert table.view.phase is Phase.JOIN and table.flow.pads == (0, 1, 2, 3)
    assert table.view.board is None  # no stale rows once the game is over
    for _ in range(4):
        table.ok()  # options: board, target, start
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
    other.key(HostKey.LEFT)  # a new game: the saved one is kept, not overwritten
    assert other.view.phase is Phase.JOIN and isinstance(other.effects[-1], KeepAside)


def test_a_new_game_after_the_ranking_keeps_the_finished_one_aside():
    table = fast_game(4)
    table.play([(1,), (2,), (3,), (4,)])
    table.key(HostKey.OK, long=True)
    table.key(HostKey.LEFT)
    table.ok()
    table.ok()  # ended: the ranking
    table.ok()  # the same seats: on to the options
    seen = len(table.effects)
    for _ in range(4):
        table.ok()  # options: board, target, start
    assert table.view.phase is Phase.SELECT
    kept, began = table.effects[seen:]
    assert isinstance(kept, KeepAside) and isinstance(began, GameChanged)
    assert began.record.rounds == ()
