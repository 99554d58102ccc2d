"""The bots at the table's seats, run for the table: a sink for its ``AskBot`` effects.

The table never runs a bot itself (the strong one searches for its whole time budget);
it asks, and this sink answers by putting ``BotChose`` on the loop's queue. On the
device a worker thread thinks, so the loop keeps answering keys meanwhile. The
simulator answers inline, before the next event, and gives the strong bot a clock
that moves on a millisecond at each look: its budget is then a fixed number of
playouts, and a script or ``--json`` comes out the same on every run.
"""

from __future__ import annotations

import itertools
import threading
import time
import traceback
from collections.abc import Callable
from queue import SimpleQueue

from ..errors import Closing, CompanionError
from ..game.bots import BUDGET_MS, Bot, make_bot
from ..game.search import Clock
from ..table.bots import AskBot, BotChose
from ..table.effects import Effect
from ..table.events import Event

Report = Callable[[str], None]
_DONE = None  # put on the worker's queue by ``close``
CLOSE_WAIT = 2.0  # s ``close`` waits for a bot still thinking (a daemon: it ends anyway)
MakeBot = Callable[[str, int, int, Clock], Bot]


def counting_clock() -> Clock:
    """A clock one millisecond further on at every look: a budget of N ms is N playouts."""
    return itertools.count(0.0, 0.001).__next__


class BotSeats(Closing):
    """Answers ``AskBot``: runs a bot of the asked strength and seed on the asked view,
    puts its ``BotChose`` with ``put``. ``threaded``: on a worker thread (started at the first
    question), else at once, inside the loop's step. ``clock``: a new clock for each
    decision (None: the real one). ``make``: makes the bots (``make_bot``).

    A bot that fails with a bug is logged with its traceback, and the easy bot's play
    (seeded) stands in for it: the round goes on, and the worker lives for the next
    question."""

    def __init__(
        self,
        put: Callable[[Event], None],
        report: Report,
        *,
        threaded: bool,
        budget_ms: int = BUDGET_MS,
        clock: Callable[[], Clock] | None = None,
        make: MakeBot = make_bot,
    ):
        self._put, self._report = put, report
        self._threaded = threaded
        self.budget_ms = budget_ms
        self._clock, self._make = clock, make
        self._asks: SimpleQueue[AskBot | None] = SimpleQueue()
        self._thread: threading.Thread | None = None
        self.closing = threading.Event()  # set by ``close``: later asks are dropped

    def __call__(self, effect: Effect) -> None:
        if not isinstance(effect, AskBot) or self.closing.is_set():
            return
        if not self._threaded:
            self._answer(effect)
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="bots", daemon=True)
            self._thread.start()
        self._asks.put(effect)

    def _work(self) -> None:
        while (ask := self._asks.get()) is not _DONE and not self.closing.is_set():
            self._answer(ask)

    def _answer(self, ask: AskBot) -> None:
        cards = self._choose(ask)
        if cards is not None:
            self._put(BotChose(ask.view.seat, ask.view.state, cards))

    def _choose(self, ask: AskBot) -> tuple[int, ...] | None:
        """The bot's cards; the easy bot's after a bug; None when there is nothing to choose."""
        seat = ask.view.seat + 1
        clock = time.perf_counter if self._clock is None else self._clock()
        try:
            return tuple(self._make(ask.strength, ask.seed, self.budget_ms, clock).cards(ask.view))
        except CompanionError as e:  # a game over, a seat not in it: nothing to choose
            self._report(f"the bot at seat {seat} cannot choose: {e}")
            return None
        except Exception as e:  # a bug in a bot must not leave the table waiting for ever
            where = "".join(traceback.format_exception(e)).rstrip()
            self._report(
                f"the {ask.strength} bot at seat {seat} failed ({type(e).__name__}); "
                f"it plays a random legal choice this round:\n{where}"
            )
        try:
            return tuple(make_bot("easy", ask.seed).cards(ask.view))
        except Exception as e:  # the worker lives on for the next question
            self._report(f"the bot at seat {seat} cannot choose: {type(e).__name__}: {e}")
            return None

    def close(self) -> None:
        """Stop the worker after the question it is thinking about (answered); the questions
        still waiting are dropped. Waits ``CLOSE_WAIT`` s at most for it. Idempotent."""
        self.closing.set()
        if self._thread is not None:
            self._asks.put(_DONE)
            self._thread.join(CLOSE_WAIT)
            self._thread = None
