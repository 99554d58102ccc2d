"""The GPIO backend: ``[gpio] pin_factory`` makes one pin factory, and every part of the
device (the pads, the host buttons, the buzzer, an SPI display's lines) gets that one."""

from __future__ import annotations

import io
import socket
import sys
import types
from contextlib import ExitStack
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from devices import open_table
from gpiozero import Device, DigitalOutputDevice, GPIOPinInUse, PWMOutputDevice
from gpiozero.pins.mock import MockFactory, MockPin

from companion.app import config
from companion.app.effective import effective
from companion.cli.run import EXIT_BAD_INPUT, EXIT_NO_HARDWARE, Machine, run_command
from companion.errors import where
from companion.hw import gpiochip, pinfactory
from companion.hw.buttons import Beeper, HostButtons
from companion.hw.display import Connector, GpioLines
from companion.hw.gpiochip import Chip, ChipNotFound, header_chip
from companion.hw.matrix import PadMatrix
from companion.hw.pinfactory import PinFactoryError, PinsUnavailable, pin_factory
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


def test_a_missing_library_stops_run_with_exit_3_and_one_line(tmp_path, without):
    """Not the config's fault: exit status 3, which the service retries (2 it does not)."""
    without("lgpio", "lgpio")
    path = write(tmp_path, '[gpio]\npin_factory = "lgpio"\n')
    err, held = io.StringIO(), []
    machine = Machine(hold_off=lambda: held.append(True))
    assert run_command(str(path), err=err, machine=machine) == EXIT_NO_HARDWARE == 3
    assert (
        err.getvalue()
        == f'companion run: {where(path)}: [gpio] pin_factory = "lgpio": {LGPIO_MISSING}\n'
    )
    assert held == [True]  # once, before exiting: the service's retry is slow


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


def test_a_passive_buzzer_on_plain_mock_pins_is_silent(tmp_path, monkeypatch):
    """gpiozero's plain mock pins play no PWM, and nothing is heard on them anyway: the
    table opens with a silent buzzer instead of stopping (PinPWMUnsupported)."""
    monkeypatch.delenv("GPIOZERO_MOCK_PIN_CLASS", raising=False)
    reports: list[str] = []
    stack, table, _ = open_on_mock(
        tmp_path, SPI_PASSIVE + '[gpio]\npin_factory = "mock"\n', reports
    )
    assert table.beeper.kind == "passive" and table.beeper.device is None
    assert not table.beeper.has_volume
    stack.close()


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


# --- [gpio] chip: the header's chip, by its label ------------------------------------------


def test_the_chip_is_auto_by_default_and_config_show_says_so(tmp_path, capsys):
    from companion.cli import main

    assert config.defaults().chip == "auto"
    assert main(["config", "show", "--config", str(write(tmp_path, ""))]) == 0
    assert '[gpio] chip = "auto"' in capsys.readouterr().out
    path = write(tmp_path, "[gpio]\nchip = 13\n")
    assert config.load(path).chip == 13
    assert main(["config", "show", "--config", str(path)]) == 0
    assert f"[gpio] chip = 13                              # {path}" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["-1", '"4"', '"gpiochip4"', "true", "1.5"])
def test_a_chip_that_is_no_number_is_refused(tmp_path, value):
    path = write(tmp_path, f"[gpio]\nchip = {value}\n")
    with pytest.raises(config.ConfigError) as caught:
        config.load(path)
    assert str(caught.value) == (
        f'{where(path)}: [gpio] chip: neither "auto" nor a gpiochip number '
        f"(0 or more: 0 is /dev/gpiochip0) (got {value})"
    )


def sysfs(root: Path, chips: dict[int, tuple[str, str]], *, per_chip: bool = False) -> Path:
    """A sysfs tree as the kernel lays it out: each chip ``N: (parent device, label)`` is
    /sys/bus/gpio/devices/gpiochipN, a link to its device folder beside the legacy class
    folder gpiochipBASE that holds its label (``per_chip``: /sys/class/gpio/chipN does)."""
    sys_ = root / "sys"
    bus = sys_ / "bus/gpio/devices"
    bus.mkdir(parents=True)
    for number, (parent, label) in chips.items():
        device = sys_ / "devices" / parent
        (device / f"gpiochip{number}").mkdir(parents=True)
        (bus / f"gpiochip{number}").symlink_to(device / f"gpiochip{number}")
        folder = sys_ / f"class/gpio/chip{number}" if per_chip else device / "gpio"
        if not per_chip:
            folder = folder / f"gpiochip{512 + 32 * number}"  # the base: the old numbering
        folder.mkdir(parents=True)
        (folder / "label").write_text(label + "\n")
    return sys_


PI5_EARLY = {  # gpiodetect on a Pi 5, kernel 6.6.20 (WiringPi issue 280)
    0: ("axi/107d508500.gpio", "gpio-brcmstb@107d508500"),
    2: ("axi/107d517c00.gpio", "gpio-brcmstb@107d517c00"),
    4: ("axi/pcie@120000/rp1/1f000d0000.gpio", "pinctrl-rp1"),
}
PI5_645 = {  # from 6.6.45 (raspberrypi/linux pull request 6144): the RP1 chip is gpiochip0
    0: ("axi/pcie@120000/rp1/1f000d0000.gpio", "pinctrl-rp1"),
    10: ("axi/107d508500.gpio", "gpio-brcmstb@107d508500"),
    12: ("axi/107d517c00.gpio", "gpio-brcmstb@107d517c00"),
}
PI5_LATER = {  # a later numbering, with no gpiochip0 at all
    11: ("axi/107d508500.gpio", "gpio-brcmstb@107d508500"),
    15: ("axi/pcie@1000120000/rp1/1f000d0000.gpio", "pinctrl-rp1"),
}
PI4 = {  # gpiodetect on a Pi 4, kernel 6.6.47
    0: ("platform/soc/fe200000.gpio", "pinctrl-bcm2711"),
    1: ("platform/soc/soc:firmware/soc:firmware:gpio", "raspberrypi-exp-gpio"),
}
ZERO_2_W = {0: ("platform/soc/3f200000.gpio", "pinctrl-bcm2835")}


@pytest.mark.parametrize(
    ("chips", "header"),
    [(PI5_EARLY, 4), (PI5_645, 0), (PI5_LATER, 15), (PI4, 0), (ZERO_2_W, 0)],
    ids=["pi5-6.6.20", "pi5-6.6.45", "pi5-later", "pi4", "zero2w"],
)
@pytest.mark.parametrize("per_chip", [False, True], ids=["legacy-sysfs", "per-chip-sysfs"])
def test_auto_finds_the_header_chip_by_its_label_whatever_its_number(
    tmp_path, chips, header, per_chip
):
    root = sysfs(tmp_path, chips, per_chip=per_chip)
    assert header_chip(root, tmp_path / "dev") == header
    found = gpiochip.chips(root, tmp_path / "dev")
    assert found == [Chip(n, label) for n, (_, label) in sorted(chips.items())]


def test_two_chips_of_one_device_are_not_told_apart_by_the_legacy_folders(tmp_path):
    """Two banks of one controller share a parent: which legacy label is whose is not
    known, so neither is taken (the chip itself is asked: here, no /dev to ask)."""
    root = sysfs(tmp_path, PI5_645)
    bank = root / "devices/axi/107d508500.gpio"
    (bank / "gpiochip11").mkdir()
    (root / "bus/gpio/devices/gpiochip11").symlink_to(bank / "gpiochip11")
    (bank / "gpio/gpiochip600").mkdir()
    (bank / "gpio/gpiochip600/label").write_text("pinctrl-rp1\n")  # a misleading one
    found = {chip.number: chip.label for chip in gpiochip.chips(root, tmp_path / "dev")}
    assert found[10] == found[11] == ""
    assert header_chip(root, tmp_path / "dev") == 0


def test_no_header_chip_is_one_line_saying_what_there_is(tmp_path):
    root = sysfs(tmp_path, {0: ("platform/gpio-sim.0", "gpio-sim.0-node0")})
    with pytest.raises(ChipNotFound) as caught:
        header_chip(root, tmp_path / "dev")
    assert str(caught.value) == (
        "no chip is labelled pinctrl-rp1, pinctrl-bcm2711, pinctrl-bcm2835 "
        "(found gpiochip0 [gpio-sim.0-node0])"
    )
    with pytest.raises(ChipNotFound, match=r"^no GPIO chips here \(not a Raspberry Pi\?\)$"):
        header_chip(tmp_path / "none", tmp_path / "none")


def test_without_sysfs_the_character_devices_are_the_chips(tmp_path):
    """No gpio bus in sysfs: /dev's chips are asked for their label (the ioctl), a link
    such as a Pi 5's gpiochip4 -> gpiochip0 is no chip of its own, and a file that is no
    chip answers nothing."""
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "gpiochip0").write_bytes(b"")  # not a character device: the ioctl fails
    (dev / "gpiochip4").symlink_to("gpiochip0")
    (dev / "gpiochipX").write_bytes(b"")
    assert gpiochip.chips(tmp_path / "sys", dev) == [Chip(0, "")]
    with pytest.raises(ChipNotFound, match=r"\(found gpiochip0 \[\?\]\)$"):
        header_chip(tmp_path / "sys", dev)


class FakeLgpio(types.ModuleType):
    """lgpio's functions that gpiozero's LGPIOFactory calls to open and close a chip,
    standing in for the kernel's chips: ``chips`` are the /dev/gpiochipN there are."""

    SET_PULL_NONE, SET_PULL_UP, SET_PULL_DOWN = 0x80, 0x20, 0x40
    RISING_EDGE, FALLING_EDGE, BOTH_EDGES = 1, 2, 3

    class error(Exception):  # lgpio's own name
        pass

    def __init__(self, chips: set[int]):
        super().__init__("lgpio")
        self.chips, self.opened, self.closed = chips, [], []

    def gpiochip_open(self, number: int) -> int:
        if number not in self.chips:
            raise self.error("can not open gpiochip")  # lgpio's words
        self.opened.append(number)
        return 100 + number

    def gpiochip_close(self, handle: int) -> None:
        self.closed.append(handle)


@pytest.fixture
def lgpio_with(monkeypatch):
    def install(chips: set[int]) -> FakeLgpio:
        fake = FakeLgpio(chips)
        monkeypatch.setitem(sys.modules, "lgpio", fake)
        monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
        return fake

    yield install
    sys.modules.pop("gpiozero.pins.lgpio", None)  # imported over the fake: not kept


@pytest.mark.parametrize("name", ["lgpio", "auto"])
def test_the_chip_found_by_its_label_reaches_lgpio(tmp_path, lgpio_with, name):
    lgpio = lgpio_with({0, 10, 11, 15})
    root = sysfs(tmp_path, PI5_LATER)
    factory = pin_factory(name, {}, find_chip=lambda: header_chip(root, tmp_path / "dev"))
    assert factory.chip == 15 and lgpio.opened == [15]  # gpiozero would have opened 0
    factory.close()
    assert lgpio.closed == [115]


def test_a_chip_number_in_the_config_reaches_lgpio(tmp_path, lgpio_with):
    def never() -> int:
        raise AssertionError("a chip given is not looked for")

    lgpio = lgpio_with({0, 13})
    factory = pin_factory("lgpio", {}, chip=13, find_chip=never)
    assert factory.chip == 13 and lgpio.opened == [13]
    factory.close()


def test_an_unusable_chip_is_one_line_and_exit_3(tmp_path, lgpio_with):
    lgpio_with({0})
    path = write(tmp_path, '[gpio]\npin_factory = "lgpio"\nchip = 7\n')
    err, held = io.StringIO(), []
    assert run_command(str(path), err=err, machine=Machine(hold_off=lambda: held.append(1))) == 3
    assert err.getvalue() == (
        f'companion run: {where(path)}: [gpio] pin_factory = "lgpio": lgpio cannot open '
        "/dev/gpiochip7 (can not open gpiochip): [gpio] chip = 7 is not this Pi's, or the "
        'user is not in the gpio group (chip = "auto" finds the header\'s)\n'
    )
    assert held == [1]


def test_no_header_chip_names_the_key_and_what_was_found(tmp_path, lgpio_with):
    lgpio_with({0})
    root = sysfs(tmp_path, {0: ("platform/gpio-sim.0", "gpio-sim.0-node0")})
    with pytest.raises(PinsUnavailable) as caught:
        pin_factory("lgpio", {}, find_chip=lambda: header_chip(root, tmp_path / "dev"))
    assert str(caught.value) == (
        '[gpio] pin_factory = "lgpio", [gpio] chip = "auto": no chip is labelled '
        "pinctrl-rp1, pinctrl-bcm2711, pinctrl-bcm2835 (found gpiochip0 [gpio-sim.0-node0])"
    )


# --- the service: lgpio only ---------------------------------------------------------------

SERVICE = {"NOTIFY_SOCKET": "/run/systemd/notify"}  # what systemd hands the unit


@pytest.mark.parametrize("name", ["rpigpio", "native"])
def test_the_service_refuses_the_backends_its_sandbox_breaks(name):
    with pytest.raises(PinFactoryError) as caught:
        pin_factory(name, SERVICE)
    assert not isinstance(caught.value, PinsUnavailable)  # the config's to change: exit 2
    assert str(caught.value) == (
        f'[gpio] pin_factory = "{name}": not under the service: it watches the buttons '
        "through /sys/class/gpio, which the unit keeps read-only and kernels 6.6 and later "
        'number differently; use "lgpio" (or "auto")'
    )
    factory = pin_factory("mock", SERVICE)  # the display alone, on mock pins, is fine
    factory.close()


def test_auto_as_the_service_tries_lgpio_alone(without):
    without("lgpio", "lgpio")
    with pytest.raises(PinsUnavailable) as caught:
        pin_factory("auto", SERVICE)
    assert 'pin_factory = "auto": lgpio not installed); ' in str(caught.value)
    assert "RPi.GPIO" not in str(caught.value) and "native" not in str(caught.value)


def test_run_as_the_service_says_no_hardware_to_systemd_and_holds_off(
    tmp_path, monkeypatch, without
):
    """Exit 3 after the hold-off, the line in `systemctl status` meanwhile; a refused
    backend is the config's mistake: exit 2 at once, which the unit does not retry."""
    without("lgpio", "lgpio")
    manager = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    manager.bind(str(tmp_path / "notify"))
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    held: list[int] = []
    machine = Machine(hold_off=lambda: held.append(1))
    err = io.StringIO()
    assert run_command(str(write(tmp_path, "")), err=err, machine=machine) == EXIT_NO_HARDWARE
    status = manager.recv(4096).decode()
    assert status.startswith("STATUS=the hardware is not here: no GPIO pins")
    assert held == [1]
    path = write(tmp_path, '[gpio]\npin_factory = "rpigpio"\n')
    err = io.StringIO()
    assert run_command(str(path), err=err, machine=machine) == EXIT_BAD_INPUT
    assert err.getvalue().startswith(f"companion run: {where(path)}: [gpio] pin_factory")
    assert held == [1]  # no hold-off for a mistake in the config
    manager.close()


# --- [pins]: GPIO 0 and 1 are the HAT ID EEPROM's ------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "gpio"),
    [
        ("[pins]\nrows = [5, 0]", "[pins] rows[1]", 0),
        ("[pins]\ncolumns = [1, 17, 27, 22, 23, 24, 25, 12]", "[pins] columns[0]", 1),
        ("[pins.buttons]\nok = 0", "[pins.buttons] ok", 0),
        ("[pins]\nbuzzer = 1", "[pins] buzzer", 1),
        ("[pins.buzzer]\npin = 0", "[pins] buzzer.pin", 0),
    ],
)
def test_gpio_0_and_1_are_refused_with_the_reason(tmp_path, text, key, gpio):
    path = write(tmp_path, text + "\n")
    with pytest.raises(config.ConfigError) as caught:
        config.load(path)
    name = ("ID_SD", "ID_SC")[gpio]
    assert str(caught.value) == (
        f"{where(path)}: {key}: GPIO {gpio} is {name}, the HAT ID EEPROM's I²C line, which "
        f"the Pi reads at boot: keep GPIO 0 and 1 free (got {gpio})"
    )
