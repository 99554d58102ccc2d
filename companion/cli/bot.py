"""``companion bot``: a bot that other programs drive over JSON Lines, as GUIs drive a
chess engine. The protocol is in docs/bot-protocol.md.

One answer line per request line, flushed at once; a bad request is answered with
``{"error": "..."}`` and the bot reads on, a line longer than 1 MB too (it is read in
pieces and thrown away, never held whole). End of input ends it with status 0.
"""

from __future__ import annotations

import json
import time
from typing import BinaryIO, TextIO

from ..errors import CompanionError, shown
from ..game.bots import Bot, make_bot, view_of
from ..game.jsontext import parse_json
from ..game.record import GameRecord
from ..game.search import Clock
from ..rules import RecordError
from .lines import TOO_LONG_MESSAGE, read_lines

ASKS = ("cards", "trade")
TOO_LONG_ERROR = f"the request line is {TOO_LONG_MESSAGE}"


def bot_command(
    strength: str,
    seed: int,
    budget_ms: int,
    inp: BinaryIO,
    out: TextIO,
    clock: Clock = time.perf_counter,
) -> int:
    """Answer every request line of ``inp`` on ``out``. ``budget_ms`` on ``clock`` is the
    strong bot's time per decision; easy and normal answer at once."""
    bot = make_bot(strength, seed, budget_ms, clock)
    # Every line counts, a blank one too: "line N" in an answer is the input's line N.
    for number, line in enumerate(read_lines(inp), 1):  # at most 1 MB: longer is not kept
        said = answer(bot, line, number) if isinstance(line, bytes) else {"error": TOO_LONG_ERROR}
        out.write(json.dumps(said, separators=(",", ":")) + "\n")
        out.flush()
    return 0


def answer(bot: Bot, line: bytes | str, number: int = 1) -> dict:
    """The answer to the request on line ``number`` of the input: ``{"cards": [...]}``,
    ``{"offer": G}`` or ``{"error": "..."}``."""
    try:
        return _answer(bot, line, number)
    except CompanionError as e:
        return {"error": str(e)}
    except Exception as e:  # a bug must not stop the program driving the bot
        return {"error": f"internal error: {type(e).__name__}: {shown(str(e))}"}


def _answer(bot: Bot, line: bytes | str, number: int) -> dict:
    if not line.strip():
        raise RecordError(f"line {number} is blank: a request is a JSON object on one line")
    request = parse_json(line, number)
    if type(request) is not dict:
        raise RecordError(f"a request is a JSON object, got {shown(request)}")
    ask = request.get("ask")
    if ask not in ASKS:
        raise RecordError(f'\'ask\' must be "cards" or "trade", got {shown(ask)}')
    try:
        record = GameRecord.from_dict(request.get("game"))
    except RecordError as e:
        raise RecordError(f"'game': {e}") from None
    view = view_of(record, request.get("seat"))
    if ask == "cards":
        return {"cards": list(bot.cards(view))}
    plays = request.get("plays")
    if type(plays) is not list or not all(type(p) is list for p in plays):
        raise RecordError(f"'plays' must be a list of each seat's cards, got {shown(plays)}")
    return {"offer": bot.trade(view, plays)}
