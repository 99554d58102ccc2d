# The hub's side of the serial protocol's lines (PROTOCOL.md): the checksum, framing a line
# to send, and cutting the host's bytes into lines. MicroPython and CPython alike.

MAX_LINE = 80  # bytes before the "\n" (a "\r" just before it is not counted)


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_TABLE = _crc_table()  # a byte at a time: the Pico checks lines in the scan loop's time


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE: poly 0x1021, initial 0xFFFF, no reflection, no final xor."""
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


def frame(body):
    """The line for ``body`` (bytes) as it goes on the wire: ``BODY*CRC\\n``."""
    return body + b"*%04X\n" % crc16(body)


# What unframe() found in a line.
GOOD = 0
BAD_CRC = 1  # well formed, but the checksum does not match: answered with "error crc"
MALFORMED = 2  # breaks the line rules: dropped and counted


def unframe(line):
    """(status, body) for one line without its "\\n" (and "\\r")."""
    n = len(line)
    if n < 5 or n > MAX_LINE or line[n - 5] != 0x2A:  # "*"
        return MALFORMED, None
    for byte in line:
        if byte < 0x20 or byte > 0x7E:
            return MALFORMED, None
    crc = 0
    for i in range(n - 4, n):
        c = line[i]
        if 0x30 <= c <= 0x39:  # 0-9
            c -= 0x30
        elif 0x41 <= c <= 0x46:  # A-F: upper case only
            c -= 0x37
        else:
            return MALFORMED, None
        crc = (crc << 4) | c
    body = bytes(line[: n - 5])
    if crc16(body) != crc:
        return BAD_CRC, None
    return GOOD, body


class LineReader:
    """Cuts a byte stream into lines; a line longer than MAX_LINE is dropped whole."""

    def __init__(self):
        self._buf = bytearray(MAX_LINE + 1)  # room for a "\r" before the "\n"
        self._len = 0
        self._overflow = False

    def feed(self, byte):
        """Takes one byte; returns the line (bytes, without "\\r\\n") it ends, else None.
        A line too long comes back as b"" (empty: malformed), so that it is counted."""
        if byte == 0x0A:
            n = self._len
            overflow = self._overflow
            self._len = 0
            self._overflow = False
            if overflow:
                return b""
            if n and self._buf[n - 1] == 0x0D:
                n -= 1
            return bytes(self._buf[:n])
        if self._len < len(self._buf):
            self._buf[self._len] = byte
            self._len += 1
        else:
            self._overflow = True
        return None
