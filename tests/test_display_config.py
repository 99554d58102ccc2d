"""The config's [display] and [sound] keys: the panels, their SPI lines, contrast, and the
kind of buzzer; and ``companion run`` opening what they name."""

from __future__ import annotations

import io

import pytest
from devices import mock_machine, open_table
from gpiozero.pins.mock import MockFactory

from companion.app import config
from companion.cli.run import run_command
from companion.errors import where


def load(tmp_path, text: str) -> config.Config:
    path = tmp_path / "companion.toml"
    path.write_text(text)
    return config.load(path)


def mistake(tmp_path, text: str) -> str:
    with pytest.raises(config.ConfigError) as e:
        load(tmp_path, text)
    message = str(e.value)
    assert message.startswith(f"{where(tmp_path / 'companion.toml')}: ") and "\n" not in message
    return message.split(": ", 1)[1]


def test_the_defaults(tmp_path):
    cfg = load(tmp_path, "")
    d = cfg.display
    assert (d.controller, d.interface, d.port, d.dc, d.reset, d.contrast) == (
        "ssd1309",  # the parts list's, reset through [pins] display_reset
        "i2c",
        1,
        2,
        3,
        8,
    )
    assert cfg.pins.buzzer_kind == "active"


def test_an_spi_display_is_on_the_headers_spi_bus_unless_told(tmp_path):
    spi = '[display]\ncontroller = "ssd1322"\ninterface = "spi"\n'
    assert load(tmp_path, spi).display.port == 0
    assert load(tmp_path, spi + "port = 1\n").display.port == 1
    assert load(tmp_path, '[display]\ncontroller = "ssd1309"\n').display.port == 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            '[display]\ncontroller = "ssd1322"\n',
            '[display] controller: the ssd1322 has no I2C interface: give interface = "spi" '
            'too (got "ssd1322")',
        ),
        (
            '[display]\ninterface = "spi"\ndc = 24\n',
            "[display] dc: GPIO 24 is also [pins] columns[5] (got 24)",
        ),
        (
            '[display]\ninterface = "spi"\nreset = 10\n',
            "[display] reset: GPIO 10 is the SPI display's MOSI line (got 10)",
        ),
        (
            '[display]\ninterface = "spi"\nreset = 2\n',
            "[display] reset: GPIO 2 is also [display] dc (got 2)",
        ),
        (
            '[display]\ninterface = "spi"\n[pins.buttons]\nok = 3\n',
            "[pins.buttons] ok: GPIO 3 is also [display] reset (got 3)",
        ),
        ("[display]\ndc = 0\n", "[display] dc: not in 1..27 (got 0)"),
        ("[display]\ncontrast = 11\n", "[display] contrast: not in 1..10 (got 11)"),
        ("[display]\ncontrast = 0\n", "[display] contrast: not in 1..10 (got 0)"),
        (
            '[sound]\nbuzzer = "piezo"\n',
            '[sound] buzzer: not one of active, passive (got "piezo")',
        ),
    ],
)
def test_a_display_or_buzzer_mistake_is_one_line(tmp_path, text, words):
    assert mistake(tmp_path, text) == words


def test_an_i2c_display_has_no_dc_or_reset_line_to_check(tmp_path):
    cfg = load(tmp_path, "[display]\ndc = 24\nreset = 25\n")  # pad columns, unused here
    assert (cfg.display.dc, cfg.display.reset) == (24, 25)


def test_moved_lines_and_a_passive_buzzer(tmp_path):
    cfg = load(
        tmp_path,
        '[display]\ninterface = "spi"\ndc = 14\nreset = 7\n[sound]\nbuzzer = "passive"\n',
    )
    assert (cfg.display.dc, cfg.display.reset, cfg.pins.buzzer_kind) == (14, 7, "passive")


def test_run_opens_the_ssd1322_on_its_lines_with_the_contrast(tmp_path, monkeypatch):
    """``companion run`` hands the config's SPI lines and bus to the display, and sets
    its contrast; the 128×64 screens show centred on the 256×64 panel."""
    from companion.sim.panel import fake_device

    factory = MockFactory()
    opened = []

    def fake_open(controller, interface, **options):
        opened.append((controller, interface, options))
        device, panel = fake_device(
            controller, pin_factory=factory, dc=options["dc"], reset=options["reset"]
        )
        opened.append(panel)
        return device

    stop = mock_machine(factory, fake_open)
    path = tmp_path / "companion.toml"
    path.write_text(
        '[display]\ncontroller = "ssd1322"\ninterface = "spi"\ndc = 14\nreset = 7\n'
        'contrast = 4\n[paths]\nstate_dir = "."\n'
    )
    err = io.StringIO()
    assert run_command(str(path), err=err, machine=stop) == 0, err.getvalue()
    (controller, interface, options), panel = opened
    assert (controller, interface) == ("ssd1322", "spi")
    assert (options["port"], options["dc"], options["reset"]) == (0, 14, 7)
    assert panel.contrast == 102
    left, _, right, _ = panel.image().getbbox()
    assert left < 64 and right > 192  # the screens are drawn for the panel's 256×64
    factory.reset()


@pytest.mark.slow
def test_the_device_gets_the_buzzer_kind_the_config_names(tmp_path, monkeypatch):
    from contextlib import ExitStack

    from gpiozero import PWMOutputDevice
    from gpiozero.pins.mock import MockPWMPin

    from companion.app.effective import effective
    from companion.sim.panel import fake_device

    factory = MockFactory(pin_class=MockPWMPin)
    path = tmp_path / "companion.toml"
    path.write_text('[sound]\nbuzzer = "passive"\n[paths]\nstate_dir = "."\n')
    found = effective(path, report=lambda message: None)
    with ExitStack() as stack:
        display = lambda *a, **k: fake_device("ssd1309")[0]  # noqa: E731
        table = open_table(stack, found, print, open_display=display, factory=factory)
        assert table.beeper.kind == "passive" and not table.beeper.has_volume  # pitch only
        assert isinstance(table.beeper.device, PWMOutputDevice)
    factory.reset()
