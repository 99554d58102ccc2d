"""``companion config show``: every effective value, and the layer it came from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from ..app.config import label
from ..app.effective import Effective, effective
from ..errors import CompanionError
from .status import EXIT_BAD_INPUT

NAME = "companion config show"
COLUMN = 44  # where the "# origin" comments line up (a longer line pushes its own out)


def show_command(
    config_path: str | None,
    state_dir: str | None,
    *,
    as_json: bool,
    out: TextIO,
    err: TextIO,
) -> int:
    def report(message: str) -> None:
        err.write(f"{NAME}: {message}\n")

    try:
        found = effective(
            Path(config_path) if config_path else None,
            Path(state_dir) if state_dir else None,
            report=report,
            set_aside=False,  # only a look: a damaged settings.json is said, not moved
        )
    except CompanionError as e:
        err.write(f"{NAME}: {e}\n")
        return EXIT_BAD_INPUT
    out.write(_as_json(found) if as_json else _as_text(found))
    return 0


def _as_text(found: Effective) -> str:
    lines = []
    for key, value in found.values.items():
        setting = f"{label(key)} = {_written(key, value)}"
        lines.append(f"{setting.ljust(COLUMN)}  # {found.origins[key]}\n")
    return "".join(lines)


def _as_json(found: Effective) -> str:
    table = {
        ".".join(key): {"value": _plain(value), "from": found.origins[key]}
        for key, value in found.values.items()
    }
    return json.dumps(table, ensure_ascii=False) + "\n"


def _written(key: tuple[str, ...], value: object) -> str:
    """A value as a config file writes it (a missing own table: none)."""
    if key == ("display", "address") and isinstance(value, int):
        return f"0x{value:02X}"
    if value is None:
        return "false" if key == ("pins", "buzzer") else "none"
    return json.dumps(_plain(value), ensure_ascii=False)


def _plain(value: object) -> object:
    """``value`` as JSON has it: a path as text, a rate as a list."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value
