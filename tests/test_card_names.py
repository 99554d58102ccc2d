"""One rule for card names on every screen: the rulebooks' words, cut (if at all) through
the language's one table with the card's number beside them, one form for every seat of a
screen, and columns parted by a rule (issue 30)."""

from __future__ import annotations

import pytest
from helpers import BOARDS, Driver
from test_screens import SIZES, SLOW, shot

from companion.table import new_flow, start
from companion.ui.catalog import catalog, languages
from companion.ui.font import font, width
from companion.ui.screens import Box, Text, screen

PLAYS = {
    2: [[2, 3], [5, 8]],
    3: [[1, 3], [4, 6], [7, 8]],
    4: [[1], [3], [6], [7]],
    5: [[2], [3], [4], [6], [8]],
    6: [[1], [2], [3], [4], [7], [8]],
}


def reveal(players: int):
    table = Driver(*start(new_flow(BOARDS, SLOW), players, BOARDS[0], 30, 0.0))
    table.wait(5)
    table.play(PLAYS[players])
    table.wait(3)
    return shot(table)


REVEALS = {n: reveal(n) for n in PLAYS}


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("players", sorted(PLAYS))
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}")
def test_the_reveal_names_every_seats_cards_in_one_form(lang, players, size):
    words = catalog(lang)
    shown = screen(REVEALS[players], words, size)
    seats = [words.seat(s) for s in range(players)]
    lines = [i.text for i in shown.items if isinstance(i, Text) and i.text.split(" ")[0] in seats]
    assert len(lines) == players, lines
    plays = PLAYS[players]
    whole = [" ".join([seats[s], *map(words.card, cards)]) for s, cards in enumerate(plays)]
    cut = [" ".join([seats[s], *map(words.cut_card, cards)]) for s, cards in enumerate(plays)]
    assert sorted(lines) in (sorted(whole), sorted(cut)), lines


@pytest.mark.parametrize("lang", languages())
def test_a_cut_name_is_the_tables_short_form_with_the_cards_number(lang):
    words = catalog(lang)
    for card in range(1, 9):
        cut = words.cut_card(card)
        assert str(card) in cut.split() and words.short_card(card) in cut
        assert words.short_card(card).endswith("."), "a cut word says it is cut"
        assert words.card(card).startswith(words.short_card(card).rstrip("."))


def test_columns_of_seats_are_parted_by_a_rule():
    words = catalog("en")
    shown = screen(REVEALS[6], words, SIZES[0])
    texts = [i for i in shown.items if isinstance(i, Text) and i.text[:1] == "P"]
    rules = [i for i in shown.items if isinstance(i, Box) and i.box[0] == i.box[2]]
    assert len({t.x for t in texts}) == 2 and len(rules) == 1, shown.items
    left = max(t.x + width(t.text, font(t.font)) for t in texts if t.x == 0)
    right = min(t.x for t in texts if t.x > 0)
    assert left <= rules[0].box[0] < right
