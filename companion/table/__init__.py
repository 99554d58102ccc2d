"""The table: a pure state machine from input events to the next table and its effects.

``step(flow, event, now)`` is the whole behaviour; ``public_view(flow, now)`` is the only
place hidden choices are dropped: the screens and the web page read the view, never the
flow's secrets. A bot is asked with the game as it stood after the last completed round
and its own seat (``bots.asks``): nobody's choice of this round is in it.
"""

from .effects import Beep, Effect, GameChanged, GameFinished, KeepAside, Sound
from .flow import due, settle, step
from .setup import offer_resume, start
from .state import Flow, Phase, new_flow
from .timing import FAST, TABLE, Timing
from .view import View, next_change, public_view

__all__ = [
    "FAST",
    "TABLE",
    "Beep",
    "Effect",
    "Flow",
    "GameChanged",
    "GameFinished",
    "KeepAside",
    "Phase",
    "Sound",
    "Timing",
    "View",
    "due",
    "new_flow",
    "next_change",
    "offer_resume",
    "public_view",
    "settle",
    "start",
    "step",
]
