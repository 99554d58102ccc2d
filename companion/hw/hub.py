"""The players' pads through the Pico pad hub, on a serial port: a ``Source`` of
``PadDown`` / ``PadUp``, as ``PadMatrix`` is.

``Session`` is the host's half of ``firmware/PROTOCOL.md`` with no port and no clock
of its own: bytes and the time go in; pad events, bytes to send and log lines come out.
``HubPads`` runs a session on a port from pyserial's ``serial_for_url`` (a device path
such as ``/dev/santo-domingo-hub``, a pty, or a URL such as ``socket://``) on a thread of
its own, and opens the port again, once a second, for as long as it is gone: the game
goes on meanwhile, with every key the hub held released.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from collections.abc import Callable
from typing import Protocol, cast

import serial

from ..errors import Closing, CompanionError
from ..table.events import HubMismatch, HubRefused, KeyStuck, PadDown, PadUp, Put
from . import hublink
from .health import Heartbeat
from .hublink import PROTO, Beat, Down, Dropped, Error, Hello, Stuck, Up

Report = Callable[[str], None]
Key = tuple[int, int]  # (seat, card): seat 0-based, card 1..8

HELLO_EVERY = 1.0  # seconds between two hellos until the hub answers
SILENCE = 3.0  # no line for this long: the hub is gone (it beats every second)
REOPEN_EVERY = 1.0  # seconds between two attempts to open a port that is gone
# A port that is there and refuses us (EPERM, EACCES) for this long is a fault, not a
# wait: udev gives a new port its group within moments of it appearing, but a port whose
# device class the service's DeviceAllow= could not name when it started (its driver was
# not loaded yet) stays refused until the service starts again.
REFUSED_FOR = 10.0
# The longest a read blocks while the hub is quiet: how soon the clock is seen (hellos go
# 1 s apart, silence is 3 s); close() cuts a read short where the port can.
READ_TIMEOUT = 0.5
WRITE_TIMEOUT = 1.0  # a hub that stops reading fails the port instead of blocking us
BUSY = "port busy: is the companion service running? sudo systemctl stop companion"
REFLASH = "flash firmware/ from this version: make flash (firmware/README.md)"
MISMATCH = "the pad hub's firmware speaks protocol {hub}; this companion speaks {ours}: " + REFLASH
OLD_FIRMWARE = (
    "the pad hub's firmware does not know this companion's hello (protocol {ours}, with a "
    "nonce): it is older, protocol 1; " + REFLASH
)
Nonces = Callable[[], str]
REFUSED = (errno.EPERM, errno.EACCES)


class PortRefused(CompanionError):
    """The hub's port has refused us for ``REFUSED_FOR`` seconds: the hub thread ends on it,
    and ``companion run`` exits for systemd to start it again (exit 3)."""


class Session:
    """One connection's worth of protocol, from the host's side; pure.

    ``put`` gets the pad events, ``send`` the bytes for the hub, ``report`` one line
    per burst of unreadable lines and per thing worth saying. Keys are only reported
    between a hello answer in our protocol and the first gap in the sequence numbers.

    Each hello carries a fresh nonce (from ``nonce``), and only the answer echoing the
    latest one starts a session: every line before it is dropped unheard. A hub keeps
    what it says while no host has its port open (MicroPython buffers USB output), so a
    port opened soon after another session may first hand over that session's answer
    and key lines; their nonce is not ours.
    """

    def __init__(
        self,
        put: Put,
        send: Callable[[bytes], None],
        report: Report,
        nonce: Nonces = hublink.new_nonce,
    ) -> None:
        self._put, self._send, self._report = put, send, report
        self._new_nonce = nonce
        self._nonce = ""  # the latest hello's: only the answer echoing it is taken
        self._lines = hublink.Lines()
        self.held: set[Key] = set()  # keys reported down and not yet up
        self.answered = False  # the hub answered our hello in our protocol
        self._expect = 0  # the next sequence number
        self._hello_at = 0.0  # when to say hello next, while unanswered
        self._heard_at = 0.0  # when the last readable line came
        self._bad = False  # inside a burst of unreadable lines (already logged)
        self._mismatch_said = False  # another protocol, or an old hub: said once
        self._hellos = self._unknowns = 0  # said since the port opened; "error unknown"s
        self._stuck_said: set[Key] = set()

    def opened(self, now: float) -> None:
        """A fresh port: say hello at once, and count the silence from now."""
        self._lines.reset()  # a burst of bad lines goes on across ports: said once
        self.answered = False
        self._hellos = self._unknowns = 0
        self._hello_at = self._heard_at = now
        self.tick(now)

    def feed(self, data: bytes, now: float) -> None:
        """Bytes from the hub, in any pieces."""
        for line in self._lines.feed(data):
            message = hublink.decode(line)
            if isinstance(message, Dropped):
                # its reason and length only: a garbled key line still names a seat's card
                self._unreadable(f"dropped a line of {len(line)} bytes ({message.why})")
            else:
                self._heard_at = now
                self._bad = isinstance(message, Error) and self._bad
                if isinstance(message, Error) and not self.answered:
                    self._before_answer(message)
                elif isinstance(message, Error) and message.what != "proto":  # proto: said apart
                    self._unreadable(f"it could not take a line of ours ({message.what})")
                self._take(message, now)

    def tick(self, now: float) -> bool:
        """Say hello if it is due; False when the hub has been silent too long (the
        caller then opens the port again)."""
        if now - self._heard_at >= SILENCE:
            self.release()
            return False
        if not self.answered and now >= self._hello_at:
            self._nonce = self._new_nonce()
            self._send(hublink.hello(self._nonce))
            self._hellos += 1
            self._hello_at = now + HELLO_EVERY
        return True

    def release(self) -> None:
        """Every held key up (the hub is gone or lost lines): no key stays down."""
        self.answered = False
        for seat, card in sorted(self.held):
            self._put(PadUp(seat, card))
        self.held.clear()
        self._stuck_said.clear()

    def _unreadable(self, what: str) -> None:
        """Say the first bad line of a burst; the rest of it goes unsaid."""
        if not self._bad:
            self._bad = True
            self._report(f"pad hub: {what}")

    def _take(self, message: hublink.Message, now: float) -> None:
        if isinstance(message, Hello):
            if message.nonce and message.nonce == self._nonce:
                self._hello(message)
            # else an answer to a hello not ours (or not the latest): dropped unheard
        elif not self.answered:
            return  # lines of a session we have not joined (yet): keys go unheard
        elif message.seq != self._expect:
            self._report(f"pad hub: line {message.seq} came for {self._expect}: saying hello")
            self.release()
            self._hello_at = now
            self.tick(now)
        else:
            self._expect = (message.seq + 1) % hublink.SEQ_MOD
            self._event(message)

    def _hello(self, message: Hello) -> None:
        self.release()  # a new session: the hub forgot what it had reported
        if message.proto != PROTO:
            self._mismatch(message.proto, MISMATCH.format(hub=message.proto, ours=PROTO))
            return  # and keep saying hello: a hub flashed meanwhile is picked up
        self.answered = True
        self._expect = (message.seq + 1) % hublink.SEQ_MOD

    def _before_answer(self, error: Error) -> None:
        """The hub's error while our hello waits for its answer. Protocol 1's firmware,
        which knows no nonce, answers every hello ``error unknown``: two of them, once a
        second hello has gone, say it is old. One alone is not enough, nor is any other error
        then: the tty echoes what the hub sends until the port is set raw (a moment after
        it opens), and the hub complains of its own lines coming back."""
        if error.what == "unknown":
            self._unknowns += 1
            if self._unknowns >= 2 and self._hellos >= 2:
                self._mismatch(1, OLD_FIRMWARE.format(ours=PROTO))

    def _mismatch(self, hub: int, why: str) -> None:
        if not self._mismatch_said:
            self._mismatch_said = True
            self._report(why)
        self._put(HubMismatch(hub, PROTO))

    def _event(self, message: hublink.Message) -> None:
        if isinstance(message, Down | Up | Stuck):
            key = (message.seat - 1, message.key)
            if isinstance(message, Down) and key not in self.held:
                self.held.add(key)
                self._put(PadDown(*key))
            elif isinstance(message, Up) and key in self.held:
                self.held.discard(key)
                self._stuck_said.discard(key)
                self._put(PadUp(*key))
            elif isinstance(message, Stuck) and key in self.held and key not in self._stuck_said:
                self._stuck_said.add(key)  # the hub says it once a hold; the table logs it
                self._put(KeyStuck(*key))
        else:
            assert isinstance(message, Beat | Error)  # an error is said as it comes


class Port(Protocol):
    """What ``HubPads`` asks of the hub's port: pyserial's, or a test's own. A port that
    also has pyserial's ``cancel_read`` gets its reads cut short by ``close``."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1, /) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


def open_port(url: str) -> Port:
    """The hub's port: a device path or any URL pyserial's ``serial_for_url`` opens.

    Held exclusively (a second host on the same hub fails to open it, rather than the two
    taking each other's lines); URL transports take and ignore ``exclusive``."""
    port = serial.serial_for_url(
        url, timeout=READ_TIMEOUT, write_timeout=WRITE_TIMEOUT, exclusive=True
    )
    # Every class serial_for_url returns (a posix Serial, loop://, socket://...) counts the
    # bytes waiting; types-pyserial's SerialBase, their common base, leaves in_waiting out.
    return cast(Port, port)


class HubPads(Closing):
    """Every seat's pad through the hub at ``url``: a ``Source`` of pad events.

    ``clock`` times the hellos and the silence; the thread's own waits (between two
    attempts to open the port, and each read, at most ``READ_TIMEOUT``) are real, and
    ``close`` ends them at once (a ``socket://`` read: within ``READ_TIMEOUT``).
    ``opener`` opens the port (``open_port``; a test hands in its own); ``nonce`` makes
    each hello's nonce (a test's may be foreseeable).
    """

    def __init__(
        self,
        url: str,
        *,
        report: Report,
        clock: Callable[[], float] = time.monotonic,
        reopen_every: float = REOPEN_EVERY,
        opener: Callable[[str], Port] = open_port,
        nonce: Nonces = hublink.new_nonce,
    ) -> None:
        self.url = url
        self._nonce = nonce
        self._report = report
        self._clock = clock
        self._reopen_every = reopen_every
        self._opener = opener
        self._stop = threading.Event()
        self._ready = threading.Condition()
        self._session: Session | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._port: Port | None = None
        self._port_lock = threading.Lock()  # close() cuts a read short; never a closed port's
        self._in_trouble = False  # a trouble with the port was said; said again once fixed
        self._refused_at: float | None = None  # when the port began refusing us
        self._put: Put | None = None
        self.health = Heartbeat("pad-hub")  # beats each read or attempt: the loop watches it

    def start(self, put: Put) -> None:
        """Send the pads' events to ``put`` from now on (from the hub's thread)."""
        with self._lock:
            if self._stop.is_set() or self._thread is not None:
                raise RuntimeError("the pad hub starts once, before it is closed")
            self._put = put
            self._session = Session(put, self._write, self._report, self._nonce)
            target = self.health.run(self._run)
            self._thread = threading.Thread(target=target, name="pad-hub", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop and close the port. Safe to call more than once, and from ``put``."""
        self.health.stop()
        self._stop.set()
        with self._ready:
            self._ready.notify_all()
        self._cancel_read()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until the hub has answered our hello (keys are heard from then on);
        False if ``timeout`` seconds pass first or the hub is closed."""
        with self._ready:
            self._ready.wait_for(self._answered_or_stopped, timeout)
            return self._answered()

    def _answered(self) -> bool:
        return self._session is not None and self._session.answered

    def _answered_or_stopped(self) -> bool:
        return self._stop.is_set() or self._answered()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.health.beat()
            try:
                port = self._opener(self.url)
            except (serial.SerialException, OSError, ValueError) as e:
                self._trouble(f"cannot open {self.url} ({_why(e)}): trying again each second")
                self._still_refused(e)
                self._stop.wait(self._reopen_every)
                continue
            self._refused_at = None
            with self._port_lock:
                self._port = port
            if self._stop.is_set():  # closed while opening: no read to cut short
                self._drop_port()
                return
            if self._serve():
                self._stop.wait(self._reopen_every)

    def _still_refused(self, e: BaseException) -> None:
        """Raises ``PortRefused`` once the port has refused us for ``REFUSED_FOR`` seconds,
        after the table is told (its notice shows while the service restarts)."""
        if not (isinstance(e, OSError) and e.errno in REFUSED):
            self._refused_at = None
            return
        now = self._clock()
        if self._refused_at is None:
            self._refused_at = now
        if now - self._refused_at < REFUSED_FOR:
            return
        refused = PortRefused(
            f"the pad hub's port {self.url} has refused us for {REFUSED_FOR:g} s ({_why(e)})"
        )
        assert self._put is not None
        self._put(HubRefused(str(refused)))
        raise refused from None

    def _serve(self) -> bool:
        """Talk over the open port until it fails, falls silent or ``close`` is called;
        True when it failed."""
        assert self._session is not None and self._port is not None
        session, port = self._session, self._port
        try:
            session.opened(self._clock())
            while not self._stop.is_set():
                self.health.beat()
                data = port.read(max(1, port.in_waiting))
                was = session.answered
                if data:
                    session.feed(data, self._clock())
                elif self._path_gone():  # a quiet read: was it unplugged?
                    raise serial.SerialException(f"{self.url} is gone")
                if not session.tick(self._clock()):
                    self._trouble(f"silent for {SILENCE:g} s: opening {self.url} again")
                    return False
                if session.answered != was:
                    self._changed(session.answered)
            return False
        except (serial.SerialException, OSError) as e:
            self._trouble(f"{self.url} failed ({_why(e)}): opening it again")
            return True
        finally:
            session.release()
            self._changed(False)
            self._drop_port()

    def _drop_port(self) -> None:
        with self._port_lock:
            port, self._port = self._port, None
            if port is not None:
                _close_quietly(port)

    def _cancel_read(self) -> None:
        """Cut the hub thread's read short (pyserial's posix ports and loop:// can; a
        socket:// read ends within ``READ_TIMEOUT``)."""
        with self._port_lock:
            cancel = getattr(self._port, "cancel_read", None)
            if cancel is not None:
                with contextlib.suppress(serial.SerialException, OSError):
                    cancel()

    def _trouble(self, what: str) -> None:
        """Say what went wrong with the hub: once, until it answers again."""
        if not self._in_trouble:
            self._in_trouble = True
            self._report(f"pad hub: {what}")

    def _changed(self, answered: bool) -> None:
        if answered and self._in_trouble:
            self._in_trouble = False
            self._report(f"pad hub: answering again on {self.url}")
        with self._ready:
            self._ready.notify_all()

    def _write(self, data: bytes) -> None:
        """The session's bytes to the hub (on the hub's thread: the port is open)."""
        assert self._port is not None
        self._port.write(data)

    def _path_gone(self) -> bool:
        """A device path (not a URL) that no longer exists: unplugged."""
        return "://" not in self.url and not os.path.exists(self.url)


def _why(e: BaseException) -> str:
    """Why a port failed, in a few words: the line already names the port, and pyserial's
    own message repeats its path (a /dev/serial/by-id/ path is long) before the reason."""
    if isinstance(e, OSError) and e.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
        return BUSY  # another process holds the port exclusively (its flock)
    if isinstance(e, OSError) and isinstance(e.errno, int) and e.errno > 0:
        return os.strerror(e.errno)  # "No such file or directory", "Permission denied"
    return str(e)[:80] or type(e).__name__


def _close_quietly(port: Port) -> None:
    with contextlib.suppress(serial.SerialException, OSError):  # gone is closed enough
        port.close()
