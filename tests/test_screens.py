"""Every screen against a reference PNG (``UPDATE_SCREENS=1 pytest`` rewrites them), and
every screen of whole games at 2 to 6 seats checked to fit the canvas.

The references in ``tests/screens/`` were checked by eye; a change to a screen shows
up here as a failing test and a new picture to look at.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import BOARDS, Driver, fast_game, until
from PIL import Image

from companion.game.settings import DeviceSettings
from companion.table import FAST, Phase, Timing, new_flow, offer_resume, start
from companion.table.events import HostKey, PadDown
from companion.ui.catalog import catalog, languages
from companion.ui.screens import (
    HEIGHT,
    WIDTH,
    Screen,
    big_box,
    layout,
    notice_piece,
    render,
    screen,
    splash,
)

REFERENCES = Path(__file__).parent / "screens"
SLOW = Timing(supply=5, countdown=3, reveal=5, step=5, scores=5, message=5)
WORDS = catalog("en")


def shot(driver: Driver, words=WORDS, now: float | None = None) -> Screen:
    return screen(driver.view if now is None else driver_view(driver, now), words)


def driver_view(driver: Driver, now: float):
    from companion.table import public_view

    return public_view(driver.flow, now)


def build() -> dict[str, Screen]:
    shots: dict[str, Screen] = {"splash": splash(WORDS)}
    shots["resume"] = shot(Driver(offer_resume(new_flow(BOARDS, FAST), _played())))
    backup = offer_resume(new_flow(BOARDS, FAST), _played(), backup=True)
    shots["resume-backup"] = shot(Driver(backup))
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
    setup.key(HostKey.RIGHT)
    shots["rates"] = shot(setup)
    setup.key(HostKey.LEFT)  # none again
    setup.ok()
    for _ in range(5):  # space 1: 3:1 down to none, then back to space 0
        setup.key(HostKey.LEFT)
    setup.key(HostKey.LEFT)  # out, with space 1 changed: asks first
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
    table.key(HostKey.OK, long=True)
    shots["menu"] = shot(table)
    table.key(HostKey.LEFT)
    table.ok()
    shots["confirm"] = shot(table)

    six = fast_game(6, BOARDS[1])
    six.play([[3], [4], [5], [6], [1], [2]])
    six.play([[7], [7], [1], [2], [5], [8]])
    shots["trade"] = shot(six)
    reveal = Driver(*start(new_flow(BOARDS, SLOW), 6, BOARDS[0], 30, 0.0))
    reveal.wait(5)
    reveal.play([[1], [2], [3], [4], [7], [8]])
    reveal.wait(3)
    shots["reveal-6"] = shot(reveal)
    until(reveal, Phase.SCORES)
    shots["scores-6"] = shot(reveal)
    reveal.key(HostKey.OK, long=True)
    reveal.key(HostKey.LEFT)
    reveal.ok()
    reveal.ok()
    shots["over-6"] = shot(reveal)
    return shots


def _played():
    """The record after three rounds of a 4-seat game (no Trader: no dialog to answer)."""
    table = fast_game(4)
    for plays in ([[1], [2], [3], [4]], [[5], [6], [8], [2]], [[2], [1], [4], [3]]):
        table.play(plays)
    return [e.record for e in table.effects if hasattr(e, "record")][-1]


SHOTS = build()


@pytest.mark.parametrize("name", sorted(SHOTS))
def test_screen_matches_its_reference(name):
    image = render(SHOTS[name])
    path = REFERENCES / f"{name}.png"
    if os.environ.get("UPDATE_SCREENS"):
        REFERENCES.mkdir(exist_ok=True)
        image.save(path)
    assert path.exists(), f"no reference for {name}: run UPDATE_SCREENS=1 pytest {__file__}"
    reference = Image.open(path).convert("1")
    assert reference.size == image.size == (128, 64)
    assert reference.tobytes() == image.tobytes(), f"{name} differs from {path}"


def test_screens_before_the_reveal_never_name_a_card():
    names = {WORDS.card(c) for c in range(1, 9)} | {WORDS.short_card(c) for c in range(1, 9)}
    for name in ("supply", "select", "refused", "countdown"):
        texts = [piece.text for piece in layout(SHOTS[name])] + [SHOTS[name].notice or ""]
        assert not any(card in text for text in texts for card in names), name


# --- every screen fits: nothing leaves the canvas, nothing overlaps ---------------------


def misfits(shown: Screen) -> list[str]:
    """What is wrong with a screen's layout: text off the canvas, or two texts overlapping."""
    boxes = [(piece.text, piece.box) for piece in layout(shown)]
    if (box := big_box(shown)) is not None:
        boxes.append((shown.big, box))
    notice = notice_piece(shown)
    inside = [*boxes, (notice.text, notice.box)] if notice else boxes
    wrong = [
        f"{text!r} leaves the canvas at {box}"
        for text, box in inside  # the notice is drawn over the body: it only has to fit
        if box[0] < 0 or box[1] < 0 or box[2] >= WIDTH or box[3] >= HEIGHT
    ]
    for i, (a, p) in enumerate(boxes):
        for b, q in boxes[i + 1 :]:
            if p[0] <= q[2] and q[0] <= p[2] and p[1] <= q[3] and q[1] <= p[3]:
                wrong.append(f"{a!r} overlaps {b!r}")
    return wrong


def every_screen(players: int, seed: int, words) -> list[Screen]:
    """Every screen of a whole random game at ``players`` seats, each resolution step,
    trade, menu and the ending included; a long target makes the numbers grow wide."""
    rng = random.Random(seed)
    target = rng.choice([30, 999])
    table = Driver(*start(new_flow(BOARDS, SLOW), players, BOARDS[seed % 2], target, 0.0))
    seen = []

    def look() -> None:
        seen.append(screen(table.view, words))

    need = 2 if players <= 3 else 1
    while table.view.phase is not Phase.OVER:
        look()  # the supply phase
        table.wait(5)
        state = table.flow.game.state
        if rng.random() < 0.05:  # the menu and the scores now and then
            table.key(HostKey.OK, long=True)
            look()
            table.key(HostKey.RIGHT)
            table.ok()
            look()
            table.ok()
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
            table.ok()
    look()
    return seen


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_screen_fits_the_canvas(players, lang):
    words = catalog(lang)
    shown = [*SHOTS.values()] if lang == "en" else []
    for seed in range(3):
        shown += every_screen(players, seed, words)
    shown += every_settings_screen(words)
    notices = [k for k in words.messages if k.startswith("notice.")]
    shown += [Screen(notice=words.t(k, seat=words.seat(5), reason="x")) for k in notices]
    problems = {p for s in shown for p in misfits(s)}
    assert not problems, sorted(problems)[:10]


def every_settings_screen(words) -> list[Screen]:
    """The settings at their widest values, each item under the cursor, every space of
    the rates editor, its refusal and its question."""
    prefs = DeviceSettings(target=950, volume=10, contrast=10)
    table = Driver(new_flow(BOARDS, SLOW, prefs=prefs, languages=tuple(languages())))
    table.key(HostKey.OK, long=True)
    seen = []
    for lang in languages():  # each language's own name
        table.flow = replace(table.flow, prefs=replace(table.flow.prefs, language=lang))
        seen.append(screen(table.view, words))
    while table.view.body.items[table.view.body.cursor] != "rates":
        table.ok()
        seen.append(screen(table.view, words))
    table.key(HostKey.RIGHT)
    seen.append(screen(table.view, words))  # Back
    table.key(HostKey.LEFT)
    table.ok()
    for _ in range(15):
        table.key(HostKey.RIGHT)  # 5:2 and the like: the widest rates
        seen.append(screen(table.view, words))
        table.ok()
    while not table.view.body.first:
        table.key(HostKey.LEFT)
    table.key(HostKey.RIGHT)  # 6:1 on space 15: out of order
    table.ok()
    seen.append(screen(table.view, words))  # refused: the notice names the spaces
    assert seen[-1].notice
    while table.view.phase is Phase.RATES:
        table.key(HostKey.LEFT)
    seen.append(screen(table.view, words))  # Discard changes?
    return seen


def test_the_fit_check_sees_what_does_not_fit():
    assert misfits(Screen(title="x" * 40))  # off the right edge
    assert misfits(Screen(title="a", lines=(("a" * 14, "b"),)))  # columns collide
    assert not misfits(Screen(title="Round 1", lines=(("P1 +2 VP", "P2 +2 VP"),)))


def test_a_customs_that_counts_nothing_shows_no_vp_not_no_goods():
    table = Driver(*start(new_flow(BOARDS, SLOW), 3, BOARDS[0], 30, 0.0))
    table.wait(5)
    table.play([[6, 1], [2, 3], [7, 8]])  # no Frigate, no Galleon: Customs counts nothing
    table.wait(3)
    until(table, Phase.STEP, "Bonus")
    texts = [piece.text for piece in layout(shot(table))]
    if "Customs" not in texts[1]:  # the Governor comes first
        table.ok()
    assert "P1 +0 VP" in [piece.text for piece in layout(shot(table))]
