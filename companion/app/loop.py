"""The one event loop, for the device and the simulator alike.

Inputs (the pad matrix, the host buttons) put events on one queue. The loop takes
each event, steps the flow, carries out its beeps, builds the screen model and, when
it changed, renders it and hands the frame to the display. It wakes by itself only
when the flow has a deadline, a notice to clear, or a countdown number to change.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from queue import Empty, SimpleQueue

from PIL import Image

from ..game.record import GameRecord
from ..table.events import Event
from ..table.flow import Flow, Phase, Tick, step
from ..ui.screens import Screen, model, render, splash

STOP = object()  # put on the queue to end the loop


class App:
    def __init__(
        self,
        flow: Flow,
        show: Callable[[Image.Image], None],
        events: SimpleQueue[Event],
        *,
        lang: str = "en",
        beep: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        splash: float = 0.0,
        save: Callable[[GameRecord], None] | None = None,
    ):
        self.flow = flow
        self.events = events
        self._show = show
        self._beep = beep
        self._lang = lang
        self._clock = clock
        self._screen: Screen | None = None
        self._splash = splash  # seconds of splash screen at power-on
        self._save = save
        self._saved = flow.record
        self._idle = threading.Condition()
        self.inputs = 0  # input events handled so far, ticks aside (the simulator waits on it)
        self.busy = False

    def run(self) -> None:
        """Handle events until ``STOP`` is put on the queue."""
        if self._splash:  # power on: the splash, while presses wait on the queue
            self._show(render(splash(self._lang)))
            time.sleep(self._splash)
        self.refresh()
        while True:
            try:
                event = self.events.get(timeout=self.next_wake())
            except Empty:
                event = Tick()
            if event is STOP:
                return
            self.handle(event)

    def handle(self, event: object) -> None:
        with self._idle:
            self.busy = True
        now = self._clock()
        flow, beeps = step(self.flow, event, now)
        while flow.deadline is not None and flow.deadline <= now:  # no pause: go on now
            flow, more = step(flow, Tick(), now)
            beeps += more
        self.flow = flow
        if self._save is not None and flow.record is not self._saved and flow.record is not None:
            self._save(flow.record)  # a round ended, was undone, or a game began
            self._saved = flow.record
        for beep in beeps:
            if self._beep is not None:
                self._beep(beep.value)
        self.refresh(now)
        with self._idle:
            if not isinstance(event, Tick):
                self.inputs += 1
            self.busy = False
            self._idle.notify_all()

    def refresh(self, now: float | None = None) -> None:
        """Draw the screen for the current flow, if it differs from the one shown."""
        screen = model(self.flow, self._clock() if now is None else now, self._lang)
        if screen != self._screen:
            self._screen = screen
            self._show(render(screen))

    def wait_idle(
        self, inputs: int, timeout: float = 10.0, alive: Callable[[], bool] = lambda: True
    ) -> bool:
        """Block until ``inputs`` input events are handled and nothing else is queued;
        False after ``timeout`` or as soon as ``alive()`` says the loop is gone."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self.busy or self.inputs < inputs or not self.events.empty():
                left = deadline - time.monotonic()
                if left <= 0 or not alive():
                    return False
                self._idle.wait(min(left, 0.01))
        return True

    def wait_ready(self, timeout: float = 120.0, alive: Callable[[], bool] = lambda: True) -> bool:
        """Block until the flow waits for people: no pause running, nothing queued."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self.busy or self.flow.deadline is not None or not self.events.empty():
                left = deadline - time.monotonic()
                if left <= 0 or not alive():
                    return False
                self._idle.wait(min(left, 0.01))
        return True

    def next_wake(self) -> float | None:
        """Seconds until the loop must wake by itself, or None to wait for input."""
        flow, now = self.flow, self._clock()
        wakes = []
        if flow.deadline is not None:
            wakes.append(flow.deadline)
        if flow.message is not None:
            wakes.append(flow.message_until)
        if flow.phase is Phase.COUNTDOWN and flow.deadline is not None:
            left = flow.deadline - now  # redraw when the number shown changes
            wakes.append(now + (left - math.floor(left) or 1.0))
        return max(0.0, min(wakes) - now) if wakes else None
