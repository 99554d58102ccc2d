"""Simulator scripts: one key action per line, checked whole before anything runs.

press P<seat 1-6> <card 1-8> | press OK|LEFT|RIGHT | hold OK | wait <ms> |
name P<pad 1-6> <NAME> | # comment
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import CompanionError, shown
from ..game.names import SeatNameError, check_name
from ..table.events import HostKey

WAIT_MAX_MS = 600_000  # ten minutes: longer is a typo, not a pause


class ScriptError(CompanionError, ValueError):
    """A script line that is not one of the known commands."""


@dataclass(frozen=True)
class Line:
    number: int
    action: str  # "pad", "button", "hold", "wait"
    seat: int = 0
    card: int = 0
    key: HostKey | None = None
    ms: int = 0
    name: str = ""  # "name": the pad's name, checked


_PATTERNS = [
    (re.compile(r"press\s+P([1-6])\s+([1-8])", re.I), "pad"),
    (re.compile(r"press\s+(OK|LEFT|RIGHT)", re.I), "button"),
    (re.compile(r"hold\s+(OK)", re.I), "hold"),
    (re.compile(r"wait\s+(\d{1,9})", re.I), "wait"),
    (re.compile(r"name\s+P([1-6])\s+(.+)", re.I), "name"),
]
USAGE = (
    "press P<seat 1-6> <card 1-8> | press OK|LEFT|RIGHT | hold OK | wait <ms> | "
    "name P<pad 1-6> <NAME> | # comment"
)


def parse_script(text: str, name: str = "script", first: int = 1) -> list[Line]:
    """Every line of a script, checked before anything runs (numbered from ``first``)."""
    lines = []
    for number, raw in enumerate(text.split("\n"), first):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        found = next(
            ((action, m) for pattern, action in _PATTERNS if (m := pattern.fullmatch(body))), None
        )
        if found is None:
            raise ScriptError(f"{name}:{number}: cannot read {shown(body)} (lines are: {USAGE})")
        action, match = found
        if action == "pad":
            lines.append(Line(number, action, int(match[1]) - 1, int(match[2])))
        elif action == "name":
            pad, text = int(match[1]) - 1, _name(match[2], name, number)
            lines.append(Line(number, action, pad, name=text))
        elif action in ("button", "hold"):
            lines.append(Line(number, action, key=HostKey(match[1].lower())))
        elif int(match[1]) > WAIT_MAX_MS:
            raise ScriptError(f"{name}:{number}: wait at most {WAIT_MAX_MS} ms, got {match[1]}")
        else:
            lines.append(Line(number, action, ms=int(match[1])))
    return lines


def _name(text: str, name: str, number: int) -> str:
    """A name as the device spells it: in capitals (``anna`` is ANNA), checked."""
    try:
        return check_name(text.upper())
    except SeatNameError as e:
        raise ScriptError(f"{name}:{number}: {e}") from None
