"""The I²C display's RES line (``[pins] display_reset``): pulsed low, then held high, on
the pin factory's pin before the first byte reaches the panel, again at each look for a
panel that did not answer, and let go with the bus. luma's real drivers on the
simulator's fake I²C panel, gpiozero's mock pins."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from gpiozero import DigitalOutputDevice
from gpiozero.pins.mock import MockFactory

from companion.app import config
from companion.app.device import device_display
from companion.app.effective import effective
from companion.hw import display
from companion.hw.display import RESET_HOLD, RESET_SETTLE, Connector, DisplayError, open_device
from companion.sim.panel import FakePanel

RES = 7  # the shipped pin map's display_reset


class WatchedPanel(FakePanel):
    """A fake SSD1309 that notes the RES line's levels so far at every write it gets."""

    def __init__(self, res) -> None:
        super().__init__("ssd1309")
        self.res = res
        self.heard: list[list[bool]] = []  # per write: the RES line's levels until then

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self.heard.append([bool(s.state) for s in self.res.states])
        super().write_i2c_block_data(address, register, data)


@pytest.fixture
def factory():
    made = MockFactory()
    yield made
    made.reset()


def test_the_reset_pulse_comes_before_the_first_byte_and_the_line_stays_high(factory):
    panel = WatchedPanel(factory.pin(RES))
    slept: list[float] = []
    device = open_device(
        "ssd1309", "i2c", i2c_reset=RES, pin_factory=factory, bus=panel, sleep=slept.append
    )
    # mock's own level, driven high when claimed, the pulse low, then high
    assert panel.heard[0] == [False, True, False, True]
    assert all(levels == panel.heard[0] for levels in panel.heard)  # no pulse after it
    assert slept == [RESET_HOLD, RESET_SETTLE] and RESET_HOLD >= 3e-6  # the datasheets' 3 µs
    assert factory.pin(RES).state and factory.pin(RES).function == "output"
    device.cleanup()  # the bus and the line are let go together
    DigitalOutputDevice(RES, pin_factory=factory).close()  # free again


def test_a_panel_that_does_not_answer_is_reset_again_at_each_look(factory):
    panel = WatchedPanel(factory.pin(RES))
    panel.answering = False
    slept: list[float] = []
    connector = Connector(
        "ssd1309", "i2c", i2c_reset=RES, pin_factory=factory, bus=panel, sleep=slept.append
    )
    for _ in range(2):
        with pytest.raises(display.DisplayMissing):
            connector.open()
    panel.answering = True  # powered late
    connector.open()
    pulses = [s.state for s in factory.pin(RES).states][1:]  # after mock's own level
    assert pulses == [True] + [False, True] * 3
    assert len(slept) == 6


def test_without_a_reset_line_no_pin_is_touched(factory):
    panel = WatchedPanel(factory.pin(RES))
    slept: list[float] = []
    open_device("ssd1309", "i2c", pin_factory=factory, bus=panel, sleep=slept.append)
    assert panel.heard[0] == [False] and slept == []
    assert factory.pin(RES).function == "input"


def test_a_reset_line_in_use_is_one_line_naming_it(factory):
    held = DigitalOutputDevice(RES, pin_factory=factory)
    try:
        with pytest.raises(DisplayError, match=r"^the display's RES line, GPIO 7 \(\[pins\] "):
            open_device("ssd1309", "i2c", i2c_reset=RES, pin_factory=factory, bus=FakePanel())
    finally:
        held.close()


def test_the_device_pulses_the_pin_maps_line_before_the_panel_hears_a_byte(tmp_path, factory):
    path = tmp_path / "companion.toml"
    path.write_text(f'[paths]\nstate_dir = "{tmp_path}"\n')
    found = effective(path, report=lambda message: None)
    assert found.config.pins.display_reset == RES
    panel = WatchedPanel(factory.pin(RES))

    def on_the_fake_bus(controller, interface, **where):
        return open_device(controller, interface, bus=panel, sleep=lambda s: None, **where)

    with ExitStack() as stack:
        device_display(found, on_the_fake_bus)(stack, factory, lambda message: None)
    assert panel.heard[0][-2:] == [False, True]


# --- the config ---------------------------------------------------------------------------


def load(tmp_path, text: str) -> config.Config:
    path = tmp_path / "companion.toml"
    path.write_text(text + '[paths]\nstate_dir = "."\n')
    return config.load(path)


@pytest.mark.parametrize(
    ("text", "reset"),
    [
        ("", RES),
        ("[pins]\ndisplay_reset = 14\n", 14),
        ("[pins]\ndisplay_reset = false\n", None),  # RES on the module's own RC network
        ('[display]\ncontroller = "ssd1322"\ninterface = "spi"\n', None),  # luma's reset line
    ],
)
def test_the_reset_line_as_the_config_gives_it(tmp_path, text, reset):
    assert load(tmp_path, text).pins.display_reset == reset


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[pins]\ndisplay_reset = 2\n", "[pins] display_reset: GPIO 2 is the I2C display's SDA"),
        ("[pins]\ndisplay_reset = 21\n", "is also [pins.buttons] ok"),
        (
            '[pins]\ndisplay_reset = "7"\n',
            "[pins] display_reset: not a GPIO number, nor false for a RES pin on its own RC",
        ),
        ("[pins]\ndisplay_reset = 28\n", "[pins] display_reset: not a GPIO number"),
    ],
)
def test_a_wrong_reset_line_is_one_line_naming_the_key(tmp_path, text, why):
    with pytest.raises(config.ConfigError) as e:
        load(tmp_path, text)
    assert why in str(e.value) and "\n" not in str(e.value)


def test_an_spi_display_may_take_gpio_7_for_its_own_lines(tmp_path):
    cfg = load(tmp_path, '[display]\ncontroller = "ssd1322"\ninterface = "spi"\nreset = 7\n')
    assert cfg.display.reset == 7 and cfg.pins.display_reset is None
