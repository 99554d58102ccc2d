"""The GPIO backend: ``[gpio] pin_factory`` makes one pin factory, and every part of the
device (the pads, the host buttons, the buzzer, an SPI display's lines) gets that one."""

from __future__ import annotations

import io
import sys
from contextlib import ExitStack
from importlib.metadata import entry_points

import pytest
from devices import open_table
from gpiozero import Device, DigitalOutputDevice, GPIOPinInUse, PWMOutputDevice
from gpiozero.pins.mock import MockFactory, MockPin

from companion.app import config
from companion.app.effective import effective
from companion.cli.run import run_command
from companion.errors import where
from companion.hw import pinfactory
from companion.hw.buttons import Beeper, HostButtons
from companion.hw.display import Connector, GpioLines
from companion.hw.matrix import PadMatrix
from companion.hw.pinfactory import PinFactoryError, pin_factory
from companion.sim.panel import fake_device

LGPIO_MISSING = (
    "lgpio is not installed: sudo apt install python3-lgpio, "
    "or pip install 'santo-domingo-companion[pi]'"
)


@pytest.fixture(autouse=True)
def no_default_factory(monkeypatch):
    """gpiozero's default pin factory unset, as in a fresh ``companion run``; a test that
    makes one through a device without a factory of its own is caught."""
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    yield
    assert Device.pin_factory is None, "a device fell back to gpiozero's default factory"


@pytest.fixture
def without(monkeypatch):
    """Make a library absent: its import fails as when it is not installed."""

    def hide(library: str, backend: str) -> None:
        monkeypatch.setitem(sys.modules, library, None)
        monkeypatch.delitem(sys.modules, f"gpiozero.pins.{backend}", raising=False)

    return hide


def write(tmp_path, text: str):
    path = tmp_path / "companion.toml"
    path.write_text(f'{text}\n[paths]\nstate_dir = "."\n')
    return path


# --- the names ----------------------------------------------------------------------------


def test_the_names_are_gpiozeros_entry_points():
    """GPIOZERO_PIN_FACTORY means here what it means to gpiozero."""
    known = {ep.name: ep.value for ep in entry_points(group="gpiozero_pin_factories")}
    for name, target in pinfactory.FACTORIES.items():
        assert known[name] == target
    assert config.PIN_FACTORIES == pinfactory.NAMES


def test_the_default_is_auto_and_config_show_says_so(tmp_path, capsys):
    from companion.cli import main

    assert config.defaults().pin_factory == "auto"
    assert main(["config", "show", "--config", str(write(tmp_path, ""))]) == 0
    assert '[gpio] pin_factory = "auto"' in capsys.readouterr().out


def test_an_unknown_name_is_refused_with_the_file_and_the_key(tmp_path):
    path = write(tmp_path, '[gpio]\npin_factory = "pigpio"\n')
    with pytest.raises(config.ConfigError) as caught:
        config.load(path)
    assert str(caught.value) == (
        f"{where(path)}: [gpio] pin_factory: not one of auto, lgpio, rpigpio, native, mock "
        '(did you mean rpigpio?) (got "pigpio")'
    )
    err = io.StringIO()
    assert run_command(str(path), err=err) == 2
    assert err.getvalue() == f"companion run: {caught.value}\n"


# --- which factory ------------------------------------------------------------------------


def test_mock_is_gpiozeros_mock_factory():
    factory = pin_factory("mock", {})
    assert type(factory) is MockFactory and type(factory.pin(18)) is MockPin
    factory.reset()


def test_mock_pins_play_pwm_as_gpiozero_lets_them(monkeypatch):
    """A passive buzzer needs PWM: gpiozero's GPIOZERO_MOCK_PIN_CLASS gives such pins."""
    monkeypatch.setenv("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")
    factory = pin_factory("mock", {})
    buzzer = PWMOutputDevice(18, pin_factory=factory)
    buzzer.frequency, buzzer.value = 440, 0.5
    assert factory.pin(18).state == 0.5
    buzzer.close()
    factory.reset()


@pytest.mark.parametrize("value", ["mock", "Mock", "MOCK"])
def test_auto_takes_the_environment_variable_as_gpiozero_does(value):
    factory = pin_factory("auto", {"GPIOZERO_PIN_FACTORY": value})
    assert type(factory) is MockFactory
    factory.reset()


def test_a_name_in_the_config_wins_over_the_environment():
    factory = pin_factory("mock", {"GPIOZERO_PIN_FACTORY": "lgpio"})
    assert type(factory) is MockFactory
    factory.reset()


def test_the_environment_variable_reads_the_real_environment(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    factory = pin_factory("auto")
    assert type(factory) is MockFactory
    factory.reset()


def test_an_unknown_environment_value_is_one_line_naming_the_variable():
    with pytest.raises(PinFactoryError) as caught:
        pin_factory("auto", {"GPIOZERO_PIN_FACTORY": "pigpio"})
    assert str(caught.value) == (
        'GPIOZERO_PIN_FACTORY=pigpio ([gpio] pin_factory = "auto"): '
        "not one of lgpio, rpigpio, native, mock"
    )


def test_auto_never_takes_gpiozeros_default(monkeypatch):
    """A default set in gpiozero's global is never used: "auto" makes the factory the
    environment names, which its maker closes."""
    theirs = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", theirs)
    mine = pin_factory("auto", {"GPIOZERO_PIN_FACTORY": "mock"})
    assert mine is not theirs and isinstance(mine, MockFactory)
    mine.close()
    theirs.reset()
    monkeypatch.setattr(Device, "pin_factory", None)


# --- what cannot be had -------------------------------------------------------------------


def test_a_missing_library_is_one_line_saying_what_to_install(without):
    without("lgpio", "lgpio")
    with pytest.raises(PinFactoryError) as caught:
        pin_factory("lgpio", {})
    assert str(caught.value) == f'[gpio] pin_factory = "lgpio": {LGPIO_MISSING}'
    without("RPi", "rpigpio")
    with pytest.raises(PinFactoryError, match=r"RPi\.GPIO is not installed: .*\[rpigpio\]'$"):
        pin_factory("rpigpio", {})


def test_a_missing_library_stops_run_with_exit_2_and_one_line(tmp_path, without):
    without("lgpio", "lgpio")
    path = write(tmp_path, '[gpio]\npin_factory = "lgpio"\n')
    err = io.StringIO()
    assert run_command(str(path), err=err) == 2
    assert (
        err.getvalue()
        == f'companion run: {where(path)}: [gpio] pin_factory = "lgpio": {LGPIO_MISSING}\n'
    )


def test_the_environments_choice_missing_names_the_variable(without):
    without("lgpio", "lgpio")
    with pytest.raises(PinFactoryError) as caught:
        pin_factory("auto", {"GPIOZERO_PIN_FACTORY": "lgpio"})
    assert str(caught.value).startswith('GPIOZERO_PIN_FACTORY=lgpio ([gpio] pin_factory = "auto")')


def test_a_factory_that_fails_to_open_is_one_line(monkeypatch):
    """gpiozero's own failure (here: a mock Pi of no known revision) says which backend."""
    monkeypatch.setenv("GPIOZERO_MOCK_REVISION", "not-a-revision")
    with pytest.raises(PinFactoryError) as caught:
        pin_factory("mock", {})
    message = str(caught.value)
    assert message.startswith('[gpio] pin_factory = "mock": mock cannot open the GPIO pins (')
    assert "\n" not in message and "not-a-revision" in message


# --- every part on the one factory --------------------------------------------------------


def open_on_mock(tmp_path, text: str, reports: list[str]):
    """``companion run``'s parts opened from the config ``text``, the SSD1322 on a fake SPI
    bus whose lines are on the pin factory the device hands the display."""
    handed = {}

    def open_display(controller, interface, **options):
        handed.update(options, interface=interface)
        device, _ = fake_device(
            controller,
            pin_factory=options["pin_factory"],
            dc=options["dc"],
            reset=options["reset"],
        )
        return device

    found = effective(write(tmp_path, text), report=reports.append)
    stack = ExitStack()
    table = open_table(stack, found, reports.append, open_display=open_display)
    return stack, table, handed


SPI_PASSIVE = (
    '[display]\ncontroller = "ssd1322"\ninterface = "spi"\ndc = 7\nreset = 14\n'
    '[sound]\nbuzzer = "passive"\n'
)


@pytest.mark.parametrize(
    ("text", "environment"),
    [
        ('[gpio]\npin_factory = "mock"\n', None),
        ("", "mock"),  # "auto", the environment choosing
        ('[gpio]\npin_factory = "auto"\n', "MOCK"),
    ],
)
def test_every_device_gets_the_one_configured_factory(tmp_path, monkeypatch, text, environment):
    monkeypatch.setenv("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")  # for the passive buzzer
    if environment is not None:
        monkeypatch.setenv("GPIOZERO_PIN_FACTORY", environment)
    reports: list[str] = []
    stack, table, handed = open_on_mock(tmp_path, SPI_PASSIVE + text, reports)
    factory = handed["pin_factory"]
    assert type(factory) is MockFactory
    pins = config.shipped_pins()
    assert table.beeper.device.pin_factory is factory
    outputs = [*pins.rows, pins.buzzer, 7, 14]  # the rows, the buzzer, the display's D/C, RST
    inputs = [*pins.columns, *pins.buttons.values()]  # pulled up, a press pulls them low
    held = gpios(factory)
    assert set(held) == set(outputs + inputs)  # every pin of every part, and no other
    assert all(held[gpio].function == "output" for gpio in outputs)
    assert all(held[gpio].function == "input" and held[gpio].pull == "up" for gpio in inputs)
    assert reports == ["the pins are gpiozero's mock pins: no button or pad on them can be pressed"]
    stack.close()
    assert all(pin.function == "input" for pin in held.values())  # every part let go
    assert factory.pins == {}  # and the factory is closed


def gpios(factory: MockFactory) -> dict:
    """The pins ``factory`` has made, by GPIO number."""
    return {int(info.name.removeprefix("GPIO")): pin for info, pin in factory.pins.items()}


def test_a_part_failing_after_the_factory_closes_it_too(tmp_path):
    """The factory is the first part opened: a part failing later closes it with the rest."""
    found = effective(write(tmp_path, '[gpio]\npin_factory = "mock"\n'), report=print)
    made = []

    def display_on_the_ok_line(controller, interface, *, pin_factory, **options):
        made.append(pin_factory)  # a wiring clash: the display holds the OK button's GPIO
        made.append(DigitalOutputDevice(21, pin_factory=pin_factory))
        return fake_device(controller)[0]

    with pytest.raises(GPIOPinInUse), ExitStack() as stack:
        open_table(stack, found, lambda message: None, open_display=display_on_the_ok_line)
    factory, _ = made
    assert factory.pins == {}  # the pads and the buzzer let go, and the factory closed


# --- no part takes gpiozero's default -----------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: HostButtons({"left": 20, "ok": 21, "right": 15}, pin_factory=None),
        lambda: Beeper(18, volume=5, pin_factory=None),
        lambda: Beeper(None, volume=5, pin_factory=None),
        lambda: PadMatrix([5], [6], pin_factory=None),
        lambda: GpioLines(None),
        lambda: Connector("ssd1306", "i2c", pin_factory=None),
        lambda: Connector("ssd1322", "spi", pin_factory=None),
    ],
    ids=["buttons", "buzzer", "silent buzzer", "pads", "display lines", "i2c", "spi"],
)
def test_no_part_falls_back_to_gpiozeros_default_factory(make):
    """A part handed None, not a factory, refuses it: it never opens gpiozero's default
    (the fixture checks none was made)."""
    with pytest.raises(TypeError, match=r"no pin factory given \(gpiozero's default is never"):
        make()
