"""The app's bot sink: a bot that fails with a bug is logged and stood in for by the easy
bot, on the worker thread too (which lives on); ``close`` drops the questions waiting."""

from __future__ import annotations

import threading

import pytest
from test_table_bots import asks, bot_game

from companion.app.bots import BotSeats
from companion.game.boards import profile
from companion.game.bots import View, make_bot
from companion.rules import new_game
from companion.table.bots import AskBot, BotChose
from companion.table.state import Phase

VIEW = View(new_game(3, profile("standard"), 30), 2)


class Broken:
    """A bot with a bug: every question raises."""

    def cards(self, view: View) -> tuple[int, ...]:
        raise ValueError("a bug in the bot")

    def trade(self, view: View, plays: object) -> int:
        raise ValueError("a bug in the bot")


def broken_strong(strength: str, seed: int, budget_ms: int, clock) -> object:
    return Broken() if strength == "strong" else make_bot(strength, seed, budget_ms, clock)


@pytest.mark.parametrize("threaded", [False, True])
def test_a_bot_that_raises_is_logged_and_the_easy_bot_plays_for_it(threaded):
    answers: list = []
    reports: list[str] = []
    both = threading.Event()

    def put(answer: object) -> None:
        answers.append(answer)
        if len(answers) == 2:
            both.set()

    seats = BotSeats(put, reports.append, threaded=threaded, make=broken_strong)
    seats(AskBot(VIEW, "strong", seed=7))
    seats(AskBot(View(VIEW.state, 1), "normal", seed=7))  # the worker is still there to answer it
    assert both.wait(60)
    seats.close()
    assert [a.seat for a in answers] == [2, 1] and all(isinstance(a, BotChose) for a in answers)
    assert answers[0].cards == make_bot("easy", 7).cards(VIEW)  # the ask's seed
    assert answers[1].cards == make_bot("normal", 7).cards(View(VIEW.state, 1))
    (report,) = reports
    first, *trace = report.splitlines()
    assert first == (
        "the strong bot at seat 3 failed (ValueError); it plays a random legal choice this round:"
    )
    assert trace[0].startswith("Traceback") and trace[-1] == "ValueError: a bug in the bot"


def test_close_drops_the_questions_still_waiting():
    started, release = threading.Event(), threading.Event()
    made: list[int] = []
    answers: list = []

    class Held:
        def cards(self, view: View) -> tuple[int, ...]:
            started.set()
            release.wait(60)  # the test's own hand, never a sleep: set below
            return make_bot("easy").cards(view)

    def make(strength: str, seed: int, budget_ms: int, clock) -> Held:
        made.append(1)
        return Held()

    seats = BotSeats(answers.append, answers.append, threaded=True, make=make)
    seats(AskBot(VIEW, "strong"))
    assert started.wait(60)
    seats(AskBot(View(VIEW.state, 1), "strong"))
    seats(AskBot(View(VIEW.state, 0), "strong"))
    closer = threading.Thread(target=seats.close)
    closer.start()
    assert seats.closing.wait(60)
    release.set()
    closer.join(60)
    assert not closer.is_alive()
    assert [a.seat for a in answers] == [2] and made == [1]  # the two waiting: never thought
    seats(AskBot(VIEW, "strong"))  # after close: dropped
    seats.close()  # again: nothing happens
    assert len(answers) == 1 and made == [1]


def test_close_without_a_question_is_a_no_op_and_idempotent():
    answers: list = []
    seats = BotSeats(answers.append, answers.append, threaded=False)
    seats.close()
    seats.close()
    seats(AskBot(VIEW, "easy"))
    assert answers == []


def test_at_the_table_a_bot_that_raises_locks_its_seat_and_the_rounds_go_on():
    table = bot_game(1, ("strong",))
    said: list[str] = []
    seats = BotSeats(table.send, said.append, threaded=False, make=broken_strong)
    for _ in range(3):
        start = table.flow.game.state.round
        for ask in asks(table)[start:]:
            seats(ask)
        assert table.flow.mode.chosen[1]  # the bot's seat locked
        table.play([sorted(table.flow.game.state.hands[0])[:2]])
        for _ in range(50):  # the reveal, the steps, the scores: never back to choosing
            if table.flow.game.state.round > start:
                break
            assert table.view.phase is not Phase.SELECT
            table.ok()
        assert table.flow.game.state.round == start + 1
    assert len(said) == 3 and all("strong bot at seat 2 failed" in s for s in said)
