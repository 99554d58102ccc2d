"""The pad hub's line format (``firmware/PROTOCOL.md``): framing, apart from any port.

A line is ``BODY*CRC`` and a newline: printable ASCII, at most ``MAX_LINE`` bytes, the
CRC-16/CCITT-FALSE of ``BODY`` in four upper-case hex digits. ``encode`` makes one;
``decode`` reads one of the hub's lines into a message, or says why it was dropped.
``Lines`` cuts a byte stream into lines and throws an overlong one away whole, so no
amount of garbage grows its buffer past one line.
"""

from __future__ import annotations

import binascii
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass

PROTO = 2  # the protocol version this companion speaks
MAX_LINE = 80  # bytes before the newline
SEQ_MOD = 65536  # sequence numbers run 0..65535, then 0 again
SEATS = 6  # seats a hub may report (SEAT 1..6)
KEYS = 8  # keys per seat (KEY 1..8)

_NUMBER = re.compile(r"0|[1-9][0-9]{0,5}")  # decimal, no leading zeros
_VERSION = re.compile(r"[0-9A-Za-z.+-]{1,20}")
_HEX = re.compile(r"[0-9A-F]{4}")
_NONCE = re.compile(r"[0-9A-Z]{1,16}")  # as the firmware takes one (PROTOCOL.md)
NONCE_BYTES = 4  # the host's nonce: 32 random bits, 8 hex digits


def crc(body: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, initial 0xFFFF, no reflection, no final xor."""
    return binascii.crc_hqx(body, 0xFFFF)


def new_nonce() -> str:
    """A fresh nonce for a hello: 8 upper-case hex digits from the system's randomness."""
    return secrets.token_hex(NONCE_BYTES).upper()


def hello(nonce: str) -> bytes:
    """The host's hello line, carrying ``nonce``."""
    return encode(f"hello {PROTO} {nonce}")


def encode(body: str) -> bytes:
    """``body`` as one line on the wire, its CRC and newline added."""
    data = body.encode("ascii")
    return b"%s*%04X\n" % (data, crc(data))


@dataclass(frozen=True, slots=True)
class Dropped:
    """A line that breaks the format; ``why`` says how, for the log."""

    why: str


@dataclass(frozen=True, slots=True)
class Hello:
    """The hub's answer to ``hello``, ``nonce`` the one of the hello it answers ("": none).
    With another protocol only ``proto`` and ``nonce`` (the last field, from protocol 2 on,
    whatever the protocol) are read: the rest may look different there."""

    seq: int
    proto: int
    firmware: str = ""
    seats: int = 0
    keys: int = 0
    nonce: str = ""


@dataclass(frozen=True, slots=True)
class Down:
    seq: int
    seat: int  # 1..6, as on the wire
    key: int  # 1..8


@dataclass(frozen=True, slots=True)
class Up:
    seq: int
    seat: int
    key: int


@dataclass(frozen=True, slots=True)
class Stuck:
    """A key down for 10 s; its ``Up`` still follows."""

    seq: int
    seat: int
    key: int


@dataclass(frozen=True, slots=True)
class Beat:
    seq: int


@dataclass(frozen=True, slots=True)
class Error:
    """The hub could not take a line of ours: ``crc``, ``unknown`` or ``proto``."""

    seq: int
    what: str


Message = Hello | Down | Up | Stuck | Beat | Error
_KEY_LINES: dict[str, type[Down] | type[Up] | type[Stuck]] = {
    "down": Down,
    "up": Up,
    "stuck": Stuck,
}
ERRORS = ("crc", "unknown", "proto")


def unframe(line: bytes) -> str | Dropped:
    """The body of one line (without its newline; a ``\\r`` before it is allowed), if
    its form and CRC are right."""
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        return Dropped("longer than 80 bytes")
    if any(b < 0x20 or b > 0x7E for b in line):
        return Dropped("not printable ASCII")
    body, star, check = line.rpartition(b"*")
    if not star or not _HEX.fullmatch(check.decode("ascii")):
        return Dropped("no *CRC at its end")
    if int(check, 16) != crc(body):
        return Dropped("wrong CRC")
    return body.decode("ascii")


def decode(line: bytes) -> Message | Dropped:
    """One of the hub's lines read into a message, or why it was dropped."""
    body = unframe(line)
    if isinstance(body, Dropped):
        return body
    fields = body.split(" ")
    if not all(fields):
        return Dropped("fields not separated by single spaces")
    if len(fields) < 2 or (seq := _number(fields[0], SEQ_MOD - 1)) is None:
        return Dropped("no sequence number")
    return _message(seq, fields[1], fields[2:])


def _message(seq: int, kind: str, rest: list[str]) -> Message | Dropped:
    if kind == "hello":
        return _hello(seq, rest)
    if kind in _KEY_LINES:
        if len(rest) == 2:
            seat, key = _number(rest[0], SEATS), _number(rest[1], KEYS)
            if seat and key:  # neither None nor 0
                return _KEY_LINES[kind](seq, seat, key)
        return Dropped(f"not '{kind} SEAT KEY' with SEAT 1..{SEATS}, KEY 1..{KEYS}")
    if kind == "beat" and not rest:
        return Beat(seq)
    if kind == "error" and len(rest) == 1 and rest[0] in ERRORS:
        return Error(seq, rest[0])
    return Dropped("an unknown kind of line")  # not its text: it may hold a seat's key


def _hello(seq: int, rest: list[str]) -> Hello | Dropped:
    proto = _number(rest[0], SEQ_MOD) if rest else None
    if proto is None:
        return Dropped("a hello without a protocol number")
    if proto != PROTO:
        nonce = rest[-1] if len(rest) > 1 and _NONCE.fullmatch(rest[-1]) else ""
        return Hello(seq, proto, nonce=nonce)
    if len(rest) == 5 and _VERSION.fullmatch(rest[1]) and _NONCE.fullmatch(rest[4]):
        seats, keys = _number(rest[2], SEATS), _number(rest[3], KEYS)
        if seats and keys:
            return Hello(seq, proto, rest[1], seats, keys, rest[4])
    return Dropped("not 'hello PROTO FIRMWARE SEATS KEYS NONCE'")


def _number(text: str, high: int) -> int | None:
    """A decimal number in 0..high as the protocol writes it, else None."""
    if not _NUMBER.fullmatch(text):
        return None
    value = int(text)
    return value if value <= high else None


class Lines:
    """Bytes in, whole lines out (without their newlines), as they complete.

    An overlong line is dropped whole, its bytes forgotten as they come: ``feed`` then
    yields ``TOO_LONG`` once, when its newline arrives.
    """

    TOO_LONG = b"\x00" * (MAX_LINE + 1)  # a stand-in that decodes as too long

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overlong = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        start = 0
        while (end := data.find(b"\n", start)) >= 0:
            yield self._take(data[start:end])
            start = end + 1
        self._keep(data[start:])

    def reset(self) -> None:
        """Forget a partial line (the port was closed and opened again)."""
        self._buffer.clear()
        self._overlong = False

    def _take(self, tail: bytes) -> bytes:
        self._keep(tail)
        line = self.TOO_LONG if self._overlong else bytes(self._buffer)
        self.reset()
        return line

    def _keep(self, data: bytes) -> None:
        if self._overlong:
            return
        self._buffer += data
        if len(self._buffer) > MAX_LINE + 1:  # one more for a \r before the newline
            self._buffer.clear()
            self._overlong = True
