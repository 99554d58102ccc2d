"""JSON as the companion reads it: no NaN or Infinity, every failure a ``RecordError``."""

from __future__ import annotations

import json

from ..rules import RecordError


def parse_json(text: str | bytes) -> object:
    """JSON as the records use it: no NaN or Infinity, errors as ``RecordError``."""
    try:
        return _DECODER.decode(text if isinstance(text, str) else text.decode("utf-8-sig"))
    except json.JSONDecodeError as e:
        raise RecordError(f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except UnicodeDecodeError as e:
        raise RecordError(f"not UTF-8 text: {e.reason} at byte {e.start}") from None
    except RecursionError:
        raise RecordError("not a game record: JSON nested too deeply") from None


def _no_constant(name: str) -> None:
    raise RecordError(f"not valid JSON: {name} is not a number")


# Built once: json.loads with any keyword builds a new decoder on every call.
_DECODER = json.JSONDecoder(parse_constant=_no_constant)
