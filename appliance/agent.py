"""The host's hands in the guest: QEMU's guest agent (qemu-ga, Debian's package) on a
virtio port, spoken to over its unix socket in its JSON protocol. ``run`` executes a
shell command in the guest as root (guest-exec) and returns its status and output."""

from __future__ import annotations

import base64
import json
import random
import socket
import time
from dataclasses import dataclass


class AgentError(Exception):
    """The agent did not answer in time, or answered an error."""


@dataclass(frozen=True)
class Done:
    status: int
    out: str
    err: str


class Agent:
    def __init__(self, path: str) -> None:
        self.path = path
        self._sock: socket.socket | None = None
        self._pending = b""

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        self._pending = b""

    def connect(self, timeout: float) -> None:
        """Waits until the agent in the guest answers (it starts late in the boot)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.close()
            try:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.connect(self.path)
                self._sock = sock
                token = random.randrange(1, 2**31)
                self._send({"execute": "guest-sync", "arguments": {"id": token}})
                if self._reply(min(5.0, max(0.1, deadline - time.monotonic()))) == token:
                    return
            except (OSError, AgentError):
                time.sleep(1)
        self.close()
        raise AgentError(f"the guest agent did not answer within {timeout:.0f} s")

    def call(self, command: str, timeout: float = 30.0, **arguments: object) -> object:
        if self._sock is None:
            raise AgentError("not connected to the guest agent")
        self._send({"execute": command, "arguments": arguments})
        return self._reply(timeout)

    def run(self, shell: str, timeout: float = 60.0, check: bool = True) -> Done:
        """``sh -c shell`` in the guest, as root; its status and output. ``check``: a
        status other than 0 is an ``AgentError`` naming the command and its stderr."""
        started = self.call(
            "guest-exec", path="/bin/sh", arg=["-c", shell], **{"capture-output": True}
        )
        assert isinstance(started, dict)
        pid = started["pid"]
        deadline = time.monotonic() + timeout
        pause = 0.05
        while True:
            status = self.call("guest-exec-status", pid=pid)
            assert isinstance(status, dict)
            if status.get("exited"):
                break
            if time.monotonic() > deadline:
                raise AgentError(f"the guest's `{shell[:80]}` did not end within {timeout:.0f} s")
            time.sleep(pause)
            pause = min(pause * 1.5, 0.5)
        done = Done(
            status.get("exitcode", -status.get("signal", 0) or -1),
            base64.b64decode(status.get("out-data", "")).decode(errors="replace"),
            base64.b64decode(status.get("err-data", "")).decode(errors="replace"),
        )
        if check and done.status != 0:
            raise AgentError(
                f"the guest's `{shell[:120]}` ended with {done.status}: "
                f"{(done.err or done.out).strip()[-400:]}"
            )
        return done

    def _send(self, message: dict) -> None:
        assert self._sock is not None
        self._sock.sendall(json.dumps(message).encode() + b"\n")

    def _reply(self, timeout: float) -> object:
        assert self._sock is not None
        deadline = time.monotonic() + timeout
        while True:
            line, sep, rest = self._pending.partition(b"\n")
            if sep:
                self._pending = rest
                line = line.strip(b"\xff \r")
                if not line:
                    continue
                message = json.loads(line)
                if "error" in message:
                    raise AgentError(f"the guest agent: {message['error'].get('desc')}")
                if "return" in message:
                    return message["return"]
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                raise AgentError(f"no answer from the guest agent within {timeout:.0f} s")
            self._sock.settimeout(left)
            try:
                data = self._sock.recv(65536)
            except TimeoutError:
                continue
            if not data:
                raise AgentError("the guest agent's socket closed")
            self._pending += data
