"""The table flow, driven by events alone (no pins, no clock)."""

from __future__ import annotations

import random

import model
import pytest

from companion.game.boards import profile
from companion.game.record import state_to_dict
from companion.table.events import HostKey, HostPress, PadDown, PadUp
from companion.table.flow import FAST, Beep, Flow, Phase, Tick, Timing, start, step

BOARDS = (profile("standard"), profile("winter"))


class Driver:
    """Feeds events to the flow the way the loop does: ticks whenever a deadline is due."""

    def __init__(self, flow: Flow):
        self.flow = flow
        self.now = 0.0
        self.beeps: list[Beep] = []
        self.settle()

    def send(self, event) -> None:
        self.flow, beeps = step(self.flow, event, self.now)
        self.beeps += beeps
        self.settle()

    def settle(self) -> None:
        while self.flow.deadline is not None and self.flow.deadline <= self.now:
            self.flow, _ = step(self.flow, Tick(), self.now)

    def press(self, seat: int, card: int) -> None:
        self.send(PadDown(seat, card))
        self.send(PadUp(seat, card))

    def ok(self) -> None:
        self.send(HostPress(HostKey.OK))

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.send(Tick())


def fast_game(players: int, board=BOARDS[0], target: int = 30) -> Driver:
    return Driver(start(Flow(BOARDS, FAST), players, board, target, 0.0))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_whole_games_equal_the_model(players):
    rng = random.Random(players)
    for _ in range(5):
        target = rng.choice([30, 45])
        table = fast_game(players, BOARDS[rng.randrange(2)], target)
        game = model.new_game(players, table.flow.boards[table.flow.board].to_rates(), target)
        need = 2 if players <= 3 else 1
        while not model.finished(game):
            assert table.flow.phase is Phase.SELECT
            plays = [rng.sample(sorted(s["hand"]), need) for s in game["seats"]]
            for seat, cards in enumerate(plays):
                for card in cards:
                    table.press(seat, card)
            while table.flow.phase is Phase.TRADE:
                table.ok()  # accepted as offered: all the trader's goods
            model.play(game, plays, [16] * players)
        assert table.flow.phase is Phase.OVER
        assert state_to_dict(table.flow.game) == model.output(game)
        assert state_to_dict(table.flow.record.replay()) == model.output(game)


def test_selecting_unselecting_and_locking():
    table = fast_game(3)
    table.press(0, 1)
    assert table.flow.locked == (False, False, False)
    table.press(0, 1)  # pressing it again takes it back
    assert table.flow.chosen[0] == ()
    table.press(0, 1)
    table.press(0, 2)
    assert table.flow.locked == (True, False, False)
    assert table.beeps == [Beep.LOCKED]
    table.ok()  # OK does nothing while the seats choose
    assert table.flow.phase is Phase.SELECT


def test_refusals_change_nothing():
    table = fast_game(3)
    table.press(0, 1)
    table.press(0, 2)
    table.press(1, 3)
    table.press(1, 4)
    table.press(2, 5)
    table.press(2, 6)  # all locked: fast countdown, reveal, resolution, next round
    assert table.flow.phase is Phase.SELECT and table.flow.game.round == 1
    before = table.flow
    table.send(PadDown(0, 1))  # discarded last round
    assert table.flow.chosen == before.chosen and table.beeps[-1] is Beep.REFUSED
    assert table.flow.message == ("notice.not_in_hand", (("seat", 0),))
    table.send(PadUp(0, 1))  # with no pauses the notice lasts one frame
    assert table.flow.message is None
    table.press(0, 3)
    table.press(0, 4)
    table.press(0, 5)  # a third card in a 2-card game
    assert table.flow.chosen[0] == (3, 4) and table.beeps[-1] is Beep.REFUSED


def test_countdown_cancelled_by_any_change():
    timing = Timing(supply=0, countdown=3, reveal=1, step=1, scores=1, message=1)
    table = Driver(start(Flow(BOARDS, timing), 4, BOARDS[0], 30, 0.0))
    for seat in range(4):
        table.press(seat, seat + 1)
    assert table.flow.phase is Phase.COUNTDOWN
    table.wait(1)
    table.press(3, 4)  # takes the card back: the countdown stops
    assert table.flow.phase is Phase.SELECT and table.flow.deadline is None
    table.press(3, 8)
    table.wait(2.9)
    assert table.flow.phase is Phase.COUNTDOWN
    table.wait(0.2)
    assert table.flow.phase is Phase.REVEAL
    table.ok()  # OK moves on without waiting
    assert table.flow.phase is Phase.STEP


def test_trader_dialog_on_the_seats_own_pad():
    table = fast_game(4)
    for seat, card in enumerate([3, 4, 5, 6]):  # round 1: everyone gathers goods
        table.press(seat, card)
    assert table.flow.game.round == 1
    goods = table.flow.game.goods[0]
    for seat, card in enumerate([7, 1, 2, 8]):
        table.press(seat, card)
    assert table.flow.phase is Phase.TRADE and table.flow.trader.seat == 0
    full = table.flow.trader.offers[table.flow.offer]
    assert full == table.flow.trader.quote(goods)  # opens on all of its goods
    table.press(1, 1)  # another seat's pad does nothing
    assert table.flow.offer == len(table.flow.trader.offers) - 1
    table.press(0, 1)  # fewer
    table.press(0, 1)
    table.press(0, 2)  # more
    chosen = table.flow.trader.offers[table.flow.offer]
    assert chosen.spent < full.spent
    table.press(0, 7)  # the Trader key accepts
    assert table.flow.game.round == 2
    assert table.flow.record.rounds[-1].trades[0] == chosen.spent


def test_setup_join_options_and_start():
    table = Driver(Flow(BOARDS, FAST))
    table.press(2, 5)
    table.ok()  # one seat is not a game
    assert table.flow.phase is Phase.JOIN and table.beeps[-1] is Beep.REFUSED
    table.press(0, 1)
    table.press(2, 3)  # already in
    assert table.flow.pads == (0, 2)
    table.ok()
    assert table.flow.phase is Phase.OPTIONS
    table.send(HostPress(HostKey.RIGHT))  # board: winter
    table.ok()
    table.send(HostPress(HostKey.RIGHT))  # target: 45
    table.ok()
    table.ok()  # start
    assert table.flow.phase is Phase.SELECT
    assert table.flow.game.setup.board == BOARDS[1] and table.flow.game.setup.target == 45
    table.press(2, 1)  # pad 3 plays as seat 2 of 2
    assert table.flow.chosen == ((), (1,))


def test_menu_undo_and_end():
    table = fast_game(4)
    for seat, card in enumerate([1, 2, 3, 4]):
        table.press(seat, card)
    assert table.flow.game.round == 1
    table.send(HostPress(HostKey.OK, long=True))
    assert table.flow.phase is Phase.MENU
    table.send(HostPress(HostKey.RIGHT))
    table.send(HostPress(HostKey.RIGHT))  # "undo"
    table.ok()
    assert table.flow.game.round == 0 and table.flow.record.rounds == ()
    assert table.flow.phase is Phase.SELECT
    table.send(HostPress(HostKey.OK, long=True))
    table.send(HostPress(HostKey.LEFT))  # "end"
    table.ok()
    assert table.flow.phase is Phase.OVER


def test_after_the_end_ok_sets_up_a_new_game_with_the_same_seats():
    table = fast_game(4)
    table.send(HostPress(HostKey.OK, long=True))
    table.send(HostPress(HostKey.LEFT))  # "end"
    table.ok()
    finished = table.flow.game
    assert table.flow.phase is Phase.OVER
    table.ok()
    assert table.flow.phase is Phase.JOIN and table.flow.pads == (0, 1, 2, 3)
    assert table.flow.game is finished  # still reported until a new game starts
    table.ok()
    table.ok()
    table.ok()
    table.ok()  # options: board, target, start
    assert table.flow.phase is Phase.SELECT and table.flow.game.round == 0


def test_menu_scores_return_to_the_round():
    timing = Timing(supply=0, countdown=3, reveal=1, step=1, scores=1, message=1)
    table = Driver(start(Flow(BOARDS, timing), 4, BOARDS[0], 30, 0.0))
    table.press(0, 1)
    table.send(HostPress(HostKey.OK, long=True))
    table.send(HostPress(HostKey.RIGHT))  # "scores"
    table.ok()
    assert table.flow.phase is Phase.SCORES
    table.ok()
    assert table.flow.phase is Phase.SELECT and table.flow.chosen[0] == (1,)
    assert table.flow.game.round == 0
