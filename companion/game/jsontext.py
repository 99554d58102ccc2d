"""JSON as the companion reads it: no NaN or Infinity, every failure a ``RecordError``."""

from __future__ import annotations

import json
import sys

from ..rules import RecordError


def parse_json(text: str | bytes, line: int = 1) -> object:
    """JSON as the records use it: no NaN or Infinity, errors as ``RecordError``.
    ``line``: the line of its input the text begins on (a JSON Lines reader's line
    number), so that a syntax error names the line of the input it is on.

    Whatever the text holds, the only exception is a ``RecordError`` (or MemoryError):
    bad syntax, bytes that are not UTF-8, nesting deeper than Python's recursion limit,
    and whole numbers longer than Python converts (``sys.get_int_max_str_digits``).
    """
    try:
        return _DECODER.decode(text if isinstance(text, str) else text.decode("utf-8-sig"))
    except RecordError:  # NaN or Infinity, refused by _no_constant
        raise
    except json.JSONDecodeError as e:
        # One message ends in " at" ("Invalid control character at"): say it once.
        msg = e.msg.removesuffix(" at")
        at = f"line {e.lineno + line - 1} column {e.colno}"
        raise RecordError(f"not valid JSON: {msg} at {at}") from None
    except UnicodeDecodeError as e:
        raise RecordError(f"not UTF-8 text: {e.reason} at byte {e.start}") from None
    except RecursionError:
        raise RecordError("JSON nested too deeply") from None
    except ValueError:  # int(): "Exceeds the limit (4300 digits) for integer string conversion"
        digits = sys.get_int_max_str_digits()
        raise RecordError(f"a number in the JSON is longer than {digits} digits") from None


def _no_constant(name: str) -> None:
    raise RecordError(f"not valid JSON: {name} is not a number")


# Built once: json.loads with any keyword builds a new decoder on every call.
_DECODER = json.JSONDecoder(parse_constant=_no_constant)
