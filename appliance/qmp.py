"""QEMU's machine protocol (QMP) on a unix socket: the hands on the machine itself that
the guest cannot see: a device plugged in or pulled out (``device_add``, ``device_del``),
the emulator quit. JSON lines; replies come in order, events whenever they happen (kept
here until a ``wait_event`` takes them)."""

from __future__ import annotations

import json
import socket
import time


class QmpError(Exception):
    """No answer in time, or QEMU answered an error."""


class Qmp:
    def __init__(self, path: str) -> None:
        self.path = path
        self._sock: socket.socket | None = None
        self._pending = b""
        self.events: list[dict] = []

    def connect(self, timeout: float) -> None:
        """Connects once QEMU has made its socket, and leaves the greeting's
        capabilities negotiation (commands are accepted only after it)."""
        deadline = time.monotonic() + timeout
        while True:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.connect(self.path)
                break
            except OSError:
                sock.close()
                if time.monotonic() > deadline:
                    raise QmpError(f"no QMP socket at {self.path} within {timeout:.0f} s") from None
                time.sleep(0.1)
        self._sock = sock
        self._next(max(1.0, deadline - time.monotonic()))  # the greeting
        self.execute("qmp_capabilities")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        self._pending = b""

    def execute(self, command: str, timeout: float = 30.0, **arguments: object) -> object:
        if self._sock is None:
            raise QmpError("not connected to QMP")
        message: dict[str, object] = {"execute": command}
        if arguments:
            message["arguments"] = arguments
        self._sock.sendall(json.dumps(message).encode() + b"\n")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._next(deadline - time.monotonic())
            if "event" in reply:
                self.events.append(reply)
            elif "error" in reply:
                raise QmpError(f"QMP {command}: {reply['error'].get('desc')}")
            elif "return" in reply:
                return reply["return"]

    def wait_event(self, name: str, timeout: float, **data: object) -> dict:
        """The first event ``name`` whose data holds ``data`` (taken off the list)."""
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event["event"] == name and all(
                    event.get("data", {}).get(k) == v for k, v in data.items()
                ):
                    self.events.remove(event)
                    return event
            left = deadline - time.monotonic()
            if left <= 0:
                raise QmpError(f"no QMP event {name} {data or ''} within {timeout:.0f} s")
            self.events.append(self._next(left))

    def _next(self, timeout: float) -> dict:
        assert self._sock is not None
        deadline = time.monotonic() + timeout
        while True:
            line, sep, rest = self._pending.partition(b"\n")
            if sep:
                self._pending = rest
                if line.strip():
                    return json.loads(line)
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                raise QmpError(f"no word from QMP within {timeout:.0f} s")
            self._sock.settimeout(left)
            try:
                data = self._sock.recv(65536)
            except TimeoutError:
                continue
            if not data:
                raise QmpError("QEMU closed its QMP socket")
            self._pending += data
