"""Telling systemd how the service is doing (the sd_notify protocol), without libsystemd.

Under ``Type=notify`` systemd hands the service ``$NOTIFY_SOCKET``: a datagram socket
that takes newline-separated ``KEY=value`` lines (``READY=1``, ``WATCHDOG=1``,
``STOPPING=1``, ``STATUS=…``). With ``WatchdogSec=`` it also sets ``WATCHDOG_USEC``
(and ``WATCHDOG_PID``, the process meant): a service silent for that long is killed
and restarted. Outside systemd the variable is unset and every call does nothing.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping

from ..errors import Closing


class Notifier(Closing):
    """The service manager's notify socket, or nothing at all (``address`` None)."""

    def __init__(self, address: str | None, watchdog: float | None = None):
        self._address = _socket_address(address) if address else None
        self._socket: socket.socket | None = None
        # systemd asks for a ping at least every half watchdog period (sd_watchdog_enabled(3))
        self.interval = watchdog / 2 if watchdog and self._address else None

    @classmethod
    def from_environ(
        cls, environ: Mapping[str, str] = os.environ, pid: int | None = None
    ) -> Notifier:
        """The notifier systemd set up for this process, as its environment says."""
        watchdog = _watchdog(environ, os.getpid() if pid is None else pid)
        return cls(environ.get("NOTIFY_SOCKET"), watchdog)

    def ready(self) -> None:
        self.send("READY=1")

    def status(self, text: str) -> None:
        self.send(f"STATUS={text.splitlines()[0] if text else ''}")

    def watchdog(self) -> None:
        self.send("WATCHDOG=1")

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def send(self, *fields: str) -> None:
        """One datagram of ``fields``; a manager that is gone is no reason to stop the game."""
        if self._address is None:
            return
        try:
            if self._socket is None:
                kind = socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                self._socket = socket.socket(socket.AF_UNIX, kind)
            self._socket.sendto("\n".join(fields).encode(), self._address)
        except OSError:
            pass

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


SILENT = Notifier(None)  # outside systemd: nothing to tell


def _socket_address(value: str) -> str:
    # "@name" is Linux's abstract namespace: the name with a leading NUL byte.
    return "\0" + value[1:] if value.startswith("@") else value


def _watchdog(environ: Mapping[str, str], pid: int) -> float | None:
    """The watchdog period in seconds, if it is set for this very process."""
    try:
        usec = int(environ.get("WATCHDOG_USEC", ""))
        meant = int(environ.get("WATCHDOG_PID", str(pid)))
    except ValueError:
        return None
    return usec / 1_000_000 if usec > 0 and meant == pid else None
