"""A small tournament: the normal bot beats the easy one clearly (not a timing test)."""

from __future__ import annotations

import random

import pytest

from companion.game.boards import profile
from companion.game.bots import EasyBot, NormalBot
from companion.game.randgame import random_board
from companion.game.tournament import play_bots
from companion.rules import outcome

GAMES = 200


@pytest.mark.slow
def test_normal_wins_far_more_than_its_share_against_two_easy_bots() -> None:
    # Three seats, one normal bot moving round the table; boards shipped and random.
    # Its fair share is 1/3 of the wins (a shared win counts as a fraction).
    rng = random.Random(2026)
    share = 0.0
    for game in range(GAMES):
        seat = game % 3
        bots = [EasyBot(seed=game * 3 + s) for s in range(3)]
        bots[seat] = NormalBot(seed=game)
        board = random_board(rng) if game % 2 else profile(rng.choice(["standard", "winter"]))
        record = play_bots(bots, board)
        winners = outcome(record.replay()).winners
        share += (seat in winners) / len(winners)
    assert share / GAMES > 0.75


def test_a_game_between_bots_is_a_record_that_replays_to_its_end() -> None:
    record = play_bots([NormalBot(1), EasyBot(2), NormalBot(3), EasyBot(4)], profile("winter"))
    assert record.replay().finished and len(record.rounds) >= 2
