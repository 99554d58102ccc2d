"""The simulator's keyboard: which key does what a person does at the table.

The map is data (``companion/data/keys.toml``). A key's action is a script line (press
a pad key, press or hold a host button), so a key acts exactly as a script does:
through the simulated pins, never around them.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..errors import CompanionError
from ..sim.keyboard import NAMES
from ..table.events import HostKey
from ..ui.catalog import Catalog
from .script import Line

SEATS, CARDS = 6, 8
HOST = ("left", "ok", "right", "menu", "quit")  # the legend's order
LEGEND_WIDTH = 80


class KeyMapError(CompanionError, ValueError):
    """A key map that is not what the simulator needs."""


@dataclass(frozen=True)
class KeyMap:
    actions: Mapping[str, Line]  # key -> what it does at the table
    quit: frozenset[str]
    pads: tuple[str, ...]  # each seat's keys for cards 1..8 (the first string)
    host: Mapping[str, tuple[str, ...]]  # "left", "ok", "right", "menu", "quit" -> keys


@cache
def shipped_keymap() -> KeyMap:
    path = resources.files("companion").joinpath("data/keys.toml")
    return parse_keymap(tomllib.loads(path.read_text("utf-8")), "keys.toml")


def parse_keymap(data: Mapping, name: str) -> KeyMap:
    """The key map in ``data`` (keys.toml's tables), every key checked and used once."""
    pads, host = data.get("pads"), data.get("host")
    if not isinstance(pads, dict) or not isinstance(host, dict):
        raise KeyMapError(f"{name}: needs a [pads] and a [host] table")
    seats = [f"P{n}" for n in range(1, SEATS + 1)]
    _exactly(pads, seats, f"{name} [pads]")
    _exactly(host, list(HOST), f"{name} [host]")
    uses: dict[str, str] = {}  # key -> what it does, to name both uses of a key
    actions: dict[str, Line] = {}
    firsts = []
    for seat, label in enumerate(seats):
        strings = _strings(pads[label], f"{name} [pads] {label}")
        for keys in strings:
            if len(keys) != CARDS or not all(_typed(k) for k in keys):
                raise KeyMapError(
                    f"{name} [pads] {label}: {keys[:40]!r} is not {CARDS} printable characters"
                )
            for card, key in enumerate(keys, 1):
                _claim(uses, key, f"{label} card {card}", name)
                actions[key] = Line(0, "pad", seat, card)
        firsts.append(strings[0])
    keys_of = {}
    for role in HOST:
        keys_of[role] = tuple(_strings(host[role], f"{name} [host] {role}"))
        for key in keys_of[role]:
            if not (_typed(key) or key in NAMES):
                raise KeyMapError(f"{name} [host] {role}: {key[:40]!r} is not a key")
            _claim(uses, key, role, name)
            if role in ("left", "ok", "right"):
                actions[key] = Line(0, "button", key=HostKey(role))
            elif role == "menu":
                actions[key] = Line(0, "hold", key=HostKey.OK)
    return KeyMap(actions, frozenset(keys_of["quit"]), tuple(firsts), keys_of)


def _exactly(table: Mapping, names: list[str], where: str) -> None:
    if sorted(table) != sorted(names):
        raise KeyMapError(f"{where}: needs exactly {', '.join(names)}")


def _strings(value: object, where: str) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise KeyMapError(f"{where}: needs a list of strings")
    return value


def _typed(key: str) -> bool:
    """One printable character (a space is the key named ``space``)."""
    return len(key) == 1 and key.isprintable() and key != " "


def _claim(uses: dict[str, str], key: str, use: str, name: str) -> None:
    if key in uses:
        raise KeyMapError(f"{name}: the key {key!r} is both {uses[key]} and {use}")
    uses[key] = use


def legend(keymap: KeyMap, words: Catalog, seated: Sequence[int] = ()) -> list[str]:
    """Two lines for under the picture: the pads' keys, then the host buttons. In a game
    (``seated``: the pad of each person's seat) only the seated pads, by their seats."""
    shown = seated or range(len(keymap.pads))
    pads = "  ".join(f"{words.seat(seat)} {keymap.pads[pad]}" for seat, pad in enumerate(shown))
    host = "  ".join(
        f"{words.t(f'keys.{role}')} {' '.join(key_name(k, words) for k in keymap.host[role])}"
        for role in HOST
    )
    return [pads, host]


def key_name(key: str, words: Catalog) -> str:
    """What a key is called on the keyboard: ``Enter``, ``←``, or the character itself."""
    return words.messages.get(f"key.{key}", key) if key in NAMES else key


def play(act: Callable[[Line], None], keys: Iterable[str], keymap: KeyMap) -> None:
    """Act on each key until a quit key or the end of ``keys``; other keys do nothing."""
    for key in keys:
        if key in keymap.quit:
            return
        line = keymap.actions.get(key)
        if line is not None:
            act(line)
