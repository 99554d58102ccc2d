"""A stand-in for the hub's firmware, until firmware/ lands: the same outside as
``micropython firmware/main.py`` (firmware/PROTOCOL.md): the serial port on stdin and
stdout, keys pressed through the pipe named by ``HUB_KEYS_FD``. No debounce: its
matrix does not bounce. Run as a script: ``python tests/hubstandin.py [PROTO]``.
"""

from __future__ import annotations

import binascii
import os
import select
import sys
import time


def line(body: str) -> bytes:
    data = body.encode("ascii")
    return data + b"*%04X\n" % binascii.crc_hqx(data, 0xFFFF)


class Hub:
    def __init__(self, proto: int):
        self.proto = proto
        self.seq = 0
        self.session = False  # a hello in our protocol came: keys are reported
        self.sent_at = time.monotonic()

    def send(self, body: str) -> None:
        os.write(1, line(f"{self.seq} {body}"))
        self.seq = (self.seq + 1) % 65536
        self.sent_at = time.monotonic()

    def host(self, got: bytes) -> None:
        body, _, check = got.rstrip(b"\r").rpartition(b"*")
        if check != b"%04X" % binascii.crc_hqx(body, 0xFFFF):
            self.send("error crc")
        elif body.startswith(b"hello ") and body[6:].isdigit():
            self.seq = 0
            self.send(f"hello {self.proto} 0.1.0 6 8")
            self.session = int(body[6:]) == self.proto
            if not self.session:
                self.send("error proto")
        else:
            self.send("error unknown")

    def key(self, got: bytes) -> None:
        verb, seat, key = got.decode("ascii").split()
        if self.session:
            self.send(f"{'down' if verb == 'press' else 'up'} {seat} {key}")


def main() -> None:
    hub = Hub(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    keys = int(os.environ["HUB_KEYS_FD"])
    buffers = {0: b"", keys: b""}
    while True:
        ready, _, _ = select.select(list(buffers), [], [], 0.2)
        for fd in ready:
            data = os.read(fd, 4096)
            if not data:
                return  # the host or the simulator is gone
            buffers[fd] += data
            while b"\n" in buffers[fd]:
                got, buffers[fd] = buffers[fd].split(b"\n", 1)
                (hub.host if fd == 0 else hub.key)(got)
        if time.monotonic() - hub.sent_at >= 1.0:
            hub.send("beat")


if __name__ == "__main__":
    main()
