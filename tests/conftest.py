"""Shared helpers: build exact table situations the way the rulebook examples state them."""

from __future__ import annotations

import dataclasses

import pytest

from companion.rules import Board, GameState, Rows, new_game

# A test board: 2:1 on spaces 1..3, 3:2 from space 4, 1:1 from space 10 (design §2:
# "3 goods : 2 VP, and a worse 2 : 1 exists below it").
TEST_RATES = [None] + [[2, 1]] * 3 + [[3, 2]] * 6 + [[1, 1]] * 6


@pytest.fixture
def board() -> Board:
    return Board.from_rates(TEST_RATES)


def table(
    players: int,
    board: Board,
    *,
    rows: tuple[int, int, int] = (1, 1, 1),
    vp: list[int] | None = None,
    goods: list[int] | None = None,
    hands: list[set[int]] | None = None,
    target: int = 30,
) -> GameState:
    """A state between rounds with the given rows (before the supply phase) and seats."""
    state = new_game(players, board, target)
    changes: dict = {"rows": Rows(*rows)}
    if vp is not None:
        changes["vp"] = tuple(vp)
    if goods is not None:
        changes["goods"] = tuple(goods)
    if hands is not None:
        changes["hands"] = tuple(frozenset(h) for h in hands)
        changes["discards"] = tuple(frozenset(range(1, 9)) - frozenset(h) for h in hands)
    return dataclasses.replace(state, **changes)


def before_supply(players: int, wanted: int) -> int:
    """The row space that the supply phase turns into ``wanted`` (for wanted < 15)."""
    from companion.rules.tables import SUPPLY

    return wanted - SUPPLY[players]


# --- hardware: the pads on simulated pins -----------------------------------------------

PAD_ROWS = (5, 6, 13, 19, 26, 16)  # the shipped pin map's rows (seats) and columns (cards)
PAD_COLUMNS = (4, 17, 27, 22, 23, 24, 25, 12)


class Pads:
    """A started ``PadMatrix`` on a ``SimulatedMatrix`` of ``SimFactory`` pins. Its clock
    steps once a reading, so the debounce (5 steps) counts scans, whatever the load."""

    def __init__(self, **options):
        import itertools
        import queue

        from companion.hw.matrix import PadMatrix
        from companion.hw.simmatrix import SimulatedMatrix
        from companion.hw.simpins import SimFactory

        options = {"debounce": 5, "clock": itertools.count().__next__, **options}
        self.factory = SimFactory()
        self.sim = SimulatedMatrix(self.factory, PAD_ROWS, PAD_COLUMNS)
        self.matrix = PadMatrix(PAD_ROWS, PAD_COLUMNS, pin_factory=self.factory, **options)
        self.events: queue.SimpleQueue = queue.SimpleQueue()
        self.matrix.start(self.events.put)

    def take(self, n: int) -> list:
        """The next ``n`` events; the timeout only catches a hang."""
        return [self.events.get(timeout=10) for _ in range(n)]

    def rest(self) -> list:
        """Every event still to come, once the scanner has gone idle."""
        assert self.matrix.wait_idle(timeout=10), "the scanner never went idle"
        left = []
        while not self.events.empty():
            left.append(self.events.get())
        return left

    def close(self) -> None:
        self.matrix.close()
        self.factory.reset()


@pytest.fixture
def pads():
    parts = Pads()
    yield parts
    parts.close()


@pytest.fixture
def make_pads():
    """``Pads`` with other options (``scan_interval``, ``clock``...), closed afterwards."""
    made: list[Pads] = []

    def make(**options) -> Pads:
        made.append(Pads(**options))
        return made[-1]

    yield make
    for parts in made:
        parts.close()
