"""The table's sounds as data: ``data/sounds.toml`` read and checked whole.

A sound is a few notes (a pitch in Hz, or a rest, and a length). A mistake in the file is one
``SoundsError`` line naming the file and the key: a sound the table does not make, a
sound it makes that is missing, a note that is no note, a sound too long.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from gpiozero.tones import Tone

from ..errors import CompanionError

# The sounds the table asks for (the values of companion.table.effects.Sound).
NAMES = ("click", "locked", "refused", "reveal", "trade")
LONGEST_MS = 400  # every sound answers a press; the next press may come at once
CLICK_MS = 30  # the click answers every press
VOLUMES = 10  # the settings' volume levels 1..10
REST = "rest"


class SoundsError(CompanionError, ValueError):
    """A sounds file that cannot be read or holds a wrong value."""


@dataclass(frozen=True)
class Note:
    hz: float | None  # None: a rest
    ms: int


@dataclass(frozen=True)
class Sounds:
    notes: dict[str, tuple[Note, ...]]  # by name, every name of NAMES

    def rhythm(self, name: str) -> tuple[tuple[bool, int], ...]:
        """What an active buzzer plays of ``name``: (on, ms) spans, neighbours merged."""
        spans: list[tuple[bool, int]] = []
        for note in self.notes[name]:
            on = note.hz is not None
            if spans and spans[-1][0] == on:
                spans[-1] = (on, spans[-1][1] + note.ms)
            else:
                spans.append((on, note.ms))
        return tuple(spans)


@cache
def packaged_sounds() -> Sounds:
    """The shipped ``data/sounds.toml``."""
    file = resources.files("companion").joinpath("data/sounds.toml")
    return load_sounds(file.read_text("utf-8"), str(file))


def load_sounds(text: str, source: str = "sounds.toml") -> Sounds:
    """The sounds in ``text`` (TOML), every one checked; ``source`` names it in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SoundsError(f"{source}: not valid TOML: {e}") from None
    for section in data:
        if section != "sounds":
            raise SoundsError(f"{source}: [{section}]: unknown section (known: sounds)")
    sounds = _table(data, "sounds", source)
    for name in sounds:
        if name not in NAMES:
            known = ", ".join(NAMES)
            raise SoundsError(f"{source}: [sounds] {name}: not a sound the table makes ({known})")
    notes: dict[str, tuple[Note, ...]] = {}
    for name in NAMES:
        if name not in sounds:
            raise SoundsError(f"{source}: [sounds] {name}: missing")
        notes[name] = _sound(sounds[name], f"{source}: [sounds] {name}")
    return Sounds(notes)


def _table(data: dict[str, Any], name: str, source: str) -> dict[str, Any]:
    table = data.get(name)
    if not isinstance(table, dict):
        raise SoundsError(f"{source}: [{name}]: missing, or not a table")
    return table


def _sound(value: object, where: str) -> tuple[Note, ...]:
    if not isinstance(value, list) or not value:
        raise SoundsError(f"{where}: not a list of notes [pitch, ms]")
    notes = tuple(_note(item, f"{where}[{i}]") for i, item in enumerate(value))
    total = sum(note.ms for note in notes)
    longest = CLICK_MS if where.endswith(" click") else LONGEST_MS
    if total >= longest:
        raise SoundsError(f"{where}: {total} ms long, not under {longest} ms")
    if notes[0].hz is None or notes[-1].hz is None:
        raise SoundsError(f"{where}: begins or ends with a rest")
    return notes


def _note(item: object, where: str) -> Note:
    if not (isinstance(item, list) and len(item) == 2):
        raise SoundsError(f"{where}: not a note [pitch, ms] (got {str(item)[:40]})")
    pitch, ms = item
    if type(ms) is not int or not 1 <= ms <= LONGEST_MS:
        raise SoundsError(f"{where}: the length is not a whole number of ms, 1..{LONGEST_MS}")
    return Note(_pitch(pitch, where), ms)


def _pitch(pitch: object, where: str) -> float | None:
    if pitch == REST:
        return None
    if isinstance(pitch, str) and Tone.regex.fullmatch(pitch):
        return Tone.from_note(pitch).frequency
    if (type(pitch) is int or type(pitch) is float) and 20 <= pitch <= 20000:
        return float(pitch)
    shown = repr(pitch[:40]) if isinstance(pitch, str) else str(pitch)[:40]
    raise SoundsError(
        f'{where}: {shown} is no pitch: a note name ("C7", "F#6"), 20..20000 Hz, or "rest"'
    )
