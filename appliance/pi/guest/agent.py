"""The emulated Pi's console agent (make pi-test's machinery, not the product): the host's
hands and eyes inside the guest, on the serial console. Stdlib only (bookworm's 3.11).

The host writes one command a line, ``ID VERB ARGS``; the agent answers each with one
marker line, ``PI> ok id=ID key=value ...`` or ``PI> err id=ID error=...``, and mirrors
every line the companion writes to its log as ``CO> line``. Verbs:

  edge PIN     ``edge PIN`` into the companion's test FIFO (companion/sim/wire.py),
               answered once the companion has done it (its count in FIFO.done);
  chip         the GPIO chip the companion holds open: its device and label;
  file PATH N  PATH's bytes (zlib, base64) once it exists, and, for a saved game, once
               it holds N rounds (the save follows the screen by a moment);
  uname        the kernel's machine and release.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import struct
import sys
import termios
import threading
import time
import zlib
from collections.abc import Callable

FIFO = "/run/santo-domingo/pins"
LOG = "/run/companion.log"
PID = "/run/companion.pid"
LIMIT = 120.0  # seconds a command may wait on the companion, on a loaded TCG host
# linux/gpio.h: struct gpiochip_info { char name[32]; char label[32]; __u32 lines; }
CHIPINFO = struct.Struct("32s32sI")
GET_CHIPINFO = (2 << 30) | (CHIPINFO.size << 16) | (0xB4 << 8) | 0x01
_out = threading.Lock()


def say(line: str) -> None:
    """One whole line on the console (the host splits markers by lines)."""
    with _out:
        os.write(1, line.encode(errors="replace") + b"\n")


def until(done: Callable[[], bool], what: str, every: float = 0.1) -> None:
    deadline = time.monotonic() + LIMIT
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {LIMIT:.0f} s")
        time.sleep(every)


def done() -> int:
    """How many lines the companion's wire has done (it counts them in FIFO.done)."""
    with open(FIFO + ".done") as f:
        return int(f.read() or 0)


def edge(pin: str) -> dict[str, str]:
    """The line, answered once the companion has done it: the pin's level read through the
    kernel and handed to its edge handler."""
    if not pin.isdigit():
        raise ValueError(f"not a pin: {pin}")
    fd = os.open(FIFO, os.O_RDWR | os.O_NONBLOCK)  # never blocks, the companion reading or not
    try:
        before = done()
        os.write(fd, f"edge {pin}\n".encode())
        # polled often: the table times a button's press (held 1 s, OK opens the menu)
        until(lambda: done() > before, f"the companion doing 'edge {pin}'", every=0.002)
    finally:
        os.close(fd)
    return {"pin": pin}


def chip() -> dict[str, str]:
    """The /dev/gpiochipN the companion's process holds open, and that chip's label as the
    chip itself says it (GPIO_GET_CHIPINFO, as gpiodetect asks)."""
    with open(PID) as f:
        pid = f.read().strip()
    held = sorted(
        {
            target
            for fd in os.listdir(f"/proc/{pid}/fd")
            if (target := os.readlink(f"/proc/{pid}/fd/{fd}")).startswith("/dev/gpiochip")
        }
    )
    if len(held) != 1:
        raise LookupError(f"the companion holds {held or 'no GPIO chip'}")
    fd = os.open(held[0], os.O_RDONLY)
    try:
        name, label, lines = CHIPINFO.unpack(fcntl.ioctl(fd, GET_CHIPINFO, bytes(CHIPINFO.size)))
    finally:
        os.close(fd)
    return {
        "device": held[0],
        "name": name.split(b"\0")[0].decode(),
        "label": label.split(b"\0")[0].decode(),
        "lines": str(lines),
    }


def file(path: str, rounds: str = "0") -> dict[str, str]:
    def ready() -> bool:
        try:
            with open(path, "rb") as f:
                data = f.read()
            return int(rounds) == 0 or len(json.loads(data)["rounds"]) >= int(rounds)
        except (OSError, ValueError, KeyError):  # not there yet, or being replaced
            return False

    until(ready, f"{path} with {rounds} rounds")
    with open(path, "rb") as f:
        data = f.read()
    return {"bytes": str(len(data)), "z64": base64.b64encode(zlib.compress(data)).decode()}


def uname() -> dict[str, str]:
    u = os.uname()
    return {"machine": u.machine, "release": u.release}


VERBS = {"edge": edge, "chip": chip, "file": file, "uname": uname}


def mirror_log() -> None:
    """The companion's log, line by line, as it grows (it never shrinks here)."""
    until(lambda: os.path.exists(LOG), LOG)
    with open(LOG, "rb") as f:
        pending = b""
        while True:
            data = f.read(4096)
            if not data:
                time.sleep(0.1)
                continue
            *lines, pending = (pending + data).split(b"\n")
            for line in lines:
                say("CO> " + line.decode(errors="replace"))


def serve() -> None:
    # The console echoes what the host types; the host's commands are not its markers.
    attrs = termios.tcgetattr(0)
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(0, termios.TCSANOW, attrs)
    say("PI> agent-ready")
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        ident, verb, args = words[0], words[1:2], words[2:]
        try:
            answer = VERBS[verb[0] if verb else ""](*args)
            say(" ".join([f"PI> ok id={ident}", *(f"{k}={v}" for k, v in answer.items())]))
        except Exception as e:  # said to the host, which fails the step that asked
            say(f"PI> err id={ident} error={type(e).__name__}:{str(e).replace(' ', '_')}")


if __name__ == "__main__":
    threading.Thread(target=mirror_log, daemon=True).start()
    serve()
