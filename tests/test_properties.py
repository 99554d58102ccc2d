"""Properties over random legal games, and the engine against an independent model."""

from __future__ import annotations

import random

import model
import pytest
from helpers import model_game
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.boards import profile
from companion.game.randgame import monotone
from companion.game.record import state_to_dict
from companion.rules import Board, Share, new_game, resolve_round
from companion.rules.cards import ALL_CARDS

rates = st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 5)).map(list))
# Every board is monotone (never more VP per good below than above): sort drawn rates so.
custom_boards = st.lists(rates, min_size=16, max_size=16).map(monotone).map(Board.from_rates)
boards = st.one_of(st.sampled_from(["standard", "winter"]).map(profile), custom_boards)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    rng=st.randoms(use_true_random=False),
    players=st.integers(2, 6),
    board=boards,
    target=st.sampled_from([30, 45]),
)
def test_random_games_keep_every_invariant(rng, players, board, target):
    record, outputs = model_game(rng, players, board, target)
    state = record.start()
    for rnd, expected in zip(record.rounds, outputs, strict=True):
        result = resolve_round(state, rnd.plays, rnd.trades)
        after = result.state
        assert all(0 <= r <= 15 for r in after.rows)
        assert all(0 <= g <= 15 for g in after.goods)
        for seat, played in enumerate(rnd.plays):
            # Before the round the hand held the plays; after, hand + discard are the 8 cards.
            assert set(played) <= state.hands[seat]
            assert after.hands[seat] | after.discards[seat] == ALL_CARDS
            assert not after.hands[seat] & after.discards[seat]
        for step in result.steps:
            if isinstance(step, Share):  # what leaves a row is what the seats take
                assert step.before - step.after == step.each * len(step.gains)
                assert all(g.vp + g.goods + g.lost == step.each for g in step.gains)
        assert state_to_dict(after) == expected
        state = after
    assert record.replay() == record.replay() == state


@pytest.mark.slow
def test_engine_equals_model_on_many_games():
    """A thousand seeded games, 2-6 players, shipped and custom boards, both targets."""
    rng = random.Random(20261122)
    for _ in range(1000):
        players = rng.randint(2, 6)
        board = (
            profile(rng.choice(["standard", "winter"]))
            if rng.random() < 0.3
            else Board.from_rates(
                monotone(
                    [
                        None if rng.random() < 0.25 else [rng.randint(1, 6), rng.randint(1, 5)]
                        for _ in range(16)
                    ]
                )
            )
        )
        record, outputs = model_game(rng, players, board, rng.choice([30, 45]))
        assert state_to_dict(record.replay()) == outputs[-1]


def test_new_game_matches_model():
    for players in range(2, 7):
        expected = model.output(model.new_game(players, [None] * 16))
        assert state_to_dict(new_game(players, profile("standard"))) == expected
