"""An input thread's health, for the loop that feeds systemd's watchdog.

A source with a thread of its own (the matrix scanner, the hub reader) runs it through
``Heartbeat.run`` and beats once a scan or a read. The loop asks ``trouble`` before each
watchdog ping: a thread that died (an exception, or an end nobody asked for) or that
has not beaten for a while without resting on purpose is trouble, and the pads would be
silent while the service looks healthy.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class Trouble:
    """What is wrong with an input thread, in one line; ``error``: what killed it."""

    what: str
    dead: bool
    error: BaseException | None = None


class Heartbeat:
    """One thread's signs of life. ``clock`` times the beats (seconds).

    ``when_dead`` (set by whoever watches, before the thread starts) is called on the
    dying thread, after the error is kept: the loop wakes and says it. With nobody
    watching, the error is raised on as before (Python prints it).
    """

    def __init__(self, name: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self._clock = clock
        self._beat = clock()
        self._resting = False  # asleep on purpose: waiting for a key, nothing to scan
        self._stopped = False  # closed: its end is no trouble
        self._ended = False
        self.error: BaseException | None = None
        self.when_dead: Callable[[], None] | None = None

    def beat(self) -> None:
        self._beat = self._clock()

    @contextmanager
    def resting(self) -> Iterator[None]:
        """Asleep until something happens: no beat is due meanwhile."""
        self._resting = True
        try:
            yield
        finally:
            self._resting = False
            self.beat()

    def stop(self) -> None:
        """The thread is asked to end (``close``): it may, without trouble."""
        self._stopped = True

    def run(self, target: Callable[[], None]) -> Callable[[], None]:
        """``target`` as a thread's target whose end and error are kept here."""

        def guarded() -> None:
            try:
                target()
            except BaseException as e:
                self.error = e
                self._ended = True
                if self.when_dead is None:
                    raise
                self.when_dead()
            finally:
                self._ended = True

        return guarded

    def trouble(self, stall: float) -> Trouble | None:
        """None while the thread is well: alive, and beating within ``stall`` seconds
        unless it rests on purpose."""
        if self.error is not None:
            e = self.error
            return Trouble(f"the {self.name} thread stopped on {type(e).__name__}", True, e)
        if self._ended and not self._stopped:
            return Trouble(f"the {self.name} thread ended", True)
        if self._resting or self._stopped or self._ended:
            return None
        quiet = self._clock() - self._beat
        if quiet >= stall:
            return Trouble(f"the {self.name} thread has not scanned for {quiet:.0f} s", False)
        return None


@runtime_checkable
class Beating(Protocol):
    """A source whose thread the loop watches."""

    @property
    def health(self) -> Heartbeat: ...
