"""A fake Pico pad hub for the host's tests: it speaks firmware/PROTOCOL.md from the
hub's side over a real pty (the host opens its slave through a symlink, as it opens
the udev name on a Pi) or a TCP socket (pyserial's ``socket://``).

Its lines are built here with ``binascii`` alone, not with the host's codec, so a
mistake in the codec cannot hide in both ends.
"""

from __future__ import annotations

import binascii
import contextlib
import os
import select
import socket
import threading
import tty
from collections.abc import Callable
from pathlib import Path

WAIT = 10.0  # the longest a test waits for something to happen


def line(body: str) -> bytes:
    data = body.encode("ascii")
    return data + b"*%04X\n" % binascii.crc_hqx(data, 0xFFFF)


class Seen:
    """What the host did, as the test sees it; every wait is bounded and fails loudly."""

    def __init__(self) -> None:
        self.events: list[object] = []
        self.logs: list[str] = []
        self.hellos: list[bytes] = []  # the host's lines, as the hub read them
        self._changed = threading.Condition()

    def put(self, event: object) -> None:
        with self._changed:
            self.events.append(event)
            self._changed.notify_all()

    def report(self, message: str) -> None:
        with self._changed:
            self.logs.append(message)
            self._changed.notify_all()

    def heard(self, data: bytes) -> None:
        with self._changed:
            self.hellos.append(data)
            self._changed.notify_all()

    def wait(self, done: Callable[[], bool], what: str) -> None:
        with self._changed:
            assert self._changed.wait_for(done, WAIT), f"never: {what}"


class PtyWire:
    """The hub's end of a pty; the host opens ``path``, a symlink to the slave."""

    def __init__(self, path: Path):
        self.path = path
        self._lock = threading.Lock()
        self._fds: tuple[int, int] | None = None
        self._plugged = threading.Event()  # a read while unplugged waits on it, not spins
        self.plug()

    @property
    def url(self) -> str:
        return str(self.path)

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo of the hub's lines back to it before the host opens
        with self._lock:
            self._fds = master, slave
        self._plugged.set()
        self.path.unlink(missing_ok=True)
        self.path.symlink_to(os.ttyname(slave))

    def unplug(self) -> None:
        with self._lock:
            fds, self._fds = self._fds, None
            self._plugged.clear()
        for fd in fds or ():
            os.close(fd)

    def write(self, data: bytes) -> None:
        with self._lock:
            if self._fds is not None:
                os.write(self._fds[0], data)

    def read(self, timeout: float) -> bytes:
        with self._lock:
            master = self._fds[0] if self._fds else None
        if master is None:
            self._plugged.wait(timeout)  # the hub's loop calls again: no busy spin meanwhile
            return b""
        try:
            ready, _, _ = select.select([master], [], [], timeout)
            return os.read(master, 4096) if ready else b""
        except OSError:  # unplugged meanwhile
            return b""

    def close(self) -> None:
        self.unplug()


class SocketWire:
    """The hub's end of a TCP connection: the host opens ``socket://`` to it, and each
    time it opens the port again, the hub takes the new connection."""

    def __init__(self) -> None:
        self._server = socket.create_server(("127.0.0.1", 0))
        self.url = f"socket://127.0.0.1:{self._server.getsockname()[1]}"
        self._conn: socket.socket | None = None
        self._lock = threading.Lock()

    def unplug(self) -> None:
        with self._lock:
            conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    def plug(self) -> None:
        pass  # the next connection the host makes is taken

    def write(self, data: bytes) -> None:
        with self._lock:
            conn = self._conn
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.sendall(data)

    def read(self, timeout: float) -> bytes:
        with self._lock:
            conn = self._conn
        if conn is None:
            ready, _, _ = select.select([self._server], [], [], timeout)
            if ready:
                with self._lock:
                    self._conn = self._server.accept()[0]
            return b""
        try:
            ready, _, _ = select.select([conn], [], [], timeout)
            data = conn.recv(4096) if ready else b""
        except OSError:
            return b""
        if ready and not data:  # the host closed it: take the next one
            self.unplug()
        return data

    def close(self) -> None:
        self.unplug()
        self._server.close()


class FakeHub:
    """The hub's protocol over a wire: answers hello (if ``answering``) in protocol
    ``proto`` (None: the host's), echoing the hello's nonce, and sends the key lines a
    test asks for, numbered. ``old``: a hub of protocol 1, which knows no nonce and
    answers a hello carrying one with ``error unknown``.

    ``hold()`` keeps every line it says from then on, as a hub keeps its USB output while
    no host has the port open; ``hand_over()`` gives what it kept to the next host line's
    sender, before its answer, as that output reaches a host once it opens the port."""

    def __init__(self, wire, seen: Seen, proto: int | None = None, *, old: bool = False):
        self.wire, self.seen, self.proto, self.old = wire, seen, proto, old
        self.answering = True
        self.seq = 0
        self._numbering = threading.Lock()  # the test's lines and the answers interleave
        self._kept: list[bytes] | None = None
        self._handing_over = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="fake-hub", daemon=True)
        self._thread.start()

    def send(self, body: str) -> None:
        """One numbered line: ``send("down 1 3")`` is ``"SEQ down 1 3*CRC"``."""
        with self._numbering:
            data = line(f"{self.seq} {body}")
            if self._kept is not None:
                self._kept.append(data)
            else:
                self.wire.write(data)
            self.seq = (self.seq + 1) % 65536

    def hold(self) -> None:
        with self._numbering:
            self._kept = []

    def hand_over(self) -> None:
        with self._numbering:
            self._handing_over = True

    def skip(self) -> None:
        """Lose a line: the next one's number leaves a gap."""
        self.seq += 1

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.wire.close()

    def _listen(self) -> None:
        buffer = b""
        while not self._stop.is_set():
            buffer += self.wire.read(0.02)
            while b"\n" in buffer:
                got, buffer = buffer.split(b"\n", 1)
                self._flush_kept()
                self._answer(got)

    def _flush_kept(self) -> None:
        with self._numbering:
            if self._handing_over:
                for data in self._kept or ():
                    self.wire.write(data)
                self._kept, self._handing_over = None, False

    def _answer(self, got: bytes) -> None:
        body, _, check = got.rpartition(b"*")
        if check != b"%04X" % binascii.crc_hqx(body, 0xFFFF):
            self.send("error crc")
            return
        fields = body.split(b" ")
        if fields[0] != b"hello" or len(fields) < 2:
            return
        self.seen.heard(got)
        if not self.answering:
            return
        if self.old and len(fields) != 2:
            self.send("error unknown")  # protocol 1's hub: a hello is "hello PROTO", no more
            return
        asked = int(fields[1])
        proto = asked if self.proto is None else self.proto
        nonce = "" if len(fields) == 2 or self.old else " " + fields[-1].decode()
        with self._numbering:
            self.seq = 0
        self.send(f"hello {proto} {'0.1.0' if self.old else '0.2.0'} 6 8{nonce}")
        if proto != asked:
            self.send("error proto")
