"""The pads' names: checked, set with the host buttons (recent names first, or spelled on
the letter wheel), kept in ``names.json``, shown where a seat's label is, written into
the history; and the history screen of the menu, in every language, against reference
PNGs (``UPDATE_SCREENS=1 pytest`` rewrites them)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import BOARDS, Driver, fast_game
from PIL import Image
from test_screens import misfits

from companion.game.names import (
    MAX,
    NO_HISTORY,
    NO_NAMES,
    HistorySummary,
    PastGame,
    SeatNameError,
    Tally,
    check_name,
    check_names,
)
from companion.table import FAST, Phase, new_flow
from companion.table.effects import NamesChanged, Sound
from companion.table.events import HistoryKnown, HostKey, NameSet
from companion.table.names import DEL, END, WHEEL
from companion.table.settings import items
from companion.table.state import MENU_ITEMS, seat_names
from companion.ui.catalog import catalog, languages
from companion.ui.screens import render, screen

REFERENCES = Path(__file__).parent / "screens" / "128x64"


# --- a name ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ANNA", "ZOÉ", "JEAN LUC", "A", "ÇÀÊÏÔÛ"])
def test_a_name_of_capitals_accents_and_inner_spaces_is_one(name):
    assert check_name(name) == name


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("ANNABELLE", "at most 8 letters"),
        ("anna", "'a' is not a letter"),
        ("R2D2", "'2' is not a letter"),
        (" ANNA", "neither begins nor ends with a space"),
        ("   ", "at least one letter"),
        (7, "a name is text"),
    ],
)
def test_a_name_the_wheel_cannot_spell_is_refused_saying_why(name, said):
    with pytest.raises(SeatNameError, match=said):
        check_name(name)


def test_names_are_one_per_pad():
    assert check_names([None, "ANNA", None, None, None, None])[1] == "ANNA"
    with pytest.raises(SeatNameError, match="list of 6"):
        check_names(["ANNA"])


# --- setting a name with the host buttons ------------------------------------------------


def names_list(past: HistorySummary = NO_HISTORY) -> Driver:
    """Before a game: hold OK for the settings, OK on *Names*."""
    table = Driver(new_flow(BOARDS, FAST))
    table.send(HistoryKnown(past))
    table.key(HostKey.OK, long=True)
    for _ in range(items(table.flow).index("names")):
        table.key(
            HostKey.RIGHT
            if table.view.body.items[table.view.body.cursor] in ("rates",)
            else HostKey.OK
        )
    table.ok()
    assert table.view.phase is Phase.NAMES
    return table


def spell(table: Driver, letters) -> None:
    """Turn the wheel to each letter (▶ from A, or ◀ where that is shorter) and add it."""
    for letter in letters:
        target = WHEEL.index(letter)
        while WHEEL[table.flow.mode.letter] != letter:
            forward = (target - table.flow.mode.letter) % len(WHEEL) <= len(WHEEL) // 2
            table.key(HostKey.RIGHT if forward else HostKey.LEFT)
        table.ok()


def test_a_new_name_is_spelled_on_the_wheel_and_saved():
    table = names_list()
    table.key(HostKey.RIGHT)  # pad 2
    table.ok()
    assert table.view.body.choices == ("+new", "-none")  # no history: nothing recent
    table.ok()  # New name
    spell(table, [*"ZOË", DEL, "É", END])  # del takes the Ë back
    assert table.flow.names == (None, "ZOÉ", None, None, None, None)
    assert table.effects[-1] == NamesChanged(table.flow.names)
    assert table.view.phase is Phase.NAMES and table.view.body.cursor == 1


def test_end_is_one_press_left_of_a_and_ends_at_once():
    table = names_list()
    table.ok()
    table.ok()  # New name, on A
    table.key(HostKey.LEFT)
    assert table.view.body.letter == END
    table.ok()  # nothing spelled: no name
    assert table.flow.names == NO_NAMES


def test_a_name_of_eight_letters_is_kept_as_its_last_is_added():
    table = names_list()
    table.ok()
    table.ok()
    spell(table, "A" * MAX)
    assert table.flow.names[0] == "A" * MAX
    assert table.view.phase is Phase.NAMES


def test_a_name_never_begins_with_a_space():
    table = names_list()
    table.ok()
    table.ok()
    spell(table, " ")
    assert table.beeps[-1] is Sound.REFUSED and table.flow.mode.spelled == ""


def test_recent_names_come_first_and_take_one_press():
    past = HistorySummary(recent=("ANNA", "BRAM", "ZOÉ"))
    table = names_list(past)
    table.ok()  # pad 1
    assert table.view.body.choices == ("ANNA", "BRAM", "ZOÉ", "+new", "-none")
    table.key(HostKey.RIGHT)
    table.ok()  # BRAM
    assert table.flow.names[0] == "BRAM"
    table.ok()  # pad 1 again: its own name first, then the others
    assert table.view.body.choices == ("BRAM", "ANNA", "ZOÉ", "+new", "-none")
    for _ in range(4):
        table.key(HostKey.RIGHT)
    table.ok()  # No name
    assert table.flow.names[0] is None


def test_left_below_the_first_item_goes_back_each_time():
    table = names_list()
    table.ok()
    table.key(HostKey.LEFT)  # out of the choices
    assert table.view.phase is Phase.NAMES
    table.key(HostKey.LEFT)  # out of the names
    assert table.view.phase is Phase.SETTINGS
    assert table.view.body.items[table.view.body.cursor] == "names"


def test_a_name_set_by_a_script_needs_no_keys_and_is_saved():
    table = Driver(new_flow(BOARDS, FAST))
    table.send(NameSet(2, "ANNA"))
    assert table.flow.names[2] == "ANNA" and table.effects[-1] == NamesChanged(table.flow.names)


def test_a_seat_has_its_pads_name():
    flow = replace(new_flow(BOARDS, FAST), names=("ANNA", None, "ZOÉ", None, None, None))
    flow = replace(flow, pads=(0, 2, 3))
    assert seat_names(flow) == ("ANNA", "ZOÉ", None)


# --- where the names show ---------------------------------------------------------------


NAMED = ("ANNA", "BRAM", "JEAN LUC", None, None, None)


def named_game() -> Driver:
    table = fast_game(3)
    table.flow = replace(table.flow, names=NAMED)
    return table


def test_the_join_scores_and_ranking_show_a_name_where_it_fits():
    words = catalog("en")
    join = Driver(replace(new_flow(BOARDS, FAST), names=NAMED))
    join.press(0, 1)
    texts = [i.text for i in screen(join.view, words).items if hasattr(i, "text")]
    assert "P1" in texts  # six pads: a mark is too narrow for ANNA
    assert "ANNA" in [
        i.text for i in screen(join.view, words, (256, 64)).items if hasattr(i, "text")
    ]
    table = named_game()
    table.play([[1, 2], [3, 4], [5, 6]])
    table.menu("scores")
    table.ok()
    texts = [i.text for i in screen(table.view, words).items if hasattr(i, "text")]
    assert {"ANNA", "BRAM", "JEAN LUC"} <= set(texts)
    table.key(HostKey.OK)
    table.menu("end")
    table.ok()
    table.ok()
    assert table.view.phase is Phase.OVER
    texts = [i.text for i in screen(table.view, words).items if hasattr(i, "text")]
    assert any(t.endswith("ANNA") for t in texts) and any(t.endswith("BRAM") for t in texts)


# --- the history screen -----------------------------------------------------------------


PAST = HistorySummary(
    games=(
        PastGame(23, 11, "ANNA", 0, 34),
        PastGame(23, 11, None, 2, 31),
        PastGame(22, 11, None, None, None),
        PastGame(21, 11, "BRAM", 1, 30, shared=True),
    ),
    tally=(
        Tally("ANNA", 3, 4),
        Tally("BRAM", 1, 4),
        Tally(None, 1, 3, "strong"),
        Tally("ZOÉ", 0, 1),
    ),
    recent=("ANNA", "BRAM", "ZOÉ"),
)


def history_from_the_menu() -> Driver:
    table = fast_game(3)
    table.send(HistoryKnown(PAST))
    table.menu("history")
    table.ok()
    return table


def test_the_menus_history_turns_pages_and_goes_back_to_the_menu():
    table = history_from_the_menu()
    body = table.view.body
    assert (body.kind, body.page, body.pages) == ("wins", 0, 4)  # 2 of wins, 2 of games
    assert body.lines == PAST.tally[:3]
    for _ in range(2):
        table.key(HostKey.RIGHT)
    assert (table.view.body.kind, table.view.body.lines) == ("games", PAST.games[:3])
    table.key(HostKey.RIGHT)
    table.key(HostKey.RIGHT)  # past the last page
    assert table.beeps[-1] is Sound.REFUSED and table.view.body.page == 3
    table.ok()
    assert table.view.phase is Phase.MENU
    assert MENU_ITEMS[table.view.body.cursor] == "history"


def test_a_new_summary_keeps_the_page_in_range():
    table = history_from_the_menu()
    for _ in range(3):
        table.key(HostKey.RIGHT)
    table.send(HistoryKnown(HistorySummary()))
    assert table.view.body.page == 0 and table.view.body.lines == ()


def test_no_wins_to_show_says_whether_no_game_or_no_name_is_why():
    table = history_from_the_menu()
    table.send(HistoryKnown(HistorySummary(games=(PastGame(23, 11, None, 1, 30),))))
    assert "No names yet" in shown_texts(table)  # a game of unnamed seats: nobody known
    table.send(HistoryKnown(HistorySummary()))
    assert "No game yet" in shown_texts(table)


def shown_texts(table: Driver) -> list[str]:
    return [i.text for i in screen(table.view, catalog("en")).items if hasattr(i, "text")]


def test_the_settings_open_the_history_too():
    table = names_list(PAST)
    table.key(HostKey.LEFT)
    table.key(HostKey.RIGHT)  # Names -> History
    table.ok()
    assert table.view.phase is Phase.HISTORY


# --- the screens against their references ------------------------------------------------


def shots() -> dict:
    out = {}
    table = names_list(PAST)
    table.send(NameSet(1, "ZOÉ"))
    table.key(HostKey.RIGHT)
    out["names"] = table.view
    table.ok()
    out["name-choose"] = table.view
    for _ in range(3):
        table.key(HostKey.RIGHT)  # ZOÉ, ANNA, BRAM, New name
    table.ok()
    spell(table, "JO")
    table.key(HostKey.RIGHT)
    out["name-spell"] = table.view
    table = history_from_the_menu()
    out["history-wins"] = table.view
    table.key(HostKey.RIGHT)
    table.key(HostKey.RIGHT)
    out["history-games"] = table.view
    return out


SHOTS = shots()
CASES = [(name, lang) for name in SHOTS for lang in ("en", "nl", "fr")]


@pytest.mark.parametrize(("name", "lang"), CASES, ids=[f"{n}-{lang}" for n, lang in CASES])
def test_the_names_and_history_screens_match_their_references(name, lang):
    shown = screen(SHOTS[name], catalog(lang))
    assert not misfits(shown)
    image = render(shown)
    path = REFERENCES / f"{name}-{lang}.png"
    if os.environ.get("UPDATE_SCREENS"):
        image.save(path)
    assert path.exists(), f"no reference for {name}: run UPDATE_SCREENS=1 pytest {__file__}"
    assert Image.open(path).convert("1").tobytes() == image.tobytes(), f"{path} differs"


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
def test_every_names_and_history_screen_fits(lang, size):
    words = catalog(lang)
    widest = HistorySummary(
        games=(PastGame(28, 12, "ÉÉÉÉÉÉÉÉ", 0, 999), PastGame(28, 12, None, None, None)),
        tally=(Tally("ÉÉÉÉÉÉÉÉ", 999, 999), Tally(None, 999, 999, "easy")),
        recent=("MMMMMMMM",),
    )
    table = names_list(widest)
    table.send(NameSet(5, "MMMMMMMM"))
    seen = [screen(table.view, words, size)]
    table.ok()
    seen.append(screen(table.view, words, size))
    table.key(HostKey.RIGHT)
    table.ok()
    spell(table, "MMMMMMM")
    for letter in (" ", DEL, END):
        while WHEEL[table.flow.mode.letter] != letter:
            table.key(HostKey.LEFT)
        seen.append(screen(table.view, words, size))
    table = history_from_the_menu()
    table.send(HistoryKnown(widest))
    seen.append(screen(table.view, words, size))
    table.key(HostKey.RIGHT)
    seen.append(screen(table.view, words, size))
    problems = [p for s in seen for p in misfits(s)]
    assert not problems, problems[:5]


def test_right_at_the_join_screen_opens_the_names_and_left_comes_back():
    table = Driver(new_flow(BOARDS, FAST))
    table.press(0, 1)
    table.key(HostKey.RIGHT)
    assert table.view.phase is Phase.NAMES
    table.ok()
    table.ok()  # New name: no recent names to offer
    spell(table, ["B", "O", END])
    table.key(HostKey.LEFT)
    assert table.view.phase is Phase.JOIN and table.view.body.names[0] == "BO"
    assert table.flow.pads == (0,)  # the seats stay joined
