"""Configuration: the pin map (data) and a TOML file of settings; options override both.

[display]
controller = "ssd1306"   # or "sh1106"
interface = "i2c"        # or "spi"
port = 1
address = 0x3C
rotate = 0               # 0..3, quarter turns

[game]
board = "standard"       # a profile name, or the path of a {"trader_rates": [...]} file
target = 30
language = "en"

[pins]                   # any entry of the pin map (companion/data/pins.toml)
rows = [5, 6, 13, 19, 26, 16]
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..rules import CompanionError

STATE = Path("~/.local/share/santo-domingo/game.json")  # the game in progress
DEFAULT_PATHS = (
    Path("/etc/santo-domingo/companion.toml"),
    Path("~/.config/santo-domingo/companion.toml"),
)


class ConfigError(CompanionError, ValueError):
    """A configuration file that cannot be read or holds a wrong value."""


@dataclass(frozen=True)
class Pins:
    rows: tuple[int, ...]
    columns: tuple[int, ...]
    buttons: dict[str, int]
    buzzer: int | None = None


@dataclass(frozen=True)
class Display:
    controller: str = "ssd1306"
    interface: str = "i2c"
    port: int = 1
    address: int = 0x3C
    rotate: int = 0


@dataclass(frozen=True)
class Config:
    pins: Pins
    display: Display = field(default_factory=Display)
    board: str = "standard"
    target: int = 30
    language: str = "en"
    state: Path = field(default_factory=lambda: STATE.expanduser())


def pin_map() -> dict:
    text = resources.files("companion").joinpath("data/pins.toml").read_text("utf-8")
    return tomllib.loads(text)


def pins_from(data: dict) -> Pins:
    """Pins from a pin map as TOML holds it (``data/pins.toml``, or ``[pins]``)."""
    return Pins(
        rows=tuple(data["rows"]),
        columns=tuple(data["columns"]),
        buttons=dict(data["buttons"]),
        buzzer=data.get("buzzer", {}).get("pin"),
    )


def shipped_pins() -> Pins:
    return pins_from(pin_map())


def load(path: Path | None = None) -> Config:
    """The shipped defaults, then ``path`` (or the first default path that exists)."""
    data: dict = {}
    paths = [path] if path is not None else [p.expanduser() for p in DEFAULT_PATHS]
    for candidate in paths:
        if candidate.exists() or path is not None:
            data = _read(candidate)
            break
    pins = {**pin_map(), **data.get("pins", {})}
    try:
        config = Config(
            pins=pins_from(pins),
            display=Display(**data.get("display", {})),
            **data.get("game", {}),
            **{k: Path(v).expanduser() for k, v in data.get("paths", {}).items()},
        )
    except (TypeError, KeyError) as e:
        raise ConfigError(f"{path or 'configuration'}: {e}") from None
    if len(config.pins.columns) != 8 or not 2 <= len(config.pins.rows) <= 6:
        raise ConfigError("the pin map needs 8 columns (cards) and 2 to 6 rows (seats)")
    if type(config.target) is not int or config.target < 1:
        raise ConfigError(f"[game] target must be a positive whole number, got {config.target!r}")
    return config


def _read(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
