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
from collections.abc import Callable
from queue import SimpleQueue

from ..game.bots import BUDGET_MS, make_bot
from ..game.search import Clock
from ..rules import CompanionError
from ..table.bots import AskBot, BotChose
from ..table.effects import Effect
from ..table.events import Event

Report = Callable[[str], None]
_DONE = None  # put on the worker's queue by ``close``


def counting_clock() -> Clock:
    """A clock one millisecond further on at every look: a budget of N ms is N playouts."""
    return itertools.count(0.0, 0.001).__next__


class BotSeats:
    """Answers ``AskBot``: runs a bot of the asked strength on the asked view, puts its
    ``BotChose`` with ``put``. ``threaded``: on a worker thread (started at the first
    question), else at once, inside the loop's step. ``clock``: a new clock for each
    decision (None: the real one)."""

    def __init__(
        self,
        put: Callable[[Event], None],
        report: Report,
        *,
        threaded: bool,
        seed: int = 0,
        budget_ms: int = BUDGET_MS,
        clock: Callable[[], Clock] | None = None,
    ):
        self._put, self._report = put, report
        self._threaded = threaded
        self.seed, self.budget_ms = seed, budget_ms
        self._clock = clock
        self._asks: SimpleQueue[AskBot | None] = SimpleQueue()
        self._thread: threading.Thread | None = None

    def __call__(self, effect: Effect) -> None:
        if not isinstance(effect, AskBot):
            return
        if not self._threaded:
            self._answer(effect)
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="bots", daemon=True)
            self._thread.start()
        self._asks.put(effect)

    def _work(self) -> None:
        while (ask := self._asks.get()) is not _DONE:
            self._answer(ask)

    def _answer(self, ask: AskBot) -> None:
        clock = time.perf_counter if self._clock is None else self._clock()
        bot = make_bot(ask.strength, self.seed, self.budget_ms, clock)
        try:
            cards = bot.cards(ask.view)
        except CompanionError as e:  # a game over, a seat not in it: nothing to choose
            self._report(f"the bot at seat {ask.view.seat + 1} cannot choose: {e}")
            return
        self._put(BotChose(ask.view.seat, ask.view.state, tuple(cards)))

    def close(self) -> None:
        """Stop the worker after the question it is thinking about. Idempotent."""
        if self._thread is not None:
            self._asks.put(_DONE)
            self._thread.join()
            self._thread = None
