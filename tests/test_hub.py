"""The pad hub's host side: its line format, its session, and ``HubPads`` on real
transports (a pty behind a symlink, pyserial's ``socket://`` and ``loop://``), with
a fake hub speaking firmware/PROTOCOL.md from the other end."""

from __future__ import annotations

import errno
import math
import os
import threading

import pytest
import serial
from hubfake import WAIT, FakeHub, PtyWire, Seen, SocketWire, line

from companion.app.loop import STALL
from companion.hw import hublink
from companion.hw.hub import (
    BUSY,
    MISMATCH,
    OLD_FIRMWARE,
    REFUSED_FOR,
    HubPads,
    PortRefused,
    Session,
    open_port,
)
from companion.hw.hublink import Beat, Down, Dropped, Error, Hello, Stuck, Up
from companion.table.events import HubMismatch, HubRefused, KeyStuck, PadDown, PadUp

# --- the line format --------------------------------------------------------------


def test_encode_adds_the_ccitt_false_crc():
    # CRC-16/CCITT-FALSE's check value: "123456789" gives 0x29B1
    assert hublink.encode("123456789") == b"123456789*29B1\n"
    assert hublink.encode("hello 2 C0FFEE") == line("hello 2 C0FFEE")
    assert hublink.hello("C0FFEE") == line("hello 2 C0FFEE")


def test_each_nonce_is_fresh_and_as_the_firmware_takes_one():
    nonces = {hublink.new_nonce() for _ in range(100)}
    assert len(nonces) == 100
    assert all(len(n) == 8 and set(n) <= set("0123456789ABCDEF") for n in nonces)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("0 hello 2 0.2.0 6 8 AB12", Hello(0, 2, "0.2.0", 6, 8, "AB12")),
        ("0 hello 3 whatever comes N0NCE", Hello(0, 3, nonce="N0NCE")),  # its nonce last
        ("0 hello 1 0.1.0 6 8", Hello(0, 1, nonce="8")),  # protocol 1's: no nonce, "8" last
        ("0 hello 3", Hello(0, 3)),
        ("7 down 1 3", Down(7, 1, 3)),
        ("65535 up 6 8", Up(65535, 6, 8)),
        ("9 stuck 2 1", Stuck(9, 2, 1)),
        ("10 beat", Beat(10)),
        ("11 error proto", Error(11, "proto")),
    ],
)
def test_decode_reads_every_line_of_the_hub(body, message):
    assert hublink.decode(hublink.encode(body)[:-1]) == message
    assert hublink.decode(hublink.encode(body)[:-1] + b"\r") == message


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"7 down 1 3",  # no CRC
        b"7 down 1 3*0000",  # a wrong one
        line("7 down 1 3")[:-1].lower(),  # lower-case hex
        line("07 down 1 3")[:-1],  # a leading zero
        line("7 down 0 3")[:-1],  # seat 0
        line("7 down 7 3")[:-1],  # seat 7
        line("7 down 1 9")[:-1],  # key 9
        line("7  down 1 3")[:-1],  # two spaces
        line("7 down 1 3 ")[:-1],
        line("65536 beat")[:-1],  # past the sequence's end
        line("beat")[:-1],
        line("7 sing 1 3")[:-1],
        line("7 error oops")[:-1],
        line("0 hello 2 0.2.0 6 8")[:-1],  # our protocol, no nonce
        line("0 hello 2 0.2.0 6 8 ab12")[:-1],  # a nonce of digits and capitals only
        line("0 hello 2 0.2.0 6 8 " + "A" * 17)[:-1],
        line("0 hello 2 0.2.0 6 8 A B")[:-1],
        line("0 hello")[:-1],
        line("7 beat " + "x" * 80)[:-1],  # too long, though its CRC is right
        b"7 b\xe9at*0000",
    ],
)
def test_decode_drops_what_breaks_the_format(raw):
    assert isinstance(hublink.decode(raw), Dropped)


def test_lines_drop_an_overlong_line_whole_and_keep_the_next():
    lines = hublink.Lines()
    got = list(lines.feed(b"x" * 50))
    got += list(lines.feed(b"y" * 5000 + b"\n" + line("1 beat")[:4]))
    got += list(lines.feed(line("1 beat")[4:]))
    assert got == [hublink.Lines.TOO_LONG, line("1 beat")[:-1]]
    assert isinstance(hublink.decode(got[0]), Dropped)


# --- the session, pure ----------------------------------------------------------------


def hellos(*numbers: int) -> list[bytes]:
    """The hellos a ``Pure`` session says, by the number of their nonce: N1, N2..."""
    return [line(f"hello 2 N{n}") for n in numbers]


class Pure:
    """A session with everything it does collected; its nonces are N1, N2..."""

    def __init__(self) -> None:
        self.events: list[object] = []
        self.sent: list[bytes] = []
        self.logs: list[str] = []
        self.nonces: list[str] = []
        self.session = Session(
            self.events.append, self.sent.append, self.logs.append, nonce=self._nonce
        )
        self.seq = 0

    def _nonce(self) -> str:
        self.nonces.append(f"N{len(self.nonces) + 1}")
        return self.nonces[-1]

    def hub(self, body: str, now: float = 0.0) -> None:
        self.session.feed(line(f"{self.seq} {body}"), now)
        self.seq += 1

    def answer(self, now: float = 0.0, proto: int = 2, nonce: str | None = None) -> None:
        """The hub's answer to the latest hello (or to the one of ``nonce``)."""
        self.seq = 0
        self.hub(f"hello {proto} 0.2.0 6 8 {nonce or self.nonces[-1]}", now)


def test_the_host_says_hello_first_and_each_second_until_answered():
    pure = Pure()
    pure.session.opened(10.0)
    assert pure.sent == hellos(1)
    pure.session.tick(10.9)
    assert len(pure.sent) == 1
    pure.session.tick(11.0)
    assert pure.sent == hellos(1, 2)  # each with a nonce of its own
    pure.answer(11.5)
    pure.session.tick(12.6)
    assert len(pure.sent) == 2 and pure.session.answered


def test_keys_count_only_after_the_answer_in_sequence():
    pure = Pure()
    pure.session.opened(0.0)
    pure.hub("down 1 3")  # before the hello answer: unheard
    pure.answer()
    pure.hub("down 2 8")
    pure.hub("down 2 8")  # a second down without an up invents nothing
    pure.hub("up 1 3")  # never reported down
    pure.hub("up 2 8")
    pure.hub("beat")
    assert pure.events == [PadDown(1, 8), PadUp(1, 8)]
    assert pure.logs == []


def test_a_gap_in_the_sequence_releases_held_keys_and_says_hello_again():
    pure = Pure()
    pure.session.opened(0.0)
    pure.answer()
    pure.hub("down 3 4")
    pure.seq += 1  # a line lost
    pure.hub("down 3 5", now=0.2)
    assert pure.events == [PadDown(2, 4), PadUp(2, 4)]
    assert pure.sent == hellos(1, 2)
    assert len(pure.logs) == 1 and not pure.session.answered
    pure.answer()
    pure.hub("down 3 5")
    assert pure.events[-1] == PadDown(2, 5)


def test_silence_for_three_seconds_releases_held_keys():
    pure = Pure()
    pure.session.opened(0.0)
    pure.answer(0.5)
    pure.hub("down 1 1", 1.0)
    assert pure.session.tick(3.9)
    assert not pure.session.tick(4.0)
    assert pure.events == [PadDown(0, 1), PadUp(0, 1)]


def test_another_protocol_is_shown_each_answer_and_logged_once():
    pure = Pure()
    pure.session.opened(0.0)
    for now in (0.1, 1.1, 2.1):
        pure.answer(now, proto=3)
        pure.hub("error proto", now)
        pure.hub("down 1 1", now)  # a hub of another protocol sends no keys; if it did
        pure.session.tick(now + 0.9)
    assert pure.events == [HubMismatch(3, 2)] * 3
    assert pure.logs == [MISMATCH.format(hub=3, ours=2)]
    assert "protocol 3" in pure.logs[0] and "speaks 2" in pure.logs[0]
    assert "make flash" in pure.logs[0]
    assert len(pure.sent) == 4  # and it keeps asking, for a hub flashed meanwhile
    pure.answer(3.5)
    assert pure.session.answered


def test_a_hub_of_protocol_1_is_told_apart_by_its_error_and_shown():
    """Protocol 1's firmware takes "hello 2 NONCE" for no hello at all: ``error unknown``,
    its only answer, to every hello. The table shows it as protocol 1's from the second."""
    pure = Pure()
    pure.session.opened(0.0)
    for now in (0.1, 1.1, 2.1):
        pure.hub("error unknown", now)
        pure.session.tick(now + 0.9)
    assert pure.events == [HubMismatch(1, 2)] * 2
    assert pure.logs == [OLD_FIRMWARE.format(ours=2)]
    assert "make flash" in pure.logs[0] and "protocol 1" in pure.logs[0]
    pure.answer(3.5)  # flashed meanwhile
    pure.hub("error unknown", 3.6)  # from now on a line of ours it could not take
    assert pure.session.answered and pure.events == [HubMismatch(1, 2)] * 2
    assert pure.logs[1:] == ["pad hub: it could not take a line of ours (unknown)"]


def test_the_hubs_complaints_of_its_own_echoed_lines_at_open_are_not_an_old_hub():
    """Until the port is set raw, a moment after it opens, the tty echoes the hub's lines
    back to it, and the hub answers them ``error unknown`` or ``error crc`` before our
    hello's answer. Seen on the appliance test's USB gadget: the table then said the
    firmware was old. Only the same answer to a second hello says that."""
    pure = Pure()
    pure.session.opened(0.0)
    pure.hub("error unknown", 0.05)
    pure.hub("error crc", 0.06)
    pure.answer(0.3)
    assert pure.session.answered and pure.events == [] and pure.logs == []
    pure.session.opened(5.0)  # a port opened again starts the count again
    pure.hub("error unknown", 5.1)
    pure.answer(5.3)
    assert pure.session.answered and pure.events == [] and pure.logs == []


def test_only_the_answer_to_the_latest_hello_starts_a_session():
    """What an earlier session left in the hub's buffers comes first on a port opened
    again: its answer (to a hello not ours) and its key lines, in sequence after it."""
    pure = Pure()
    pure.session.opened(0.0)
    pure.answer(nonce="1DEAD")  # the previous host's
    pure.hub("down 2 5")
    pure.hub("beat")
    pure.answer(proto=3, nonce="1DEAD")  # nor another protocol's, to a hello not ours
    pure.hub("up 2 5")
    assert pure.events == [] and pure.logs == [] and not pure.session.answered
    pure.session.tick(1.0)  # a second hello: the first one's answer is not taken now
    pure.answer(nonce="N1")
    pure.hub("down 2 5")
    assert pure.events == [] and not pure.session.answered
    pure.answer(nonce="N2")
    pure.hub("down 3 1")
    assert pure.events == [PadDown(2, 1)] and pure.session.answered


def test_a_stuck_key_is_told_to_the_table_once_a_hold():
    pure = Pure()
    pure.session.opened(0.0)
    pure.answer()
    pure.hub("stuck 1 3")  # a key the host never saw go down: nothing to tell
    pure.hub("down 1 2")
    pure.hub("stuck 1 2")
    pure.hub("stuck 1 2")
    pure.hub("up 1 2")
    pure.hub("down 1 2")
    pure.hub("stuck 1 2")  # a new hold, told again
    assert pure.events == [
        PadDown(0, 2),
        KeyStuck(0, 2),
        PadUp(0, 2),
        PadDown(0, 2),
        KeyStuck(0, 2),
    ]
    assert pure.logs == []  # the table's sink logs it, once (app/sinks.py stuck_keys)


def test_one_log_line_per_burst_of_bad_lines():
    pure = Pure()
    pure.session.opened(0.0)
    pure.answer()
    pure.session.feed(b"garbage\n" * 40 + b"\xff\x00\n" + b"x" * 300 + b"\n", 0.1)
    pure.hub("beat")
    pure.session.feed(b"more garbage\n" * 3, 0.2)
    assert len(pure.logs) == 2, pure.logs
    assert pure.events == [] and pure.session.answered


@pytest.mark.parametrize(
    "garbage",
    [
        b"12 down 3 5*0000\n",  # a key line with a wrong CRC
        b"12 down 3 5\n",  # no CRC
        b"12 \xe9down 3 5*0000\n",
        b"12 down 3 5" + b" " * 80 + b"*0000\n",  # too long
        line("12 down3 5"),  # a right CRC around a garbled line
        line("12 3 5"),
    ],
)
def test_a_dropped_line_is_logged_by_reason_and_length_never_by_its_keys(garbage):
    pure = Pure()
    pure.session.opened(0.0)
    pure.answer()
    pure.session.feed(garbage, 0.1)
    assert len(pure.logs) == 1, pure.logs
    said = pure.logs[0].replace(f" of {len(garbage) - 1} bytes", "", 1)
    assert said != pure.logs[0] or "longer than 80 bytes" in said  # its length, if it fits
    assert not any(text in said for text in ("down", "3", "5", "12")), said


def test_the_hubs_errors_are_said_once_a_burst_and_keep_the_sequence():
    pure = Pure()
    pure.session.opened(0.0)
    pure.answer()
    for _ in range(3):
        pure.hub("error crc")
    pure.hub("beat")
    pure.hub("error unknown")
    pure.hub("down 1 1")
    assert [log.split("(")[1] for log in pure.logs] == ["crc)", "unknown)"]
    assert pure.events == [PadDown(0, 1)] and pure.session.answered  # no gap


def test_garbage_and_nothing_else_is_said_once_across_reopened_ports():
    pure = Pure()
    for now in (0.0, 3.0, 6.0):  # the host opens the port again after each silence
        pure.session.opened(now)
        pure.session.feed(b"\x00noise\n" * 5, now + 1.0)
        assert not pure.session.tick(now + 3.0)
    assert len(pure.logs) == 1 and pure.events == []


# --- HubPads on real transports --------------------------------------------------------


class Clock:
    """The time the host's hellos and silence go by; a test moves it."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["pty", "socket"])
def wire(request, tmp_path):
    made = PtyWire(tmp_path / "santo-domingo-hub") if request.param == "pty" else SocketWire()
    yield made
    made.close()


@pytest.fixture
def seen():
    return Seen()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def hub(wire, seen):
    fake = FakeHub(wire, seen)
    yield fake
    fake.close()


@pytest.fixture
def connect(wire, seen, clock, hub):
    """Start the host on the wire (once the test has set the fake hub up)."""
    made: list[HubPads] = []

    def start() -> HubPads:
        made.append(HubPads(wire.url, report=seen.report, clock=clock, reopen_every=0.01))
        made[-1].start(seen.put)
        return made[-1]

    yield start
    for pads in made:
        pads.close()


@pytest.fixture
def pads(connect):
    return connect()


@pytest.mark.slow
def test_keys_go_through_the_hub(pads, hub, seen):
    assert pads.wait_ready(10)
    hub.send("down 2 5")
    hub.send("beat")
    hub.send("up 2 5")
    seen.wait(lambda: len(seen.events) == 2, "the down and the up")
    assert seen.events == [PadDown(1, 5), PadUp(1, 5)]
    assert seen.logs == []


@pytest.mark.slow
def test_unplugged_mid_game_releases_keys_and_comes_back(pads, hub, wire, seen):
    assert pads.wait_ready(10)
    hub.send("down 4 1")
    seen.wait(lambda: seen.events == [PadDown(3, 1)], "the down")
    hellos = len(seen.hellos)
    wire.unplug()
    seen.wait(lambda: seen.events[-1:] == [PadUp(3, 1)], "the held key released")
    seen.wait(lambda: bool(seen.logs), "the unplugging said")
    wire.plug()
    seen.wait(lambda: len(seen.hellos) > hellos, "a hello on the port plugged back")
    assert pads.wait_ready(10)
    hub.send("down 4 2")
    seen.wait(lambda: seen.events[-1:] == [PadDown(3, 2)], "keys again")
    assert seen.logs[-1].startswith("pad hub: answering again")
    assert len(seen.logs) == 2, seen.logs  # gone once, back once: not once per attempt


@pytest.mark.slow
def test_silence_releases_keys_and_opens_the_port_again(pads, hub, seen, clock):
    assert pads.wait_ready(10)
    hub.send("down 1 1")
    seen.wait(lambda: seen.events == [PadDown(0, 1)], "the down")
    hellos = len(seen.hellos)
    clock.now += 3.0
    seen.wait(lambda: seen.events[-1:] == [PadUp(0, 1)], "the held key released")
    seen.wait(lambda: len(seen.hellos) > hellos, "hello again")
    assert pads.wait_ready(10)


@pytest.mark.slow
def test_hello_repeats_each_second_until_answered(connect, hub, seen, clock):
    hub.answering = False
    pads = connect()
    seen.wait(lambda: len(seen.hellos) == 1, "the first hello")
    clock.now += 1.0
    seen.wait(lambda: len(seen.hellos) == 2, "the second hello")
    assert not pads.wait_ready(0)
    hub.answering = True
    clock.now += 1.0
    assert pads.wait_ready(10)


@pytest.mark.slow
def test_a_gap_makes_the_host_say_hello_again(pads, hub, seen):
    assert pads.wait_ready(10)
    hellos = len(seen.hellos)
    hub.send("down 6 8")
    hub.skip()
    hub.send("up 6 8")
    seen.wait(lambda: len(seen.hellos) > hellos, "hello after the gap")
    assert seen.events[:2] == [PadDown(5, 8), PadUp(5, 8)]  # released by the host
    assert pads.wait_ready(10)


@pytest.mark.slow
def test_a_hub_of_another_protocol_is_shown_and_picked_up_once_flashed(connect, hub, seen, clock):
    hub.proto = 3
    pads = connect()
    seen.wait(lambda: HubMismatch(3, 2) in seen.events, "the notice")
    clock.now += 1.0
    seen.wait(lambda: seen.events.count(HubMismatch(3, 2)) == 2, "asked again")
    assert seen.logs == [MISMATCH.format(hub=3, ours=2)]
    hub.proto = None  # flashed
    clock.now += 1.0
    assert pads.wait_ready(10)


@pytest.mark.slow
def test_a_hub_of_protocol_1_is_shown_and_picked_up_once_flashed(connect, hub, seen, clock):
    hub.old = True
    pads = connect()
    seen.wait(lambda: len(seen.hellos) >= 1, "the first hello")  # answered "error unknown"
    clock.now += 1.0  # the second hello, answered so too: protocol 1's
    seen.wait(lambda: HubMismatch(1, 2) in seen.events, "the notice")
    assert seen.logs == [OLD_FIRMWARE.format(ours=2)]
    hub.old = False  # flashed
    clock.now += 1.0
    assert pads.wait_ready(10)
    assert seen.logs == [OLD_FIRMWARE.format(ours=2)]


def test_a_previous_sessions_lines_left_in_the_hub_are_never_heard(tmp_path, seen, clock):
    """A host says hello and is gone (the service restarting) before it reads the
    answer; the hub keeps its answer and the keys pressed since in its USB buffer, and
    hands them to the next host that opens the port, before the answer to its own hello
    (pyserial flushes what waited in the tty at open: these come after). The next host
    hears none of them: only its own session's keys."""
    wire = PtyWire(tmp_path / "santo-domingo-hub")
    hub = FakeHub(wire, seen)
    try:
        hub.hold()
        with HubPads(wire.url, report=seen.report, clock=clock) as first:
            first.start(seen.put)
            seen.wait(lambda: len(seen.hellos) == 1, "the first host's hello")
        hub.send("down 2 5")  # a finger on a key after the first host is gone
        hub.send("beat")
        hub.hand_over()
        with HubPads(wire.url, report=seen.report, clock=clock) as pads:
            pads.start(seen.put)
            assert pads.wait_ready(10)
            hub.send("down 3 1")
            seen.wait(lambda: bool(seen.events), "a key of the session")
            assert seen.events == [PadDown(2, 1)]
            assert seen.logs == []
    finally:
        hub.close()


@pytest.mark.slow
def test_garbage_on_the_wire_is_one_log_line_and_no_key(pads, hub, wire, seen):
    assert pads.wait_ready(10)
    wire.write(b"\x00\xff garbage \x1b[2J\n" * 200 + b"7 down 1 1*FFFF\n")
    hub.send("beat")
    hub.send("down 1 1")
    seen.wait(lambda: seen.events == [PadDown(0, 1)], "the real key")
    assert len(seen.logs) == 1 and "dropped" in seen.logs[0]
    assert "garbage" not in seen.logs[0] and "down 1 1" not in seen.logs[0]  # no text of it


@pytest.mark.slow
def test_close_is_idempotent_and_stops_the_thread(wire, seen, clock):
    pads = HubPads(wire.url, report=seen.report, clock=clock)
    pads.start(seen.put)
    pads.close()
    pads.close()
    assert not pads.wait_ready(0)
    with pytest.raises(RuntimeError):
        pads.start(seen.put)


def test_loop_hears_only_its_own_hellos(seen, clock):
    """pyserial's loop:// gives the host its own hello back: a line without a sequence
    number, dropped and said once; no key is invented."""
    with HubPads("loop://", report=seen.report, clock=clock) as pads:
        pads.start(seen.put)
        seen.wait(lambda: bool(seen.logs), "the echo dropped")
        clock.now += 1.0
        clock.now += 1.0
        assert not pads.wait_ready(0)
    assert seen.events == []
    assert len(seen.logs) == 1 and "no sequence number" in seen.logs[0]


def test_a_missing_hub_is_said_once_and_found_when_plugged(tmp_path, seen, clock):
    # a /dev/serial/by-id/ name is long: the reason must survive it
    path = tmp_path / ("usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00" * 2)
    with HubPads(str(path), report=seen.report, clock=clock, reopen_every=0.01) as pads:
        pads.start(seen.put)
        seen.wait(lambda: bool(seen.logs), "the missing hub said")
        wire = PtyWire(path)
        hub = FakeHub(wire, seen)
        try:
            assert pads.wait_ready(10)
            assert len(seen.logs) == 2, seen.logs  # not one line per attempt
            assert "cannot open" in seen.logs[0] and "answering again" in seen.logs[1]
            assert "(No such file or directory)" in seen.logs[0]
        finally:
            hub.close()


def test_a_port_another_host_holds_is_busy_in_one_line(tmp_path, seen, clock):
    """``companion pads`` while the service runs: the second host is told, once, and
    the two never share the hub's lines."""
    wire = PtyWire(tmp_path / "santo-domingo-hub")
    first = open_port(wire.url)
    try:
        with pytest.raises(serial.SerialException):
            open_port(wire.url)
        with HubPads(wire.url, report=seen.report, clock=clock, reopen_every=0.01) as pads:
            pads.start(seen.put)
            seen.wait(lambda: bool(seen.logs), "the busy port said")
        assert seen.logs == [f"pad hub: cannot open {wire.url} ({BUSY}): trying again each second"]
    finally:
        first.close()
        wire.close()


def same_nonce() -> str:
    """Every hello's nonce, foreseeable: N0NCE."""
    return "N0NCE"


class QuietPort:
    """pyserial's port as ``HubPads`` uses it: each read hands over the next of ``chunks``;
    after them the hub is quiet, and a read waits until ``cancel_read`` (far longer than
    a test waits), as a read of a quiet device does while its timeout runs."""

    def __init__(self, chunks: list[bytes] = (), *, write_fails: bool = False):
        self.chunks = list(chunks)
        self.write_fails = write_fails
        self.in_waiting = 0
        self.reads = 0
        self.written: list[bytes] = []
        self.closed = False
        self.quiet = threading.Event()  # a read is waiting on the quiet hub
        self._cancelled = threading.Event()

    def read(self, size: int) -> bytes:
        self.reads += 1
        if self.chunks:
            return self.chunks.pop(0)
        self.quiet.set()
        self._cancelled.wait(WAIT * 6)
        self._cancelled.clear()
        return b""

    def cancel_read(self) -> None:
        self._cancelled.set()

    def write(self, data: bytes) -> None:
        if self.write_fails:
            raise serial.SerialTimeoutException("Write timeout")
        self.written.append(data)

    def close(self) -> None:
        self.closed = True


def test_close_cuts_a_quiet_read_short_and_the_path_is_checked_only_when_quiet(
    tmp_path, seen, clock, monkeypatch
):
    device = tmp_path / "santo-domingo-hub"
    device.touch()
    looked: list[str] = []
    exists = os.path.exists
    monkeypatch.setattr(
        "companion.hw.hub.os.path.exists", lambda path: looked.append(path) or exists(path)
    )
    port = QuietPort([b"\x00noise\n", b"", b"\x00more\n"])
    pads = HubPads(
        str(device), report=seen.report, clock=clock, opener=lambda url: port, nonce=same_nonce
    )
    pads.start(seen.put)
    assert port.quiet.wait(WAIT), "the quiet read never came"
    assert port.reads == 4 and port.written == [line("hello 2 N0NCE")]
    assert looked == [str(device)]  # after the one empty read only, not once a pass
    closer = threading.Thread(target=pads.close, daemon=True)
    closer.start()
    closer.join(WAIT)
    assert not closer.is_alive(), "close() waited for the read to time out"
    assert port.closed and port.reads == 4


def test_a_write_that_times_out_fails_the_port_and_it_is_opened_again(seen, clock):
    """A wedged hub that stops reading: the hello's write times out instead of blocking
    the host for ever; the port is given up and opened again."""
    ports = [QuietPort(write_fails=True), QuietPort()]
    opened = iter(ports)
    with HubPads(
        "hub://",
        report=seen.report,
        clock=clock,
        reopen_every=0.01,
        opener=lambda u: next(opened),
        nonce=same_nonce,
    ) as pads:
        pads.start(seen.put)
        assert ports[1].quiet.wait(WAIT), "never opened again"
        assert ports[0].closed and ports[1].written == [line("hello 2 N0NCE")]
    assert seen.logs == ["pad hub: hub:// failed (Write timeout): opening it again"]


class Refusing:
    """A port that is there but refuses us (EPERM: the service's device rules, as when
    its driver loaded after the service started), from the attempt ``allowed`` on a quiet
    port; each attempt moves the host's clock on by a second, as the thread's own wait."""

    def __init__(self, clock, errno_: int = errno.EPERM, allowed: float = math.inf) -> None:
        self.clock, self.errno, self.allowed = clock, errno_, allowed
        self.attempts = 0
        self.opened = threading.Event()  # the port was let in
        self.port = QuietPort()

    def __call__(self, url: str):
        self.attempts += 1
        self.clock.now += 1.0
        if self.attempts >= self.allowed:
            self.opened.set()
            return self.port
        raise serial.SerialException(self.errno, f"could not open port {url}: refused")


@pytest.mark.parametrize("code", [errno.EPERM, errno.EACCES])
def test_a_port_that_stays_refused_is_a_fault_the_table_is_told_not_a_healthy_retry(
    seen, clock, code
):
    refusing = Refusing(clock, code)
    died = threading.Event()
    pads = HubPads(
        "/dev/santo-domingo-hub", report=seen.report, clock=clock, reopen_every=0.001,
        opener=refusing,
    )  # fmt: skip
    pads.health.when_dead = died.set
    with pads:
        pads.start(seen.put)
        assert died.wait(WAIT), "the hub thread went on retrying a refused port"
    assert refusing.attempts == REFUSED_FOR + 1  # refused from the first, for 10 s
    why = os.strerror(code)
    said = f"the pad hub's port /dev/santo-domingo-hub has refused us for 10 s ({why})"
    assert seen.events == [HubRefused(said)]
    assert isinstance(pads.health.error, PortRefused) and str(pads.health.error) == said
    trouble = pads.health.trouble(STALL)
    assert trouble is not None and trouble.dead  # the loop ends on it: the service exits
    assert seen.logs == [
        f"pad hub: cannot open /dev/santo-domingo-hub ({why}): trying again each second"
    ]


def test_a_refusal_that_ends_in_time_is_a_wait_and_a_missing_port_never_a_refusal(seen, clock):
    """udev gives a new port its group a moment after it appears; and an unplugged hub's
    port is missing (ENOENT), for as long as it takes."""
    refusing = Refusing(clock, allowed=REFUSED_FOR)  # 9 s refused, then let in
    with HubPads(
        "hub://", report=seen.report, clock=clock, reopen_every=0.001, opener=refusing,
        nonce=same_nonce,
    ) as pads:  # fmt: skip
        pads.start(seen.put)
        assert refusing.opened.wait(WAIT) and refusing.port.quiet.wait(WAIT)
        assert pads.health.trouble(STALL) is None and refusing.port.written
    assert pads.health.error is None and seen.events == []

    missing = Refusing(Clock(), errno.ENOENT, allowed=3 * REFUSED_FOR)  # plugged in at 30 s
    with HubPads("/dev/x", report=seen.report, clock=missing.clock, reopen_every=0.001,
                 opener=missing) as pads:  # fmt: skip
        pads.start(seen.put)
        assert missing.opened.wait(WAIT) and missing.port.quiet.wait(WAIT)
        assert pads.health.trouble(STALL) is None
    assert pads.health.error is None and seen.events == []
