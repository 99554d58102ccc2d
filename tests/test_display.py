"""The OLED adapter on luma's real drivers over fake panels that keep the display RAM:
SSD1306, SSD1309 and SH1106 on a fake I²C bus, the SSD1322 on a fake SPI device with its
D/C and reset lines on gpiozero mock pins."""

from __future__ import annotations

import random

import pytest
from gpiozero import DigitalOutputDevice
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy
from PIL import Image, ImageDraw

from companion.hw.display import DisplayError, Oled, open_device
from companion.sim.panel import fake_device

CONTROLLERS = ["ssd1306", "ssd1309", "sh1106", "ssd1322"]


def random_frame(rng: random.Random, size: tuple[int, int] = (128, 64)) -> Image.Image:
    img = Image.new("1", size)
    draw = ImageDraw.Draw(img)
    width, height = size
    for _ in range(rng.randint(0, 6)):
        x, y = rng.randrange(width), rng.randrange(height)
        draw.rectangle((x, y, x + rng.randrange(30), y + rng.randrange(20)), fill=rng.randint(0, 1))
    draw.text((rng.randrange(width - 28), rng.randrange(50)), str(rng.random())[:6], fill=1)
    return img


@pytest.mark.slow
@pytest.mark.parametrize("controller", CONTROLLERS)
def test_panel_always_shows_the_last_frame(controller):
    """Partial updates leave the panel RAM exactly equal to the last frame, every time."""
    device, panel = fake_device(controller)
    oled = Oled(device)
    rng = random.Random(1)
    frame = random_frame(rng, oled.size)
    for _ in range(60):
        frame = random_frame(rng, oled.size) if rng.random() < 0.3 else frame.copy()
        draw = ImageDraw.Draw(frame)
        x, y = rng.randrange(oled.size[0] - 8), rng.randrange(56)
        draw.rectangle((x, y, x + rng.randrange(8), y + rng.randrange(8)), fill=rng.randint(0, 1))
        oled.show(frame)
        assert panel.image().tobytes() == frame.tobytes()


def test_the_panels_sizes():
    sizes = {c: Oled(fake_device(c)[0]).size for c in CONTROLLERS}
    assert sizes == {"ssd1306": (128, 64), "ssd1309": (128, 64), "sh1106": (128, 64)} | {
        "ssd1322": (256, 64)
    }


@pytest.mark.parametrize("controller", CONTROLLERS)
def test_rotation(controller):
    device, panel = fake_device(controller, rotate=2)
    oled = Oled(device)
    frame = Image.new("1", oled.size)
    ImageDraw.Draw(frame).rectangle((0, 0, 9, 9), fill=1)
    oled.show(frame)
    assert panel.image().tobytes() == frame.rotate(180).tobytes()


@pytest.mark.parametrize("controller", CONTROLLERS)
def test_small_change_sends_a_fraction_of_a_frame(controller):
    device, panel = fake_device(controller)
    oled = Oled(device)
    frame = Image.new("1", oled.size)
    before = panel.bytes_sent
    oled.show(frame)
    oled.invalidate()
    oled.show(frame)
    full = panel.bytes_sent - before
    ImageDraw.Draw(frame).rectangle((60, 30, 66, 36), fill=1)  # a 7x7 mark across two pages
    before = panel.bytes_sent
    oled.show(frame)
    assert panel.bytes_sent - before <= 40 < full // 10
    before = panel.bytes_sent
    oled.show(frame)  # nothing changed: nothing sent
    assert panel.bytes_sent == before


def test_the_ssd1322_gets_one_window_of_rows_and_columns():
    """A 7×7 mark: 7 rows of 2 column addresses (4 pixels, 2 bytes each), after the
    window's commands (0x15 a b, 0x75 a b, 0x5C); a whole frame is 64 rows of 128 bytes."""
    device, panel = fake_device("ssd1322")
    oled = Oled(device)
    frame = Image.new("1", (256, 64))
    oled.show(frame)
    oled.invalidate()
    before = panel.bytes_sent
    oled.show(frame)
    assert panel.bytes_sent - before == 7 + 64 * 128
    ImageDraw.Draw(frame).rectangle((60, 30, 66, 36), fill=1)
    before = panel.bytes_sent
    oled.show(frame)
    assert panel.bytes_sent - before == 7 + 7 * 2 * 2
    assert panel.image().tobytes() == frame.tobytes()


def test_a_smaller_frame_is_centred_on_the_wide_panel():
    device, panel = fake_device("ssd1322")
    oled = Oled(device)
    frame = random_frame(random.Random(6))
    ImageDraw.Draw(frame).rectangle((0, 0, 127, 63), outline=1)
    oled.show(frame)
    shown = panel.image()
    assert shown.crop((64, 0, 192, 64)).tobytes() == frame.tobytes()
    assert shown.crop((0, 0, 64, 64)).getbbox() is None
    assert shown.crop((192, 0, 256, 64)).getbbox() is None
    with pytest.raises(ValueError, match="does not fit"):
        Oled(fake_device("ssd1306")[0]).show(Image.new("1", (256, 64)))


def test_the_ssd1322_lines_are_gpio_pins():
    """luma's spi() drives D/C and reset through gpiozero: reset pulsed low once at
    start, D/C low for each command and high for its data."""
    factory = MockFactory()
    device, panel = fake_device("ssd1322", pin_factory=factory, dc=14, reset=15)
    reset, dc = factory.pin(15), factory.pin(14)
    assert [state for _, state in reset.states] == [0, 1]  # from 0: set up, then released
    dc.clear_states()
    Oled(device).show(Image.new("1", (256, 64), 1))
    levels = [state for _, state in dc.states]
    assert levels[:6] == [0, 1, 0, 1, 0, 1] and levels[-1] == 1
    assert panel.image().getbbox() == (0, 0, 256, 64)
    factory.reset()


def test_opening_a_display_says_what_is_wrong_in_one_line():
    factory = MockFactory()
    with pytest.raises(DisplayError, match=r"^the ssd1322 display has no i2c interface, only spi$"):
        open_device("ssd1322", "i2c", pin_factory=factory)
    with pytest.raises(DisplayError, match=r"^unknown display 'ssd1320' \(known: ssd1306, "):
        open_device("ssd1320", "i2c", pin_factory=factory)
    # No spidev here, as on a Pi where it is not installed; the D/C and reset lines
    # are let go again.
    with pytest.raises(DisplayError, match=r"^cannot open the ssd1322 display over spi: .*spidev"):
        open_device("ssd1322", "spi", pin_factory=factory, dc=14, reset=15)
    DigitalOutputDevice(14, pin_factory=factory).close()
    DigitalOutputDevice(15, pin_factory=factory).close()
    factory.reset()


# --- contrast ------------------------------------------------------------------------------


@pytest.mark.parametrize("controller", CONTROLLERS)
def test_contrast_levels_map_onto_the_controllers_range(controller):
    device, panel = fake_device(controller)
    oled = Oled(device)
    seen = []
    for level in (1, 5, 8, 10):
        oled.contrast(level)
        seen.append(panel.contrast)
    assert seen == [26, 128, 204, 255] and not oled.dirty
    for wrong in (0, 11, 5.0, True):
        with pytest.raises(ValueError, match=r"^contrast is 1\.\.10, not "):
            oled.contrast(wrong)
    assert panel.contrast == 255


@pytest.mark.parametrize("controller", CONTROLLERS)
def test_contrast_survives_a_display_fault(controller):
    """Set while the display is gone, or lost with it (a reset panel forgets it): sent
    again once it answers."""
    device, panel = fake_device(controller)
    oled = Oled(device, on_error=lambda message: None)
    oled.contrast(3)
    panel.answering = False
    oled.show(random_frame(random.Random(8), oled.size))
    panel.contrast = 0x7F  # what the panel forgot
    panel.answering = True
    oled.retry()
    assert panel.contrast == 76 and not oled.dirty
    panel.answering = False
    oled.contrast(6)
    assert oled.dirty and oled.failing
    panel.answering = True
    oled.retry()
    assert panel.contrast == 153 and not oled.dirty and not oled.failing


@pytest.mark.parametrize("controller", CONTROLLERS)
def test_a_display_that_stops_answering(controller):
    device, panel = fake_device(controller)
    messages: list[str] = []
    oled = Oled(device, on_error=messages.append)
    frame = Image.new("1", oled.size)
    oled.show(frame)
    panel.answering = False
    ImageDraw.Draw(frame).text((0, 0), "P1", fill=1)
    oled.show(frame)
    oled.show(frame)
    assert oled.failing and len(messages) == 1 and "does not answer" in messages[0]
    panel.answering = True
    oled.show(frame)  # redrawn whole: the panel may show anything by now
    assert not oled.failing and messages[-1] == "the display answers again"
    assert panel.image().tobytes() == frame.tobytes()


# --- faults: retried until the panel holds the frame --------------------------------------


def settle(oled: Oled, limit: int = 500) -> int:
    """Retry until the panel holds the last frame; how many retries it took."""
    for tries in range(limit):
        if not oled.dirty:
            return tries
        oled.retry()
    raise AssertionError(f"still dirty after {limit} retries")


@pytest.mark.slow
@pytest.mark.parametrize("controller", CONTROLLERS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_retries_leave_the_panel_showing_the_last_frame_on_a_flaky_bus(controller, seed):
    """Random frames, random failing writes (a failed data write lands in part, garbled):
    whenever the panel is not dirty, it shows exactly the last frame."""
    device, panel = fake_device(controller)
    oled = Oled(device, on_error=lambda message: None)
    rng = random.Random(seed)
    frame = random_frame(rng, oled.size)
    for _ in range(40):
        frame = random_frame(rng, oled.size) if rng.random() < 0.3 else frame.copy()
        draw = ImageDraw.Draw(frame)
        x, y = rng.randrange(oled.size[0] - 8), rng.randrange(56)
        draw.rectangle((x, y, x + rng.randrange(8), y + rng.randrange(8)), fill=rng.randint(0, 1))
        odds = rng.choice([0.0, 0.1, 0.5])
        faults = random.Random(rng.random())
        panel.fails = lambda _write, odds=odds, faults=faults: faults.random() < odds
        oled.show(frame)
        panel.fails = lambda _write, odds=odds / 2, faults=faults: faults.random() < odds
        settle(oled)
        assert panel.image().tobytes() == frame.tobytes()


# The SSD1322's window takes five writes (three commands, two with arguments as data)
# before its rows: a bus failing every third write never lets one through.
@pytest.mark.parametrize(
    ("controller", "every", "tries"),
    [("ssd1306", 3, 10), ("ssd1309", 3, 10), ("sh1106", 3, 10), ("ssd1322", 8, 40)],
)
def test_a_bus_failing_every_few_writes_gets_the_frame_through(controller, every, tries):
    device, panel = fake_device(controller)
    messages: list[str] = []
    oled = Oled(device, on_error=messages.append)
    frame = random_frame(random.Random(7), oled.size)
    panel.fail_every(every)
    oled.show(frame)
    assert oled.dirty and oled.failing
    assert settle(oled) <= tries  # each retry keeps what got through, and adds to it
    assert panel.image().tobytes() == frame.tobytes()
    assert not oled.failing and len(messages) == 2
    assert "does not answer" in messages[0] and messages[1] == "the display answers again"
    assert all("\n" not in m for m in messages)


def test_what_got_through_is_not_sent_again():
    device, panel = fake_device("ssd1306")
    oled = Oled(device, on_error=lambda message: None)
    frame = random_frame(random.Random(3))
    oled.show(Image.new("1", (128, 64)))
    panel.answering = False
    oled.show(frame)  # an outage: the whole panel is unknown now
    panel.answering = True
    third = panel.writes + 3
    panel.fails = lambda write: write == third  # page 0: address, block 0, then block 1 fails
    oled.retry()
    assert oled.dirty
    before = panel.bytes_sent
    oled.retry()  # page 0 from block 1 on: one address command and three blocks
    assert panel.bytes_sent - before == 7 + 3 * (1 + 32)
    assert not oled.dirty and panel.image().tobytes() == frame.tobytes()


def test_what_got_through_is_not_sent_again_on_the_ssd1322():
    device, panel = fake_device("ssd1322")
    oled = Oled(device, on_error=lambda message: None)
    frame = random_frame(random.Random(3), (256, 64))
    oled.show(Image.new("1", (256, 64)))
    panel.answering = False
    oled.show(frame)
    panel.answering = True
    second_row = panel.writes + 7  # five writes of the window, row 0, then row 1 fails
    panel.fails = lambda write: write == second_row
    oled.retry()
    assert oled.dirty
    before = panel.bytes_sent
    oled.retry()  # from row 1 on: the window's 7 bytes, then 63 rows of 128
    assert panel.bytes_sent - before == 7 + 63 * 128
    assert not oled.dirty and panel.image().tobytes() == frame.tobytes()


@pytest.mark.parametrize("controller", CONTROLLERS)
def test_after_an_outage_the_whole_frame_goes_again(controller):
    """The panel may hold anything after a fault (here: it lost its RAM), so the first
    retry that gets through sends the whole frame, changed or not."""
    device, panel = fake_device(controller)
    oled = Oled(device, on_error=lambda message: None)
    frame = Image.new("1", oled.size)
    before = panel.bytes_sent
    oled.show(frame)
    full = panel.bytes_sent - before
    panel.answering = False
    ImageDraw.Draw(frame).rectangle((60, 30, 66, 36), fill=1)  # a small change
    oled.show(frame)
    assert oled.dirty
    for row in panel.ram:
        row[:] = bytes(range(len(row)))  # garbage
    panel.answering = True
    before = panel.bytes_sent
    oled.retry()
    assert panel.bytes_sent - before == full and not oled.dirty
    assert panel.image().tobytes() == frame.tobytes()


def test_each_outage_is_reported_once_and_its_end_once():
    device, panel = fake_device("ssd1306")
    messages: list[str] = []
    oled = Oled(device, on_error=messages.append)
    rng = random.Random(5)
    for outage in range(2):
        panel.answering = False
        for _ in range(5):
            oled.show(random_frame(rng))
            oled.retry()
        panel.answering = True
        panel.fail_every(3)
        settle(oled)
        panel.fail_every(0)
        oled.show(random_frame(rng))
        assert len(messages) == 2 * (outage + 1)
    assert messages[0] == (
        "the display does not answer (I2C device not found on address: 0x3C); the game goes on"
    )
    assert messages[1::2] == ["the display answers again"] * 2
    assert messages[2] == messages[0]


def test_a_clean_panel_is_not_dirty_and_a_retry_sends_nothing():
    device, panel = fake_device("sh1106")
    oled = Oled(device)
    assert not oled.dirty  # nothing given yet
    oled.show(random_frame(random.Random(2)))
    before = panel.bytes_sent
    oled.retry()
    assert not oled.dirty and panel.bytes_sent == before
    oled.invalidate()
    assert oled.dirty
    oled.retry()
    assert not oled.dirty and panel.bytes_sent - before > 1000


def test_other_luma_devices_get_whole_frames():
    device = dummy(mode="1", rotate=2)
    oled = Oled(device)
    frame = random_frame(random.Random(4))
    oled.show(frame)
    assert not oled.dirty
    assert device.image.tobytes() == frame.rotate(180).tobytes()


@pytest.mark.parametrize("controller", ["ssd1309", "ssd1322"])
def test_the_simulator_plays_on_the_bigger_panels(controller):
    """The simulator's SSD1322 is on a fake SPI device, its D/C and reset lines on the
    simulator's own pins; a press shows on the panel at once."""
    from companion.app.simulator import Simulator

    sim = Simulator(players=3, fast=True, controller=controller)
    try:
        assert sim.panel.controller == controller and sim.oled.size[0] in (128, 256)
        before = sim.panel.image()
        sim.press(1, 3)
        after = sim.panel.image()
        assert after.tobytes() != before.tobytes()
        if controller == "ssd1322":  # the screens drawn for 256×64, across the panel
            left, _, right, _ = after.getbbox()
            assert left < 64 and right > 192
            dc, reset = sim.factory.pin(2), sim.factory.pin(3)  # the simulator's own pins
            assert dc.function == reset.function == "output" and reset.state == 1
    finally:
        sim.close()
