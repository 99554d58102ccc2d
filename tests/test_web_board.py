"""The page draws the board the OLED draws, at every step of a round: the same rows, the
same markers, the same trader rate. Both read ``Said.rows`` (``ui/say.py``); these tests
follow rounds with several Traders on the table, view by view, and compare what the
OLED's layout draws with the page's JSON.
"""

from __future__ import annotations

import pytest
from helpers import BOARDS, Driver
from test_screens import SIZES, SLOW

from companion.table import Phase, new_flow, next_change, start
from companion.table.events import HostKey
from companion.ui.catalog import catalog
from companion.ui.screens import Icon, Screen, Text, Track, screen
from companion.web.viewjson import view_data

WORDS = catalog("en")
# Round 1 plays no Trader, so round 2 starts with the trader marker at 11 (3 seats: the
# supply moves each row 5 spaces, from 1). Round 2 plays the Trader at several seats.
FIRST = [(1, 4), (5, 6), (4, 5)]
Drawn = dict[str, tuple[int, int | None, str | None]]  # row: marker, space left, rate


def oled_rows(shown: Screen) -> Drawn:
    """The board rows the OLED's layout draws: each track under its row's icon, and the
    text right of the trader's track (its rate)."""
    items = shown.items
    rows: Drawn = {}
    for i, item in enumerate(items):
        if isinstance(item, Track):
            icon = items[i - 2]
            assert isinstance(icon, Icon)
            after = items[i + 1] if i + 1 < len(items) else None
            rate = after.text if icon.name == "trader" and isinstance(after, Text) else None
            rows[icon.name] = (item.value, item.moved, rate)
    return rows


def page_rows(data: dict) -> Drawn:
    """The rows the page draws from its JSON (``app.js`` ``drawRows``), the rate in the
    board's own notation so that it compares with the OLED's."""
    board = data["board"]
    moved = board["moved"] or [None, None]
    rate = board["rate"]
    shown = "-" if rate is None else f"{rate['goods']}:{rate['vp']}"
    shown = shown if board["verified"] or rate is None else f"~{shown}"
    return {
        name: (value, moved[1] if moved[0] == name else None, shown if name == "trader" else None)
        for name, value in board["rows"].items()
    }


def follow(table: Driver, size: tuple[int, int]) -> list[tuple[str, Drawn, Drawn]]:
    """Every view up to the next round's cards, moved on as the table would be: the clock
    to the next change while something is due, else OK (a Trader looks at a smaller
    offer with ◀ first). Each view's phase, the OLED's rows and the page's."""
    seen = []
    while True:
        view = table.view
        data = view_data(view, WORDS)
        seen.append((view.phase.value, oled_rows(screen(view, WORDS, size)), page_rows(data)))
        if view.phase is Phase.SELECT and not any(view.body.placed):
            return seen
        wake = next_change(table.flow, table.now) or table.flow.deadline
        if view.phase is Phase.TRADE and view.body.spent and seen[-2][0] != "trade":
            table.key(HostKey.LEFT)
        elif wake is not None and view.phase is not Phase.TRADE:
            table.wait(max(wake - table.now, 0.001))  # a float's rounding: a hair past it
        else:
            table.ok()


@pytest.mark.parametrize("size", SIZES, ids=[str(s[0]) for s in SIZES])
@pytest.mark.parametrize(
    ("second", "space"), [([(7, 2), (7, 3), (7, 8)], 7), ([(7, 2), (3, 7), (1, 2)], 9)]
)
def test_the_page_draws_the_rows_and_rate_the_oled_draws_through_a_round_of_traders(
    size, second, space
):
    table = Driver(*start(new_flow(BOARDS, SLOW), 3, BOARDS[0], 30, 0.0))
    seen = follow(table, size)
    table.play(FIRST)
    seen += follow(table, size)
    assert table.view.board.rows.trader == 11
    table.play(second)
    seen += follow(table, size)
    for phase, oled, page in seen:
        for name, drawn in oled.items():
            assert page[name] == drawn, (phase, name)
    drawing = {phase for phase, oled, _ in seen if oled}
    assert drawing == {"supply", "select", "countdown", "step", "trade"}
    trading = [page["trader"] for phase, _, page in seen if phase == "trade"]
    traders = sum(7 in cards for cards in second)
    assert len(trading) == traders + 1  # each Trader's offer, and a smaller one
    # pushed back 2 spaces for each other Trader, from 11; the best rate there, 3:2
    assert set(trading) == {(space, None, "~3:2")}
