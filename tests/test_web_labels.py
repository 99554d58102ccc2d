"""The seats' labels the page's JSON carries: as the OLED words them."""

from __future__ import annotations

from companion.rules import Rate, Rows
from companion.table.state import Phase
from companion.table.view import (
    BoardView,
    ChoosingView,
    JoinView,
    NamesView,
    PlayerView,
    ScoresView,
    View,
)
from companion.ui.catalog import catalog
from companion.web.viewjson import view_data

BOTS = (False, True, True)  # one person, two bots
BOARD = BoardView(Rows(), Rate(2, 1), verified=False)


def labels(body, bots=BOTS, lang="en", names=()) -> list[str]:
    view = View(Phase.SELECT, BOARD, body, None, bots, names)
    return view_data(view, catalog(lang))["seats"]


def test_bots_are_b_and_their_seat_while_choosing():
    assert labels(ChoosingView(1, 2, (1, 2, 2), None)) == ["P1", "B2", "B3"]


def test_a_named_pad_is_named_on_every_screen_of_the_game():
    named = ("ANNA", None, None)
    assert labels(ChoosingView(1, 2, (1, 2, 2), None), names=named) == ["ANNA", "B2", "B3"]


def test_the_scores_name_a_named_pad():
    players = (PlayerView(3, 1, 6),) * 3
    scores = ScoresView(1, players, names=("ANNA", None, None))
    assert labels(scores) == ["ANNA", "B2", "B3"]
    assert labels(scores, bots=()) == ["ANNA", "P2", "P3"]


def test_before_a_game_a_label_per_pad_and_none_on_the_names_list():
    assert labels(JoinView((True, True), ("ZOÉ", None)), bots=()) == ["ZOÉ", "P2"]
    assert labels(NamesView(("ANNA", None), 0), bots=()) == []


def test_the_pairing_code_is_said_to_be_on_show_never_given():
    choosing = ChoosingView(1, 2, (0,), None)
    showing = View(Phase.SELECT, BOARD, choosing, ("notice.pair_code", (("code", "4321"),)))
    data = view_data(showing, catalog("en"))
    assert data["pairing"] is True and "4321" not in str(data)
    assert view_data(View(Phase.SELECT, BOARD, choosing, None), catalog("en"))["pairing"] is False
