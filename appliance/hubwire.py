"""The hub's serial line between its firmware (on the host) and QEMU's socket, relayed
by the test, which reads what the hub says as it passes: the keys it reported down and
up (firmware/PROTOCOL.md, read with the product's own decoder). A release waits for the
hub's ``up``, so the same key pressed again next is a new press to the firmware, never a
release and a press landing in one of its scans (where they cancel out)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import IO, NamedTuple

from companion.hw import hublink

Key = tuple[int, int]  # (seat 1..6, card 1..8)
MICROPYTHON = Path(sys.executable).parent / "micropython"  # the unix port, beside the venv's
FIRMWARE = Path(__file__).resolve().parent.parent / "firmware/main.py"


class HubWire:
    def __init__(self, qemu: socket.socket, firmware: socket.socket) -> None:
        self._qemu, self._firmware = qemu, firmware
        self._changed = threading.Condition()
        self.downs: Counter[Key] = Counter()
        self.ups: Counter[Key] = Counter()
        self._lines = hublink.Lines()
        self._threads = [
            threading.Thread(target=self._relay, args=(firmware, qemu, True), daemon=True),
            threading.Thread(target=self._relay, args=(qemu, firmware, False), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def wait_up(self, key: Key, count: int, timeout: float) -> None:
        """Returns once the hub has reported ``key`` up more than ``count`` times."""
        with self._changed:
            if not self._changed.wait_for(lambda: self.ups[key] > count, timeout):
                raise TimeoutError(f"the hub never reported P{key[0]}'s key {key[1]} up")

    def close(self) -> None:
        for side in (self._qemu, self._firmware):
            _shut(side)  # wakes a relay blocked in recv (a close alone may not)
        for thread in self._threads:
            thread.join(10)
        for side in (self._qemu, self._firmware):
            side.close()

    def _relay(self, source: socket.socket, to: socket.socket, hub_says: bool) -> None:
        while True:
            try:
                data = source.recv(4096)
                if not data:
                    break
                if hub_says:
                    self._read(data)
                to.sendall(data)
            except OSError:  # either side closed: QEMU killed, or the test's close
                break
        for side in (source, to):  # the other direction ends too: each side sees the end
            _shut(side)

    def _read(self, data: bytes) -> None:
        for line in self._lines.feed(data):
            message = hublink.decode(line)
            if isinstance(message, hublink.Down | hublink.Up):
                with self._changed:
                    counts = self.downs if isinstance(message, hublink.Down) else self.ups
                    counts[(message.seat, message.key)] += 1
                    self._changed.notify_all()


def _shut(side: socket.socket) -> None:
    with contextlib.suppress(OSError):  # closed already, or never connected
        side.shutdown(socket.SHUT_RDWR)


class Firmware(NamedTuple):
    """The hub's firmware running on the host: its process, the wire that relays its
    serial line, and the pipe its keys are pressed through (``press S C``, ``release S C``
    lines: firmware/main.py's HUB_KEYS_FD)."""

    process: subprocess.Popen[bytes]
    wire: HubWire
    keys: int


def start_firmware(qemu: socket.socket, log: IO[bytes] | int) -> Firmware:
    """The firmware on the MicroPython unix port, its serial line relayed to ``qemu`` (the
    guest's side) by a ``HubWire``; ``log`` takes what it says on stderr."""
    keys_read, keys = os.pipe()
    ours, theirs = socket.socketpair()
    process = subprocess.Popen(
        [str(MICROPYTHON), str(FIRMWARE)],
        stdin=theirs.fileno(),
        stdout=theirs.fileno(),
        stderr=log,
        env={**os.environ, "HUB_KEYS_FD": str(keys_read)},
        pass_fds=(keys_read,),
    )
    os.close(keys_read)
    theirs.close()
    return Firmware(process, HubWire(qemu, ours), keys)
