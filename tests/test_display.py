"""The OLED adapter on luma's real drivers over a fake panel that keeps the display RAM."""

from __future__ import annotations

import random

import pytest
from luma.core.device import dummy
from PIL import Image, ImageDraw

from companion.hw.display import Oled, fake_device


def random_frame(rng: random.Random) -> Image.Image:
    img = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(img)
    for _ in range(rng.randint(0, 6)):
        x, y = rng.randrange(128), rng.randrange(64)
        draw.rectangle((x, y, x + rng.randrange(30), y + rng.randrange(20)), fill=rng.randint(0, 1))
    draw.text((rng.randrange(100), rng.randrange(50)), str(rng.random())[:6], fill=1)
    return img


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_panel_always_shows_the_last_frame(controller):
    """Partial updates leave the panel RAM exactly equal to the last frame, every time."""
    device, panel = fake_device(controller)
    oled = Oled(device)
    rng = random.Random(1)
    frame = random_frame(rng)
    for _ in range(60):
        frame = random_frame(rng) if rng.random() < 0.3 else frame.copy()
        draw = ImageDraw.Draw(frame)
        x, y = rng.randrange(120), rng.randrange(56)
        draw.rectangle((x, y, x + rng.randrange(8), y + rng.randrange(8)), fill=rng.randint(0, 1))
        oled.show(frame)
        assert panel.image().tobytes() == frame.tobytes()


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_rotation(controller):
    device, panel = fake_device(controller, rotate=2)
    oled = Oled(device)
    frame = Image.new("1", (128, 64))
    ImageDraw.Draw(frame).rectangle((0, 0, 9, 9), fill=1)
    oled.show(frame)
    assert panel.image().tobytes() == frame.rotate(180).tobytes()


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_small_change_sends_a_fraction_of_a_frame(controller):
    device, panel = fake_device(controller)
    oled = Oled(device)
    frame = Image.new("1", (128, 64))
    oled.show(frame)
    full = panel.bytes_sent
    ImageDraw.Draw(frame).rectangle((60, 30, 66, 36), fill=1)  # a 7x7 mark across two pages
    before = panel.bytes_sent
    oled.show(frame)
    assert panel.bytes_sent - before <= 40 < full // 10
    before = panel.bytes_sent
    oled.show(frame)  # nothing changed: nothing sent
    assert panel.bytes_sent == before


def test_a_display_that_stops_answering(capsys):
    device, panel = fake_device("ssd1306")
    messages: list[str] = []
    oled = Oled(device, on_error=messages.append)
    frame = Image.new("1", (128, 64))
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


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_retries_leave_the_panel_showing_the_last_frame_on_a_flaky_bus(controller, seed):
    """Random frames, random failing writes (a failed data write lands in part, garbled):
    whenever the panel is not dirty, it shows exactly the last frame."""
    device, panel = fake_device(controller)
    oled = Oled(device, on_error=lambda message: None)
    rng = random.Random(seed)
    frame = random_frame(rng)
    for _ in range(40):
        frame = random_frame(rng) if rng.random() < 0.3 else frame.copy()
        draw = ImageDraw.Draw(frame)
        x, y = rng.randrange(120), rng.randrange(56)
        draw.rectangle((x, y, x + rng.randrange(8), y + rng.randrange(8)), fill=rng.randint(0, 1))
        odds = rng.choice([0.0, 0.1, 0.5])
        faults = random.Random(rng.random())
        panel.fails = lambda _write, odds=odds, faults=faults: faults.random() < odds
        oled.show(frame)
        panel.fails = lambda _write, odds=odds / 2, faults=faults: faults.random() < odds
        settle(oled)
        assert panel.image().tobytes() == frame.tobytes()


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_a_bus_failing_every_third_write_gets_the_frame_through(controller):
    device, panel = fake_device(controller)
    messages: list[str] = []
    oled = Oled(device, on_error=messages.append)
    frame = random_frame(random.Random(7))
    panel.fail_every(3)
    oled.show(frame)
    assert oled.dirty and oled.failing
    assert settle(oled) <= 10  # each retry keeps what got through, and adds to it
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


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_after_an_outage_the_whole_frame_goes_again(controller):
    """The panel may hold anything after a fault (here: it lost its RAM), so the first
    retry that gets through sends the whole frame, changed or not."""
    device, panel = fake_device(controller)
    oled = Oled(device, on_error=lambda message: None)
    frame = Image.new("1", (128, 64))
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
