"""A hidden choice never reaches the view, the frames, or the saved game.

Over random event sequences: at every moment before the reveal, a twin table that
differs only in which cards are chosen (the same number per seat) has the same public
view and draws the same frame, and stays so under any event that is not a pad press.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from helpers import BOARDS
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.table import Timing, new_flow, public_view, settle, start, step
from companion.table.events import HostDown, HostKey, HostPress, HostUp, PadDown, PadUp, Tick
from companion.table.state import Choosing
from companion.ui.catalog import catalog
from companion.ui.screens import draw

TIMING = Timing(supply=1, countdown=3, reveal=1, step=1, scores=1, message=1)
WORDS = catalog("en")

pad = st.builds(PadDown, st.integers(0, 5), st.integers(1, 8))
host = st.sampled_from([HostKey.LEFT, HostKey.OK, HostKey.RIGHT])
other = st.one_of(
    st.builds(HostPress, host, st.booleans()),
    st.builds(HostDown, host),
    st.builds(HostUp, host),
    st.builds(PadUp, st.integers(0, 5), st.integers(1, 8)),
    st.just(Tick()),
)
moves = st.lists(st.tuples(st.one_of(pad, pad, other), st.floats(0, 2)), max_size=60)


def twin_of(flow, rng: random.Random):
    """The same table with other cards chosen: as many per seat, from the same hands."""
    hands = flow.game.state.hands
    chosen = tuple(
        tuple(rng.sample(sorted(hands[seat]), len(cards)))
        for seat, cards in enumerate(flow.mode.chosen)
    )
    return replace(flow, mode=replace(flow.mode, chosen=chosen))


def same_in_public(a, b, now: float) -> None:
    view_a, view_b = public_view(a, now), public_view(b, now)
    assert view_a == view_b
    assert draw(view_a, WORDS).tobytes() == draw(view_b, WORDS).tobytes()


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 6), moves=moves, seed=st.integers(0, 2**16), nudges=moves)
def test_views_and_frames_do_not_depend_on_hidden_choices(players, moves, seed, nudges):
    rng = random.Random(seed)
    now = 0.0
    flow, _ = start(new_flow(BOARDS, TIMING), players, BOARDS[0], 30, now)
    for event, wait in moves:
        now += wait
        flow, _ = step(flow, event, now)
        flow, _ = settle(flow, now)
        if not isinstance(flow.mode, Choosing):
            continue
        twin, at = twin_of(flow, rng), now
        same_in_public(flow, twin, at)
        a, b = flow, twin
        for nudge, later in nudges:  # anything but a pad press leaves them alike
            if isinstance(nudge, PadDown):
                continue
            at += later
            a, effects_a = step(a, nudge, at)
            b, effects_b = step(b, nudge, at)
            a, more_a = settle(a, at)
            b, more_b = settle(b, at)
            if not (isinstance(a.mode, Choosing) and isinstance(b.mode, Choosing)):
                break  # the reveal: from here on the cards are public
            assert effects_a + more_a == effects_b + more_b
            same_in_public(a, b, at)
