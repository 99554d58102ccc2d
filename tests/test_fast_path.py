"""The engine's fast path (what the strong bot's search plays on) against the checked path
it skips: ``Table.fork`` + ``play_known`` against ``play_round``, ``Table.trades`` against
the Trade step ``resolve_round`` writes, ``Board.quote`` against a search of every mix
of rates, ``selections_of`` against ``itertools.combinations``, ``score_table`` against
the score computed from the ``GameState``."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.boards import profile, profile_names
from companion.game.randgame import monotone
from companion.game.search import CARD_VALUE, WIN, score, score_table
from companion.rules import Board, GameState, new_game, outcome, play_round, resolve_round
from companion.rules.board import SPACES, Quote
from companion.rules.steps import Trade
from companion.rules.table import ALL_MASK, Table, mask, selections_of
from companion.rules.tables import END_RATE, GOODS_MAX

rates = st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 5)).map(list))
custom_boards = st.lists(rates, min_size=16, max_size=16).map(monotone).map(Board.from_rates)
boards = st.one_of(st.sampled_from(profile_names()).map(profile), custom_boards)
ROUNDS = 40  # a game ends long before: this only bounds a test


def random_round(rng: random.Random, state: GameState) -> tuple[list[list[int]], list[int]]:
    """Random legal plays (each seat's cards in a random order) and offers (some longer
    than the goods held, some seats missing: none)."""
    k = state.setup.cards_per_round
    plays = []
    for hand in state.hands:
        cards = list(rng.choice(list(itertools.combinations(sorted(hand), k))))
        rng.shuffle(cards)
        plays.append(cards)
    offers = [rng.randint(0, 16) for _ in range(rng.randint(0, state.setup.players))]
    return plays, offers


def slow_score(state: GameState, seat: int) -> float:
    """What ``score`` says it is, from the state's own fields."""
    values = [
        state.vp[s] + state.goods[s] / END_RATE + len(state.hands[s]) * CARD_VALUE
        for s in range(state.setup.players)
    ]
    margin = values[seat] - max(v for s, v in enumerate(values) if s != seat)
    if not state.finished:
        return margin
    winners = outcome(state).winners
    return margin + (WIN / len(winners) if seat in winners else -WIN)


def trades_of(steps) -> tuple[int, tuple[tuple[int, int], ...]] | None:
    """What ``Table.trades`` holds, read from the Trade step the checked path writes."""
    for step in steps:
        if isinstance(step, Trade):
            return step.space, tuple((g.seat, g.held) for g in step.gains)
    return None


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    rng=st.randoms(use_true_random=False),
    players=st.integers(2, 6),
    board=boards,
    target=st.sampled_from([30, 45]),
)
def test_fork_and_play_known_play_the_rounds_play_round_plays(rng, players, board, target):
    state = new_game(players, board, target)
    running = Table(state)  # the fast path alone, round after round, on one table
    for _ in range(ROUNDS):
        if state.finished:
            break
        plays, offers = random_round(rng, state)
        parent = Table(state)
        twin = parent.fork()
        twin.play_known([mask(p) for p in plays], offers)
        result = resolve_round(state, plays, offers)
        assert twin.state() == result.state == play_round(state, plays, offers)
        assert parent.state() == state and parent.trades is None  # the parent unchanged
        assert twin.trades == trades_of(result.steps)
        running.fork().play_known([mask(p) for p in plays], offers)  # a fork leaves it be
        running.play_known([mask(p) for p in plays], offers)
        assert running.state() == result.state
        for seat in range(players):
            assert score_table(twin, seat) == slow_score(result.state, seat)
            assert score(result.state, seat) == slow_score(result.state, seat)
        state = result.state


def slow_quotes(board: Board, space: int) -> tuple[Quote, ...]:
    """For every g up to 15: the most VP any mix of the rates available on ``space`` buys
    with at most g goods, at the fewest goods that buy it (every reachable sum, listed)."""
    reach = {(0, 0)}
    for rate in board.available(space):
        grown = set(reach)
        while True:
            more = {
                (g + rate.goods, vp + rate.vp)
                for g, vp in grown
                if g + rate.goods <= GOODS_MAX and (g + rate.goods, vp + rate.vp) not in grown
            }
            if not more:
                break
            grown |= more
        reach = grown
    quotes = []
    for most in range(GOODS_MAX + 1):
        vp = max(v for g, v in reach if g <= most)
        quotes.append(Quote(min(g for g, v in reach if g <= most and v == vp), vp))
    return tuple(quotes)


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(board=boards)
def test_the_quote_tables_equal_a_search_of_every_mix_of_rates(board):
    for space in range(SPACES):
        quotes = tuple(board.quote(space, offer) for offer in range(GOODS_MAX + 1))
        assert quotes == slow_quotes(board, space)
        for offer in (GOODS_MAX + 1, GOODS_MAX + 3, 99):  # more goods than anyone holds
            assert board.quote(space, offer) == quotes[GOODS_MAX]


def test_selections_of_are_the_combinations_of_the_hand_in_order():
    for hand in range(0, ALL_MASK + 1, 2):  # bit 0 is no card
        cards = [c for c in range(1, 9) if hand >> c & 1]
        for k in (1, 2):
            expected = tuple(mask(c) for c in itertools.combinations(cards, k))
            assert selections_of(hand, k) == expected
