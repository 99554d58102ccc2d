"""The bots' engine side: legal choices from public information only (companion/game/bots.py)."""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import random

import pytest
from helpers import table

from companion.game.bots import (
    STRENGTHS,
    BotRequestError,
    EasyBot,
    NormalBot,
    StrongBot,
    View,
    legal_selections,
    make_bot,
    my_trade,
    view_of,
)
from companion.game.randgame import random_game
from companion.game.record import GameRecord
from companion.rules import (
    Board,
    GameOverError,
    IllegalPlayError,
    TradeChoice,
    check_selection,
    new_game,
    play_round,
)


def _bot(strength: str, seed: int):
    """A bot whose search, for the strong one, makes 20 playouts per decision: its clock
    is fake, 1 ms further on at every call, so answers never depend on the machine."""
    return make_bot(strength, seed, budget_ms=20, clock=itertools.count(0, 0.001).__next__)


def _prefixes(record: GameRecord):
    """Every point of a game where a round is still to be played, with that round."""
    for n, rnd in enumerate(record.rounds):
        yield dataclasses.replace(record, rounds=record.rounds[:n]), rnd


@pytest.mark.slow
@pytest.mark.parametrize("strength", STRENGTHS)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_answer_is_legal_across_whole_games(strength: str, players: int) -> None:
    rng = random.Random(players)
    for game in range(3):
        record = random_game(rng, players=players)
        bot = _bot(strength, seed=game)
        for before, rnd in _prefixes(record):
            for seat in range(players):
                view = view_of(before, seat)
                cards = bot.cards(view)
                assert check_selection(view.state, seat, cards) == cards  # sorted, legal
                plays = list(rnd.plays)
                plays[seat] = cards
                offer = bot.trade(view, plays)
                choice = my_trade(view, plays)
                held = 0 if choice is None else choice.held
                assert type(offer) is int and 0 <= offer <= held


def test_legal_selections_are_every_pair_or_every_card() -> None:
    three = view_of(GameRecord.from_json('{"players": 3}'), 0)
    assert len(legal_selections(three)) == 28  # 8 choose 2
    five = view_of(GameRecord.from_json('{"players": 5}'), 4)
    assert legal_selections(five) == [(c,) for c in range(1, 9)]


def test_a_view_has_no_place_for_the_others_selections() -> None:
    # What the others chose this round cannot reach a bot: a view is the state after
    # the completed rounds and the bot's seat, and a bot is asked with a view alone.
    assert [f.name for f in dataclasses.fields(View)] == ["state", "seat"]
    for cls in (EasyBot, NormalBot, StrongBot):
        assert list(inspect.signature(cls.cards).parameters) == ["self", "view"]
        assert list(inspect.signature(cls.trade).parameters) == ["self", "view", "plays"]


@pytest.mark.parametrize("strength", STRENGTHS)
def test_the_choice_is_the_same_whatever_the_others_select(strength: str) -> None:
    # The table plays a round: seat 0 is the bot, seats 1 and 2 select every possible
    # way. The bot is asked at the moment the table asks it, and answers alike each time.
    state = play_round(new_game(3, Board.from_rates([None] + [[1, 1]] * 15)), [[1, 2]] * 3)
    answers, results = set(), set()
    for others in [((3, 4), (5, 6)), ((7, 8), (7, 8)), ((4, 5), (3, 8)), ((3, 6), (4, 7))]:
        bot = _bot(strength, seed=7)
        mine = bot.cards(View(state, 0))
        answers.add(mine)
        results.add(play_round(state, [mine, *others]))
    assert len(answers) == 1 and len(results) == 4  # the others' choices did matter


@pytest.mark.parametrize("strength", STRENGTHS)
def test_the_same_seed_and_question_give_the_same_answer(strength: str) -> None:
    record = random_game(random.Random(5), players=3)
    view = view_of(dataclasses.replace(record, rounds=record.rounds[:2]), 1)
    first = [_bot(strength, seed=s).cards(view) for s in range(20)]
    assert first == [_bot(strength, seed=s).cards(view) for s in range(20)]
    if strength == "easy":  # random: different seeds choose differently
        assert len(set(first)) > 1


def test_a_view_refuses_a_seat_not_in_the_game() -> None:
    record = GameRecord.from_json('{"players": 3}')
    for seat in (-1, 3, True, "0", None, 1.0):
        with pytest.raises(BotRequestError, match=r"'seat' must be a seat 0\.\.2"):
            view_of(record, seat)


def test_a_view_refuses_a_game_that_is_over() -> None:
    won = '{"players": 3, "target": 1, "rounds": [{"plays": [[1, 2], [2, 3], [4, 5]]}]}'
    with pytest.raises(GameOverError, match="over after round 1"):
        view_of(GameRecord.from_json(won), 0)
    ended = '{"players": 3, "ended": true, "rounds": [{"plays": [[1, 2], [2, 3], [4, 5]]}]}'
    with pytest.raises(GameOverError):
        view_of(GameRecord.from_json(ended), 0)


def test_a_view_refuses_a_record_that_does_not_replay() -> None:
    bad = '{"players": 2, "rounds": [{"plays": [[1, 2], [1, 9]]}]}'
    with pytest.raises(IllegalPlayError, match="seat P2"):
        view_of(GameRecord.from_json(bad), 0)


def test_trade_refuses_plays_the_rules_forbid() -> None:
    view = view_of(GameRecord.from_json('{"players": 2}'), 0)
    for bot in (EasyBot(), NormalBot()):
        with pytest.raises(IllegalPlayError):
            bot.trade(view, [[7, 7], [1, 2]])


def test_normal_trades_only_when_the_rate_beats_the_end_conversion() -> None:
    good = Board.from_rates([None] + [[1, 1]] * 15)  # 1 VP a good: better than 3:1
    poor = Board.from_rates([None] + [[4, 1]] * 15)  # 1 VP for 4 goods: worse
    bot = NormalBot()
    for board, wanted in ((good, 9), (poor, 0)):
        state = table(2, board, goods=[9, 9], rows=(1, 1, 8))
        plays = [[7, 1], [2, 3]]
        choice = my_trade(View(state, 0), plays)
        assert isinstance(choice, TradeChoice) and choice.held >= 9
        assert bot.trade(View(state, 0), plays) == min(wanted, choice.held)
    assert bot.trade(View(table(2, good), 1), [[7, 1], [2, 3]]) == 0  # no Trader played


def test_normal_takes_the_customs_when_the_others_can_only_feed_it() -> None:
    # Seat 0 holds Customs; both others hold only Frigates and Galleons among cards that
    # move VP, so Customs (+3 per Frigate, +1 per Galleon) is worth more than any pair
    # without it.
    board = Board.from_rates([None] + [[3, 1]] * 15)
    state = table(3, board, hands=[{1, 6, 8}, {4, 5}, {4, 5}])
    cards = NormalBot().cards(View(state, 0))
    assert 6 in cards
