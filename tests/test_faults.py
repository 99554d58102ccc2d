"""Faults on the device: a display missing at boot, and keys held down for too long.

The display is luma's real driver over the project's fake I²C bus, which fails as a
missing device does (``OSError`` EREMOTEIO) until it is told to answer; time enters
through an injected clock, and the pads through the scan-stepping matrix of helpers.py."""

from __future__ import annotations

import io
import itertools
from dataclasses import replace

import pytest
from devices import mock_machine
from gpiozero.pins.mock import MockFactory
from helpers import BOARDS

from companion.app.loop import RETRY, App
from companion.hw import display
from companion.hw.display import Connector, DisplayMissing, Oled, open_device
from companion.hw.matrix import Debouncer
from companion.sim.panel import FakePanel
from companion.table import Phase, Timing, new_flow, public_view, start
from companion.table.events import (
    HostDown,
    HostKey,
    HostPress,
    HostUp,
    KeyStuck,
    PadDown,
    PadUp,
    Tick,
)
from companion.ui.catalog import catalog
from companion.ui.screens import draw

I2C = ["ssd1306", "ssd1309", "sh1106"]

# --- a display missing at boot ----------------------------------------------------------


def missing(controller: str = "ssd1306") -> tuple[Connector, FakePanel]:
    """A display on a fake bus that does not answer yet."""
    panel = FakePanel(controller)
    panel.answering = False
    return Connector(controller, "i2c", bus=panel, pin_factory=MockFactory()), panel


def test_a_display_that_is_not_there_is_missing_and_says_where():
    with pytest.raises(DisplayMissing, match=r"^ssd1309 at 0x3D on I²C bus 7: "):
        # no /dev/i2c-7 here
        open_device("ssd1309", "i2c", port=7, address=0x3D, pin_factory=MockFactory())
    connector, _ = missing("sh1106")
    with pytest.raises(DisplayMissing, match=r"^sh1106 at 0x3C on I²C bus 1: .*0x3C"):
        connector.open()


@pytest.mark.parametrize("controller", I2C)
def test_a_display_found_later_gets_the_last_frame_and_the_contrast(controller):
    connector, panel = missing(controller)
    said: list[str] = []
    oled = Oled(connector, on_error=said.append)
    assert oled.size == (128, 64) and oled.dirty
    oled.contrast(4)
    first, last = draw_frame("first"), draw_frame("last")
    oled.show(first)
    oled.show(last)
    assert said == [
        f"the display does not answer ({controller} at 0x3C on I²C bus 1: "
        "I2C device not found on address: 0x3C); the game goes on"
    ]
    tried = panel.writes
    oled.retry()
    # One probe per look, never a whole driver's start-up sequence.
    assert panel.writes == tried + 1 and oled.dirty and len(said) == 1
    panel.answering = True
    oled.retry()
    assert panel.image().tobytes() == last.tobytes() and panel.contrast == 102
    assert not oled.dirty and not oled.failing
    assert said[-1] == f"the display answers: {controller} at 0x3C on I²C bus 1"
    oled.retry()  # nothing left to send
    assert len(said) == 2


def test_a_display_found_and_lost_again_is_said_once_per_outage():
    connector, panel = missing()
    said: list[str] = []
    oled = Oled(connector, on_error=said.append)
    oled.show(draw_frame("a"))
    panel.answering = True
    oled.retry()
    panel.answering = False
    oled.show(draw_frame("b"))
    oled.show(draw_frame("c"))
    panel.answering = True
    oled.retry()
    assert [m.split(" (")[0].split(":")[0] for m in said] == [
        "the display does not answer",
        "the display answers",
        "the display does not answer",
        "the display answers again",
    ]
    assert panel.image().tobytes() == draw_frame("c").tobytes()


@pytest.mark.parametrize("controller", I2C)
def test_a_panel_that_lost_its_power_comes_back_showing_the_game(controller):
    """Its supply cut mid-game and back: the panel has forgotten its set-up (display
    off), so the frame alone would leave it blank; the device is built again, reset pulse
    and the driver's start included, then the frame and the contrast go whole."""
    res, factory = 7, MockFactory()
    panel = FakePanel(controller)
    connector = Connector(
        controller, "i2c", bus=panel, pin_factory=factory, i2c_reset=res, sleep=lambda s: None
    )
    connector.open()
    said: list[str] = []
    oled = Oled(connector, on_error=said.append)
    oled.contrast(4)
    oled.show(draw_frame("round 3"))
    assert panel.image().tobytes() == draw_frame("round 3").tobytes()
    lows = [s.state for s in factory.pin(res).states].count(False)
    panel.power_off()
    oled.show(draw_frame("round 4"))  # drawn while it is dark: said once, the game goes on
    oled.retry()
    panel.power_on()
    assert panel.image().tobytes() == draw_frame("").tobytes()  # blank, as a real one
    oled.retry()
    assert panel.display_on and panel.contrast == 102
    assert panel.image().tobytes() == draw_frame("round 4").tobytes()
    assert [s.state for s in factory.pin(res).states].count(False) > lows  # reset again
    assert [m.split(" (")[0] for m in said] == [
        "the display does not answer",
        "the display answers again",
    ]
    connector.forget()
    connector.close()


def draw_frame(text: str):
    from PIL import Image, ImageDraw

    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((10, 20), text, fill=1)
    return image


def test_the_loop_finds_the_display_and_draws_the_current_screen():
    """The app's own retry, every RETRY seconds on its clock while the display is away;
    what it draws once the display answers is the screen of now, not of power-on."""
    clock = [0.0]
    connector, panel = missing()
    said: list[str] = []
    flow, _ = start(new_flow(BOARDS, Timing(0, 0, 0, 0, 0, 0)), 3, BOARDS[0], 30, 0.0)
    app = App(flow, Oled(connector, on_error=said.append), clock=lambda: clock[0])
    app.refresh()
    app.handle(PadDown(0, 1))  # the game goes on: P1 chooses
    assert app.next_wake() == pytest.approx(RETRY) and len(said) == 1
    app.handle(PadDown(1, 2))
    clock[0] = 1.0
    app.handle(Tick())  # looked for again: still not there, not said again
    assert len(said) == 1 and app.next_wake() == pytest.approx(RETRY)
    panel.answering = True
    clock[0] = 2.0
    app.handle(Tick())
    now = draw(public_view(app.flow, clock[0]), catalog("en"))
    assert panel.image().tobytes() == now.tobytes()
    assert app.next_wake() is None and said[-1].startswith("the display answers")


def test_run_plays_without_a_display_and_picks_it_up(tmp_path, monkeypatch):
    """``companion run`` with the display missing: the pads, the buzzer and saving work,
    one line says where the display was looked for, and it is drawn once it answers."""
    from companion.app.config import shipped_pins
    from companion.cli.run import run_command
    from companion.sim.matrix import SimulatedMatrix

    panel = FakePanel("ssd1309")  # the default display
    panel.answering = False

    # The system's bus is the fake one: what open_device does, on it.
    class OnFakeBus(Connector):
        def __init__(self, *args, **options):
            super().__init__(*args, bus=panel, **options)

    on_fake_bus = OnFakeBus
    monkeypatch.setattr(display, "Connector", on_fake_bus)
    factory = MockFactory()
    pins = shipped_pins()
    SimulatedMatrix(factory, pins.rows, pins.columns)
    (tmp_path / "companion.toml").write_text('[paths]\nstate_dir = "."\n')
    seen = []
    views: list = []

    def watch(view, prefs):  # the game begun: the panel answers from now on
        views.append(view)
        if view.phase is Phase.SUPPLY and not seen:
            seen.append((view.phase, len(view.body.placed), panel.image().getbbox()))
            panel.answering = True

    # Two seats join, OK through the seats, the options as they are (no bot) and start,
    # then the loop's look for the display (a Tick), then the end.
    presses = [PadDown(0, 3), PadDown(1, 3), *[HostPress(HostKey.OK)] * 5, Tick()]
    machine = replace(
        mock_machine(factory, lambda *a, **o: on_fake_bus(*a, **o).open(), *presses),
        watchers=(lambda stack, put, prefs, report: watch,),
    )
    err = io.StringIO()
    assert run_command(str(tmp_path / "companion.toml"), err=err, machine=machine) == 0
    shown = panel.image().tobytes() == draw(views[-1], catalog("en")).tobytes()
    assert seen == [(Phase.SUPPLY, 2, None)] and shown, err.getvalue()
    assert (tmp_path / "game.json").exists()  # saved as it began
    lines = err.getvalue().splitlines()
    assert lines[0].startswith(
        "companion: the display does not answer (ssd1309 at 0x3C on I²C bus 1: "
    )
    assert lines[1:] == ["companion: the display answers: ssd1309 at 0x3C on I²C bus 1"]


# --- a key held down for too long ---------------------------------------------------------


def test_a_key_held_past_stuck_is_told_once_and_its_release_still_comes():
    debouncer = Debouncer(5, stuck=100)
    key = (2, 4)
    got = [(t, e) for t in range(0, 300) for e in debouncer.feed(t, {key})]
    assert got == [(5, PadDown(2, 4)), (105, KeyStuck(2, 4))]
    assert debouncer.only_stuck and debouncer.stuck == {key} and not debouncer.quiet
    got = [(t, e) for t in range(300, 320) for e in debouncer.feed(t, set())]
    assert got == [(305, PadUp(2, 4))] and debouncer.quiet and not debouncer.stuck
    # Pressed again: a new hold, told again once it lasts.
    got = [(t, e) for t in range(400, 600) for e in debouncer.feed(t, {key})]
    assert got == [(405, PadDown(2, 4)), (505, KeyStuck(2, 4))]


def test_only_stuck_keys_down_is_a_state_of_its_own():
    debouncer = Debouncer(5, stuck=100)
    for t in range(0, 110):
        debouncer.feed(t, {(0, 1)})
    assert debouncer.only_stuck
    debouncer.feed(110, {(0, 1), (3, 1)})  # another key: moving, not stuck
    assert not debouncer.only_stuck
    for t in range(111, 120):
        debouncer.feed(t, {(0, 1), (3, 1)})
    assert debouncer.down == {(0, 1), (3, 1)} and not debouncer.only_stuck
    assert not Debouncer(5).only_stuck  # and no key is ever stuck without a ``stuck``


STUCK_SCANS = 10**6  # never reached by counting: only by a jump


class Clock:
    """The matrix's clock, as helpers.py's: one step a scan, so the debounce (5) counts
    scans. ``jump`` moves it past the stuck time at once, whatever the threads do."""

    def __init__(self):
        self._scans = itertools.count()
        self._ahead = 0

    def __call__(self) -> int:
        return next(self._scans) + self._ahead

    def jump(self) -> None:
        self._ahead += STUCK_SCANS


def stuck_pads(make_pads, interval: float):
    clock = Clock()
    pads = make_pads(clock=clock, stuck=STUCK_SCANS, stuck_scan_interval=interval)
    pads.sim.press(0, 3)
    assert pads.take(1) == [PadDown(0, 3)]
    clock.jump()
    assert pads.take(1) == [KeyStuck(0, 3)]
    return pads, clock


def test_a_stuck_key_rests_the_scanner_and_other_seats_still_wake_it(make_pads):
    """With only a stuck key down the scanner waits (here an hour) between scans; the
    other seats' rows are driven meanwhile, the stuck one's is not, so a key on another
    row, even on the stuck key's column, wakes it at once by its edge."""
    pads, _ = stuck_pads(make_pads, interval=3600)
    assert pads.matrix.wait_idle(timeout=10)  # resting, not scanning at full rate
    assert [row.driving for row in pads.sim.rows] == [False, True, True, True, True, True]
    for seat, card in ((2, 3), (4, 6)):  # the stuck key's column, and another
        pads.sim.press(seat, card)
        assert pads.take(1) == [PadDown(seat, card)]
        pads.sim.release(seat, card)
        assert pads.take(1) == [PadUp(seat, card)]
        assert pads.matrix.wait_idle(timeout=10)  # resting again
    assert pads.rest() == []  # and the stuck key was never told twice


def test_a_stuck_keys_own_row_and_its_release_are_seen_at_the_slow_scans(make_pads):
    pads, clock = stuck_pads(make_pads, interval=0.001)
    clock.jump()  # held on and on: still said once
    pads.sim.press(0, 5)  # on the stuck key's row: no edge, the next slow scan sees it
    assert pads.take(1) == [PadDown(0, 5)]
    pads.sim.release(0, 3)
    assert pads.take(1) == [PadUp(0, 3)]
    pads.sim.release(0, 5)
    assert pads.take(1) == [PadUp(0, 5)]
    assert pads.rest() == []
    assert all(row.driving for row in pads.sim.rows)  # every key up: idle as ever


# --- the table: the notice, and the host buttons ---------------------------------------


TIMING = Timing(supply=5, countdown=3, reveal=5, step=5, scores=5, message=2)


def test_a_stuck_pad_key_is_a_notice_naming_the_seat_never_the_card():
    from helpers import Driver

    from companion.table.effects import Stuck
    from companion.ui.screens import screen

    table = Driver(new_flow(BOARDS, TIMING))
    table.press(1, 1)
    table.press(4, 1)  # pads 2 and 5 are seats P1 and P2
    table.send(KeyStuck(4, 6))
    words = {lang: catalog(lang) for lang in ("en", "nl", "fr")}
    said = {lang: screen(table.view, w).notice for lang, w in words.items()}
    # the key's press may have chosen its card: the card stays a secret
    assert said == {
        "en": "P2: a key is stuck",
        "nl": "S2: een toets klemt",
        "fr": "J2 : touche bloquée",
    }
    assert table.saves[-1] == Stuck(KeyStuck(4, 6)) and table.flow.pads == (1, 4)
    table.send(KeyStuck(0, 2))  # a pad not seated: its own number, never a seat's name
    assert screen(table.view, words["en"]).notice == "Pad 1: a key is stuck"
    table.send(PadUp(4, 6))  # its release: nothing, as ever
    table.wait(3)
    assert table.view.notice is None and table.flow.pads == (1, 4)


def test_ok_held_opens_the_menu_and_then_is_told_stuck_once():
    from companion.app.sinks import stuck_keys

    clock = [0.0]
    said: list[str] = []
    flow, _ = start(new_flow(BOARDS, TIMING), 3, BOARDS[0], 30, 0.0)
    app = App(flow, Blank(), sinks=[stuck_keys(said.append)], clock=lambda: clock[0])
    app.handle(Tick())  # the supply phase over
    clock[0] = 5.0
    app.handle(Tick())
    app.handle(HostDown(HostKey.OK))
    assert app.next_wake() == pytest.approx(1.0)  # the long press
    clock[0] = 6.0
    app.handle(Tick())
    assert app.flow.phase is Phase.MENU
    assert app.next_wake() == pytest.approx(9.0)  # 10 s after it went down
    clock[0] = 15.0
    app.handle(Tick())
    assert said == [
        "the ok button has been down for 10 s (stuck, shorted, or something lying on it): "
        "ignored until it comes up"
    ]
    assert app.flow.phase is Phase.MENU and app.flow.notice.key == "notice.button_stuck"
    clock[0] = 17.0
    app.handle(Tick())  # the notice goes
    assert app.next_wake() is None  # held on and on: the loop sleeps, nothing more happens
    clock[0] = 100.0
    app.handle(HostUp(HostKey.OK))  # the release after the long press: nothing
    assert app.flow.phase is Phase.MENU and len(said) == 1
    app.handle(HostDown(HostKey.OK))  # pressed again: a press as ever
    app.handle(HostUp(HostKey.OK))
    assert app.flow.phase is not Phase.MENU
    app.handle(KeyStuck(2, 5))  # the hub's, or the matrix's, word for a pad key
    assert said[-1].startswith("a key of pad 3 has been down for 10 s") and len(said) == 2
    assert "5" not in said[-1]  # which key (card 5) is never said: it may be a choice


def test_a_stuck_arrow_acts_once_and_the_other_buttons_still_work():
    from helpers import Driver

    table = Driver(new_flow(BOARDS, TIMING))
    table.press(0, 1)
    table.press(1, 1)
    table.ok()  # the options: the board
    board = table.flow.choice.board
    table.send(HostDown(HostKey.RIGHT))  # ▶ jams down: one change, on its way down
    assert table.flow.choice.board == board + 1
    table.wait(10)
    assert table.view.notice == ("notice.button_stuck", (("button", "right"),))
    table.wait(10)
    assert table.flow.keys.stuck_due() is None and table.flow.choice.board == board + 1
    table.key(HostKey.LEFT)  # ◀ still works
    assert table.flow.choice.board == board


class Blank:
    """A display that is always fine and keeps nothing."""

    size = (128, 64)
    dirty = False

    def show(self, image) -> None:
        pass

    def retry(self) -> None:
        pass
