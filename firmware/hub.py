# The hub's session with the host (PROTOCOL.md): the hello, sequence numbers, key events,
# stuck keys, heartbeats and error answers. Hardware-free: the clock and the port's write
# come in from outside (board.py on a Pico, simboard.py or a test elsewhere).

from proto import BAD_CRC, GOOD, LineReader, frame, unframe

PROTOCOL = 2
FIRMWARE = "0.2.0"
BEAT_MS = 1000  # a beat after this long without a line sent
STUCK_MS = 10000  # a key down this long is said to be stuck, once
_SEQS = 65536
_FIRMWARE = FIRMWARE.encode()
NONCE_MAX = 16  # a hello's nonce: 1 to 16 digits and upper-case letters (PROTOCOL.md)


class Hub:
    def __init__(self, seats, keys, clock, write, on_hello=None, reading=None):
        """``clock`` has ``ticks_ms()`` and ``ticks_diff(a, b)`` (MicroPython's ``time``);
        ``write(bytes)`` sends to the host; ``on_hello()`` hears every hello answered;
        ``reading(row)`` gives the bits of the keys of ``row`` that read closed in the
        latest scan, debounced or not (the Debouncer's ``reading``)."""
        self._seats = seats
        self._keys = keys
        self._clock = clock
        self._write = write
        self._on_hello = on_hello
        self._reading = reading
        self._reader = LineReader()
        self._seq = 0
        self._live = False  # a hello of our protocol started the session: keys are reported
        self._reported = bytearray(seats)  # keys whose "down" the host has had
        # Keys closed when the hello came: each is heard again only once it has opened.
        self._held = bytearray(seats)
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
            if self._live and not self._held[row] & bit:
                self._reported[row] |= bit
                self._since[row * 8 + key] = self._clock.ticks_ms()
                self._send(b"down %d %d" % (row + 1, key + 1))
        elif self._held[row] & bit:  # held at the hello, now open: its next press counts
            self._held[row] &= ~bit
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
        hello = _hello(body)
        if hello is None:
            self._send(b"error unknown")
            return
        proto, nonce = hello
        self._seq = 0
        for row in range(self._seats):  # keys closed now are never reported (PROTOCOL.md)
            self._reported[row] = 0
            self._stuck[row] = 0
            self._held[row] = self._reading(row) if self._reading is not None else 0
        self._live = proto == PROTOCOL
        answer = b"hello %d " % PROTOCOL + _FIRMWARE + b" %d %d" % (self._seats, self._keys)
        # The host's nonce, last: the host takes only the answer to its own hello, never
        # an answer an earlier session left waiting in the USB buffers.
        self._send(answer + b" " + nonce if nonce else answer)
        if not self._live:
            self._send(b"error proto")
        if self._on_hello is not None:
            self._on_hello()

    def _send(self, body):
        self._write(frame(b"%d " % self._seq + body))
        self._seq = (self._seq + 1) % _SEQS
        self._sent_at = self._clock.ticks_ms()


def _hello(body):
    """(protocol, nonce) of a hello body, else None. Ours is ``hello 2 NONCE``; a hello of
    another protocol is taken with anything after its number (its last field, if a
    nonce, is echoed), so that the host hears which protocol this hub speaks."""
    fields = body.split(b" ")
    if len(fields) < 2 or fields[0] != b"hello":
        return None
    proto = _number(fields[1])
    if proto is None:
        return None
    nonce = fields[-1] if len(fields) > 2 and _is_nonce(fields[-1]) else None
    if proto == PROTOCOL and (len(fields) != 3 or nonce is None):
        return None
    return proto, nonce


def _number(digits):
    """A decimal number of at most 5 digits without leading zeros, else None."""
    if not digits or len(digits) > 5 or (digits[0] == 0x30 and len(digits) > 1):
        return None
    for byte in digits:
        if byte < 0x30 or byte > 0x39:
            return None
    return int(digits)


def _is_nonce(field):
    if not field or len(field) > NONCE_MAX:
        return False
    return all(0x30 <= byte <= 0x39 or 0x41 <= byte <= 0x5A for byte in field)  # 0-9, A-Z
