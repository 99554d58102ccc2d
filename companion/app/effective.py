"""The effective settings: every layer in order, and where each value came from.

Lowest first: the packaged defaults < the config file < the settings saved on the device
(``settings.json`` in the state folder) < command-line options. The config file is
``config.py``'s; this adds the two layers above it, which hold only what a person can
change on the device (``DeviceSettings``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import CompanionError
from ..game.boards import board_named, named_board
from ..game.settings import (
    KEYS,
    DeviceSettings,
    SettingsError,
    board_values,
    with_values,
)
from ..storage.settings import SettingsFile
from ..ui.catalog import languages
from .config import PACKAGED, SCHEMA, Config, ConfigError, Schema, label, load_layered

COMMAND_LINE = "command line"
# Where each device setting lives in the config file. own_rates has no key of its own: a
# board file (``[game] board = "mine.json"``) gives them, and the board is then "own".
CONFIG_KEYS: dict[str, tuple[str, ...]] = {
    "language": ("game", "language"),
    "board": ("game", "board"),
    "own_rates": ("game", "own_rates"),
    "target": ("game", "target"),
    "sound": ("sound", "enabled"),
    "volume": ("sound", "volume"),
    "contrast": ("display", "contrast"),
}

Report = Callable[[str], None]


@dataclass(frozen=True)
class Effective:
    """``config``: the config file over the packaged defaults (``state_dir`` as given on
    the command line); ``settings``: what the table uses, every layer applied."""

    config: Config
    settings: DeviceSettings
    saved: Mapping[str, object]  # what settings.json holds, in its JSON form
    settings_file: SettingsFile | None  # None: no state folder, no settings saved
    values: dict[tuple[str, ...], object]  # every key, its effective value
    origins: dict[tuple[str, ...], str]  # every key, where its value came from

    def origin(self, key: str | tuple[str, ...]) -> str:
        """Where a value came from: a setting (``"target"``), a config key as a message
        names it (``"[game] target"``) or as a tuple (``("game", "target")``)."""
        if isinstance(key, str):
            key = CONFIG_KEYS.get(key) or {label(k): k for k in self.origins}[key]
        return self.origins[key]


def effective(
    config_path: Path | None,
    state_dir: Path | None = None,
    overrides: Mapping[str, object] | None = None,
    *,
    report: Report,
    set_aside: bool = True,
    config_file: bool = True,
    device: bool = True,
) -> Effective:
    """Every layer, checked: the one resolver of every command. ``overrides``: settings
    given on the command line, by their DeviceSettings name (None: not given);
    ``"board"`` may be a side's name or a board file's path. A mistake in the config or
    an option is a one-line CompanionError; a damaged settings.json is said through
    ``report`` and moved aside (unless ``set_aside`` is false: a command that only
    looks). ``config_file`` false: no config file is looked for (the packaged defaults
    alone, unless ``config_path`` names one); ``device`` false: no state folder, so no
    settings saved on the device (the simulator without ``--state-dir``)."""
    layered = load_layered(config_path, search=config_file)
    config, origins = layered.config, dict(layered.origins)
    values = dict(layered.values)
    if state_dir is not None:
        config = replace(config, state_dir=state_dir.expanduser())
        origins[("paths", "state_dir")] = COMMAND_LINE
    values[("paths", "state_dir")] = config.state_dir
    below = config_settings(config)
    where = {k: origins[CONFIG_KEYS[k]] for k in KEYS if k != "own_rates"}
    # own_rates come with the board: from its file, or from no layer below the device.
    where["own_rates"] = where["board"] if below.own_rates else PACKAGED
    file = SettingsFile(config.state_dir) if device else None
    saved = (file.load(report, languages(), set_aside=set_aside) if file else None) or {}
    settings = DeviceSettings.from_dict(saved, base=below)
    if file is not None:
        where |= dict.fromkeys(saved, f"saved on the device ({file.path})")
    given = _options(overrides or {})
    settings = _over(settings, given)
    where |= dict.fromkeys(given, COMMAND_LINE)
    for key in KEYS:
        values[CONFIG_KEYS[key]] = getattr(settings, key)
        origins[CONFIG_KEYS[key]] = where[key]
    return Effective(config, settings, saved, file, _ordered(values), origins)


def config_settings(config: Config) -> DeviceSettings:
    """The device settings the config file (over the packaged defaults) gives."""
    try:  # read when the config was checked: only a file changed since fails here
        board = board_named(config.board)
    except CompanionError as e:
        raise ConfigError(f"{config.source or 'config'}: [game] board: {e}") from None
    return DeviceSettings(
        language=config.language,
        target=config.target,
        sound=config.sound.enabled,
        volume=config.sound.volume,
        contrast=config.display.contrast,
        **board_values(board),  # type: ignore[arg-type]
    )


def _options(overrides: Mapping[str, object]) -> dict[str, object]:
    """Command-line settings in DeviceSettings' types: a board's name or file resolved."""
    given = {k: v for k, v in overrides.items() if v is not None}
    name = given.get("board")
    if isinstance(name, str) and "own_rates" not in given:
        given |= board_values(named_board(name, "--board"))
    return given


def _over(settings: DeviceSettings, given: Mapping[str, object]) -> DeviceSettings:
    try:
        settings = with_values(settings, given)
    except SettingsError as e:
        raise SettingsError(f"{COMMAND_LINE}: {e}") from None
    if "language" in given and settings.language not in languages():
        known = ", ".join(languages())
        raise SettingsError(f"{COMMAND_LINE}: language: not one of {known}")
    return settings


def _ordered(values: dict[tuple[str, ...], object]) -> dict[tuple[str, ...], object]:
    """The keys in the schema's order, own_rates right after the board."""
    order = [key for key in _schema_keys(SCHEMA) if key in values]
    order.insert(order.index(CONFIG_KEYS["board"]) + 1, CONFIG_KEYS["own_rates"])
    return {key: values[key] for key in order}


def _schema_keys(schema: Schema, at: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for name, spec in schema.items():
        if isinstance(spec, dict):
            yield from _schema_keys(spec, (*at, name))
        else:
            yield (*at, name)
