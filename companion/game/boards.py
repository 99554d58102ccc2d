"""The board profiles shipped as data (``data/boards.json``), and naming a board.

A board is named by a profile name (``"standard"``, ``"winter"``) or given as a custom
table ``{"trader_rates": [...]}``; both are accepted anywhere a board is named.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TypedDict

from ..errors import clip, shown
from ..rules import Board, BoardError, Rate, RecordError
from .jsontext import parse_json

BOARD_FILE_MAX = 64 * 1024  # bytes: a board file is 16 short rates; more is not one


class _Profile(TypedDict):
    """A shipped side as ``data/boards.json`` holds it (the keys the companion reads)."""

    trader_rates: list[list[int] | None]
    verified: bool


@cache
def _profiles() -> dict[str, _Profile]:
    text = resources.files("companion").joinpath("data/boards.json").read_text("utf-8")
    return {k: v for k, v in json.loads(text).items() if not k.startswith("_")}


def profile_names() -> list[str]:
    return list(_profiles())


@cache
def profile(name: str) -> Board:
    """A shipped board side by name."""
    try:
        data = _profiles()[name]
    except KeyError:
        known = ", ".join(profile_names())
        raise BoardError(f"unknown board {shown(name)} (known: {known})") from None
    return Board.from_rates(data["trader_rates"], name=name, verified=data["verified"])


def board_from_spec(spec: object) -> Board:
    """A board from its JSON form: a profile name or ``{"trader_rates": [...]}``."""
    if isinstance(spec, str):
        return profile(spec)
    if isinstance(spec, dict):
        if "trader_rates" not in spec:  # other keys (a name, a note) are the user's own
            raise BoardError(f"a custom board needs 'trader_rates', got keys {shown(sorted(spec))}")
        return Board.from_rates(spec["trader_rates"])
    raise BoardError(f"a board is a name or {{'trader_rates': [...]}}, got {shown(spec)}")


def named_board(value: str, where: str = "--board") -> Board:
    """A board named on a command line or in a config: a profile name, or the path of a
    JSON file ``{"trader_rates": [...]}`` holding your own board's rates.

    Anything wrong, from a missing file to a folder or binary data, is one BoardError
    naming ``where`` and the value (cut to 80 characters)."""
    try:
        return board_named(value)
    except BoardError as e:
        raise BoardError(f"{where} {clip(value)}: {e}") from None


def board_named(value: str) -> Board:
    """``named_board`` without saying where: the error says only what is wrong, for a
    caller that names the place its own way (the config: file, section and key)."""
    if value in profile_names():
        return profile(value)
    try:
        data = _read_board_file(value)
    except OSError as e:
        raise BoardError(
            f"not a board name ({', '.join(profile_names())}) "
            f"and cannot read it as a file: {e.strerror or type(e).__name__}"
        ) from None
    except (ValueError, RuntimeError) as e:  # a NUL in the path; "~nobody" has no home
        raise BoardError(f"not a board name, nor a file path: {e}") from None
    if len(data) > BOARD_FILE_MAX:
        raise BoardError(f"larger than {BOARD_FILE_MAX // 1024} KB, not a board file")
    try:
        return board_from_spec(parse_json(data))
    except RecordError as e:
        raise BoardError(str(e)) from None


def _read_board_file(value: str) -> bytes:
    """The file's first bytes, one more than a board file may hold (/dev/zero is endless)."""
    with Path(value).expanduser().open("rb") as f:
        return f.read(BOARD_FILE_MAX + 1)


def board_spec(board: Board) -> str | dict[str, list[list[int] | None]]:
    """The JSON form of a board: ``board_from_spec(board_spec(b)) == b``."""
    if board.name is not None and board == profile(board.name):
        return board.name
    return {"trader_rates": board.to_rates()}


@cache
def offered_rates() -> tuple[Rate, ...]:
    """The rates the device's editor offers on a trader space, worst first (data)."""
    text = resources.files("companion").joinpath("data/rates.json").read_text("utf-8")
    return tuple(Rate(*pair) for pair in json.loads(text)["offered"])
