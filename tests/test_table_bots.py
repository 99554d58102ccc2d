"""Bots at the table's seats: chosen at setup, asked when the seats start choosing, their
cards taken hidden until the reveal, their trades made at once, kept in the record."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from helpers import BOARDS, Driver

from companion.game.bots import make_bot
from companion.game.record import GameRecord
from companion.rules import RecordError, play_round
from companion.table import FAST, Phase, Timing, new_flow, offer_resume, public_view, start
from companion.table.bots import AskBot, BotChose
from companion.table.events import HostKey
from companion.table.setup import BOT_VALUES, option_values
from companion.table.state import Options
from companion.table.view import TradeView
from companion.ui.catalog import catalog
from companion.ui.screens import draw, screen

WORDS = catalog("en")
PAUSES = Timing(supply=1, countdown=3, reveal=1, step=1, scores=1, message=1)


def counting():
    return itertools.count(0.0, 0.001).__next__


def asks(driver: Driver, since: int = 0) -> list[AskBot]:
    return [e for e in driver.effects[since:] if isinstance(e, AskBot)]


def answer(driver: Driver, ask: AskBot) -> tuple[int, ...]:
    """Run the bot the table asked for, as the app does, and hand its cards back."""
    cards = make_bot(ask.strength, 0, 20, counting()).cards(ask.view)
    driver.send(BotChose(ask.view.seat, ask.view.state, cards))
    return cards


def bot_game(people: int, bots: tuple[str, ...], timing: Timing = FAST) -> Driver:
    flow, effects = start(new_flow(BOARDS, timing), people, BOARDS[0], 30, 0.0, bots)
    return Driver(flow, effects)


def texts(view) -> list[str]:
    return [item.text for item in screen(view, WORDS).items if hasattr(item, "text")]


def test_the_options_seat_bots_after_the_people_and_the_game_asks_them():
    table = Driver(new_flow(BOARDS, FAST))
    table.press(3, 1)  # one person
    table.ok()
    table.ok()
    table.ok()  # on "Add a bot"
    assert table.view.body.items == ("board", "target", "bot", "start")
    table.key(HostKey.RIGHT)  # easy
    table.key(HostKey.RIGHT)  # normal
    assert table.flow.choice.bots == ("normal",)
    assert table.view.body.items == ("board", "target", "bot", "bot", "start")
    table.ok()
    table.key(HostKey.RIGHT)  # a second bot, easy ...
    table.key(HostKey.LEFT)  # ... and away again
    assert table.flow.choice.bots == ("normal",) and table.view.body.cursor == 3
    lines = texts(table.view)
    assert "B2: bot, normal" in lines and "Add a bot" in lines
    table.ok()
    table.ok()  # start
    assert table.view.phase is Phase.SELECT
    assert table.flow.game.record.bots == (None, "normal")
    (ask,) = asks(table)
    assert ask.view.seat == 1 and ask.strength == "normal"
    assert ask.view.state is table.flow.game.state


def test_one_person_alone_cannot_start_and_six_seats_is_the_most():
    table = Driver(new_flow(BOARDS, FAST))
    table.press(0, 1)
    for _ in range(5):
        table.ok()  # on to the options; board, target, no bot, start
    assert table.view.phase is Phase.OPTIONS and table.beeps[-1].value == "refused"
    table.key(HostKey.LEFT)  # back to the bot item
    for _ in range(5):
        table.key(HostKey.RIGHT)  # easy
        table.ok()  # the next seat
    assert table.flow.choice.bots == ("easy",) * 5
    assert table.view.body.items[-1] == "start"  # six seats: no seat left to add
    table.ok()
    assert table.flow.players == 6 and table.view.phase is Phase.SELECT


def test_a_bots_choice_is_the_same_whatever_the_people_selected():
    """The issue's secrecy test: two tables where the people lock different cards before
    the bot is asked again (back from the menu) ask the same view and get the same cards."""
    answers = []
    for cards in ((1, 2), (7, 8)):
        table = bot_game(2, ("strong",), PAUSES)
        table.play([cards, cards])  # both people locked before the bot chose
        table.key(HostKey.OK, long=True)  # the menu: the first ask's answer would be dropped
        seen = len(table.effects)
        table.key(HostKey.LEFT)  # back to the game: the bot is asked again
        (ask,) = asks(table, seen)
        answers.append((ask, answer(table, ask)))
        assert table.view.phase is Phase.COUNTDOWN  # every seat locked
    (first, mine), (second, theirs) = answers
    assert first == second and mine == theirs


def test_a_locked_bot_shows_as_locked_and_its_cards_stay_hidden():
    table = bot_game(1, ("easy", "normal"))
    placed = table.view.body.placed
    assert placed == (0, 0, 0)  # the bots think: an empty mark each
    for ask in asks(table):
        answer(table, ask)
    view = table.view
    assert view.body.placed == (0, 2, 2) and view.phase is Phase.SELECT
    hands = table.flow.game.state.hands
    for other in itertools.combinations(sorted(hands[1]), 2):  # any other cards: same view
        mode = table.flow.mode
        chosen = (mode.chosen[0], other, mode.chosen[2])
        twin = replace(table.flow, mode=replace(mode, chosen=chosen))
        assert public_view(twin, 0.0) == view
        assert draw(public_view(twin, 0.0), WORDS).tobytes() == draw(view, WORDS).tobytes()


@pytest.mark.parametrize("skip", [False, True])
def test_bots_alone_who_chose_during_the_supply_count_down_when_it_ends(skip):
    """Bots answer while the rows still move; with nobody left to press a key the
    countdown must start as the supply phase ends (by itself, or OK), not wait for ever."""
    table = bot_game(0, ("easy", "normal", "strong"), PAUSES)
    assert table.view.phase is Phase.SUPPLY
    for ask in asks(table):
        answer(table, ask)
    assert table.view.phase is Phase.SUPPLY and table.view.body.placed == (2, 2, 2)
    if skip:
        table.ok()
    else:
        table.wait(PAUSES.supply)
    assert table.view.phase is Phase.COUNTDOWN
    table.wait(PAUSES.countdown)
    assert table.view.phase is Phase.REVEAL


def test_the_reveal_names_the_bots_seats():
    table = bot_game(1, ("normal",), PAUSES)
    table.play([(1, 2)])
    (ask,) = asks(table)
    table.ok()  # the reveal waits on the bot: no countdown to cut short
    assert table.view.phase is Phase.SELECT
    cards = answer(table, ask)
    assert table.view.phase is Phase.COUNTDOWN
    table.ok()
    assert table.view.phase is Phase.REVEAL and table.view.body.plays[1] == cards
    lines = texts(table.view)
    assert any(line.startswith("B2 ") for line in lines) and any(
        line.startswith("P1 ") for line in lines
    )


def test_stale_wrong_and_duplicate_answers_are_dropped():
    table = bot_game(2, ("easy",))
    (ask,) = asks(table)
    state = table.flow.game.state
    table.send(BotChose(0, state, (1, 2)))  # a person's seat: never a bot's to answer
    table.send(BotChose(2, state, (1, 1)))  # not a play
    table.send(BotChose(2, state, (1, 2, 3)))
    assert table.view.body.placed == (0, 0, 0)
    answer(table, ask)
    table.send(BotChose(2, state, (3, 4)))  # a second answer: the first stands
    assert table.flow.mode.chosen[2] != (3, 4)
    table.play([(1, 2), (1, 2)])
    until_scores_then_choose(table)
    table.menu("undo")
    table.ok()
    seen = len(table.effects)
    table.ok()  # undone: round 1 again, the bot asked again
    assert table.flow.game.state.round == 0
    (again,) = asks(table, seen)
    old = play_round(state, ((1, 2), (1, 2), (3, 4)), ())  # the state after round 1
    table.send(BotChose(2, old, (5, 6)))  # an answer from the undone round
    assert table.view.body.placed == (0, 0, 0)
    answer(table, again)
    assert table.view.body.placed == (0, 0, 2)


def until_scores_then_choose(table: Driver) -> None:
    for ask in asks(table):
        if table.flow.game.state == ask.view.state and not table.flow.mode.chosen[2]:
            answer(table, ask)
    for _ in range(30):
        if table.view.phase is Phase.SELECT and table.flow.game.state.round == 1:
            return
        table.ok()
    raise AssertionError("never reached round 2")


def test_a_whole_game_of_one_person_and_two_bots_every_play_legal():
    table = bot_game(1, ("normal", "strong"))
    answered = 0
    for _ in range(400):
        if table.flow.game.over:
            break
        pending = asks(table)[answered:]
        for ask in pending:
            answer(table, ask)
        answered += len(pending)
        view = table.view
        assert not (isinstance(view.body, TradeView) and view.body.seat > 0)  # bots: at once
        if view.phase is Phase.SELECT and not table.flow.mode.chosen[0]:
            table.play([sorted(table.flow.game.state.hands[0])[:2]])
        else:
            table.ok()
    record = table.flow.game.record
    assert table.flow.game.over and record.bots == (None, "normal", "strong")
    assert GameRecord.from_json(record.to_json()).replay() == table.flow.game.state


def test_a_resumed_game_keeps_its_bots():
    table = bot_game(1, ("easy", "strong"))
    for ask in asks(table):
        answer(table, ask)
    table.play([(1, 2)])
    until_scores_then_choose(table)
    saved = table.flow.game.record
    resumed = Driver(offer_resume(new_flow(BOARDS, FAST), GameRecord.from_json(saved.to_json())))
    resumed.ok()
    assert resumed.flow.pads == (0,) and resumed.flow.choice.bots == ("easy", "strong")
    assert [a.view.seat for a in asks(resumed)] == [1, 2]
    assert resumed.flow.game.record.bots == (None, "easy", "strong")


def test_the_record_keeps_the_bots_and_reads_records_without_them():
    record = GameRecord.from_json('{"players": 3, "bots": [null, "easy", "strong"]}')
    assert record.bots == (None, "easy", "strong") and record.bot(2) == "strong"
    assert GameRecord.from_json(record.to_json()) == record
    plain = GameRecord.from_json('{"players": 3}')
    assert plain.bots == () and "bots" not in plain.to_dict() and plain.bot(1) is None
    assert GameRecord.from_json('{"players": 2, "bots": [null, null]}').bots == ()


@pytest.mark.parametrize(
    ("bots", "says"),
    [
        ('"easy"', "'bots' must be a list of 3 entries"),
        ('[null, "easy"]', "'bots' must be a list of 3 entries"),
        ('[null, "hard", null]', "seat P2: expected null or one of easy, normal, strong"),
        ('["easy", null, null]', "the bots sit after the people"),
    ],
)
def test_a_wrong_bots_entry_is_named(bots, says):
    with pytest.raises(RecordError, match=says):
        GameRecord.from_json(f'{{"players": 3, "bots": {bots}}}')


def test_the_bot_seats_come_from_the_games_record_and_setup_edits_only_its_draft():
    """One source while a game is on the table: its record (what is saved and resumed),
    for the table's questions and the view's marks alike. The options screen edits
    ``choice.bots``, the next game's draft, and shows that."""
    table = bot_game(1, ("easy", "normal"))
    flow = table.flow
    assert [flow.bot(s) for s in range(3)] == [None, "easy", "normal"]
    assert public_view(flow, 0.0).bots == (False, True, True)
    draft = replace(flow, mode=Options(2), choice=replace(flow.choice, bots=("strong",)))
    assert [draft.bot(s) for s in range(3)] == [None, "easy", "normal"]  # the last game's
    assert public_view(draft, 0.0).bots == (False, True, True)
    assert option_values(draft, 2) == (BOT_VALUES, BOT_VALUES.index("strong"))
    assert option_values(draft, 3) == (BOT_VALUES, 0)  # "Add a bot"
    assert new_flow(BOARDS, FAST).bot(1) is None  # no game: no bot seats yet
