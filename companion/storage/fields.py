"""The checks a history row's columns pass as they are read: a row another program
wrote that fails one is skipped (and counted), never shown wrong."""

from __future__ import annotations

from datetime import datetime
from typing import Any


def date_text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError("a date is text")
    datetime.fromisoformat(value)
    return value


def seats(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(v) is int and v >= 0 for v in value):
        raise TypeError("seats are a list of numbers")
    return tuple(value)


def vps(value: object) -> list[int]:
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise TypeError("VP are a list of numbers")
    return value


def an_object(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError("a result is an object")
    return value


def texts(value: object) -> tuple[str | None, ...]:
    if not isinstance(value, list) or not all(v is None or isinstance(v, str) for v in value):
        raise TypeError("names are a list of text or null")
    return tuple(value)
