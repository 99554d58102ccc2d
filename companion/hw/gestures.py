"""A stand-in, to delete once the table turns ``HostDown``/``HostUp`` into gestures.

Until then the app still expects ``HostPress``: ◀ and ▶ when pressed, OK when released,
or a long OK once it has been held ``hold`` seconds (its release is then nothing). This
wraps a ``put`` to give it that, with a timer thread only while OK is held.
"""

from __future__ import annotations

import threading

from ..table.events import Event, HostDown, HostKey, HostPress, HostUp, Put


class StandInGestures:
    """A ``put`` for the host buttons that passes on ``HostPress`` gestures instead."""

    def __init__(self, put: Put, *, hold: float):
        self._put = put
        self._hold = hold
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._long = False  # the held OK has been sent as a long press

    def __call__(self, event: Event) -> None:
        if not isinstance(event, HostDown | HostUp) or event.key is not HostKey.OK:
            if isinstance(event, HostDown):
                self._put(HostPress(event.key))
            return
        if isinstance(event, HostDown):
            self._ok_down()
        else:
            self._ok_up()

    def _ok_down(self) -> None:
        with self._lock:
            self._long = False
            self._timer = threading.Timer(self._hold, self._held)
            self._timer.daemon = True
            self._timer.start()

    def _held(self) -> None:
        with self._lock:
            self._long = True
        self._put(HostPress(HostKey.OK, long=True))

    def _ok_up(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._timer, long = None, self._long
        if not long:
            self._put(HostPress(HostKey.OK))
