"""Every screen against a reference PNG at 128×64 and at 256×64 (``UPDATE_SCREENS=1
pytest`` rewrites them), and every screen of whole games at 2 to 6 seats, in every
language and at both sizes, checked to fit the canvas.

The references in ``tests/screens/<size>/`` were checked by eye; a change to a screen
shows up here as a failing test and a new picture to look at.
"""

from __future__ import annotations

import dataclasses
import os
import random
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import BOARDS, Driver, fast_game, table, until
from PIL import Image

from companion.game.settings import DeviceSettings
from companion.rules import Gain, Rate, Rows, Trade, outcome
from companion.rules.steps import TradeGain
from companion.table import FAST, Phase, Timing, new_flow, offer_resume, start
from companion.table.bots import AskBot, BotChose
from companion.table.events import HostDown, HostKey, HubMismatch, KeyStuck, PadDown
from companion.table.setup import BOT_VALUES
from companion.table.state import MENU_ITEMS, KeptGame
from companion.table.view import BoardView, OverView, PlayerView, ScoresView, StepView, View
from companion.ui.catalog import catalog, languages
from companion.ui.font import font
from companion.ui.say import say
from companion.ui.screens import (
    Icon,
    Screen,
    Text,
    layout,
    notice_box,
    pieces,
    render,
    screen,
    splash,
)

REFERENCES = Path(__file__).parent / "screens"
SLOW = Timing(supply=5, countdown=3, reveal=5, step=5, scores=5, message=5)
WORDS = catalog("en")


SIZES = ((128, 64), (256, 64))


def shot(driver: Driver, words=WORDS, now: float | None = None) -> dict:
    """The view of the table now: each size draws it."""
    return driver.view if now is None else driver_view(driver, now)


def driver_view(driver: Driver, now: float):
    from companion.table import public_view

    return public_view(driver.flow, now)


def build() -> dict[str, Screen]:
    shots: dict = {}
    shots["resume"] = shot(Driver(offer_resume(new_flow(BOARDS, FAST), _played())))
    backup = offer_resume(new_flow(BOARDS, FAST), _played(), backup=True)
    shots["resume-backup"] = shot(Driver(backup))
    older = KeptGame(_played(), "2025-11-25T21:40")  # and one set aside on an earlier evening
    aside = Driver(offer_resume(replace(new_flow(BOARDS, FAST), kept=(older,)), _played()))
    aside.key(HostKey.LEFT)
    shots["confirm-aside"] = shot(aside)
    aside.ok()
    shots["join-kept"] = shot(aside)
    aside.key(HostKey.LEFT)
    aside.key(HostKey.RIGHT)  # the older: when it was played, beside the hint
    shots["kept"] = shot(aside)
    setup = Driver(new_flow(BOARDS, FAST))
    setup.press(0, 1)
    setup.press(2, 4)
    shots["join"] = shot(setup)
    setup.ok()
    setup.key(HostKey.RIGHT)
    shots["options"] = shot(setup)

    setup.key(HostKey.OK, long=True)  # the settings, before a game
    shots["settings"] = shot(setup)
    for _ in range(5):  # on to the contrast
        setup.ok()
    setup.key(HostKey.RIGHT)  # contrast 8 -> 9
    setup.ok()
    setup.ok()  # OK on "Your board's rates": the editor, on space 0
    setup.ok()  # change space 0
    setup.key(HostKey.RIGHT)
    shots["rates"] = shot(setup)
    setup.ok()  # set: on to space 1
    shots["rates-move"] = shot(setup)
    for _ in range(15):
        setup.key(HostKey.RIGHT)
    shots["rates-keep"] = shot(setup)
    for _ in range(17):  # back past space 0, with space 0 changed: asks first
        setup.key(HostKey.LEFT)
    shots["discard"] = shot(setup)

    table = Driver(*start(new_flow(BOARDS, SLOW), 3, BOARDS[0], 30, 0.0))
    shots["supply"] = shot(table)
    table.wait(5)
    table.press(0, 1)
    table.press(0, 7)
    table.press(1, 3)
    shots["select"] = shot(table)
    table.press(1, 8)
    table.send(PadDown(1, 2))  # a third card in a 2-card game: refused
    shots["refused"] = shot(table)
    table.wait(5)  # the notice clears by itself
    table.press(2, 4)
    table.press(2, 8)
    shots["countdown"] = shot(table, now=table.now + 0.5)
    table.wait(3)
    shots["reveal"] = shot(table)
    for kind in ("Share", "Bonus", "Trade", "Beggar", "Discard"):
        until(table, Phase.STEP, kind)
        shots[f"step-{kind.lower()}"] = shot(table)
    until(table, Phase.SCORES)
    shots["scores"] = shot(table)
    table.menu("undo")
    shots["menu"] = shot(table)
    table.ok()
    shots["confirm-undo"] = shot(table)
    table.key(HostKey.LEFT)
    table.key(HostKey.RIGHT)
    table.ok()
    shots["confirm"] = shot(table)

    stuck = Driver(*start(new_flow(BOARDS, SLOW), 3, BOARDS[0], 30, 0.0))
    stuck.wait(5)
    stuck.send(KeyStuck(1, 3))  # the notice names the seat, never the card
    shots["stuck-key"] = shot(stuck)
    stuck.wait(5)
    stuck.send(HostDown(HostKey.RIGHT))
    stuck.wait(10)
    shots["stuck-button"] = shot(stuck)
    stuck.wait(5)
    stuck.send(HubMismatch(2, 1))  # the hub's firmware is of another version
    shots["hub-mismatch"] = shot(stuck)

    six = fast_game(6, BOARDS[1])
    six.play([[3], [4], [5], [6], [1], [2]])
    six.play([[7], [7], [1], [2], [5], [8]])
    shots["trade"] = shot(six)
    while six.view.body.spent:
        six.key(HostKey.LEFT)
    shots["trade-none"] = shot(six)
    reveal = Driver(*start(new_flow(BOARDS, SLOW), 6, BOARDS[0], 30, 0.0))
    reveal.wait(5)
    reveal.play([[1], [2], [3], [4], [7], [8]])
    reveal.wait(3)
    shots["reveal-6"] = shot(reveal)
    until(reveal, Phase.SCORES)
    shots["scores-6"] = shot(reveal)
    reveal.menu("end")
    reveal.ok()
    reveal.ok()
    shots["over-6"] = shot(reveal)
    reveal.ok()
    shots["confirm-new"] = shot(reveal)
    goods = Driver(*start(new_flow(BOARDS, SLOW), 6, BOARDS[0], 30, 0.0))
    goods.wait(5)
    goods.play([[4], [4], [4], [4], [4], [5]])  # Frigates: goods for five seats
    goods.wait(3)
    until(goods, Phase.STEP, "Share")
    shots["step-lost"] = _losing(goods.view, (Gain(0, goods=1, lost=2), Gain(1, goods=3)))
    losing = tuple(Gain(s, goods=s % 3, lost=3 - s % 3) for s in range(5))
    shots["step-lost-5"] = _losing(goods.view, losing)
    _bot_shots(shots)
    shots["over-tie"] = _tied_ending()
    shots["scores-names"] = _named_scores()
    shots["step-traders"] = _six_traders()
    return shots


NAMES = ("Anna", None, "Maximilian", "Jo", None)


def _tied_ending() -> View:
    """Five named seats at the end: 11 VP three times, one set apart by the goods left
    and two by the cards in hand; 2 VP after the conversion for a seat of 6 goods."""
    hands = [set(range(1, 9 - n)) for n in (2, 4, 4, 6, 1)]
    state = table(5, BOARDS[0], vp=[9, 11, 11, 11, 7], goods=[1, 2, 1, 1, 6], hands=hands)
    return View(Phase.OVER, None, OverView(outcome(state), False, NAMES), None)


def _six_traders() -> View:
    """Six Traders resolving at 3:1 on space 7, the marker pushed back from 11."""
    gains = tuple(TradeGain(s, vp=1 + s % 3, goods=-3 * (1 + s % 3)) for s in range(6))
    board = BoardView(Rows(3, 9, 7), Rate(3, 1), True, ("trader", 11))
    return View(Phase.STEP, board, StepView(7, Trade(11, 7, (Rate(3, 1),), gains)), None)


def _named_scores() -> View:
    """Four seats, three named, the last a bot; a three-digit VP and 15 goods."""
    players = (PlayerView(12, 6, 7), PlayerView(1, 10, 6), PlayerView(104, 15, 5))
    body = ScoresView(9, (*players, PlayerView(9, 0, 8)), False, NAMES[:4])
    return View(Phase.SCORES, None, body, None, (False, False, False, True))


def _losing(view, gains: tuple[Gain, ...]):
    """A step's view with other gains: goods lost over the cap of 15."""
    step = replace(view.body.step, gains=gains)
    return replace(view, body=replace(view.body, step=step))


def _bot_shots(shots: dict) -> None:
    """One person and two bots: the options, a bot thinking beside one locked, the reveal."""
    setup = Driver(new_flow(BOARDS, FAST))
    setup.press(0, 1)
    for _ in range(3):
        setup.ok()
    for strengths in (("normal",), ("strong",)):
        for _ in range(BOT_VALUES.index(strengths[0])):
            setup.key(HostKey.RIGHT)
        setup.ok()
    setup.key(HostKey.LEFT)  # back on the second bot
    shots["options-bots"] = shot(setup)
    table = Driver(*start(new_flow(BOARDS, SLOW), 1, BOARDS[0], 30, 0.0, ("normal", "strong")))
    table.wait(5)
    first = next(e for e in table.effects if isinstance(e, AskBot))
    table.send(BotChose(first.view.seat, first.view.state, (2, 5)))
    table.press(0, 1)
    shots["select-bots"] = shot(table)  # P1 placing, B2 locked, B3 thinking
    table.press(0, 3)
    table.send(BotChose(2, first.view.state, (4, 8)))
    table.wait(3)
    shots["reveal-bots"] = shot(table)


def _played():
    """The record after three rounds of a 4-seat game (no Trader: no dialog to answer)."""
    table = fast_game(4)
    for plays in ([[1], [2], [3], [4]], [[5], [6], [8], [2]], [[2], [1], [4], [3]]):
        table.play(plays)
    return [e.record for e in table.effects if hasattr(e, "record")][-1]


SHOTS = build()
CASES = [(name, size) for name in [*sorted(SHOTS), "splash"] for size in SIZES]


def drawn(name: str, size: tuple[int, int], words=WORDS) -> Screen:
    if name == "splash":
        return splash(words, size)
    return screen(SHOTS[name], words, size)


@pytest.mark.parametrize(("name", "size"), CASES, ids=[f"{n}-{s[0]}" for n, s in CASES])
def test_screen_matches_its_reference(name, size):
    image = render(drawn(name, size))
    path = REFERENCES / f"{size[0]}x{size[1]}" / f"{name}.png"
    if os.environ.get("UPDATE_SCREENS"):
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
    assert path.exists(), f"no reference for {name}: run UPDATE_SCREENS=1 pytest {__file__}"
    reference = Image.open(path).convert("1")
    assert reference.size == image.size == size
    assert reference.tobytes() == image.tobytes(), f"{name} differs from {path}"


def said_words(value: object) -> set[str]:
    """Every string and number a ``Said`` holds, and its derived forms (``Offer.whole``,
    ``Seat.named``, ``Row.rate``), as text."""
    if isinstance(value, str | int) and not isinstance(value, bool):
        return {str(value)}
    if isinstance(value, tuple):
        return set().union(*(said_words(v) for v in value))
    if dataclasses.is_dataclass(value):
        found = set().union(
            *(said_words(getattr(value, f.name)) for f in dataclasses.fields(value))
        )
        derived = ("whole", "named", "rate")
        return found | {getattr(value, p) for p in derived if getattr(value, p, None) is not None}
    return set()


@pytest.mark.parametrize("lang", languages())
def test_the_oled_draws_what_the_screen_says_and_nothing_else(lang):
    """The layouter places words, it makes none: every text on the panel is one the
    semantic model holds (a Text may carry a ranking's place before the label)."""
    words = catalog(lang)
    for name, view in SHOTS.items():
        said = say(view, words)
        held = said_words(said)
        for size in SIZES:
            assert layout(said, size) == screen(view, words, size)
            for text in texts(layout(said, size)):
                place, dot, label = text.partition(".")
                ranked = dot and place.isdigit() and label in held
                assert text in held or ranked, (lang, name, size, text)


def texts(shown: Screen) -> list[str]:
    return [item.text for item in shown.items if isinstance(item, Text)]


def test_screens_before_the_reveal_never_name_a_card():
    for lang in languages():
        words = catalog(lang)
        names = {words.card(c) for c in range(1, 9)} | {words.short_card(c) for c in range(1, 9)}
        for name in ("supply", "select", "refused", "countdown"):
            shown = drawn(name, SIZES[0], words)
            said = [*texts(shown), shown.notice or ""]
            assert not any(card in text for text in said for card in names), (lang, name)


def test_values_that_matter_are_large():
    """Row values, VP and goods on the scores and the ranking: digits of 10 px and more."""
    from companion.ui.font import font, ink

    for name in ("select", "scores-6", "over-6", "trade"):
        for size in SIZES:
            numbers = [
                i for i in drawn(name, size).items if isinstance(i, Text) and i.text.isdigit()
            ]
            assert numbers, name
            tall = [ink(i.text, font(i.font)) for i in numbers if i.font == "large"]
            assert tall and all(box[3] - box[1] >= 10 for box in tall), name


# --- every screen fits: nothing leaves the canvas, nothing overlaps ---------------------


def misfits(shown: Screen) -> list[str]:
    """What is wrong with a screen: a piece off the canvas, or two pieces touching."""
    width, height = shown.size
    boxes = [(repr(getattr(item, "text", item)), box) for item, box in pieces(shown)]
    notice = notice_box(shown)
    inside = [*boxes, (repr(shown.notice), notice)] if notice else boxes
    wrong = [
        f"{what} leaves the canvas at {box}"
        for what, box in inside  # the notice is drawn over the rest: it only has to fit
        if box[0] < 0 or box[1] < 0 or box[2] >= width or box[3] >= height
    ]
    for i, (a, p) in enumerate(boxes):
        for b, q in boxes[i + 1 :]:
            if p[0] <= q[2] and q[0] <= p[2] and p[1] <= q[3] and q[1] <= p[3]:
                wrong.append(f"{a} overlaps {b}")
    return wrong + run_together(shown)


def run_together(shown: Screen) -> list[str]:
    """Two numbers read as one: texts holding digits, side by side on a line, with less
    than a character of the narrower font between their inks ("1" and "10" read 110)."""
    numbers = [
        (item, box)
        for item, box in pieces(shown)
        if isinstance(item, Text) and any(ch.isdigit() for ch in item.text)
    ]
    wrong = []
    for i, (a, p) in enumerate(numbers):
        for b, q in numbers[i + 1 :]:
            if p[1] > q[3] or q[1] > p[3]:  # on different lines
                continue
            apart = max(q[0] - p[2], p[0] - q[2]) - 1  # blank columns between their inks
            character = min(font(a.font).advance, font(b.font).advance)
            if apart < character:
                wrong.append(f"{a.text!r} and {b.text!r} {apart} px apart, under {character}")
    return wrong


def every_screen(players: int, seed: int, words, size) -> set[Screen]:
    """Every screen of a whole random game at ``players`` seats, each resolution step,
    trade, menu and the ending included; a long target makes the numbers grow wide
    (three digits of VP). Each different screen once."""
    rng = random.Random(seed)
    target = rng.choice([30, 150])
    table = Driver(*start(new_flow(BOARDS, SLOW), players, BOARDS[seed % 2], target, 0.0))
    seen = set()

    def look() -> None:
        seen.add(screen(table.view, words, size))

    need = 2 if players <= 3 else 1
    for _ in range(300):  # rounds; no game at 150 VP lasts that long
        if table.view.phase is Phase.OVER:
            break
        look()  # the supply phase
        table.wait(5)
        state = table.flow.game.state
        if rng.random() < 0.05:  # the menu, the scores and a question now and then
            table.menu("scores")
            look()
            table.ok()
            look()
            table.ok()
            table.menu("end")
            table.ok()
            look()
            for _ in range(len(MENU_ITEMS) + 2):  # back to the menu, up it, and out of it
                if table.view.phase not in (Phase.MENU, Phase.CONFIRM):
                    break
                table.key(HostKey.LEFT)
            assert table.view.phase not in (Phase.MENU, Phase.CONFIRM)
        traders = [s for s, hand in enumerate(state.hands) if 7 in hand]
        for seat, hand in enumerate(state.hands):
            cards = rng.sample(sorted(hand), need)
            if seat in traders and rng.random() < 0.5 and 7 not in cards:
                cards[0] = 7  # many Traders at once: the widest step screens
            for card in cards:
                table.press(seat, card)
                look()
        table.wait(3)  # the countdown
        while table.view.phase not in (Phase.SUPPLY, Phase.OVER):
            look()
            if table.view.phase is Phase.TRADE:
                table.key(HostKey.LEFT)
                look()
            table.ok()
    look()
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=[str(s[0]) for s in SIZES])
@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_screen_fits_the_canvas(players, lang, size):
    words = catalog(lang)
    shown = [drawn(name, size, words) for name in [*SHOTS, "splash"]]
    for seed in range(2):
        shown += every_screen(players, seed, words, size)
    shown += every_settings_screen(words, size)
    notices = [k for k in words.messages if k.startswith("notice.")]
    base = drawn("select", size, words)
    for card, button in zip(range(1, 9), ["left", "ok", "right"] * 3, strict=False):
        values = {"seat": words.seat(5), "reason": "x", "card": words.card(card), "pad": 6}
        values["trader"] = words.seat(4)
        values |= {"hub": 2, "ours": 1, "code": "8888"}  # the phone page's pairing code
        values["button"] = words.t(f"keys.{button}")
        shown += [Screen(size, base.items, words.t(k, **values)) for k in notices]
    problems = {p for s in shown for p in misfits(s)}
    assert not problems, sorted(problems)[:10]


def every_settings_screen(words, size) -> list[Screen]:
    """The settings at their widest values, each item under the cursor, every space of
    the rates editor, its refusal and its question."""
    prefs = DeviceSettings(target=950, volume=10, contrast=10)
    table = Driver(new_flow(BOARDS, SLOW, prefs=prefs, languages=tuple(languages())))
    table.key(HostKey.OK, long=True)

    def look() -> None:
        seen.append(screen(table.view, words, size))

    seen: list[Screen] = []
    for lang in languages():  # each language's own name
        table.flow = replace(table.flow, prefs=replace(table.flow.prefs, language=lang))
        look()
    while table.view.body.items[table.view.body.cursor] != "rates":
        table.ok()
        look()
    table.key(HostKey.RIGHT)
    look()  # Back
    table.key(HostKey.LEFT)
    table.ok()
    for _ in range(15):
        table.ok()  # change the space
        table.key(HostKey.RIGHT)  # 5:2 and the like: the widest rates
        look()
        table.ok()
        look()  # on to the next space, moving
    table.ok()
    while not table.view.body.first:
        table.key(HostKey.LEFT)
    table.key(HostKey.RIGHT)  # 6:1 on space 15: out of order
    table.ok()
    look()  # Keep
    table.ok()
    look()  # refused: the notice names the spaces
    assert seen[-1].notice
    table.ok()  # set as it is: on Keep
    while table.view.phase is Phase.RATES:
        table.key(HostKey.LEFT)
    look()  # Discard changes?
    return seen


def test_the_fit_check_sees_what_does_not_fit():
    assert misfits(Screen((128, 64), (Text("x" * 40, "body", 0, 0),)))  # off the right edge
    collide = (Text("a" * 14, "body", 0, 0), Text("b", "body", 80, 0))
    assert misfits(Screen((128, 64), collide))
    apart = (Text("P1 +2 VP", "body", 0, 0), Text("P2 +2 VP", "body", 66, 0))
    assert not misfits(Screen((128, 64), apart))


def test_the_fit_check_refuses_numbers_that_run_together():
    """A 1 and a 10 five pixels apart read 110; a character apart, two numbers."""
    close = (Text("1", "large", 0, 0), Text("10", "large", 11, 0))
    assert run_together(Screen((128, 64), close)) == ["'1' and '10' 5 px apart, under 8"]
    assert misfits(Screen((128, 64), close))
    label = (Text("B3", "body", 0, 0), Text("12", "large", 14, -3))  # "B312"
    assert run_together(Screen((128, 64), label))
    apart = (Text("1", "large", 0, 0), Text("10", "large", 16, 0))
    assert not run_together(Screen((128, 64), apart))
    lines = (Text("1", "body", 0, 0), Text("10", "body", 6, 12))  # one above the other
    assert not run_together(Screen((128, 64), lines))
    words = (Text("OK", "body", 0, 0), Text("10", "body", 14, 0))  # a word, not a number
    assert not run_together(Screen((128, 64), words))


def test_a_customs_that_counts_nothing_shows_no_vp_not_no_goods():
    table = Driver(*start(new_flow(BOARDS, SLOW), 3, BOARDS[0], 30, 0.0))
    table.wait(5)
    table.play([[6, 1], [2, 3], [7, 8]])  # no Frigate, no Galleon: Customs counts nothing
    table.wait(3)
    until(table, Phase.STEP, "Bonus")
    if "Customs" not in texts(screen(table.view, WORDS))[0]:  # the Governor comes first
        table.ok()
    assert "P1 +0 VP" in texts(screen(table.view, WORDS))


def test_a_trader_who_hands_in_nothing_reads_no_trade():
    six = Driver(*start(new_flow(BOARDS, SLOW), 6, BOARDS[1], 30, 0.0))
    six.ok()  # no supply animation
    six.play([[3], [4], [5], [6], [1], [2]])
    until(six, Phase.SUPPLY)
    six.ok()
    six.play([[7], [7], [1], [2], [5], [8]])
    until(six, Phase.TRADE)
    while six.view.phase is Phase.TRADE:
        while six.view.body.spent:
            six.key(HostKey.LEFT)
        six.ok()
    assert six.view.phase is Phase.STEP and type(six.view.body.step).__name__ == "Trade"
    said = texts(screen(six.view, WORDS))
    assert "P1 no trade" in said and not any("-0" in t for t in said)


@pytest.mark.parametrize("size", SIZES, ids=[str(s[0]) for s in SIZES])
@pytest.mark.parametrize("lang", languages())
def test_the_ranking_shows_how_a_tie_on_vp_was_broken(lang, size):
    """Three seats of 11 VP: the goods left set the first apart, the cards in hand the
    other two; those values are drawn inverted, and a wide panel says how in words."""
    words = catalog(lang)
    shown = drawn("over-tie", size, words)
    inverted = sorted(item.text for item in shown.items if isinstance(item, Text) and not item.fill)
    # P2 2 goods, P3 1 goods and 4 cards, P4 2 cards, P1 1 goods, P5 0 goods
    assert inverted == sorted(["2", "1", "4", "2", "1", "0"]), inverted
    caption = words.t("tiebreak.GOODS")
    assert (caption in texts(shown)) == (size[0] == 256)


def test_many_traders_keep_their_units():
    """Six Traders on the narrow panel: every amount is followed by the picture of what
    it counts, in the body font, never a bare number in the tiny one."""
    for lang in languages():
        shown = drawn("step-traders", SIZES[0], catalog(lang))
        items = list(shown.items)
        amounts = [
            i for i, item in enumerate(items) if isinstance(item, Text) and item.text[0] in "+-"
        ]
        assert len(amounts) == 12, lang
        for i in amounts:
            assert items[i].font == "body", (lang, items[i])
            unit = items[i + 1]
            assert isinstance(unit, Icon) and unit.name == (
                "goods" if items[i].text[0] == "-" else "vp"
            )


def test_scores_keep_names_apart_from_their_numbers_on_the_wide_panel():
    """The wide panel names the seats and spreads the columns over its width."""
    shown = drawn("scores-names", SIZES[1])
    assert {"Anna", "Maximilian", "Jo"} <= set(texts(shown))
    right = max(box[2] for _, box in pieces(shown))
    assert right >= SIZES[1][0] - 8  # the last column ends at the right edge
    assert not run_together(shown)


def test_the_saved_games_list_says_when_each_was_played_in_every_language():
    """The fact that tells two alike games apart: the moment on a wide panel, its day
    where the moment does not fit beside the hint (it was dropped on 128×64)."""
    for lang in languages():
        words = catalog(lang)
        narrow, wide = (texts(drawn("kept", size, words)) for size in SIZES)
        assert words.date(25, 11) in narrow, (lang, narrow)
        assert words.moment("2025-11-25T21:40") in wide, (lang, wide)
