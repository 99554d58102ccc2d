"""The guest's one way out: QEMU's user network (restrict=on) runs this for each TCP
connection the guest opens to 10.0.2.100:80 (its /etc/hosts names that address
deb.debian.org), with the connection as standard input and output. It connects to
Debian's registry, the only host it knows, and copies bytes both ways; each connection
is logged (build/appliance/mirror.log). Nothing else in the guest reaches any network.

    python3 appliance/mirror.py LOG
"""

import os
import select
import socket
import sys
import time

REGISTRY = ("deb.debian.org", 80)
IDLE = 120.0  # seconds without a byte either way: the connection is dropped


def main(log: str) -> int:
    start = time.monotonic()
    sent = received = 0
    with socket.create_connection(REGISTRY, timeout=30) as remote:
        remote.settimeout(None)
        while True:
            ready, _, _ = select.select([0, remote], [], [], IDLE)
            if not ready:
                break
            if 0 in ready:
                data = os.read(0, 65536)
                if not data:
                    break
                remote.sendall(data)
                sent += len(data)
            if remote in ready:
                data = remote.recv(65536)
                if not data:
                    break
                view = memoryview(data)
                while view:
                    view = view[os.write(1, view) :]
                received += len(data)
    with open(log, "a") as f:
        f.write(
            f"{time.strftime('%H:%M:%S')} {REGISTRY[0]}:{REGISTRY[1]} sent {sent} B, "
            f"received {received} B, {time.monotonic() - start:.1f} s\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
