"""The one event loop, for the device and the simulator alike.

Sources (the pad matrix, the host buttons) put events on one queue. The loop takes
each event, steps the table, hands the effects to the sinks (the beeper, the saved
game), and draws the public view when it changed. It wakes by itself only when the
table has something due (a pause, a notice, a long press), a countdown number to
change, or a display to retry; an idle table sleeps in ``queue.get``.

It feeds systemd's watchdog only while every input thread is well (``threads``: their
heartbeats): a thread that died ends the loop with ``InputFailed`` (the service exits
and systemd restarts it on the resume screen), one that stopped scanning stops the pings.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from queue import Empty, Queue
from typing import Protocol

from PIL import Image

from ..game.settings import DeviceSettings
from ..hw.health import Heartbeat
from ..table import Effect, Flow, View, due, next_change, public_view, settle, step
from ..table.events import Event, HostDown, HostPress, HostUp, PadDown, PadUp, Tick
from ..ui.catalog import Catalog, catalog
from ..ui.screens import draw, render, splash
from .notify import SILENT, Notifier


class Stop:
    """Put on the queue to end the loop (``App.stop``)."""


STOP = Stop()
Queued = Event | Stop  # what the loop's queue holds
# What people do, as the sources report it: the simulator counts these to know the
# table has caught up with its presses (ticks and the store's notices are not counted).
INPUTS = (PadDown, PadUp, HostDown, HostUp, HostPress)
RETRY = 1.0  # seconds between attempts to reach a display that stopped answering
# An input thread that has not scanned (or read) for this long, without resting on
# purpose, is stuck: the watchdog is no longer fed. Its scans come milliseconds apart,
# the hub's reads within a second; systemd waits WatchdogSec=30 s.
STALL = 10.0


class InputFailed(RuntimeError):
    """An input thread died: the pads it read are silent. Raised from ``App.run`` with
    the thread's own error as its cause, so the traceback shows where it died."""


class Display(Protocol):
    size: tuple[int, int]  # the canvas the screens are drawn on

    def show(self, image: Image.Image) -> None: ...

    @property
    def dirty(self) -> bool:
        """True while the panel is not known to show the last frame."""
        ...

    def retry(self) -> None: ...


Sink = Callable[[Effect], None]
# Told each new public view after it is drawn, with the settings in force (the phone
# page's server): never the flow, so nothing hidden leaves the table this way.
Watcher = Callable[[View, DeviceSettings], None]


class App:
    """The table's loop, complete when made: its queue, its display, where its effects
    go (``sinks``, in any order), who is told each new view (``watchers``), the service
    manager it tells how it is doing (``notify``), the input threads whose health that
    depends on (``threads``), and where a line for the log goes (``report``)."""

    def __init__(
        self,
        flow: Flow,
        display: Display,
        *,
        events: Queue[Queued] | None = None,
        sinks: Sequence[Sink] = (),
        watchers: Sequence[Watcher] = (),
        notify: Notifier = SILENT,
        clock: Callable[[], float] = time.monotonic,
        splash: float = 0.0,
        every_screen: bool = False,
        threads: Sequence[Heartbeat] = (),
        report: Callable[[str], None] = lambda line: None,
    ):
        self.flow = flow
        # A Queue counts what was put and is not yet handled (``task_done``): a waiter
        # never takes the moment between ``get`` and ``handle`` for an idle table.
        self.events: Queue[Queued] = Queue() if events is None else events
        self.display = display
        self.sinks = tuple(sinks)
        self.watchers = tuple(watchers)
        self.notify = notify
        self._clock = clock
        self._splash = splash  # seconds of splash screen at power-on
        self._every_screen = every_screen  # draw the screens a pause already due skips
        self._shown: tuple[View, DeviceSettings] | None = None  # the view drawn, its settings
        self._idle = threading.Condition()
        self.inputs = 0  # INPUTS handled so far (the simulator waits on it)
        self.busy = False
        self._ping_at = 0.0  # when the watchdog is due a ping
        self.threads = tuple(threads)
        self._report = report
        self._stalled: set[str] = set()  # the stuck threads already said
        for thread in self.threads:  # a thread that dies wakes the loop, which says so
            thread.when_dead = self._input_died

    @property
    def words(self) -> Catalog:
        """The words of the language in force: the settings' (changed on the device, the
        next frame speaks it)."""
        return catalog(self.flow.prefs.language)

    def put(self, event: Event) -> None:
        """Where the sources send their events (any thread)."""
        self.events.put(event)

    def stop(self) -> None:
        """End the loop once the events already queued are handled (any thread)."""
        self.events.put(STOP)

    def run(self) -> None:
        """Handle events until ``STOP`` is put on the queue; tell systemd (``notify``) that
        the table is ready, and feed its watchdog each time the queue is handled."""
        if self._splash:  # power on: the splash, while presses wait on the queue
            self.display.show(render(splash(self.words, self.display.size)))
            time.sleep(self._splash)
        self.refresh()
        notify = self.notify
        if notify.interval is not None:
            self._ping_at = self._clock() + notify.interval
        notify.ready()
        while True:
            self._feed()
            try:
                event = self.events.get(timeout=self.next_wake())
            except Empty:
                self.handle(Tick())
                continue
            if isinstance(event, Stop):
                notify.stopping()
                return
            self.handle(event)
            self.events.task_done()

    def _feed(self) -> None:
        """Ping the watchdog when due: only here, between events, so a handler that
        hangs stops the pings and systemd restarts the service; and only while every
        input thread is well. A dead one raises ``InputFailed``."""
        healthy = self._inputs_well()
        interval, now = self.notify.interval, self._clock()
        if interval is not None and now >= self._ping_at:
            self._ping_at = now + interval  # skipped while unwell: the loop does not spin
            if healthy:
                self.notify.watchdog()

    def _inputs_well(self) -> bool:
        well = True
        for thread in self.threads:
            trouble = thread.trouble(STALL)
            if trouble is None:
                self._stalled.discard(thread.name)
                continue
            if trouble.dead:
                self._handle_queued()  # its last word first: the hub's notice, say
                raise InputFailed(trouble.what) from trouble.error
            if thread.name not in self._stalled:  # said once a stall
                self._stalled.add(thread.name)
                self._report(f"{trouble.what}: the watchdog is no longer fed")
            well = False
        return well

    def _handle_queued(self) -> None:
        """Handle what is queued already, before the loop ends on a dead input thread:
        what the thread said before it died is then on the screen while systemd restarts
        the service."""
        while True:
            try:
                event = self.events.get_nowait()
            except Empty:
                return
            if not isinstance(event, Stop):  # the loop is ending anyway
                self.handle(event)
            self.events.task_done()

    def _input_died(self) -> None:
        """On the dying thread: wake the loop, which raises ``InputFailed``."""
        self.events.put(Tick())

    def handle(self, event: Event) -> None:
        with self._idle:
            self.busy = True
        try:
            now = self._clock()
            flow, effects = step(self.flow, event, now)
            # no pause: go on at once (drawing each screen on the way, where they are kept)
            passing = partial(self._passing, now=now) if self._every_screen else None
            flow, more = settle(flow, now, passing)
            self.flow = flow
            self.apply(effects + more)
            if isinstance(event, Tick) and self.display.dirty:
                self.display.retry()
            self.refresh(now)
        finally:
            with self._idle:
                if isinstance(event, INPUTS):
                    self.inputs += 1
                self.busy = False
                self._idle.notify_all()

    def _passing(self, flow: Flow, effects: tuple[Effect, ...], *, now: float) -> None:
        """A screen a pause already due would skip, drawn (``every_screen``)."""
        self.flow = flow
        self.apply(effects)
        self.refresh(now)

    def apply(self, effects: Sequence[Effect]) -> None:
        """Hand every effect to every sink; each takes the kinds it knows."""
        for effect in effects:
            for sink in self.sinks:
                sink(effect)

    def refresh(self, now: float | None = None) -> None:
        """Draw the public view, if it differs from the one shown."""
        view = public_view(self.flow, self._clock() if now is None else now)
        prefs = self.flow.prefs  # its language: the words; the page shows the settings too
        if (view, prefs) != self._shown:
            self._shown = view, prefs
            self.display.show(draw(view, catalog(prefs.language), self.display.size))
            for watch in self.watchers:
                watch(view, prefs)

    def next_wake(self) -> float | None:
        """Seconds until the loop must wake by itself, or None to wait for input."""
        flow, now = self.flow, self._clock()
        wakes = [t for t in (due(flow), next_change(flow, now)) if t is not None]
        if self.display.dirty:
            wakes.append(now + RETRY)
        if self.notify.interval is not None:  # never without a watchdog: idle stays asleep
            wakes.append(self._ping_at)
        return max(0.0, min(wakes) - now) if wakes else None

    # --- for the simulator: waiting until the table has caught up ----------------------

    def wait_idle(
        self, inputs: int, timeout: float = 10.0, alive: Callable[[], bool] = lambda: True
    ) -> bool:
        """Block until ``inputs`` input events are handled and nothing else is queued;
        False after ``timeout`` or as soon as ``alive()`` says the loop is gone."""
        return self._wait(lambda: self.inputs >= inputs, timeout, alive)

    def wait_ready(self, timeout: float = 120.0, alive: Callable[[], bool] = lambda: True) -> bool:
        """Block until the table waits for people: no pause or long press running."""

        def waiting_for_people() -> bool:
            flow = self.flow
            return flow.deadline is None and flow.keys.due(flow.settings.hold) is None

        return self._wait(waiting_for_people, timeout, alive)

    def _wait(self, done: Callable[[], bool], timeout: float, alive: Callable[[], bool]) -> bool:
        deadline = time.monotonic() + timeout
        with self._idle:
            while self.busy or not done() or self.events.unfinished_tasks:
                left = deadline - time.monotonic()
                if left <= 0 or not alive():
                    return False
                self._idle.wait(min(left, 0.01))
        return True
