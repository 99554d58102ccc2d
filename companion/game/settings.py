"""What a person can change on the device itself: language, board, target, sound, contrast.

``DeviceSettings`` is checked whole when it is made, so a value that reaches the table is
always usable. Its JSON form (``to_dict`` / ``from_dict``) is what the state folder keeps
in ``settings.json``. ``from_dict`` takes a partial object too: a key it lacks keeps the
value of ``base`` (the layers below), and a key it does not know is ignored, so a file
written by a newer version still loads in an older one.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from ..errors import CompanionError, shown
from ..rules import Board, BoardError, Rate
from .boards import profile, profile_names

OWN = "own"  # the board: the rates in own_rates, entered from the person's own board
TARGET = (1, 999)
VOLUME = (1, 10)
CONTRAST = (1, 10)
# Which keys move together: own rates without "own" (or the reverse) means nothing.
LINKED = {"board": ("board", "own_rates"), "own_rates": ("board", "own_rates")}
_LANGUAGE = re.compile(r"[a-z]{2,3}")  # a catalog's code, "en"; which exist is the ui's


class SettingsError(CompanionError, ValueError):
    """A settings value that cannot be used; the message names the key and why."""


@dataclass(frozen=True, slots=True)
class DeviceSettings:
    language: str = "en"
    board: str = "standard"  # a shipped side's name, or OWN
    own_rates: tuple[Rate | None, ...] | None = None  # 16 spaces, as Board.rates
    target: int = 30
    sound: bool = True
    volume: int = 5
    contrast: int = 8

    def __post_init__(self) -> None:
        if isinstance(self.own_rates, list):  # a tuple, so that settings compare and hash
            object.__setattr__(self, "own_rates", tuple(self.own_rates))
        _check(self)

    def to_dict(self) -> dict[str, object]:
        """The JSON form: ``DeviceSettings.from_dict(s.to_dict()) == s``."""
        data: dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self)}
        if self.own_rates is not None:
            data["own_rates"] = Board(self.own_rates).to_rates()
        return data

    @classmethod
    def from_dict(
        cls,
        data: object,
        *,
        base: DeviceSettings | None = None,
        languages: Collection[str] | None = None,
    ) -> DeviceSettings:
        """Settings from their JSON form, every value checked (SettingsError names the key).
        Keys missing take ``base``'s values; unknown keys are ignored. ``languages``: the
        languages there are catalogs for (the game layer cannot know them)."""
        if not isinstance(data, Mapping):
            raise SettingsError(f"settings are a JSON object, got {shown(data)}")
        values = {name: _parse(name, data[name]) for name in KEYS if name in data}
        settings = _made(base or cls(), values)
        if languages is not None and "language" in data and settings.language not in languages:
            known = ", ".join(languages)
            raise SettingsError(f"language: not one of {known} (got {shown(settings.language)})")
        return settings


KEYS = tuple(f.name for f in fields(DeviceSettings))


def board_of(settings: DeviceSettings) -> Board:
    """The board to play: the shipped side, or the person's own rates. Rates entered from
    one's own board are the printed ones, so that board is verified."""
    if settings.board == OWN:
        assert settings.own_rates is not None  # _check refuses "own" without rates
        return Board(settings.own_rates, verified=True)
    return profile(settings.board)


def board_values(board: Board) -> dict[str, object]:
    """The settings that choose ``board``: a shipped side by name, any other table as own."""
    if board.name is not None and board == profile(board.name):
        return {"board": board.name}
    return {"board": OWN, "own_rates": board.rates}


def changed(before: DeviceSettings, after: DeviceSettings) -> tuple[str, ...]:
    """The keys whose value differs, with the keys that move together (board, own_rates)."""
    keys = {k for k in KEYS if getattr(before, k) != getattr(after, k)}
    keys |= {linked for k in tuple(keys) for linked in LINKED.get(k, ())}
    return tuple(k for k in KEYS if k in keys)


def with_values(settings: DeviceSettings, values: Mapping[str, object]) -> DeviceSettings:
    """``settings`` with ``values`` (already in DeviceSettings' types), checked."""
    return _made(settings, values)


# ---------------------------------------------------------------------------
# Checking.


def _made(base: DeviceSettings, values: Mapping[str, object]) -> DeviceSettings:
    # Values of any type go in: DeviceSettings checks each one when it is made (_check).
    changes: dict[str, Any] = dict(values)
    try:
        return replace(base, **changes)
    except TypeError:  # a key DeviceSettings does not have
        unknown = sorted(set(values) - set(KEYS))
        raise SettingsError(f"{unknown[0]}: not a setting (known: {', '.join(KEYS)})") from None


def _parse(name: str, value: object) -> object:
    """A JSON value as the settings hold it; the rest is checked by ``_check``."""
    if name != "own_rates" or value is None:
        return value
    try:
        return Board.from_rates(value).rates
    except BoardError as e:  # 16 spaces, bounded, monotone: as a record's custom table
        raise SettingsError(f"own_rates: {e}") from None


def _check(s: DeviceSettings) -> None:
    if not isinstance(s.language, str) or not _LANGUAGE.fullmatch(s.language):
        raise _wrong("language", 'not a language code such as "en"', s.language)
    names = [*profile_names(), OWN]
    if s.board not in names:
        raise _wrong("board", f"not one of {', '.join(names)}", s.board)
    if s.own_rates is not None:
        try:
            Board(s.own_rates)
        except (BoardError, TypeError) as e:
            raise SettingsError(f"own_rates: {e}") from None
    elif s.board == OWN:
        raise SettingsError(f'board: "{OWN}" needs own_rates, the 16 trader spaces')
    _whole(s, "target", TARGET)
    if type(s.sound) is not bool:
        raise _wrong("sound", "not true or false", s.sound)
    _whole(s, "volume", VOLUME)
    _whole(s, "contrast", CONTRAST)


def _whole(s: DeviceSettings, name: str, bounds: tuple[int, int]) -> None:
    value = getattr(s, name)
    if type(value) is not int:  # bool is an int to Python; true is not a number here
        raise _wrong(name, "not a whole number", value)
    if not bounds[0] <= value <= bounds[1]:
        raise _wrong(name, f"not in {bounds[0]}..{bounds[1]}", value)


def _wrong(name: str, why: str, value: object) -> SettingsError:
    return SettingsError(f"{name}: {why} (got {shown(value)})")


# The one table of the device's settings: their defaults (DeviceSettings' own) and ranges (TARGET,
# VOLUME, CONTRAST). The config's schema, ``config show`` and the device read them here.
DEFAULTS = DeviceSettings()
