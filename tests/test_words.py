"""The words on the screens: a count agrees with its noun, a word has one abbreviation,
goods lost over 15 are said, and the unverified rates' mark is explained, never a "?".

The catalogs' vocabulary is the rulebooks' (docs/languages.md); these tests hold the
grammar and the short forms to it in every language.
"""

from __future__ import annotations

import json
import re
import string
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import BOARDS, Driver, until

from companion.rules import Gain
from companion.table import Phase, Timing, new_flow, start
from companion.ui import catalog as catalogs
from companion.ui.catalog import catalog, languages
from companion.ui.said import Board, PerSeat
from companion.ui.say import say
from companion.ui.screens import SIZE, Icon, Text, screen

LOCALE = Path(catalogs.__file__).parent / "locale"
SLOW = Timing(supply=5, countdown=3, reveal=5, step=5, scores=5, message=5)

# The nouns a count is said with, in every form: after a number they must agree with it.
NOUNS = {
    "en": "good goods card cards game games round rounds player players seat seats",
    "nl": "goed goederen kaart kaarten handkaart handkaarten spel spellen ronde rondes "
    "speler spelers",
    "fr": "marchandise marchandises carte cartes partie parties manche manches joueur "
    "joueurs perdue perdues",
}
# The placeholders that are counts (a seat, a card, a name are not).
COUNTS = {"n", "spent", "goods", "cards", "players", "vp", "wins", "games", "skipped", "held"}
COUNTS |= {"kept", "lost", "seconds", "s", "rounds", "offer"}
# A count of one and of two of goods, as the rulebooks write them.
GOODS = {
    "en": ("P1 +1 good", "P1 +2 goods"),
    "nl": ("S1 +1 goed", "S1 +2 goederen"),
    "fr": ("J1 +1 marchandise", "J1 +2 marchandises"),
}


def raw(lang: str) -> dict[str, str]:
    return json.loads((LOCALE / f"{lang}.json").read_text("utf-8"))


def literal(message: str) -> str:
    """The message's own text, its ``{fields}`` (and their forms) left out."""
    return " ".join(text for text, _, _, _ in string.Formatter().parse(message))


# --- counts and their nouns ---------------------------------------------------------


@pytest.mark.parametrize("lang", languages())
def test_every_count_bearing_message_has_plural_forms(lang):
    """A noun after a number is never written once for every count: "{n} goods" would
    say "1 goods". It is a form per count, ``{n} {n:good|goods}``."""
    nouns = set(NOUNS[lang].split())
    wrong = {
        key: message
        for key, message in raw(lang).items()
        for count, word in re.findall(r"\{(\w+)\} (\w+)", message)
        if count in COUNTS and word.lower() in nouns
    }
    assert not wrong, f"{lang}: a count with a fixed noun: {wrong}"


@pytest.mark.parametrize("lang", languages())
def test_one_good_and_two_goods(lang):
    words = catalog(lang)
    one, two = GOODS[lang]
    seat = words.seat(0)
    assert words.t("screen.gain_goods", seat=seat, n=1) == one
    assert words.t("screen.gain_goods", seat=seat, n=2) == two
    assert words.t("goods", n=1) == one.split(" ", 1)[1][1:]  # "1 good"
    held = words.t("screen.trade_held", n=1)
    assert held.endswith(one.rsplit(" ", 1)[1]), held


def test_the_forms_rule_sees_a_fixed_noun():
    message = "{seat} +{n} goods"
    assert re.findall(r"\{(\w+)\} (\w+)", message) == [("n", "goods")]


# --- one abbreviation per word ------------------------------------------------------


def stem(short: str) -> str:
    return short.rstrip(".").lower()


@pytest.mark.parametrize("lang", languages())
def test_no_abbreviation_stands_for_two_words(lang):
    table = catalog(lang).abbreviations()
    stems = [stem(short) for short in table.values()]
    assert len(set(stems)) == len(stems), f"{lang}: {table}"
    assert all(table.values())


@pytest.mark.parametrize("lang", languages())
def test_a_word_is_abbreviated_only_through_the_table(lang):
    """No message spells a short form of its own: an abbreviation from the table, or a
    word cut short with a dot ("march." for "marchandises"), is only ever ``{abbr[...]}``."""
    words = catalog(lang)
    table = words.abbreviations()
    full = [words.t(key, n=2).split()[-1].lower() for key in table]  # goods, Trader...
    wrong = {}
    for key, message in raw(lang).items():
        if key.startswith(("abbr.", "card.short.")):
            continue
        for token in re.findall(r"[^\s()]+", literal(message)):
            cut = token.endswith(".") and any(
                w.startswith(stem(token)) and w != stem(token) for w in full
            )
            if token in table.values() or (cut and len(stem(token)) > 0):
                wrong[key] = token
    assert not wrong, f"{lang}: abbreviations outside the table: {wrong}"


@pytest.mark.parametrize("lang", languages())
def test_goods_are_never_abbreviated_the_panel_draws_their_picture(lang):
    """Where a goods count has no room for its word, it keeps the goods' picture."""
    words = catalog(lang)
    assert "goods" not in words.abbreviations()
    view = _with_losses(_share_step(), tuple(Gain(s, goods=1, lost=2) for s in range(6)))
    shown = screen(view, words, SIZE)
    goods = [i for i in shown.items if isinstance(i, Icon) and i.name == "goods"]
    assert len(goods) >= 6, shown.items  # the row's picture, and one a seat


# --- goods lost over 15 -------------------------------------------------------------


def _share_step() -> Driver:
    """A 6-seat game stopped on a step that shares goods."""
    table = Driver(*start(new_flow(BOARDS, SLOW), 6, BOARDS[0], 30, 0.0))
    table.wait(5)
    table.play([[4], [4], [4], [4], [5], [5]])  # Frigates and Galleons: goods for all
    table.wait(3)
    until(table, Phase.STEP, "Share")
    return table


def _with_losses(table: Driver, gains: tuple[Gain, ...]):
    view = table.view
    return replace(view, body=replace(view.body, step=replace(view.body.step, gains=gains)))


@pytest.mark.parametrize("lang", languages())
def test_goods_lost_at_the_cap_are_said(lang):
    words = catalog(lang)
    lost = {"en": "2 lost", "nl": "2 verdwenen", "fr": "2 perdues"}[lang]
    view = _with_losses(_share_step(), (Gain(0, goods=1, lost=2), Gain(1, goods=3)))
    said = say(view, words)
    assert isinstance(said.content, PerSeat)
    first, second = said.content.lines
    assert lost in first.long and lost in first.short and "15" in first.long
    assert first.tally is not None and first.tally.after[-1] == "-2"
    assert second.tally is not None and second.tally.after == ()
    for size in ((128, 64), (256, 64)):
        shown = [i.text for i in screen(view, words, size).items if isinstance(i, Text)]
        assert any(lost in t for t in shown), (size, shown)


def test_six_seats_losing_goods_still_say_it_in_two_columns():
    words = catalog("fr")
    gains = tuple(Gain(s, goods=1, lost=2) for s in range(6))
    shown = screen(_with_losses(_share_step(), gains), words, SIZE)
    texts = [i.text for i in shown.items if isinstance(i, Text)]
    seats = [t for t in texts if t.startswith("J")]
    lost = [t for t in texts if t in ("-2", "(2 perdues)")]
    assert len(seats) == 6 and len(lost) == 6, texts


# --- the unverified rates' mark -----------------------------------------------------


@pytest.mark.parametrize("lang", languages())
def test_an_unverified_rate_is_marked_and_explained_on_the_board(lang):
    words = catalog(lang)
    table = Driver(*start(new_flow(BOARDS, SLOW), 3, BOARDS[0], 30, 0.0))
    assert not table.view.board.verified  # the shipped boards' rates are unverified
    said = say(table.view, words)
    assert isinstance(said.content, Board)
    rate = said.content.rows[2].rate
    assert rate is not None and "?" not in rate and rate.startswith("~")
    legend = said.content.legend
    assert legend and legend[0].startswith("~")
    for size in ((128, 64), (256, 64)):
        shown = [i.text for i in screen(table.view, words, size).items if isinstance(i, Text)]
        assert rate in shown and all(line in shown for line in legend)
        assert not any("?" in t for t in shown)


def test_a_verified_board_has_no_mark_and_no_legend():
    from companion.table.view import BoardView

    table = Driver(*start(new_flow(BOARDS, SLOW), 3, BOARDS[0], 30, 0.0))
    board = replace(table.view.board, verified=True)
    assert isinstance(board, BoardView)
    said = say(replace(table.view, board=board), catalog("en"))
    assert isinstance(said.content, Board)
    assert said.content.legend == () and "~" not in (said.content.rows[2].rate or "")


def test_a_wide_panel_sets_short_lines_in_three_columns_of_the_body_font():
    """Five seats' gains under a row: on 256x64 three columns keep the body font, where
    two would need the small one; 128x64 has room for two only."""
    words = catalog("fr")
    view = _with_losses(_share_step(), tuple(Gain(s, vp=1) for s in range(5)))
    wide = [i for i in screen(view, words, (256, 64)).items if isinstance(i, Text)]
    lines = [i for i in wide if i.text.endswith("+1 PV")]
    assert len(lines) == 5 and {i.font for i in lines} == {"body"}
    assert len({i.x for i in lines}) == 3
    narrow = [i for i in screen(view, words, SIZE).items if isinstance(i, Text)]
    assert len({i.x for i in narrow if i.text.endswith("PV")}) <= 2


@pytest.mark.parametrize("lang", languages())
def test_a_vp_row_that_pays_a_seat_nothing_says_vp_not_goods(lang):
    """A Captain or Admiral on a VP row with nothing left pays "+0 VP", never "+0 goods"."""
    from companion.rules import Row

    words = catalog(lang)
    table = _share_step()
    view = table.view
    step = replace(view.body.step, row=Row.VP, gains=(Gain(0), Gain(1, vp=2)))
    said = say(replace(view, body=replace(view.body, step=step)), words)
    assert isinstance(said.content, PerSeat)
    first, second = said.content.lines
    assert first.long == words.t("screen.gain_vp", seat=words.seat(0), n=0), first
    assert first.tally is None and second.tally is None
