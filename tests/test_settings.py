"""The settings chosen on the device: checked values, settings.json, the layers, the sink,
and ``companion config show``."""

from __future__ import annotations

import dataclasses
import errno
import itertools
import json
import os

import pytest
from helpers import PowerCut, cut_at

from companion.errors import where
from companion.game.boards import profile
from companion.game.record import GameRecord
from companion.game.settings import (
    OWN,
    DeviceSettings,
    SettingsError,
    board_of,
    board_values,
    changed,
)
from companion.rules import Board, Rate
from companion.storage import FileOps, StorageError
from companion.storage.settings import SettingsFile

OWN_RATES = [None, [3, 1], [3, 1]] + [[2, 1]] * 5 + [[3, 2]] * 8
MINE = DeviceSettings(board=OWN, own_rates=Board.from_rates(OWN_RATES).rates, target=45)
MINE = dataclasses.replace(MINE, sound=False, volume=3, contrast=10)


def os_error(code: int, path) -> OSError:
    return OSError(code, os.strerror(code), str(path))


def failing(op: str, code: int) -> FileOps:
    """The real file operations, except ``op``, which fails with ``code``."""

    def fail(*args, **kwargs):
        raise os_error(code, args[0])

    return dataclasses.replace(FileOps(), **{op: fail})


class Said(list):
    """A report function that keeps what it was told."""

    def __call__(self, message: str) -> None:
        assert "\n" not in message and len(message) < 400
        self.append(message)


# --- DeviceSettings ----------------------------------------------------------------------


def test_the_defaults():
    s = DeviceSettings()
    assert (s.language, s.board, s.own_rates, s.target) == ("en", "standard", None, 30)
    assert (s.sound, s.volume, s.contrast) == (True, 5, 8)


@pytest.mark.parametrize(
    "settings", [DeviceSettings(), MINE, dataclasses.replace(MINE, board="winter")]
)
def test_round_trip_through_json(settings):
    text = json.dumps(settings.to_dict())
    assert DeviceSettings.from_dict(json.loads(text)) == settings


def test_own_rates_are_json_lists():
    assert MINE.to_dict()["own_rates"] == OWN_RATES


def test_a_partial_dict_keeps_the_base_and_unknown_keys_are_ignored():
    got = DeviceSettings.from_dict({"target": 45, "brightness": 3}, base=MINE)
    assert got == dataclasses.replace(MINE, target=45)


BAD = [
    ({"target": 0}, "target: not in 1..999 (got 0)"),
    ({"target": "45"}, "target: not a whole number (got '45')"),
    ({"volume": True}, "volume: not a whole number (got True)"),
    ({"volume": 11}, "volume: not in 1..10 (got 11)"),
    ({"contrast": 0}, "contrast: not in 1..10 (got 0)"),
    ({"sound": 1}, "sound: not true or false (got 1)"),
    ({"board": "summer"}, "board: not one of standard, winter, own (got 'summer')"),
    ({"board": OWN}, 'board: "own" needs own_rates'),
    ({"language": "English"}, "language: not a language code"),
    ({"own_rates": [None] * 15}, "own_rates: a trader table has 16 spaces (0..15), got 15"),
    ({"own_rates": [*OWN_RATES[:15], [16, 1]]}, "own_rates: trader space 15: expected null"),
    ({"own_rates": "3:1"}, "own_rates: trader_rates must be a list"),
]


@pytest.mark.parametrize(("data", "words"), BAD)
def test_a_bad_value_is_refused_naming_the_key(data, words):
    with pytest.raises(SettingsError) as e:
        DeviceSettings.from_dict(data)
    assert str(e.value).startswith(words)


def test_own_rates_that_are_not_monotone_name_the_space():
    rates = [None, [2, 1], [3, 1]] + [[3, 2]] * 13  # space 1 pays more per good than 2
    with pytest.raises(SettingsError, match=r"^own_rates: trader space 1: 2:1 gives more VP"):
        DeviceSettings.from_dict({"own_rates": rates})


def test_made_directly_it_is_checked_too():
    with pytest.raises(SettingsError, match=r"^target: "):
        DeviceSettings(target=1000)
    with pytest.raises(SettingsError, match=r"^own_rates: "):
        DeviceSettings(own_rates=(Rate(1, 1),) * 15)


def test_languages_known_to_the_caller():
    assert DeviceSettings.from_dict({"language": "en"}, languages=["en"]).language == "en"
    with pytest.raises(SettingsError, match=r"^language: not one of en, nl \(got 'xx'\)"):
        DeviceSettings.from_dict({"language": "xx"}, languages=["en", "nl"])


def test_the_board_to_play():
    assert board_of(DeviceSettings(board="winter")) == profile("winter")
    own = board_of(MINE)
    assert own == Board.from_rates(OWN_RATES) and own.verified and own.name is None
    assert not board_of(DeviceSettings()).verified  # the shipped placeholders stay marked


def test_board_values_and_what_changed():
    assert board_values(profile("winter")) == {"board": "winter"}
    assert board_values(Board.from_rates(OWN_RATES)) == {"board": OWN, "own_rates": MINE.own_rates}
    assert changed(MINE, dataclasses.replace(MINE, volume=4)) == ("volume",)
    assert changed(MINE, dataclasses.replace(MINE, board="winter")) == ("board", "own_rates")
    assert changed(MINE, MINE) == ()


# --- settings.json ---------------------------------------------------------------------


def test_save_and_load(tmp_path):
    file = SettingsFile(tmp_path / "made" / "on save")
    said = Said()
    assert file.load(said) is None and said == []
    file.save(MINE.to_dict())
    assert file.load(said) == MINE.to_dict() and said == []
    assert sorted(p.name for p in file.folder.iterdir()) == ["settings.json"]  # no temp left


def test_load_keeps_only_known_keys(tmp_path):
    (tmp_path / "settings.json").write_text('{"target": 45, "from_the_future": 1}')
    assert SettingsFile(tmp_path).load(Said()) == {"target": 45}


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"{", "not valid JSON"),
        (b"\xff\xfe", "not UTF-8 text"),
        (b'{"target": 0}', "target: not in 1..999 (got 0)"),
        (b"[1, 2]", "settings are a JSON object"),
        (b'{"language": "xx"}', "language: not one of en"),
        (b" " * (65 * 1024), "larger than 64 KB"),
    ],
)
def test_a_damaged_file_is_moved_aside_and_the_defaults_apply(tmp_path, content, why):
    (tmp_path / "settings.json").write_bytes(content)
    said = Said()
    assert SettingsFile(tmp_path).load(said, languages=["en"]) is None
    assert len(said) == 1 and why in said[0] and "kept as settings.bad.json" in said[0]
    assert (tmp_path / "settings.bad.json").read_bytes() == content
    assert not (tmp_path / "settings.json").exists()


def test_a_second_bad_file_gets_a_new_name(tmp_path):
    for n in range(3):
        (tmp_path / "settings.json").write_text(f"bad {n}")
        SettingsFile(tmp_path).load(Said())
    names = ["settings.bad.json", "settings.bad-2.json", "settings.bad-3.json"]
    assert [(tmp_path / name).read_text() for name in names] == ["bad 0", "bad 1", "bad 2"]


def test_a_bad_file_in_a_read_only_folder_is_only_said(tmp_path):
    (tmp_path / "settings.json").write_text("{")
    said = Said()
    assert SettingsFile(tmp_path, ops=failing("replace", errno.EROFS)).load(said) is None
    assert "cannot be moved aside (Read-only file system)" in said[0]
    assert (tmp_path / "settings.json").read_text() == "{"


def test_a_folder_in_the_way_is_said_never_moved(tmp_path):
    (tmp_path / "settings.json").mkdir()
    said = Said()
    assert SettingsFile(tmp_path).load(said) is None
    folder = f"{where(tmp_path / 'settings.json')} is a folder"
    assert said == [f"{folder}, not a settings file; the settings of the config file apply"]
    assert (tmp_path / "settings.json").is_dir()
    with pytest.raises(StorageError, match=r"cannot save the settings: .*a folder is in the way"):
        SettingsFile(tmp_path).save(MINE.to_dict())


def test_a_file_the_card_will_not_give_is_only_said(tmp_path):
    (tmp_path / "settings.json").write_text('{"target": 45}')
    said = Said()
    assert SettingsFile(tmp_path, ops=failing("open_file", errno.EIO)).load(said) is None
    file = where(tmp_path / "settings.json")
    assert said == [
        f"cannot read the settings {file} (Input/output error); "
        "the settings of the config file apply"
    ]
    assert (tmp_path / "settings.json").exists()


def test_a_file_in_the_way_of_the_folder(tmp_path):
    (tmp_path / "state").write_text("")
    said = Said()
    assert SettingsFile(tmp_path / "state").load(said) is None
    assert said[0].startswith(
        f"cannot read the settings {where(tmp_path / 'state/settings.json')} ("
    )


@pytest.mark.parametrize("op", ["open_file", "fsync", "replace", "make_dirs"])
def test_a_failed_save_is_one_line_and_keeps_the_old_file(tmp_path, op):
    SettingsFile(tmp_path).save({"target": 45})
    before = (tmp_path / "settings.json").read_bytes()
    with pytest.raises(StorageError) as e:
        SettingsFile(tmp_path, ops=failing(op, errno.ENOSPC)).save(MINE.to_dict())
    assert str(e.value).startswith("cannot save the settings: ") and "\n" not in str(e.value)
    assert (tmp_path / "settings.json").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_a_power_cut_leaves_the_old_settings_or_the_new(tmp_path):
    for call in itertools.count():
        folder = tmp_path / str(call)
        SettingsFile(folder).save({"target": 45})
        try:
            SettingsFile(folder, ops=cut_at(call)).save(MINE.to_dict())
        except PowerCut:
            assert SettingsFile(folder).load(Said()) in ({"target": 45}, MINE.to_dict())
        else:
            break
    assert call >= 4  # make the folder, open, fsync, rename, sync the folder: each cut once


# --- the layers ------------------------------------------------------------------------


@pytest.fixture
def layers(tmp_path, monkeypatch):
    """A config file, a state folder, and a look at the layers with options given."""
    from companion.app import config
    from companion.app.effective import effective

    monkeypatch.setattr(config, "DEFAULT_PATHS", ())  # never this machine's own config
    state = tmp_path / "state"
    state.mkdir()
    conf = tmp_path / "companion.toml"
    conf.write_text(f'[game]\ntarget = 40\n[sound]\nvolume = 7\n[paths]\nstate_dir = "{state}"\n')

    def look(options=None, said=None, path=conf, state_dir=None):
        return effective(path, state_dir, options, report=Said() if said is None else said)

    return look, conf, state


def test_each_layer_beats_the_one_below(layers):
    look, conf, state = layers
    saved = f"saved on the device ({state / 'settings.json'})"
    found = look(path=None)  # no config file: the packaged defaults
    assert found.settings.target == 30 and found.origin("target") == "packaged defaults"
    found = look()
    assert found.settings.target == 40 and found.origin("[game] target") == str(conf)
    (state / "settings.json").write_text('{"target": 45}')
    found = look()
    assert found.settings.target == 45 and found.origin(("game", "target")) == saved
    assert found.settings.volume == 7 and found.origin("volume") == str(conf)  # not saved
    found = look({"target": 50, "volume": None})  # None: the option was not given
    assert found.settings.target == 50 and found.origin("target") == "command line"
    assert found.settings.volume == 7 and found.origin("volume") == str(conf)


def test_every_config_value_has_its_origin(layers):
    look, conf, state = layers
    found = look()
    assert found.values[("pins", "rows")] == (5, 6, 13, 19, 26, 16)
    assert found.origin("[pins] rows") == "packaged defaults"
    assert found.origin("[paths] state_dir") == str(conf)
    assert found.values[("paths", "state_dir")] == state
    assert set(found.values) == set(found.origins)
    other = look(state_dir=conf.parent / "elsewhere")
    assert other.origin("[paths] state_dir") == "command line"
    assert other.settings_file.path == conf.parent / "elsewhere" / "settings.json"


def test_a_board_file_in_the_config_is_the_own_board(layers, tmp_path):
    look, conf, state = layers
    (tmp_path / "mine.json").write_text(json.dumps({"trader_rates": OWN_RATES}))
    conf.write_text(f'[game]\nboard = "mine.json"\n[paths]\nstate_dir = "{state}"\n')
    found = look()
    assert found.settings.board == OWN and found.settings.own_rates == MINE.own_rates
    assert found.origin("board") == found.origin("own_rates") == str(conf)
    assert board_of(found.settings).verified
    (state / "settings.json").write_text('{"board": "winter"}')  # chosen on the device
    found = look()
    assert board_of(found.settings) == profile("winter")
    assert found.settings.own_rates == MINE.own_rates  # kept, for when "own" comes back


def test_a_side_named_in_the_config_gives_no_own_rates(layers):
    look, conf, state = layers
    conf.write_text(f'[game]\nboard = "winter"\n[paths]\nstate_dir = "{state}"\n')
    found = look()
    assert found.origin("board") == str(conf) and found.settings.own_rates is None
    assert found.origin("own_rates") == "packaged defaults"
    assert found.origin("[paths] state_dir") == str(conf)
    found = look(state_dir=state)
    assert set(found.values) == set(found.origins)


def test_a_board_option_names_a_side_or_a_file(layers, tmp_path):
    look, _, state = layers
    (state / "settings.json").write_text(json.dumps(MINE.to_dict()))
    assert look({"board": "winter"}).settings.board == "winter"
    (tmp_path / "b.json").write_text(json.dumps({"trader_rates": [*OWN_RATES[:15], [3, 2]]}))
    found = look({"board": str(tmp_path / "b.json")})
    assert found.settings.board == OWN and found.origin("own_rates") == "command line"


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"board": "summer"}, "--board summer: not a board name"),
        ({"target": 0}, "command line: target: not in 1..999 (got 0)"),
        ({"language": "xx"}, "command line: language: not one of en"),
    ],
)
def test_a_bad_option_is_one_line(layers, options, words):
    from companion.errors import CompanionError

    look, *_ = layers
    with pytest.raises(CompanionError) as e:
        look(options)
    assert str(e.value).startswith(words) and "\n" not in str(e.value)


def test_a_damaged_saved_file_is_set_aside_and_the_config_applies(layers):
    look, conf, state = layers
    (state / "settings.json").write_text('{"target": 45, "volume": 11}')
    said = Said()
    found = look(said=said)
    assert found.settings.target == 40 and found.origin("target") == str(conf)
    assert len(said) == 1 and "volume: not in 1..10 (got 11)" in said[0]
    assert (state / "settings.bad.json").exists() and not (state / "settings.json").exists()


# --- the sink --------------------------------------------------------------------------


class Heard:
    """A buzzer that notes each (on, volume) it is set to."""

    def __init__(self, applied: list):
        self.applied, self.on = applied, True

    def beep(self, name: str) -> None:
        pass

    def set_on(self, on: bool) -> None:
        self.on = on

    def set_volume(self, level: int) -> None:
        self.applied.append((self.on, level))


def saver(folder, current=None, saved=None, ops=None, on_contrast=None, on_sound=None):
    """The settings' sinks as the table has them: the saver, and the panel's and the
    buzzer's (applying ``on_contrast`` and ``on_sound``); one sink that runs them all."""
    from companion.app.sinks import SettingsSaver, contrast, sound

    said = Said()
    file = SettingsFile(folder, ops=ops)
    current = current or DeviceSettings()
    saving = SettingsSaver(file, current, saved or {}, said)
    sinks = [saving]
    if on_contrast is not None:
        sinks.append(contrast(on_contrast, current))
    if on_sound is not None:
        sinks.append(sound(Heard(on_sound), current))

    def sink(effect):
        for each in sinks:
            each(effect)

    sink.file = file
    return sink, said


def test_the_sink_saves_what_changed_and_applies_it(tmp_path):
    from companion.table.effects import SettingsChanged

    applied = []
    sink, said = saver(
        tmp_path, saved={"target": 45}, on_contrast=applied.append, on_sound=applied,
    )  # fmt: skip
    sink(SettingsChanged(dataclasses.replace(DeviceSettings(), contrast=3)))
    assert applied == [3] and said == []
    assert json.loads((tmp_path / "settings.json").read_text()) == {"target": 45, "contrast": 3}
    sink(SettingsChanged(dataclasses.replace(DeviceSettings(), contrast=3, sound=False)))
    assert applied == [3, (False, 5)]
    sink(SettingsChanged(dataclasses.replace(MINE, contrast=3, sound=False, volume=5)))
    saved = SettingsFile(tmp_path).load(Said())
    assert saved == {"target": 45, "contrast": 3, "sound": False, "board": OWN,
                     "own_rates": OWN_RATES}  # fmt: skip


def test_the_sink_ignores_other_effects_and_no_change(tmp_path):
    from companion.table import KeepAside
    from companion.table.effects import SettingsChanged

    sink, _ = saver(tmp_path, current=MINE)
    sink(KeepAside(GameRecord(3, profile("standard"), 30), (None,) * 3))
    sink(SettingsChanged(MINE))
    assert list(tmp_path.iterdir()) == []


def test_a_failed_settings_save_is_said_once(tmp_path):
    from companion.table.effects import SettingsChanged

    ops = failing("replace", errno.EROFS)
    applied = []
    sink, said = saver(tmp_path, ops=ops, on_contrast=applied.append)
    for level in (3, 4, 5):
        sink(SettingsChanged(DeviceSettings(contrast=level)))
    assert applied == [3, 4, 5]  # the settings still apply
    assert len(said) == 1 and said[0].startswith("cannot save the settings: ")
    sink.file.ops = FileOps()  # the card is writable again
    sink(SettingsChanged(DeviceSettings(contrast=6)))
    assert said[1:] == ["the settings are saved again"]
    assert SettingsFile(tmp_path).load(Said()) == {"contrast": 6}


# --- companion config show ---------------------------------------------------------------


def show(*argv: str) -> tuple[int, str, str]:
    """``companion config show ARGV``: (exit status, stdout, stderr)."""
    import contextlib
    import io

    from companion.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["config", "show", *argv])
    return code, out.getvalue(), err.getvalue()


def test_config_show_says_where_each_value_came_from(layers):
    _, conf, state = layers
    (state / "settings.json").write_text('{"target": 45}')
    code, out, err = show("--config", str(conf))
    lines = out.splitlines()
    assert code == 0 and err == ""
    saved = f"# saved on the device ({state / 'settings.json'})"
    assert _line(lines, "[game] target = 45").endswith(saved)
    assert _line(lines, "[sound] volume = 7").endswith(f"# {conf}")
    assert _line(lines, "[display] address = 0x3C").endswith("# packaged defaults")
    assert _line(lines, "[game] own_rates = none").endswith("# packaged defaults")
    assert _line(lines, "[pins] buzzer = 18")
    code, out, _ = show("--config", str(conf), "--state-dir", str(conf.parent))
    assert _line(out.splitlines(), "[game] target = 40").endswith(f"# {conf}")
    assert f'[paths] state_dir = "{conf.parent}"' in out and "# command line" in out


def _line(lines: list[str], start: str) -> str:
    (found,) = [line for line in lines if line.startswith(start + " ")]
    return found


def test_config_show_as_json(layers):
    _, conf, state = layers
    (state / "settings.json").write_text(json.dumps(MINE.to_dict()))
    code, out, _ = show("--config", str(conf), "--json")
    table = json.loads(out)
    assert code == 0 and table["game.own_rates"]["value"] == OWN_RATES
    saved = f"saved on the device ({state}/settings.json)"
    assert table["game.board"] == {"value": "own", "from": saved}
    assert table["pins.buttons.ok"] == {"value": 21, "from": "packaged defaults"}


def test_config_show_only_looks(layers):
    _, conf, state = layers
    (state / "settings.json").write_text("{")
    code, out, err = show("--config", str(conf))
    assert code == 0 and "[game] target = 40" in out
    assert err.startswith(
        f"companion config show: {where(state / 'settings.json')} is not usable settings"
    )
    assert (state / "settings.json").read_text() == "{" and err.count("\n") == 1


def test_config_show_with_a_bad_config_is_one_line(tmp_path):
    conf = tmp_path / "c.toml"
    conf.write_text("[sound]\nenabled = 1\n")
    assert show("--config", str(conf)) == (
        2, "", f"companion config show: {conf}: [sound] enabled: not true or false (got 1)\n"
    )  # fmt: skip


def test_config_show_from_the_command_line(tmp_path):
    import subprocess
    import sys

    conf = tmp_path / "c.toml"
    conf.write_text('[display]\ncontrast = 2\n[paths]\nstate_dir = "state"\n')
    run = subprocess.run(
        [sys.executable, "-m", "companion", "config", "show", "--config", str(conf)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0 and run.stderr == ""
    assert "[display] contrast = 2" in run.stdout and f"# {conf}" in run.stdout
    assert not (tmp_path / "state").exists()  # a look creates nothing
