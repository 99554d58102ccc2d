"""The config file: defaults, layers, your own board, and one clear line for any mistake."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import tomllib
from pathlib import Path

import pytest
from devices import MockHardware, NoPwm

from companion.app import config
from companion.app.device import setup_flow
from companion.app.effective import config_settings
from companion.cli.run import run_command
from companion.errors import CompanionError, where
from companion.game.boards import profile
from companion.game.settings import board_of
from companion.hw.buttons import Beeper, WiringError
from companion.rules import Board

OWN_RATES = [None, [3, 1], [3, 1]] + [[2, 1]] * 5 + [[3, 2]] * 8
DOCS = Path(__file__).parent.parent / "docs"
EXAMPLE = DOCS / "companion.example.toml"


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(text)
    return path


def mistake(path: Path, text: str) -> str:
    """The message of the ConfigError that ``text`` in ``path`` raises."""
    path.write_text(text)
    with pytest.raises(config.ConfigError) as e:
        config.load(path)
    return str(e.value)


# --- defaults and layers -------------------------------------------------------------


def test_defaults_are_the_shipped_pin_map(tmp_path):
    cfg = config.load(write(tmp_path, ""))
    shipped = config.pin_map()
    assert cfg.pins.rows == tuple(shipped["rows"]) and cfg.pins.columns == tuple(shipped["columns"])
    assert cfg.pins.buttons == shipped["buttons"] and cfg.pins.buzzer == shipped["buzzer"]["pin"]
    assert cfg.pins == config.shipped_pins()
    assert cfg.pins.display_reset == shipped["display_reset"] == 7
    assert cfg.display.controller == "ssd1309" and cfg.target == 30 and cfg.board == "standard"


def test_overrides(tmp_path):
    cfg = config.load(
        write(
            tmp_path,
            '[display]\ncontroller = "sh1106"\naddress = 0x3D\n'
            "[pins]\nrows = [5, 6, 13]\n"
            f'[paths]\nstate_dir = "{tmp_path}/games"\n',
        )
    )
    assert cfg.display.controller == "sh1106" and cfg.display.address == 0x3D
    assert cfg.display.rotate == 0  # the rest of [display] keeps its defaults
    assert cfg.pins.rows == (5, 6, 13) and cfg.state == tmp_path / "games" / "game.json"


def test_a_partial_table_changes_only_what_it_names(tmp_path):
    cfg = config.load(write(tmp_path, "[pins.buttons]\nok = 14\n"))
    assert cfg.pins.buttons == {"left": 20, "ok": 14, "right": 15}


def test_a_list_replaces_the_whole_list(tmp_path):
    cfg = config.load(write(tmp_path, "[pins]\nrows = [26, 16]\n"))
    assert cfg.pins.rows == (26, 16)


@pytest.mark.parametrize(
    ("text", "pin"),
    [
        ("[pins]\nbuzzer = 14\n", 14),
        ("[pins.buzzer]\npin = 14\n", 14),
        ("[pins]\nbuzzer = false\n", None),
    ],
)
def test_the_buzzer_as_a_pin_a_table_or_none(tmp_path, text, pin):
    assert config.load(write(tmp_path, text)).pins.buzzer == pin


def test_no_buzzer_frees_its_pin(tmp_path):
    cfg = config.load(write(tmp_path, "[pins]\nbuzzer = false\nrows = [18, 5]\n"))
    assert cfg.pins.rows == (18, 5) and cfg.pins.buzzer is None


def test_the_example_file_is_valid_and_holds_the_defaults():
    cfg = config.load(EXAMPLE)
    assert cfg.source == EXAMPLE
    assert dataclasses.replace(cfg, source=None) == config.defaults()


def test_the_example_and_the_docs_name_every_key():
    example = tomllib.loads(EXAMPLE.read_text("utf-8"))
    docs = (DOCS / "config.md").read_text("utf-8")
    for section, keys in config.SCHEMA.items():
        assert f"## [{section}]" in docs
        for key, spec in keys.items():
            assert key in example[section], key
            if isinstance(spec, dict):  # a table: its own heading
                assert f"### [{section}.{key}]" in docs
                assert all(f"`{k}`" in docs and k in example[section][key] for k in spec)
            else:
                assert f"`{key}`" in docs, key


def test_the_docs_show_the_example_file():
    docs = (DOCS / "config.md").read_text("utf-8")
    shown = re.search(r"```toml\n(.*?)```", docs, re.DOTALL)
    assert shown is not None
    assert tomllib.loads(shown.group(1)) == tomllib.loads(EXAMPLE.read_text("utf-8"))


# --- your own board --------------------------------------------------------------------


def test_your_own_board_and_target_are_the_setup_defaults(tmp_path):
    (tmp_path / "mine.json").write_text(json.dumps({"trader_rates": OWN_RATES}))
    cfg = config.load(write(tmp_path, f'[game]\nboard = "{tmp_path}/mine.json"\ntarget = 45\n'))
    flow = setup_flow(config_settings(cfg))
    assert flow.board == Board.from_rates(OWN_RATES)
    assert profile("standard") in flow.settings.boards and flow.choice.target == 45
    winter = setup_flow(config_settings(config.load(write(tmp_path, '[game]\nboard = "winter"\n'))))
    assert winter.board == profile("winter")


def test_a_relative_board_file_is_beside_the_config_file(tmp_path, monkeypatch):
    (tmp_path / "mine.json").write_text(json.dumps({"trader_rates": OWN_RATES}))
    monkeypatch.chdir("/")
    cfg = config.load(write(tmp_path, '[game]\nboard = "mine.json"\n'))
    assert cfg.board == str(tmp_path / "mine.json")


# --- paths -----------------------------------------------------------------------------


def test_the_older_state_key_is_gone(tmp_path):
    path = write(tmp_path, f'[paths]\nstate = "{tmp_path}/dir/g.json"\n')
    with pytest.raises(config.ConfigError) as e:
        config.load(path)
    assert str(e.value) == f"{where(path)}: [paths] state: unknown key (did you mean state_dir?)"


def test_paths_expand_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert config.defaults().state_dir == tmp_path / ".local/share/santo-domingo"
    cfg = config.load(write(tmp_path, '[paths]\nstate_dir = "~/sd"\n'))
    assert cfg.state_dir == tmp_path / "sd" and cfg.state == tmp_path / "sd" / "game.json"


# --- which file ------------------------------------------------------------------------


def test_the_first_default_file_that_exists_is_read(tmp_path, monkeypatch):
    system, user = tmp_path / "etc.toml", tmp_path / "user.toml"
    monkeypatch.setattr(config, "DEFAULT_PATHS", (system, user))
    assert config.load().source is None  # neither exists: the packaged defaults
    user.write_text("[game]\ntarget = 40\n")
    assert config.load().target == 40
    system.write_text("[game]\ntarget = 50\n")
    assert config.load().target == 50 and config.load().source == system


def test_a_default_file_that_cannot_be_looked_at_is_skipped_in_one_line(
    tmp_path, monkeypatch, capsys
):
    """As a home folder closed to ``sudo -u`` or a service user: the OS says no to the
    look itself (here a name too long, which root cannot be let past either)."""
    closed, user = tmp_path / ("x" * 300) / "companion.toml", tmp_path / "user.toml"
    user.write_text("[game]\ntarget = 40\n")
    monkeypatch.setattr(config, "DEFAULT_PATHS", (closed, user))
    assert config.load().target == 40
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "skipped" in err and "x" * 300 in err
    assert "Traceback" not in err


def test_an_explicit_file_must_exist(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "DEFAULT_PATHS", (write(tmp_path, ""),))
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(CompanionError, match=f"^{re.escape(where(missing))}: cannot read: No such"):
        config.load(missing)


# --- mistakes: one line, naming the file and the key -----------------------------------

MISTAKES = [
    # not TOML, wrong sections and keys
    ("[display\n", "not valid TOML: "),
    ("[gmae]\ntarget = 3\n", "[gmae]: unknown section (did you mean [game]?)"),
    ("[game]\ntargte = 3\n", "[game] targte: unknown key (did you mean target?)"),
    ("[display]\ncolour = 1\n", "[display] colour: unknown key (known: controller, "),
    ("target = 3\n", "target: outside its section (put it under [game])"),
    ("pins = 5\n", "[pins]: not a table (got 5)"),
    ("[pins]\nbuttons = 5\n", "[pins.buttons]: not a table (got 5)"),
    ("[pins.buzzer]\npni = 5\n", "[pins] buzzer.pni: unknown key (did you mean pin?)"),
    # wrong types
    ('[game]\ntarget = "many"\n', '[game] target: not a whole number (got "many")'),
    ("[game]\ntarget = 30.0\n", "[game] target: not a whole number (got 30.0)"),
    ("[display]\nrotate = true\n", "[display] rotate: not a whole number (got true)"),
    ("[game]\nboard = 5\n", "[game] board: not text in quotes (got 5)"),
    ('[pins]\nrows = "5, 6"\n', "[pins] rows: needs a list of 2 to 6 GPIO numbers, one a seat"),
    ("[pins]\nrows = [5, true]\n", "[pins] rows[1]: not a GPIO number (got true)"),
    ("[pins]\nbuzzer = true\n", "[pins] buzzer: not a GPIO number, nor false for no buzzer"),
    ('[pins.buttons]\nok = "21"\n', '[pins.buttons] ok: not a GPIO number (got "21")'),
    # out of range
    ("[game]\ntarget = 0\n", "[game] target: not in 1..999 (got 0)"),
    ("[game]\ntarget = 1000\n", "[game] target: not in 1..999 (got 1000)"),
    ("[pins]\nrows = [5, -6]\n", "[pins] rows[1]: not in 0..27 (got -6)"),
    ("[pins.buzzer]\npin = 28\n", "[pins] buzzer.pin: not in 0..27 (got 28)"),
    ("[pins]\nrows = [5]\n", "[pins] rows: needs a list of 2 to 6 GPIO numbers, one a seat"),
    ("[pins]\nrows = [5, 6, 13, 19, 26, 16, 14]\n", "[pins] rows: needs a list of 2 to 6"),
    ("[pins]\ncolumns = [4, 17]\n", "[pins] columns: needs a list of 8 GPIO numbers, one a card"),
    ('[game]\nlanguage = "xx"\n', '[game] language: not one of en, fr, nl (got "xx")'),
    (
        '[display]\ncontroller = "sh1107"\n',
        "[display] controller: not one of ssd1306, ssd1309, sh1106, ssd1322 (did",
    ),
    ('[display]\ninterface = "usb"\n', '[display] interface: not one of i2c, spi (got "usb")'),
    ("[display]\naddress = 0x80\n", "[display] address: not in 0..127 (got 128)"),
    ("[display]\nrotate = 4\n", "[display] rotate: not in 0..3 (got 4)"),
    ("[display]\nport = -1\n", "[display] port: not 0 or more (got -1)"),
    # pins used twice, or held by the display's bus
    ("[pins.buttons]\nok = 5\n", "[pins.buttons] ok: GPIO 5 is also [pins] rows[0] (got 5)"),
    ("[pins]\nrows = [5, 5]\n", "[pins] rows[1]: GPIO 5 is also [pins] rows[0] (got 5)"),
    # the key this file wrote is named, though the shipped one comes later
    ("[pins]\nrows = [14, 20]\n", "[pins] rows[1]: GPIO 20 is also [pins.buttons] left (got 20)"),
    ("[pins]\nbuzzer = 12\n", "[pins] buzzer: GPIO 12 is also [pins] columns[7] (got 12)"),
    ("[pins]\nrows = [2, 5]\n", "[pins] rows[0]: GPIO 2 is the I2C display's SDA line (got 2)"),
    ('[display]\ninterface = "spi"\n[pins.buttons]\nok = 10\n', "GPIO 10 is the SPI display's"),
    # boards and paths
    ('[game]\nboard = "standrad"\n', "[game] board: not a board name (standard, winter) and "),
    ('[game]\nboard = "standrad"\n', '(did you mean standard?) (got "'),
    ('[paths]\nstate_dir = ""\n', '[paths] state_dir: empty (got "")'),
]


@pytest.mark.parametrize(("text", "words"), MISTAKES)
def test_a_mistake_is_one_line_naming_the_file_and_the_key(tmp_path, text, words):
    path = tmp_path / "companion.toml"
    message = mistake(path, text)
    assert message.startswith(f"{where(path)}: ") and words in message
    assert "\n" not in message


def test_a_value_shown_is_cut_to_80_characters(tmp_path):
    message = mistake(tmp_path / "c.toml", f'[display]\ncontroller = "{"x" * 200}"\n')
    shown = message.rpartition("(got ")[2]
    assert shown.startswith('"xxx') and len(shown) == 80 + len(")")


def test_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "companion.toml"
    path.write_bytes(b'[game]\nlanguage = "\xe9"\n')
    with pytest.raises(config.ConfigError, match=f"^{re.escape(where(path))}: not UTF-8 text: "):
        config.load(path)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"\xff\xfe", "[game] board: not UTF-8 text"),
        (b'{"trader_rates": [1, 2]}', "[game] board: a trader table has 16 spaces"),
        (b"{", "[game] board: not valid JSON"),
    ],
)
def test_a_board_file_is_checked_with_the_config(tmp_path, content, words):
    (tmp_path / "mine.json").write_bytes(content)
    message = mistake(tmp_path / "companion.toml", '[game]\nboard = "mine.json"\n')
    assert message.startswith(f"{where(tmp_path / 'companion.toml')}: {words}")


def test_a_state_dir_that_is_a_file(tmp_path):
    (tmp_path / "taken").write_text("")
    message = mistake(tmp_path / "c.toml", '[paths]\nstate_dir = "taken"\n')
    assert (
        message == f'{tmp_path}/c.toml: [paths] state_dir: not a directory (got "{tmp_path}/taken")'
    )


def test_a_pin_map_is_checked_whole():
    buttons = {"left": 4, "ok": 2, "right": 3}
    with pytest.raises(config.ConfigError, match=r"^mine: \[pins\] columns: missing$"):
        config.pins_from({"rows": [5, 6], "buttons": buttons}, "mine")
    twice = {"rows": [5, 6], "columns": [7, 8, 9, 10, 11, 12, 13, 4], "buttons": buttons}
    with pytest.raises(config.ConfigError, match=r"^mine: \[pins.buttons\] left: GPIO 4 is also"):
        config.pins_from(twice, "mine")
    assert config.pins_from({**twice, "buttons": {**buttons, "left": 14}}).buttons["left"] == 14


# --- companion run ---------------------------------------------------------------------


@pytest.fixture
def no_display(monkeypatch):
    """Records any attempt to open the display: the first part ``companion run`` opens."""
    from companion.hw import display

    opened = []
    monkeypatch.setattr(display, "open_device", lambda *a, **k: opened.append(a))
    return opened


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[game]\ntarget = 0\n", "[game] target: not in 1..999 (got 0)"),
        ('[game]\nboard = "summer"\n', "[game] board: not a board name"),
        ("[pins.buttons]\nok = 5\n", "[pins.buttons] ok: GPIO 5 is also [pins] rows[0]"),
        ('[display]\ncontroller = "ssd1320"\n', "[display] controller: not one of"),
    ],
)
def test_run_says_what_is_wrong_before_opening_anything(tmp_path, no_display, text, words):
    err = io.StringIO()
    path = write(tmp_path, text)
    assert run_command(str(path), err=err) == 2
    assert err.getvalue().startswith(f"companion run: {where(path)}: {words}")
    assert err.getvalue().count("\n") == 1 and "hardware" not in err.getvalue()
    assert no_display == []


def test_run_never_calls_a_config_error_missing_hardware(tmp_path, mock_hardware):
    def refuse(*args, **options):
        raise config.ConfigError("companion.toml: [display] port: not on this Pi (got 7)")

    err = io.StringIO()
    machine = mock_hardware.machine(open_device=refuse)
    assert run_command(str(write(tmp_path, "")), err=err, machine=machine) == 2
    assert (
        err.getvalue() == "companion run: companion.toml: [display] port: not on this Pi (got 7)\n"
    )


def test_a_passive_buzzer_on_pins_without_pwm_is_a_config_mistake():
    """Real pins with no PWM (gpiozero's native ones: here mock pins behind a factory that
    is not a MockFactory): exit 2, not "missing hardware" (3, which the service would
    retry for ever), and the line says the way out."""
    factory = NoPwm()
    with pytest.raises(WiringError) as caught:
        Beeper(18, kind="passive", volume=5, pin_factory=factory)
    assert str(caught.value) == (
        "buzzer: a passive buzzer needs PWM on GPIO 18, which NoPwm's pins do not play; "
        'set [sound] buzzer = "active" or [gpio] pin_factory = "lgpio"'
    )
    factory.mock.reset()


def test_run_without_hardware_points_at_simulate(tmp_path):
    err = io.StringIO()
    assert run_command(str(write(tmp_path, "")), err=err) == 3  # retried by the service
    assert "the hardware is not here" in err.getvalue()
    assert "companion simulate" in err.getvalue()


@pytest.fixture
def mock_hardware():
    hardware = MockHardware()
    yield hardware
    hardware.factory.reset()


def test_the_device_assembly_on_mock_pins(tmp_path, mock_hardware):
    """``companion run``'s parts, wired from the config, on MockFactory pins and a fake
    panel in place of the I2C display."""
    from companion.sim.matrix import SimulatedMatrix
    from companion.table import Phase
    from companion.table.events import HostKey, HostPress, PadDown

    factory, panels = mock_hardware.factory, mock_hardware.panels
    (tmp_path / "mine.json").write_text(json.dumps({"trader_rates": OWN_RATES}))
    path = write(
        tmp_path,
        '[display]\ncontroller = "sh1106"\n[game]\nboard = "mine.json"\n'
        'target = 45\n[paths]\nstate_dir = "."\n',
    )
    pins = config.shipped_pins()
    SimulatedMatrix(factory, pins.rows, pins.columns)
    seen: list = []
    ok = HostPress(HostKey.OK)  # the seats joined: on to the options
    machine = mock_hardware.machine(PadDown(0, 3), PadDown(1, 3), ok, seen=seen)
    assert run_command(str(path), err=io.StringIO(), machine=machine) == 0
    (first, prefs), *_, (joined, _), (options, _) = seen  # two joined, then the options
    assert first.phase is Phase.JOIN and joined.body.joined[:3] == (True, True, False)
    assert board_of(prefs) == Board.from_rates(OWN_RATES)
    body = options.body  # the table offers the config's board (its own) and target
    assert options.phase is Phase.OPTIONS and body.target == 45 and body.board is None
    assert panels[0].controller == "sh1106" and panels[0].image().getbbox() is not None


def test_a_part_that_fails_closes_the_ones_already_open(tmp_path, monkeypatch, mock_hardware):
    from gpiozero import Button

    from companion.hw.matrix import PadMatrix

    factory = mock_hardware.factory
    closed = []
    close = PadMatrix.close

    def recording_close(matrix):
        closed.append(matrix)
        close(matrix)

    monkeypatch.setattr(PadMatrix, "close", recording_close)
    # Something else already holds the ◀ button's GPIO: opening the buttons fails.
    holder = Button(config.shipped_pins().buttons["left"], pin_factory=factory)
    err = io.StringIO()
    machine = mock_hardware.machine()  # should the parts all open after all, it stops
    assert run_command(str(write(tmp_path, "")), err=err, machine=machine) == 3
    assert "the hardware is not here (GPIOPinInUse" in err.getvalue()
    assert len(closed) == 1  # the pad matrix, opened first, was closed again
    holder.close()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[display]\nport = 1" + "0" * 4400 + "\n", "a number longer than 4300 digits"),
        ("x = " + "[" * 2000 + "]" * 2000 + "\n", "nested too deeply"),
        ('[game]\nboard = "' + "x" * 300 + '"\n', "[game] board: "),
        ('[paths]\nstate_dir = "' + "y" * 300 + '"\n', None),
    ],
)
def test_extreme_values_are_one_line_never_a_traceback(tmp_path, text, words):
    path = tmp_path / "companion.toml"
    path.write_text(text)
    try:
        config.load(path)
    except config.ConfigError as e:
        message = str(e)
        assert "\n" not in message and len(message) < 300
        assert words is None or words in message
    else:
        assert words is None  # a long folder name that does not exist yet is fine


def to_options():
    """Two seats join and go on to the options, where the table offers its target."""
    from companion.table.events import HostKey, HostPress, PadDown

    return PadDown(0, 1), PadDown(1, 1), HostPress(HostKey.OK)


TO_OPTIONS = to_options()


def target_offered(seen: list) -> int:
    """The target the options screen offered, from the views a run showed."""
    options = next(view for view, _ in seen if view.phase.value == "options")
    return options.body.target


def test_run_starts_with_the_settings_saved_on_the_device(tmp_path, mock_hardware):
    """settings.json in the state folder beats the config file; a change on the device
    sets the panel's contrast at once and is saved."""
    from companion.sim.panel import fake_device
    from companion.table.events import ChangeSettings

    contrast = []

    def fake_open(controller, interface, **options):
        dev, _ = fake_device(controller)
        real = dev.contrast
        dev.contrast = lambda level: (contrast.append(level), real(level))
        return dev

    (tmp_path / "settings.json").write_text('{"target": 45, "contrast": 2}')
    path = write(tmp_path, '[game]\ntarget = 40\n[paths]\nstate_dir = "."\n')
    seen: list = []
    change = ChangeSettings((("contrast", 10),))  # as the page sends it: as on the device
    events = (*TO_OPTIONS, change)
    machine = mock_hardware.machine(*events, seen=seen, open_device=fake_open)
    assert run_command(str(path), err=io.StringIO(), machine=machine) == 0
    assert target_offered(seen) == 45 and contrast == [51, 255]
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved == {"target": 45, "contrast": 10}


def test_run_sets_a_damaged_settings_file_aside(tmp_path, mock_hardware):
    (tmp_path / "settings.json").write_text('{"target": "many"}')
    path = write(tmp_path, '[game]\ntarget = 40\n[paths]\nstate_dir = "."\n')
    seen: list = []
    err = io.StringIO()
    machine = mock_hardware.machine(*TO_OPTIONS, seen=seen)
    assert run_command(str(path), err=err, machine=machine) == 0
    assert target_offered(seen) == 40 and (tmp_path / "settings.bad.json").exists()
    assert err.getvalue().startswith(
        f"companion: {where(tmp_path / 'settings.json')} is not usable settings"
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[sound]\nenabled = 1\n", "[sound] enabled: not true or false (got 1)"),
        ("[sound]\nvolume = 0\n", "[sound] volume: not in 1..10 (got 0)"),
        ("[sound]\nloud = true\n", "[sound] loud: unknown key (known: enabled, volume, buzzer)"),
        ("[display]\ncontrast = 11\n", "[display] contrast: not in 1..10 (got 11)"),
    ],
)
def test_the_settings_keys_are_checked(tmp_path, text, words):
    path = tmp_path / "companion.toml"
    assert mistake(path, text) == f"{where(path)}: {words}"


def test_the_settings_keys_and_their_defaults(tmp_path):
    cfg = config.load(write(tmp_path, "[sound]\nenabled = false\n[display]\ncontrast = 3\n"))
    assert cfg.sound == config.SoundConfig(enabled=False, volume=5) and cfg.display.contrast == 3
    assert config.defaults().sound.enabled and config.defaults().display.contrast == 8


def test_the_example_board_file_is_a_board():
    from companion.game.boards import named_board

    board = named_board(str(DOCS / "board.example.json"))
    assert len(board.rates) == 16 and board.rates[0] is None and board.name is None


@pytest.mark.parametrize("where", ["[game]\n", "", "[pins.buzzer]\n"])
def test_an_unknown_key_is_cut_and_its_control_characters_escaped(tmp_path, where):
    key = "k" * 100_000 + "\\u0007\\u001b[31m"
    path = write(tmp_path, f'{where}"\\u001b[2J{key}" = 1\n')
    with pytest.raises(config.ConfigError) as e:
        config.load(path)
    message = str(e.value)
    assert message.isprintable() and len(message) < len(str(path)) + 200
    assert "\\x1b[2Jkkk" in message and "unknown" in message
