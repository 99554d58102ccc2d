"""Configuration: the packaged defaults, then one TOML file of settings, every value checked.

Layers, lowest first: the packaged defaults (``SCHEMA``'s defaults and the shipped pin map
``data/pins.toml``) < the config file (``--config FILE``, else the first of
``DEFAULT_PATHS`` that exists) < settings saved on the device < command-line options
(those two in ``effective.py``: they hold only what a person can change on the
device). ``docs/config.md`` describes every key; ``docs/companion.example.toml`` is a
complete example.

``SCHEMA`` is the one description of the file: sections, keys, their kinds (type and
range) and defaults. A table in a layer changes only the keys it names; a list (rows,
columns) replaces the whole list. Every mistake is one ``ConfigError`` line naming the
file, the key and why: ``companion.toml: [game] target: not in 1..999 (got 0)``.
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import stat
import sys
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..errors import CompanionError, clip, where
from ..game.boards import board_named, profile_names
from ..game.settings import CONTRAST, DEFAULTS, TARGET, VOLUME
from ..hw.panels import CONTROLLERS, SPI_ONLY
from ..ui.catalog import languages
from .inputs import PADS

DEFAULT_PATHS = (
    Path("/etc/santo-domingo/companion.toml"),
    Path("~/.config/santo-domingo/companion.toml"),
)
PACKAGED = "packaged defaults"  # how layers name the lowest: the schema's and the pin map
GAME_FILE = "game.json"  # the game in progress, inside [paths] state_dir
KEEP_GAMES = 20  # [paths] keep_games: ended games kept as files once the history holds them
SHOWN = 80  # a value echoed in a message is cut to this many characters

INTERFACES = ("i2c", "spi")
BUZZERS = ("active", "passive")  # a buzzer that beeps at its own pitch, or one driven by PWM
PAD_SOURCES = tuple(PADS)  # the pads on the Pi's own pins, or through the Pico hub
# The GPIO backends companion.hw.pinfactory makes: "auto", or gpiozero's factory names.
PIN_FACTORIES = ("auto", "lgpio", "rpigpio", "native", "mock")
# GPIO 0 and 1 (ID_SD, ID_SC) are the I²C bus of a HAT's ID EEPROM, which the firmware
# reads at boot (the Raspberry Pi HAT specification reserves them): no part may use them.
ID_PINS = {0: "ID_SD", 1: "ID_SC"}
# The GPIOs a display's bus holds (BCM numbers): no pad, button or buzzer may use them.
BUS_PINS = {
    "i2c": {2: "SDA", 3: "SCL"},
    "spi": {8: "CE0", 9: "MISO", 10: "MOSI", 11: "SCLK"},
}


class ConfigError(CompanionError, ValueError):
    """A configuration file that cannot be read or holds a wrong value."""


@dataclass(frozen=True)
class Pins:
    rows: tuple[int, ...]  # one GPIO a seat, P1 first
    columns: tuple[int, ...]  # one GPIO a card value, 1 (Captain) .. 8 (Beggar)
    buttons: dict[str, int]  # "left", "ok", "right"
    buzzer: int | None = None  # None: no buzzer, beeps are silent
    buzzer_kind: str = "active"  # one of BUZZERS, from [sound] buzzer
    display_reset: int | None = None  # the I²C display's RES line; None: RES on its own RC

    @property
    def has_volume(self) -> bool:
        """Whether the buzzer has a volume to set, as ``Beeper.has_volume`` says of the
        buzzer opened on these pins: none has (``buttons.PASSIVE_DUTY`` says why), so
        neither the settings screen nor the page offers one."""
        return False


@dataclass(frozen=True)
class Display:
    controller: str
    interface: str
    port: int
    address: int
    rotate: int
    dc: int  # an SPI display's D/C line
    reset: int  # an SPI display's reset line (an I²C display's is [pins] display_reset)
    contrast: int = DEFAULTS.contrast  # a person may change it on the device


@dataclass(frozen=True)
class SoundConfig:
    enabled: bool = DEFAULTS.sound  # the buzzer sounds; a person may turn it off on the device
    volume: int = DEFAULTS.volume  # where the part allows


@dataclass(frozen=True)
class PadsConfig:
    source: str = "matrix"  # one of PAD_SOURCES
    hub: str = "/dev/santo-domingo-hub"  # the hub's port: a path or a pyserial URL
    # The matrix on the Pi's pins: the wait after each row switch, in microseconds, or
    # "auto" (from the cables and the pull-ups below: docs/config.md)
    settle_us: int | str = "auto"
    cable_m: float = 3.0  # the longest pad cable, in metres
    pull_up: int | str = "internal"  # ohms of the resistor on each column, or "internal"


@dataclass(frozen=True)
class WebConfig:
    enabled: bool = False  # the page for phones is served only when asked for
    address: str = "0.0.0.0"  # an IP address to listen on; 0.0.0.0: every interface
    port: int = 8080


@dataclass(frozen=True)
class Config:
    pins: Pins
    display: Display
    board: str  # a profile name, or the path of a rates file
    target: int
    language: str
    state_dir: Path  # the game in progress, its backup, the history, settings and names
    keep_games: int = KEEP_GAMES  # ended games kept as files once the history holds them
    source: Path | None = None  # the config file read; None: the packaged defaults alone
    sound: SoundConfig = SoundConfig()
    pads: PadsConfig = PadsConfig()
    pin_factory: str = "auto"  # one of PIN_FACTORIES, from [gpio] pin_factory
    web: WebConfig = WebConfig()
    chip: int | str = "auto"  # [gpio] chip: the header's /dev/gpiochip number, or "auto"

    @property
    def state(self) -> Path:
        """The file of the game in progress."""
        return self.state_dir / GAME_FILE


# ---------------------------------------------------------------------------
# Kinds of values: each takes a value as TOML gives it and returns it checked (and
# converted), or raises _Wrong saying why not. The walker adds the file and the key.


class _Wrong(Exception):
    """Why a value is refused. ``at`` continues the key's name (``[2]``, ``.pin``) when the
    fault is inside the value; ``value`` is then the part at fault."""

    def __init__(self, why: str, at: str = "", value: object = None, *, show: bool = True):
        super().__init__(why)
        self.why, self.at, self.value, self.show = why, at, value, show


@dataclass(frozen=True)
class Whole:
    """An integer in ``low..high`` (no upper bound when ``high`` is None)."""

    low: int
    high: int | None = None
    what: str = "a whole number"

    def __call__(self, value: object) -> int:
        if type(value) is not int:  # bool is an int to Python; true is not a number here
            raise _Wrong(f"not {self.what}")
        if value < self.low or (self.high is not None and value > self.high):
            bound = (
                f"in {self.low}..{self.high}" if self.high is not None else f"{self.low} or more"
            )
            raise _Wrong(f"not {bound}")
        return value


PIN = Whole(0, 27, "a GPIO number")  # BCM numbers of the 40-pin header


def part_pin(value: object) -> int:
    """A GPIO a pad, a button or the buzzer may use: one of the header's, not the ID
    EEPROM's."""
    pin = PIN(value)
    if pin in ID_PINS:
        raise _Wrong(
            f"GPIO {pin} is {ID_PINS[pin]}, the HAT ID EEPROM's I²C line, which the Pi reads "
            "at boot: keep GPIO 0 and 1 free"
        )
    return pin


def chip(value: object) -> int | str:
    """``"auto"`` (the header's chip, found by its label) or a /dev/gpiochip number."""
    if value == "auto":
        return value
    if type(value) is not int or value < 0:
        raise _Wrong('neither "auto" nor a gpiochip number (0 or more: 0 is /dev/gpiochip0)')
    return value


@dataclass(frozen=True)
class Name:
    """One of a list of names; ``known`` is called each time (the catalog may grow)."""

    known: Callable[[], Sequence[str]]

    def __call__(self, value: object) -> str:
        names = list(self.known())
        if not isinstance(value, str):
            raise _Wrong(f"not a name in quotes (one of {', '.join(names)})")
        if value not in names:
            raise _Wrong(f"not one of {', '.join(names)}{_did_you_mean(value, names)}")
        return value


def flag(value: object) -> bool:
    if type(value) is not bool:
        raise _Wrong("not true or false")
    return value


def text(value: object) -> str:
    if not isinstance(value, str):
        raise _Wrong("not text in quotes")
    if not value.strip():
        raise _Wrong("empty")
    if "\0" in value:  # no name, path or word holds one: the OS refuses it in a path
        raise _Wrong("a NUL character in it")
    return value


def ip_address(value: object) -> str:
    """An IP address to listen on (not a name: the Pi listens on its own interfaces)."""
    if not isinstance(value, str):
        raise _Wrong("not an IP address in quotes")
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        why = "not an IP address (0.0.0.0: every interface, 127.0.0.1: this Pi only)"
        raise _Wrong(why) from None


def path(value: object) -> Path:
    """A path; ``~`` is expanded, and a relative one is relative to the config file."""
    return Path(text(value)).expanduser()


def board(value: object) -> str | Path:
    """A board profile's name, or the path of a file of your own board's rates."""
    name = text(value)
    return name if name in profile_names() else path(name)


@dataclass(frozen=True)
class PinList:
    """A list of ``low..high`` GPIOs; ``what`` says what one entry is for. (That no GPIO
    is used twice is checked once the layers are merged.)"""

    low: int
    high: int
    what: str

    def __call__(self, value: object) -> tuple[int, ...]:
        count = f"{self.low}" if self.low == self.high else f"{self.low} to {self.high}"
        if not isinstance(value, list) or not self.low <= len(value) <= self.high:
            raise _Wrong(f"needs a list of {count} GPIO numbers, one {self.what}")
        for i, pin in enumerate(value):
            try:
                part_pin(pin)
            except _Wrong as e:
                raise _Wrong(e.why, f"[{i}]", pin) from None
        return tuple(value)


SETTLE_US = Whole(0, 5000)  # microseconds: 6 cables of 10 m want 4.4 ms ("auto")
PULL_UP = Whole(1000, 100_000)  # ohms


def settle_us(value: object) -> int | str:
    """``"auto"``, or microseconds to wait after switching rows."""
    if value == "auto":
        return value
    try:
        return SETTLE_US(value)
    except _Wrong:
        raise _Wrong('not "auto" nor a whole number of microseconds in 0..5000') from None


def cable_m(value: object) -> float:
    """The longest pad cable in metres: a number, whole or not, 0..10."""
    if type(value) not in (int, float):
        raise _Wrong("not a number of metres")
    assert isinstance(value, int | float)
    if not 0 <= value <= 10:  # nan is not either
        raise _Wrong("not in 0..10 metres")
    return float(value)


def pull_up(value: object) -> int | str:
    """``"internal"`` (the SoC's own alone), or the ohms of the resistor on each column."""
    if value == "internal":
        return value
    try:
        return PULL_UP(value)
    except _Wrong:
        raise _Wrong('not "internal" nor a whole number of ohms in 1000..100000') from None


def buzzer(value: object) -> int | None:
    """``buzzer = 18``, ``[pins.buzzer] pin = 18``, or ``buzzer = false`` for none."""
    if value is False:
        return None
    if isinstance(value, dict):
        for key in value:
            if key != "pin":
                key = clip(key, SHOWN)
                raise _Wrong(f"unknown key{_did_you_mean(key, ['pin'])}", f".{key}", show=False)
        if "pin" not in value:
            raise _Wrong("missing", ".pin", show=False)
        try:
            return part_pin(value["pin"])
        except _Wrong as e:
            raise _Wrong(e.why, ".pin", value["pin"]) from None
    try:
        return part_pin(value)
    except _Wrong:
        if type(value) is int and value in ID_PINS:
            raise
        raise _Wrong("not a GPIO number, nor false for no buzzer") from None


def reset_line(value: object) -> int | None:
    """``display_reset = 7``, or ``display_reset = false``: RES wired to an RC network."""
    if value is False:
        return None
    try:
        return PIN(value)
    except _Wrong:
        raise _Wrong("not a GPIO number, nor false for a RES pin on its own RC network") from None


# ---------------------------------------------------------------------------
# The schema: the whole file as data.

REQUIRED = object()  # no default: the shipped pin map must give it


@dataclass(frozen=True)
class Key:
    kind: Callable[[object], object]
    default: object = None  # None: optional, absent unless given


Schema = dict[str, "Key | Schema"]

# The pins, a table of its own: the shipped pin map (data/pins.toml) is checked against it.
PINS: Schema = {
    "rows": Key(PinList(2, 6, "a seat"), REQUIRED),
    "columns": Key(PinList(8, 8, "a card value"), REQUIRED),
    "buttons": {
        "left": Key(part_pin, REQUIRED),
        "ok": Key(part_pin, REQUIRED),
        "right": Key(part_pin, REQUIRED),
    },
    "buzzer": Key(buzzer),
    "display_reset": Key(reset_line),
}

SCHEMA: Schema = {
    "display": {
        "controller": Key(Name(lambda: CONTROLLERS), "ssd1309"),  # the parts list's
        "interface": Key(Name(lambda: INTERFACES), "i2c"),
        "port": Key(Whole(0), 1),  # 0 with "spi" unless given: see _display
        "address": Key(Whole(0, 0x7F), 0x3C),
        "rotate": Key(Whole(0, 3), 0),
        # luma's spi() skips a D/C line numbered 0, so GPIO 0 cannot be one. 2 and 3 are
        # the I²C pins, free with an SPI display, and nothing else in the shipped map.
        "dc": Key(Whole(1, 27, "a GPIO number"), 2),
        "reset": Key(PIN, 3),
        "contrast": Key(Whole(*CONTRAST), DEFAULTS.contrast),
    },
    "game": {
        "board": Key(board, DEFAULTS.board),
        "target": Key(Whole(*TARGET), DEFAULTS.target),
        "language": Key(Name(languages), DEFAULTS.language),
    },
    "gpio": {
        "pin_factory": Key(Name(lambda: PIN_FACTORIES), "auto"),
        "chip": Key(chip, "auto"),
    },
    "pins": PINS,
    "paths": {
        "state_dir": Key(path, "~/.local/share/santo-domingo"),
        # games that ended kept as files once the history holds them (never one it lacks)
        "keep_games": Key(Whole(0, 10_000), KEEP_GAMES),
    },
    "sound": {
        "enabled": Key(flag, DEFAULTS.sound),
        "volume": Key(Whole(*VOLUME), DEFAULTS.volume),
        "buzzer": Key(Name(lambda: BUZZERS), "active"),
    },
    "pads": {
        "source": Key(Name(lambda: PAD_SOURCES), "matrix"),
        "hub": Key(text, "/dev/santo-domingo-hub"),
        "settle_us": Key(settle_us, "auto"),
        "cable_m": Key(cable_m, 3.0),
        "pull_up": Key(pull_up, "internal"),
    },
    "web": {
        "enabled": Key(flag, False),
        "address": Key(ip_address, "0.0.0.0"),
        "port": Key(Whole(1, 65535, "a port number"), 8080),
    },
}


# ---------------------------------------------------------------------------
# Reading and checking the layers.


@dataclass(frozen=True)
class _Layer:
    name: str  # how messages name it: the file's path
    rank: int  # a higher rank overrides a lower one
    folder: Path | None = None  # its relative paths are relative to this folder

    def error(self, label: str, why: str, *value: object) -> ConfigError:
        got = f" (got {_shown(value[0])})" if value else ""
        return ConfigError(f"{where(self.name)}: {label}: {why}{got}")


def pin_map() -> dict:
    """The shipped pin map as TOML holds it (``data/pins.toml``), the Pi's pins only."""
    data = tomllib.loads(_shipped_pin_file().read_text("utf-8"))
    data.pop("hub", None)  # the Pico hub's own pins: the firmware reads them (hub_pins)
    return data


def hub_pins() -> dict[str, list[int]]:
    """The Pico pad hub's pins (``[hub]`` of ``data/pins.toml``): rows and columns."""
    return tomllib.loads(_shipped_pin_file().read_text("utf-8"))["hub"]


def pins_from(data: dict, source: str = "pin map") -> Pins:
    """Pins from a whole pin map as TOML holds it (``data/pins.toml``), checked."""
    layer = _Layer(source, 0)
    checked = _check_table(data, PINS, ("pins",), layer)
    _complete(checked, PINS, ("pins",), layer)
    pins = _pins(checked)
    _no_pin_twice(pins, dict.fromkeys(_leaves({"pins": checked}), layer))
    return pins


def shipped_pins() -> Pins:
    return pins_from(pin_map(), str(_shipped_pin_file()))


def find_file(path: Path | None = None, search: bool = True) -> Path | None:
    """The config file to read: ``path`` if given, else (when ``search``) the first of
    ``DEFAULT_PATHS`` that exists, else None (the packaged defaults alone). A default path
    that cannot be looked at (a home folder closed to a service user, or to ``sudo -u``)
    is skipped, said in one line on stderr: it was not asked for by name."""
    if path is not None or not search:
        return path
    return next((p for p in map(Path.expanduser, DEFAULT_PATHS) if _there(p)), None)


def _there(path: Path) -> bool:
    try:
        path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as e:
        print(f"companion: config {path}: {e.strerror or e}; skipped", file=sys.stderr)
        return False
    return True


def defaults() -> Config:
    """The packaged defaults alone: no config file read."""
    return _config(None)


def load(path: Path | None = None) -> Config:
    """The packaged defaults, then ``path`` (which must exist) or the first default path
    that exists; every value checked before anything uses it."""
    return _config(find_file(path))


@dataclass(frozen=True)
class Layered:
    """A config with every value's key, its value as merged, and the layer it came from
    (``"packaged defaults"`` or the config file's path)."""

    config: Config
    values: dict[tuple[str, ...], object]
    origins: dict[tuple[str, ...], str]


def load_layered(path: Path | None = None, search: bool = True) -> Layered:
    """``load(path)``, saying where each value came from (``search``: as ``find_file``)."""
    file = find_file(path, search)
    values: dict[tuple[str, ...], object] = {}
    origins: dict[tuple[str, ...], _Layer] = {}
    config = _config(file, values, origins)
    named = {k: PACKAGED if layer.rank < 2 else layer.name for k, layer in origins.items()}
    return Layered(config, values, named)


def label(key: tuple[str, ...]) -> str:
    """How messages name a key: ``("pins", "buttons", "ok")`` is ``[pins.buttons] ok``."""
    return _label(key[:-1], key[-1])


def _config(
    file: Path | None,
    values: dict[tuple[str, ...], object] | None = None,
    origins: dict[tuple[str, ...], _Layer] | None = None,
) -> Config:
    """The config of the layers up to ``file``; ``values`` and ``origins``, when given, are
    filled with each key's merged value and its layer."""
    origins = {} if origins is None else origins
    layers = _packaged()
    if file is not None:
        layer = _Layer(str(file), len(layers), file.parent)
        layers.append((layer, _check_table(_read(file), SCHEMA, (), layer)))
    merged: dict = {}
    for layer, data in layers:
        merged = _merge(merged, data)
        origins.update(dict.fromkeys(_leaves(data), layer))
    config = _build(merged, origins, file)
    for check in CHECKS:
        check(config, origins)
    if values is not None:
        values.update((key, _at(merged, key)) for key in _leaves(merged))
    return config


def _at(data: dict, key: tuple[str, ...]) -> object:
    for name in key:
        data = data[name]
    return data


def _packaged() -> list[tuple[_Layer, dict]]:
    """The lowest layers: the schema's defaults, and the shipped pin map."""
    base = _Layer("the packaged defaults", 0)
    pin_file = _Layer(str(_shipped_pin_file()), 1)
    pins = _check_table(pin_map(), PINS, ("pins",), pin_file)
    _complete(pins, PINS, ("pins",), pin_file)
    return [(base, _check_table(_defaults(SCHEMA), SCHEMA, (), base)), (pin_file, {"pins": pins})]


def _shipped_pin_file():
    return resources.files("companion").joinpath("data/pins.toml")


CONFIG_MAX = 1 << 20  # bytes: a config file is a few kilobytes; /dev/zero is not one


def _head(file: Path) -> bytes:
    with file.open("rb") as stream:
        return stream.read(CONFIG_MAX + 1)


def _read(file: Path) -> dict:
    try:
        kind = file.stat().st_mode
        data = b"" if not stat.S_ISREG(kind) else _head(file)
    except OSError as e:
        raise ConfigError(f"{where(file)}: cannot read: {e.strerror}") from None
    except ValueError:  # a NUL in the name
        raise ConfigError(f"{where(file)}: cannot read: a NUL in the name") from None
    if not stat.S_ISREG(kind):  # a folder, a device (/dev/zero), a pipe: never read
        raise ConfigError(f"{where(file)}: cannot read: not a file")
    if len(data) > CONFIG_MAX:
        raise ConfigError(f"{where(file)}: larger than {CONFIG_MAX >> 20} MB: not a config file")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise ConfigError(f"{where(file)}: not UTF-8 text: {e.reason} at byte {e.start}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{where(file)}: not valid TOML: {e}") from None
    except ValueError:  # tomllib's own int(): past Python's limit of 4300 digits
        raise ConfigError(
            f"{where(file)}: not valid TOML: a number longer than 4300 digits"
        ) from None
    except RecursionError:
        raise ConfigError(f"{where(file)}: not valid TOML: nested too deeply") from None


def _defaults(schema: Schema) -> dict:
    """The schema's defaults, shaped like a config file."""
    found: dict = {}
    for name, spec in schema.items():
        if isinstance(spec, dict):
            found[name] = _defaults(spec)
        elif spec.default is not None and spec.default is not REQUIRED:
            found[name] = spec.default
    return found


def _check_table(data: object, schema: Schema, at: tuple[str, ...], layer: _Layer) -> dict:
    """``data`` checked against ``schema``: every key known, every value of its kind."""
    if not isinstance(data, dict):
        raise layer.error(_label(at), "not a table", data)
    checked: dict = {}
    for name, value in data.items():
        spec = schema.get(name)
        if spec is None:
            raise _unknown(name, schema, at, layer)
        if isinstance(spec, dict):
            checked[name] = _check_table(value, spec, (*at, name), layer)
        else:
            checked[name] = _check_value(spec, value, _label(at, name), layer)
    return checked


def _check_value(spec: Key, value: object, label: str, layer: _Layer) -> object:
    try:
        checked = spec.kind(value)
    except _Wrong as e:
        shown = (value if not e.at else e.value,) if e.show else ()
        raise layer.error(label + e.at, e.why, *shown) from None
    if isinstance(checked, Path) and not checked.is_absolute() and layer.folder is not None:
        checked = layer.folder / checked  # relative to the file, not to where the service runs
    return checked


def _unknown(name: str, schema: Schema, at: tuple[str, ...], layer: _Layer) -> ConfigError:
    """The message for a key the schema does not have: the key as the file wrote it, cut to
    80 characters with its control characters escaped (a key may be any quoted string)."""
    key = clip(name, SHOWN)
    if at:
        known = list(schema)
        hint = _did_you_mean(key, known) or f" (known: {', '.join(known)})"
        return layer.error(_label(at, key), f"unknown key{hint}")
    homes = [s for s, keys in schema.items() if isinstance(keys, dict) and name in keys]
    if homes:  # a key written above every section header
        return layer.error(name, f"outside its section (put it under [{homes[0]}])")
    hint = _did_you_mean(key, list(schema), "[{}]") or f" (known: {', '.join(schema)})"
    return layer.error(f"[{key}]", f"unknown section{hint}")


def _complete(data: dict, schema: Schema, at: tuple[str, ...], layer: _Layer) -> None:
    """Every key without a default is in ``data``."""
    for name, spec in schema.items():
        if isinstance(spec, dict):
            _complete(data.get(name, {}), spec, (*at, name), layer)
        elif spec.default is REQUIRED and name not in data:
            raise layer.error(_label(at, name), "missing")


def _merge(low: dict, high: dict) -> dict:
    """``high`` over ``low``: tables merge key by key, any other value replaces."""
    merged = dict(low)
    for name, value in high.items():
        below = merged.get(name)
        if isinstance(below, dict) and isinstance(value, dict):
            merged[name] = _merge(below, value)
        else:
            merged[name] = value
    return merged


def _leaves(data: dict, at: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for name, value in data.items():
        if isinstance(value, dict):
            yield from _leaves(value, (*at, name))
        else:
            yield (*at, name)


def _build(merged: dict, origins: dict[tuple[str, ...], _Layer], file: Path | None) -> Config:
    game, paths = merged["game"], merged["paths"]
    state_dir = paths["state_dir"]
    pins = merged["pins"]
    if merged["display"]["interface"] == "spi":  # its reset is [display] reset, pulsed by luma
        pins = {**pins, "display_reset": None}
    return Config(
        pins=_pins(pins, merged["sound"]["buzzer"]),
        display=_display(merged["display"], origins),
        board=str(game["board"]),
        target=game["target"],
        language=game["language"],
        state_dir=state_dir,
        keep_games=paths["keep_games"],
        source=file,
        sound=SoundConfig(merged["sound"]["enabled"], merged["sound"]["volume"]),
        pads=PadsConfig(**merged["pads"]),
        pin_factory=merged["gpio"]["pin_factory"],
        web=WebConfig(**merged["web"]),
        chip=merged["gpio"]["chip"],
    )


def _display(data: dict, origins: dict[tuple[str, ...], _Layer]) -> Display:
    if data["interface"] == "spi" and origins[("display", "port")].rank == 0:
        data = {**data, "port": 0}  # the header's SPI bus is 0 (its I²C bus is 1)
    return Display(**data)


def _pins(data: dict, buzzer_kind: str = "active") -> Pins:
    return Pins(
        rows=data["rows"],
        columns=data["columns"],
        buttons=dict(data["buttons"]),
        buzzer=data.get("buzzer"),
        buzzer_kind=buzzer_kind,
        display_reset=data.get("display_reset"),
    )


# ---------------------------------------------------------------------------
# Checks of values together, after the layers are merged.


def _pin_uses(pins: Pins) -> Iterator[tuple[tuple[str, ...], str, int]]:
    """Every GPIO the pins use: (the key in the layers, its label, the GPIO)."""
    for name in ("rows", "columns"):
        for i, pin in enumerate(getattr(pins, name)):
            yield ("pins", name), f"[pins] {name}[{i}]", pin
    for name, pin in pins.buttons.items():
        yield ("pins", "buttons", name), f"[pins.buttons] {name}", pin
    if pins.buzzer is not None:
        yield ("pins", "buzzer"), "[pins] buzzer", pins.buzzer
    if pins.display_reset is not None:
        yield ("pins", "display_reset"), "[pins] display_reset", pins.display_reset


def _distinct_pins(config: Config, origins: dict[tuple[str, ...], _Layer]) -> None:
    _no_pin_twice(config.pins, origins)


def _no_pin_twice(pins: Pins, origins: dict[tuple[str, ...], _Layer]) -> None:
    seen: dict[int, tuple[str, _Layer]] = {}
    for key, label, pin in _pin_uses(pins):
        if pin in seen:
            first, first_layer = seen[pin]
            if first_layer.rank > origins[key].rank:  # blame the file that made it clash
                raise first_layer.error(first, f"GPIO {pin} is also {label}", pin)
            raise origins[key].error(label, f"GPIO {pin} is also {first}", pin)
        seen[pin] = label, origins[key]


def _bus_pins_free(config: Config, origins: dict[tuple[str, ...], _Layer]) -> None:
    bus = config.display.interface
    for key, label, pin in _pin_uses(config.pins):
        if pin in BUS_PINS[bus]:
            layer = max(origins[key], origins[("display", "interface")], key=lambda x: x.rank)
            line = BUS_PINS[bus][pin]
            raise layer.error(label, f"GPIO {pin} is the {bus.upper()} display's {line} line", pin)


def _display_speaks_interface(config: Config, origins: dict[tuple[str, ...], _Layer]) -> None:
    display = config.display
    if display.controller in SPI_ONLY and display.interface != "spi":
        keys = (("display", "controller"), ("display", "interface"))
        layer = max((origins[key] for key in keys), key=lambda x: x.rank)
        raise layer.error(
            "[display] controller",
            f"the {display.controller} has no {display.interface.upper()} interface: "
            'give interface = "spi" too',
            display.controller,
        )


def _display_lines_free(config: Config, origins: dict[tuple[str, ...], _Layer]) -> None:
    """An SPI display's D/C and reset lines: off the bus, and used for nothing else."""
    display = config.display
    if display.interface != "spi":
        return  # an I²C display has neither
    seen = {pin: (key, label) for key, label, pin in _pin_uses(config.pins)}
    for name in ("dc", "reset"):
        key, label, pin = ("display", name), f"[display] {name}", getattr(display, name)
        if pin in BUS_PINS["spi"]:
            line = BUS_PINS["spi"][pin]
            raise origins[key].error(label, f"GPIO {pin} is the SPI display's {line} line", pin)
        if pin in seen:
            other, other_label = seen[pin]
            if origins[other].rank > origins[key].rank:  # blame the file that made it clash
                raise origins[other].error(other_label, f"GPIO {pin} is also {label}", pin)
            raise origins[key].error(label, f"GPIO {pin} is also {other_label}", pin)
        seen[pin] = key, label


def _board_readable(config: Config, origins: dict[tuple[str, ...], _Layer]) -> None:
    """A board file is read now, so that a wrong one is said before anything opens."""
    if config.board in profile_names():
        return
    layer = origins[("game", "board")]
    try:
        board_named(config.board)
    except CompanionError as e:  # what is wrong; the file and key say where
        why = str(e)
        if not _exists(Path(config.board)):  # a misspelt profile name, most likely
            why += _did_you_mean(Path(config.board).name, profile_names())
        raise layer.error("[game] board", why, config.board) from None


def _exists(path: Path) -> bool:
    """Whether ``path`` exists; a name too long for the file system does not."""
    try:
        return path.exists()
    except OSError:
        return False


def _state_dir_usable(config: Config, origins: dict[tuple[str, ...], _Layer]) -> None:
    if _exists(config.state_dir) and not config.state_dir.is_dir():
        key = "state_dir"
        raise origins[("paths", key)].error(
            f"[paths] {key}", "not a directory", str(config.state_dir)
        )


CHECKS = (
    _distinct_pins,
    _bus_pins_free,
    _display_speaks_interface,
    _display_lines_free,
    _board_readable,
    _state_dir_usable,
)


# ---------------------------------------------------------------------------
# Words.


def _label(at: tuple[str, ...], name: str | None = None) -> str:
    """How a message names a key: ``[pins.buttons] ok``, or a section: ``[pins]``."""
    section = f"[{'.'.join(at)}]"
    return section if name is None else f"{section} {name}"


def _did_you_mean(word: str, choices: Sequence[str], form: str = "{}") -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {form.format(close[0])}?)" if close else ""


def _shown(value: object) -> str:
    """A value as TOML writes it, on one line, cut to ``SHOWN`` characters, its control
    characters escaped."""
    written = _toml(value)
    escaped = clip(written[:SHOWN], 10 * SHOWN)  # escaped only: never cut here
    if len(written) <= SHOWN and len(escaped) <= SHOWN:
        return escaped
    return escaped[: SHOWN - 1] + "…"


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # quoted, newlines escaped
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    return str(value)
