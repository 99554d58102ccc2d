# The hub's session with the host (PROTOCOL.md): the hello, sequence numbers, key events,
# stuck keys, heartbeats and error answers. Hardware-free: the clock and the port's write
# come in from outside (board.py on a Pico, simboard.py or a test elsewhere).

from proto import BAD_CRC, GOOD, LineReader, frame, unframe

PROTOCOL = 1
FIRMWARE = "0.1.0"
BEAT_MS = 1000  # a beat after this long without a line sent
STUCK_MS = 10000  # a key down this long is said to be stuck, once
_SEQS = 65536
_FIRMWARE = FIRMWARE.encode()


class Hub:
    def __init__(self, seats, keys, clock, write, on_hello=None):
        """``clock`` has ``ticks_ms()`` and ``ticks_diff(a, b)`` (MicroPython's ``time``);
        ``write(bytes)`` sends to the host; ``on_hello()`` hears every hello answered."""
        self._seats = seats
        self._keys = keys
        self._clock = clock
        self._write = write
        self._on_hello = on_hello
        self._reader = LineReader()
        self._seq = 0
        self._live = False  # a hello of our protocol started the session: keys are reported
        self._reported = bytearray(seats)  # keys whose "down" the host has had
        self._stuck = bytearray(seats)  # keys said to be stuck
        self._since = [0] * (seats * 8)  # when each reported key went down
        self._sent_at = clock.ticks_ms()
        self.dropped = 0  # host lines that broke the line rules

    def receive(self, data):
        """Takes bytes from the host."""
        for byte in data:
            line = self._reader.feed(byte)
            if line is not None:
                self._line(line)

    def key(self, row, key, down):
        """A debounced change of a key (row and key from 0), from the Debouncer."""
        bit = 1 << key
        if down:
            if self._live:
                self._reported[row] |= bit
                self._since[row * 8 + key] = self._clock.ticks_ms()
                self._send(b"down %d %d" % (row + 1, key + 1))
        elif self._reported[row] & bit:  # only a key whose down was said comes up
            self._reported[row] &= ~bit
            self._stuck[row] &= ~bit
            self._send(b"up %d %d" % (row + 1, key + 1))

    def tick(self):
        """Called every scan: says stuck keys, and a beat after a second of silence."""
        now = self._clock.ticks_ms()
        for row in range(self._seats):
            waiting = self._reported[row] & ~self._stuck[row]
            if waiting:
                self._check_stuck(row, waiting, now)
        if self._clock.ticks_diff(now, self._sent_at) >= BEAT_MS:
            self._send(b"beat")

    def _check_stuck(self, row, waiting, now):
        for key in range(self._keys):
            bit = 1 << key
            held = self._clock.ticks_diff(now, self._since[row * 8 + key])
            if waiting & bit and held >= STUCK_MS:
                self._stuck[row] |= bit
                self._send(b"stuck %d %d" % (row + 1, key + 1))

    def _line(self, line):
        status, body = unframe(line)
        if status == GOOD:
            self._body(body)
        elif status == BAD_CRC:
            self._send(b"error crc")
        else:
            self.dropped += 1

    def _body(self, body):
        proto = _hello_number(body)
        if proto is None:
            self._send(b"error unknown")
            return
        self._seq = 0
        for row in range(self._seats):  # keys down now are never reported (PROTOCOL.md)
            self._reported[row] = 0
            self._stuck[row] = 0
        self._live = proto == PROTOCOL
        self._send(b"hello %d " % PROTOCOL + _FIRMWARE + b" %d %d" % (self._seats, self._keys))
        if not self._live:
            self._send(b"error proto")
        if self._on_hello is not None:
            self._on_hello()

    def _send(self, body):
        self._write(frame(b"%d " % self._seq + body))
        self._seq = (self._seq + 1) % _SEQS
        self._sent_at = self._clock.ticks_ms()


def _hello_number(body):
    """The protocol number of a ``hello PROTO`` body, else None."""
    if len(body) < 7 or body[:6] != b"hello ":
        return None
    digits = body[6:]
    if len(digits) > 5 or (digits[0] == 0x30 and len(digits) > 1):  # no leading zeros
        return None
    for byte in digits:
        if byte < 0x30 or byte > 0x39:
            return None
    return int(digits)
