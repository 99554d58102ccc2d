"""The OLED adapter on luma's real drivers over a fake panel that keeps the display RAM."""

from __future__ import annotations

import random

import pytest
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
