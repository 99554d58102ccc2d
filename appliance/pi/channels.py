"""The host's wires into the emulated Pi: the serial console (the guest's markers, the
companion's log, the agent's commands), QMP and qtest. Stdlib only. Each reader is a
thread; every wait has an outer limit and ends early when QEMU dies."""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

GPIO = "/machine/soc/peripherals/gpio"  # QEMU's BCM2835 GPIO block
GPSET0, GPCLR0 = 0x3F20001C, 0x3F200028  # its registers: a 1 sets (clears) that pin's level
MARK, LOG = "PI> ", "CO> "  # the guest's markers, the companion's log lines (guest/agent.py)


def connect(path: Path) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(str(path))
    return s


class QemuDied(RuntimeError):
    pass


class GuestError(RuntimeError):
    """The agent answered a command with an error."""


@dataclass(frozen=True)
class Marker:
    t: float  # host seconds since the guest was started (QMP cont)
    name: str
    kv: dict[str, str]


def parse_marker(line: str, t: float = 0.0) -> Marker | None:
    """``PI> name k=v ...`` as a marker (a value holds no space); any other line: None."""
    if not line.startswith(MARK) or not line[len(MARK) :].split():
        return None
    name, *rest = line[len(MARK) :].split()
    return Marker(t, name, dict(item.split("=", 1) for item in rest if "=" in item))


class Console:
    """The guest's ttyAMA0: every line goes to ``log`` with the host's time; markers are
    kept in order to wait on, the companion's lines apart; ``command`` asks the agent."""

    def __init__(self, sock: socket.socket, log: TextIO, alive: Callable[[], bool]) -> None:
        self.sock, self.log, self.alive = sock, log, alive
        self.t0 = time.monotonic()
        self.markers: list[Marker] = []
        self.companion: list[str] = []  # the companion's log, as mirrored by the agent
        self._cursor = 0
        self._ids = itertools.count(1)
        self._cond = threading.Condition()

    def start(self) -> None:
        threading.Thread(target=self._read, name="console", daemon=True).start()

    def _read(self) -> None:
        for raw in self.sock.makefile("rb"):
            line = raw.decode(errors="replace").rstrip("\r\n")
            now = time.monotonic() - self.t0
            self.log.write(f"{now:8.2f} {line}\n")
            self.log.flush()
            if "Kernel panic" in line:
                line = f"{MARK}kernel-panic"
            with self._cond:
                if line.startswith(LOG):
                    self.companion.append(line[len(LOG) :])
                elif (marker := parse_marker(line, now)) is not None:
                    self.markers.append(marker)
                self._cond.notify_all()

    def wait(self, name: str, limit: float, **match: str) -> Marker:
        """The next marker called ``name`` (and matching), after those waited for before;
        a companion that exits, a panic or QEMU's end fail the wait at once."""
        deadline = time.monotonic() + limit
        with self._cond:
            while True:
                for i in range(self._cursor, len(self.markers)):
                    m = self.markers[i]
                    if m.name == name and all(m.kv.get(k) == v for k, v in match.items()):
                        self._cursor = i + 1
                        return m
                    if m.name in ("kernel-panic", "companion-exit", "agent-exit"):
                        raise QemuDied(f"the guest said {m.name} {m.kv} (waiting for {name})")
                if not self.alive():
                    raise QemuDied(f"QEMU ended (waiting for {name})")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no '{name}' from the guest within {limit:.0f} s")
                self._cond.wait(min(left, 1.0))  # 1 s: to notice QEMU's end

    def command(self, verb: str, *args: str, limit: float = 180.0) -> dict[str, str]:
        """Asks the guest's agent; its answer's values."""
        ident = str(next(self._ids))
        self.sock.sendall(" ".join([ident, verb, *args]).encode() + b"\n")
        deadline = time.monotonic() + limit
        with self._cond:
            while True:
                for m in self.markers[self._cursor :]:
                    if m.name in ("ok", "err") and m.kv.get("id") == ident:
                        self.markers.remove(m)  # answers are not waited on by name
                        if m.name == "err":
                            raise GuestError(f"{verb} {' '.join(args)}: {m.kv.get('error')}")
                        return {k: v for k, v in m.kv.items() if k != "id"}
                    if m.name in ("kernel-panic", "companion-exit", "agent-exit"):
                        raise QemuDied(f"the guest said {m.name} {m.kv} (asked: {verb})")
                if not self.alive():
                    raise QemuDied(f"QEMU ended (asked: {verb})")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"the agent did not answer '{verb}' within {limit:.0f} s")
                self._cond.wait(min(left, 1.0))


class Qmp:
    """QEMU's machine protocol, for ``cont`` and ``quit`` and the version."""

    def __init__(self, path: Path) -> None:
        self.sock = connect(path)
        self.file = self.sock.makefile("rwb")
        self.greeting = self._line()
        self.cmd("qmp_capabilities")

    def _line(self) -> dict[str, Any]:
        line = self.file.readline()
        if not line:
            raise QemuDied("QMP closed")
        return json.loads(line)  # type: ignore[no-any-return]

    def cmd(self, execute: str, **arguments: Any) -> Any:
        msg: dict[str, Any] = {"execute": execute}
        if arguments:
            msg["arguments"] = arguments
        self.file.write(json.dumps(msg).encode() + b"\n")
        self.file.flush()
        while True:
            reply = self._line()
            if "error" in reply:
                raise RuntimeError(f"QMP {execute}: {reply['error']}")
            if "event" not in reply:  # events are not waited on here
                return reply.get("return")

    def version(self) -> str:
        qemu = self.greeting["QMP"]["version"]["qemu"]
        return f"{qemu['major']}.{qemu['minor']}.{qemu['micro']}"


@dataclass(frozen=True)
class Irq:
    t: float  # host seconds since the guest was started
    line: int  # the GPIO (BCM) number
    level: int


def parse_irq(words: list[str], t: float = 0.0) -> Irq | None:
    """qtest's ``IRQ raise N`` / ``IRQ lower N`` (an intercepted output's change)."""
    if len(words) != 3 or words[0] != "IRQ" or words[1] not in ("raise", "lower"):
        return None
    return Irq(t, int(words[2]), int(words[1] == "raise"))


class Qtest:
    """QEMU's qtest wire: commands answered in order, ``IRQ`` lines in between once
    ``irq_intercept_out`` has taken the GPIO block's outputs (every change the guest
    makes to an output pin)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.t0 = time.monotonic()
        self.irqs: list[Irq] = []
        self._replies: list[str] = []
        self._cond = threading.Condition()

    def start(self) -> None:
        threading.Thread(target=self._read, name="qtest", daemon=True).start()

    def _read(self) -> None:
        for raw in self.sock.makefile("rb"):
            words = raw.decode().split()
            with self._cond:
                irq = parse_irq(words, time.monotonic() - self.t0)
                if irq is not None:
                    self.irqs.append(irq)
                else:
                    self._replies.append(" ".join(words))
                self._cond.notify_all()

    def cmd(self, line: str, limit: float = 60.0) -> str:
        with self._cond:
            n = len(self._replies)
            self.sock.sendall(line.encode() + b"\n")
            if not self._cond.wait_for(lambda: len(self._replies) > n, limit):
                raise TimeoutError(f"qtest: no reply to {line!r} within {limit:.0f} s")
            reply = self._replies[n]
        if not reply.startswith("OK"):
            raise RuntimeError(f"qtest {line!r}: {reply}")
        return reply

    def level(self, pin: int, high: bool) -> None:
        """Drives input ``pin`` from outside, as a button's contact does (low: pressed)."""
        self.cmd(f"writel {GPSET0 if high else GPCLR0:#x} {1 << pin:#x}")

    def changes(self, pin: int) -> list[Irq]:
        with self._cond:
            return [irq for irq in self.irqs if irq.line == pin]
