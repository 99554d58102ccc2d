"""Faults on the device: a display missing at boot, and keys held down for too long.

The display is luma's real driver over the project's fake I²C bus, which fails as a
missing device does (``OSError`` EREMOTEIO) until it is told to answer; time enters
through an injected clock, and the pads through the scan-stepping matrix of conftest."""

from __future__ import annotations

import io
import signal

import pytest
from conftest import BOARDS

from companion.app.loop import RETRY, App
from companion.hw import display
from companion.hw.display import Connector, DisplayMissing, Oled, open_device
from companion.hw.panel import FakePanel
from companion.table import Phase, Timing, new_flow, public_view, start
from companion.table.events import HostKey, HostPress, PadDown, Tick
from companion.ui.catalog import catalog
from companion.ui.screens import draw

I2C = ["ssd1306", "ssd1309", "sh1106"]

# --- a display missing at boot ----------------------------------------------------------


def missing(controller: str = "ssd1306") -> tuple[Connector, FakePanel]:
    """A display on a fake bus that does not answer yet."""
    panel = FakePanel(controller)
    panel.answering = False
    return Connector(controller, "i2c", bus=panel), panel


def test_a_display_that_is_not_there_is_missing_and_says_where():
    with pytest.raises(DisplayMissing, match=r"^ssd1309 at 0x3D on I²C bus 7: "):
        open_device("ssd1309", "i2c", port=7, address=0x3D)  # no /dev/i2c-7 here
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
    app = App(flow, Oled(connector, on_error=said.append), catalog("en"), clock=lambda: clock[0])
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


@pytest.fixture
def mock_pins(monkeypatch):
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    monkeypatch.setattr(signal, "signal", lambda *a: None)
    yield factory
    factory.reset()


def test_run_plays_without_a_display_and_picks_it_up(tmp_path, monkeypatch, mock_pins):
    """``companion run`` with the display missing: the pads, the buzzer and saving work,
    one line says where the display was looked for, and it is drawn once it answers."""
    from companion.app.config import shipped_pins
    from companion.cli.run import run_command
    from companion.hw.simmatrix import SimulatedMatrix

    panel = FakePanel("ssd1306")
    panel.answering = False

    # The system's bus is the fake one: what open_device does, on it.
    class OnFakeBus(Connector):
        def __init__(self, *args, **options):
            super().__init__(*args, bus=panel, **options)

    on_fake_bus = OnFakeBus
    monkeypatch.setattr(display, "open_device", lambda *a, **o: on_fake_bus(*a, **o).open())
    monkeypatch.setattr(display, "Connector", on_fake_bus)
    pins = shipped_pins()
    SimulatedMatrix(mock_pins, pins.rows, pins.columns)
    (tmp_path / "companion.toml").write_text('[paths]\nstate_dir = "."\n')
    seen = []

    def run(app):  # in place of the loop's own run, on a clock of the test's
        app.refresh()
        for pad in (0, 1):
            app.handle(PadDown(pad, 3))
        for _ in range(4):  # the seats, the options as they are, and start
            app.handle(HostPress(HostKey.OK))
        seen.append((app.flow.phase, app.flow.pads, panel.image().getbbox()))
        panel.answering = True
        app.handle(Tick())
        seen.append(panel.image().tobytes() == draw(public_view(app.flow, 0), app.words).tobytes())

    monkeypatch.setattr(App, "run", run)
    err = io.StringIO()
    assert run_command(str(tmp_path / "companion.toml"), err=err) == 0, err.getvalue()
    assert seen == [(Phase.SUPPLY, (0, 1), None), True]
    assert (tmp_path / "game.json").exists()  # saved as it began
    lines = err.getvalue().splitlines()
    assert lines[0].startswith(
        "companion: the display does not answer (ssd1306 at 0x3C on I²C bus 1: "
    )
    assert lines[1:] == ["companion: the display answers: ssd1306 at 0x3C on I²C bus 1"]
