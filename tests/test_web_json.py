"""The page's JSON says what the screen says for a view: its title, its lines at length
(one a line), the cursor's line, the hint, the fact and the notice; never read back from
a layout, and never anything hidden."""

from __future__ import annotations

import subprocess
import sys

import pytest
from test_screens import SHOTS

from companion.rules import Outcome, Rate, Rows, TieBreak
from companion.table.state import Phase
from companion.table.view import (
    BoardView,
    ChoosingView,
    JoinView,
    MenuView,
    OverView,
    PlayerView,
    ScoresView,
    View,
)
from companion.ui.catalog import catalog
from companion.web.viewjson import view_bytes, view_data

WORDS = catalog("en")
BOARD = BoardView(Rows(3, 4, 5), Rate(2, 1), verified=True)
WORDS_KEYS = ("title", "lines", "cursor", "hint", "fact", "notice")


def said(view: View, lang: str = "en") -> dict:
    data = view_data(view, catalog(lang))
    return {key: data[key] for key in WORDS_KEYS}


def shot(name: str, lang: str = "en") -> dict:
    return said(SHOTS[name], lang)


def test_while_the_seats_choose_the_board_and_marks_are_no_lines():
    view = View(Phase.SELECT, BOARD, ChoosingView(2, 2, (1, 2, 0), None), None)
    assert said(view) == {
        "title": None,
        "lines": [],
        "cursor": None,
        "hint": "hold OK: menu",
        "fact": "round 2",
        "notice": None,
    }
    data = view_data(view, WORDS)
    assert data["body"] == {"kind": "ChoosingView", "round": 2, "need": 2, "placed": [1, 2, 0]}
    assert data["board"]["rows"] == {"vp": 3, "goods": 4, "trader": 5}


def test_the_countdown_s_seconds_never_reach_the_page():
    counting = [
        View(Phase.COUNTDOWN, BOARD, ChoosingView(1, 2, (2, 2), seconds), None)
        for seconds in (3, 2, 1)
    ]
    assert len({view_bytes(view, WORDS) for view in counting}) == 1
    data = view_data(counting[0], WORDS)
    assert data["counting"] is True and "countdown" not in data["body"]
    assert data["lines"] == [] and data["fact"] == "round 1"


def test_the_reveal_says_each_seat_s_cards_at_length_one_seat_a_line():
    assert shot("reveal-6") == {
        "title": "Reveal",
        "lines": [
            "P1 Captain",
            "P2 Admiral",
            "P3 Governor",
            "P4 Frigate",
            "P5 Trader",
            "P6 Beggar",
        ],
        "cursor": None,
        "hint": "OK next",
        "fact": "round 1",
        "notice": None,
    }
    assert shot("reveal-6", "fr")["lines"][0] == "J1 Capitaine"
    assert shot("reveal-bots")["lines"] == [
        "P1 Captain Governor",
        "B2 Admiral Galleon",
        "B3 Frigate Beggar",
    ]


def test_a_step_says_what_each_seat_got_and_its_extra_line_never_the_row_s_numbers():
    assert shot("step-share")["lines"] == ["P1 +2 VP"]
    assert shot("step-trade") == {
        "title": "Trader",
        "lines": ["P1 -2 goods +1 VP"],  # the row and its rate are the page's board
        "cursor": None,
        "hint": "OK next",
        "fact": "round 1",
        "notice": None,
    }
    assert shot("step-beggar")["lines"] == ["P2 +3 goods", "P3 +3 goods", "take back every card"]
    assert shot("step-bonus")["lines"] == ["P2 +4 goods", "(not from the board)"]
    assert shot("step-discard")["title"] == "End of round"
    assert shot("step-discard")["lines"] == ["Cards discarded by", "P1"]


def test_a_trader_s_choice_says_the_goods_held_and_the_offer():
    assert shot("trade")["title"] == "P1 trades"
    assert shot("trade")["lines"] == ["holds 12 goods", "hand in 12 goods → +6 VP"]
    assert shot("trade-none")["lines"] == ["holds 12 goods", "no trade (keeps 12 goods)"]
    assert shot("trade")["hint"] == "1◀ fewer 2▶ more 7/OK yes"


def test_a_list_says_every_line_and_which_is_under_the_cursor():
    menu = View(Phase.MENU, None, MenuView(("back", "scores", "end", "settings"), 2, False), None)
    assert said(menu) == {
        "title": "Menu",
        "lines": ["Back to the game", "Scores", "End the game", "Settings"],
        "cursor": 2,
        "hint": "◀ ▶ move   OK choose",
        "fact": None,
        "notice": None,
    }
    options = shot("options-bots")
    assert options["title"] == "New game" and options["cursor"] == 3
    assert options["lines"][3] == "B3: bot, strong" and options["lines"][-1] == "Start"
    rates = shot("rates")
    assert len(rates["lines"]) == 17 and rates["lines"][0] == "Space 0: ◀ 6:1 ▶"
    assert rates["lines"][-1] == "Keep these rates"


def test_plain_lines_have_no_cursor():
    assert shot("resume-backup") == {
        "title": "Resume the game?",
        "lines": ["4 seats, 3 rounds", "(last save damaged)"],
        "cursor": None,
        "hint": "OK resume   ◀ new game",
        "fact": None,
        "notice": None,
    }
    assert shot("confirm-undo")["lines"] == ["Round 1 is taken back", "and played again."]
    assert shot("discard")["lines"] == ["Your rates are lost."]


def test_joining_says_what_to_do_and_how_many_are_seated_the_pads_are_seats():
    view = View(Phase.JOIN, None, JoinView((True, False, True), ("ANNALISE", None, None)), None)
    data = view_data(view, WORDS)
    assert {key: data[key] for key in WORDS_KEYS} == {
        "title": "Join the game",
        "lines": ["Press any key on your pad"],
        "cursor": None,
        "hint": "▶ names  OK go on",
        "fact": "2 seated",
        "notice": None,
    }
    assert data["seats"] == ["ANNALISE", "P2", "P3"]  # a name at length: the page has room
    assert data["body"]["joined"] == [True, False, True]


def test_the_scores_and_the_ranking_are_the_page_s_table_under_the_title():
    players = (PlayerView(7, 2, 3), PlayerView(9, 0, 4))
    scores = View(Phase.SCORES, BOARD, ScoresView(3, players, names=("ANNA", None)), None)
    assert said(scores) == {
        "title": None,
        "lines": [],
        "cursor": None,
        "hint": "OK next round",
        "fact": "round 3",
        "notice": None,
    }
    end = Outcome((7, 9), (2, 0), (3, 4), ((1,), (0,)), TieBreak.VP)
    over = View(Phase.OVER, BOARD, OverView(end, False, ("ANNA", "BARTHOLOMEW")), None)
    assert said(over)["title"] == "BARTHOLOMEW wins!"  # the name at length
    assert said(over)["lines"] == [] and said(over)["hint"] == "OK new game   ◀ undo"
    assert view_data(over, WORDS)["seats"] == ["ANNA", "BARTHOLOMEW"]


def test_a_notice_is_said_and_a_pairing_code_is_not():
    assert shot("refused")["notice"] == "P2: take one back first"
    assert shot("stuck-key")["notice"] == "P2: a key is stuck"
    choosing = ChoosingView(1, 2, (0, 0), None)
    pairing = View(Phase.SELECT, BOARD, choosing, ("notice.pair_code", (("code", "4321"),)))
    data = view_data(pairing, WORDS)
    assert data["notice"] == "Pairing code shown on the table" and "4321" not in str(data)


@pytest.mark.parametrize("name", sorted(SHOTS))
def test_every_screen_s_words_are_the_oled_s_at_length(name):
    """What the page says of each screen is in the catalog's words: no number alone (a
    row's value, a rate), no two seats run together on a line as the OLED's columns."""
    for lang in ("en", "fr", "nl"):
        words = shot(name, lang)
        for line in words["lines"]:
            assert line.strip() and not line.replace(":", "").replace("?", "").isdigit()
            assert "  " not in line, (name, lang, line)
        assert words["hint"]


def test_the_page_s_json_reads_no_font():
    code = (
        "import sys, companion.web.viewjson, companion.web.server; "
        "print('companion.ui.font' in sys.modules, 'companion.ui.screens' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["False", "False"]
