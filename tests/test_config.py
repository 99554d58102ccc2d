"""The config file: defaults, overrides, your own board, and clear errors."""

from __future__ import annotations

import io
import json

import pytest

from companion.app import config
from companion.app.device import run_command, setup_flow
from companion.game.boards import profile
from companion.rules import Board, CompanionError

OWN_RATES = [None, [3, 1], [3, 1]] + [[2, 1]] * 5 + [[3, 2]] * 8


def write(tmp_path, text: str):
    path = tmp_path / "companion.toml"
    path.write_text(text)
    return path


def test_defaults_are_the_shipped_pin_map(tmp_path):
    cfg = config.load(write(tmp_path, ""))
    shipped = config.pin_map()
    assert cfg.pins.rows == tuple(shipped["rows"]) and cfg.pins.columns == tuple(shipped["columns"])
    assert cfg.display.controller == "ssd1306" and cfg.target == 30 and cfg.board == "standard"


def test_overrides(tmp_path):
    cfg = config.load(
        write(
            tmp_path,
            '[display]\ncontroller = "sh1106"\naddress = 0x3D\n'
            "[pins]\nrows = [5, 6, 13]\n"
            f'[paths]\nstate = "{tmp_path}/g.json"\n',
        )
    )
    assert cfg.display.controller == "sh1106" and cfg.display.address == 0x3D
    assert cfg.pins.rows == (5, 6, 13) and str(cfg.state) == f"{tmp_path}/g.json"


def test_your_own_board_and_target_are_the_setup_defaults(tmp_path):
    (tmp_path / "mine.json").write_text(json.dumps({"trader_rates": OWN_RATES}))
    cfg = config.load(write(tmp_path, f'[game]\nboard = "{tmp_path}/mine.json"\ntarget = 45\n'))
    flow = setup_flow(cfg)
    assert flow.boards[flow.board] == Board.from_rates(OWN_RATES)
    assert profile("standard") in flow.boards and flow.target == 45
    winter = setup_flow(config.load(write(tmp_path, '[game]\nboard = "winter"\n')))
    assert winter.boards[winter.board] == profile("winter")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[display\n", "not valid TOML"),
        ("[display]\ncolour = 1\n", "unexpected keyword argument 'colour'"),
        ('[game]\ntarget = "many"\n', "target must be a positive whole number, got 'many'"),
        ("[pins]\ncolumns = [1, 2, 3]\n", "8 columns"),
    ],
)
def test_bad_configs(tmp_path, text, words):
    with pytest.raises(config.ConfigError, match=words):
        config.load(write(tmp_path, text))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[game]\ntarget = 0\n", "target must be a positive whole number"),
        ('[game]\nboard = "summer"\n', "board in the config: summer: not a board name"),
    ],
)
def test_run_says_what_is_wrong_in_one_line(tmp_path, text, words):
    err = io.StringIO()
    assert run_command(str(write(tmp_path, text)), err=err) == 2
    assert err.getvalue().count("\n") == 1 and words in err.getvalue()


def test_run_without_hardware_points_at_simulate(tmp_path):
    err = io.StringIO()
    assert run_command(str(write(tmp_path, "")), err=err) == 2
    assert "the hardware is not here" in err.getvalue()
    assert "companion simulate" in err.getvalue()


def test_missing_config_file(tmp_path):
    with pytest.raises(CompanionError, match="cannot read"):
        config.load(tmp_path / "nowhere.toml")


def test_the_device_assembly_on_mock_pins(tmp_path, monkeypatch):
    """``companion run``'s parts, wired from the config, on MockFactory pins and a fake
    panel in place of the I2C display."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from companion.app import device as device_mod
    from companion.hw import display
    from companion.hw.display import fake_device
    from companion.hw.simmatrix import SimulatedMatrix
    from companion.table.events import PadDown
    from companion.table.flow import Phase

    panels = []

    def fake_open(controller, interface, **options):
        dev, panel = fake_device(controller, options.get("rotate", 0))
        panels.append(panel)
        return dev

    monkeypatch.setattr(display, "open_device", fake_open)
    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    (tmp_path / "mine.json").write_text(json.dumps({"trader_rates": OWN_RATES}))
    cfg = config.load(
        write(
            tmp_path,
            f'[display]\ncontroller = "sh1106"\n[game]\nboard = "{tmp_path}/mine.json"\n'
            f'target = 45\n[paths]\nstate = "{tmp_path}/game.json"\n',
        )
    )
    SimulatedMatrix(factory, cfg.pins.rows, cfg.pins.columns)
    _, app, closers = device_mod._open(cfg)
    try:
        assert app.flow.phase is Phase.JOIN and app.flow.target == 45
        assert app.flow.boards[app.flow.board] == Board.from_rates(OWN_RATES)
        app.refresh()
        app.handle(PadDown(0, 3))
        app.handle(PadDown(1, 3))
        assert app.flow.pads == (0, 1)
        assert panels[0].controller == "sh1106" and panels[0].image().getbbox() is not None
    finally:
        for close in closers:
            close()
        factory.reset()


def test_a_part_that_fails_closes_the_ones_already_open(tmp_path, monkeypatch):
    from gpiozero import Device
    from gpiozero.exc import GPIOPinInUse
    from gpiozero.pins.mock import MockFactory

    from companion.app import device as device_mod
    from companion.hw import display
    from companion.hw.display import fake_device
    from companion.hw.matrix import PadMatrix

    monkeypatch.setattr(display, "open_device", lambda *a, **k: fake_device()[0])
    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    closed = []
    close = PadMatrix.close

    def recording_close(matrix):
        closed.append(matrix)
        close(matrix)

    monkeypatch.setattr(PadMatrix, "close", recording_close)
    # The ◀ button asks for GPIO 5, which the pads' first row already holds.
    cfg = config.load(write(tmp_path, "[pins.buttons]\nleft = 5\nok = 21\nright = 7\n"))
    with pytest.raises(GPIOPinInUse):
        device_mod._open(cfg)
    assert len(closed) == 1  # the pad matrix, opened first, was closed again
    factory.reset()
