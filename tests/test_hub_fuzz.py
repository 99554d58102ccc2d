"""Garbage on the hub's line: thousands of random byte streams through the host's
session, in random pieces. Nothing crashes, no key is invented or lost, and each
burst of bad lines is one log line at most.

Deterministic (derandomized) and bounded, so the suite stays fast and repeatable.
"""

from __future__ import annotations

import itertools

import pytest
from hubfake import line
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.hw.hub import Session
from companion.table.events import PadDown, PadUp


def fuzz(examples: int) -> settings:
    """A fixed seed, so every run tries the same streams; a bounded number of them."""
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


# Bytes a garbage burst is made of: anything, with the protocol's own characters
# (digits, stars, hex, spaces, newlines, carriage returns) more likely than chance.
noise = st.binary(max_size=200) | st.lists(
    st.sampled_from([b"*", b" ", b"\n", b"\r", b"0", b"1", b"9", b"A", b"F", b"down", b"up"]),
    max_size=30,
).map(b"".join)


NONCE = "F00D"  # every hello's: the answer in a stream is to the session's hello


def _session() -> tuple[Session, list, list]:
    events: list = []
    logs: list = []
    session = Session(events.append, lambda _: None, logs.append, nonce=lambda: NONCE)
    return session, events, logs


def _pieces(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` cut at ``cuts``, as reads hand it over."""
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


@pytest.mark.slow
@fuzz(2000)
@given(data=st.binary(max_size=2000), cuts=st.lists(st.integers(0, 10_000), max_size=20))
def test_random_bytes_never_crash_nor_press_a_key(data, cuts):
    session, events, logs = _session()
    session.opened(0.0)
    for piece in _pieces(data, cuts):
        session.feed(piece, 0.0)
    assert events == []
    assert len(logs) <= 1  # no good line ever came: one burst


# A game's worth of key lines: each step presses or releases one key of the 48.
keys = st.tuples(st.integers(1, 6), st.integers(1, 8))


@pytest.mark.slow
@fuzz(1000)
@given(
    steps=st.lists(st.tuples(keys, noise, st.booleans()), max_size=12),
    cuts=st.lists(st.integers(0, 100_000), max_size=12),
)
def test_garbage_between_good_lines_loses_and_invents_nothing(steps, cuts):
    """Good lines in sequence with garbage bursts between them (each burst ends in a
    newline, so it never eats a good line): exactly the good lines' keys come out."""
    session, events, logs = _session()
    session.opened(0.0)
    held: set = set()
    expected: list = []
    stream = [line(f"0 hello 2 0.2.0 6 8 {NONCE}")]
    bursts = 0
    for seq, ((seat, key), garbage, with_garbage) in enumerate(steps, 1):
        if with_garbage:
            stream.append(garbage + b"\n")
            bursts += 1
        kind = "up" if (seat, key) in held else "down"
        held ^= {(seat, key)}
        stream.append(line(f"{seq} {kind} {seat} {key}"))
        expected.append((PadUp if kind == "up" else PadDown)(seat - 1, key))
    for piece in _pieces(b"".join(stream), cuts):
        session.feed(piece, 0.0)
    assert events == expected
    assert len(logs) == bursts  # each burst is followed by a good line: one line each
    assert session.answered  # no gap was seen: garbage takes no sequence number
