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
