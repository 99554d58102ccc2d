# The hub's hardware anywhere but on a Pico (CPython under pytest, the MicroPython unix port
# under `companion simulate --pads hub`): a diode matrix whose keys are pressed through a
# control pipe, the serial port on stdin/stdout, and a clock. board.py picks this module.

import os
import select
import sys
import time


class Matrix:
    """The pads' diode matrix. A row driven low pulls down the columns of its closed keys;
    the diodes block every other path, so no set of closed keys makes a ghost."""

    def __init__(self, rows, columns):
        self.seats = len(rows)
        self._low = 0  # bit r: row r driven low (active)
        self._closed = bytearray(len(rows))  # bit k of row r: key k + 1 of seat r + 1 closed

    def select(self, row):
        self._low |= 1 << row

    def deselect(self, row):
        self._low &= ~(1 << row)

    def columns(self):
        """Bit k set: column k reads low."""
        low = 0
        for row in range(len(self._closed)):
            if self._low >> row & 1:
                low |= self._closed[row]
        return low

    def press(self, seat, key, down):
        """Closes (or opens) the contact of ``key`` (1..8) on ``seat``'s pad (1..)."""
        if down:
            self._closed[seat - 1] |= 1 << (key - 1)
        else:
            self._closed[seat - 1] &= ~(1 << (key - 1))


def control(matrix, line):
    """Applies a control line, ``press SEAT KEY`` or ``release SEAT KEY``; False if bad."""
    words = line.split()
    if len(words) != 3 or words[0] not in (b"press", b"release"):
        return False
    try:
        seat, key = int(words[1]), int(words[2])
    except ValueError:
        return False
    if not (1 <= seat <= matrix.seats and 1 <= key <= 8):
        return False
    matrix.press(seat, key, words[0] == b"press")
    return True


class Clock:
    """MicroPython's ticks for CPython: milliseconds that wrap; ticks_diff() is right
    across the wrap."""

    PERIOD = 1 << 30  # as MicroPython's ticks_ms

    def ticks_ms(self):
        return int(time.monotonic() * 1000) % self.PERIOD

    def ticks_diff(self, a, b):
        half = self.PERIOD // 2
        return (a - b + half) % self.PERIOD - half


class ManualClock(Clock):
    """A clock that moves only when told to (tests)."""

    def __init__(self, start=0):
        self.now = start % self.PERIOD

    def ticks_ms(self):
        return self.now

    def advance(self, ms):
        self.now = (self.now + ms) % self.PERIOD


clock = time if hasattr(time, "ticks_ms") else Clock()  # the unix port has the real one


def _raw(stream):
    return getattr(stream, "raw", stream)  # CPython's buffered streams: their file below


class Port:
    """The serial port as stdin and stdout (a pty under ``simulate --pads hub``), and the
    control pipe named by ``HUB_KEYS_FD``, which ``wait()`` serves."""

    def __init__(self, matrix):
        self._matrix = matrix
        self._in = _raw(sys.stdin.buffer)
        self._out = _raw(sys.stdout.buffer)
        _raw_tty(0)  # a pty as it comes echoes and translates: the protocol wants bytes
        self._stdin = select.poll()
        self._stdin.register(self._in, select.POLLIN)
        self._all = select.poll()
        self._all.register(self._in, select.POLLIN)
        self._keys = None
        self._line = b""
        fd = os.getenv("HUB_KEYS_FD")
        if fd:
            self._keys = open(int(fd), "rb", buffering=0)  # noqa: SIM115 (open for good)
            self._all.register(self._keys, select.POLLIN)
            self._keys_ready = select.poll()
            self._keys_ready.register(self._keys, select.POLLIN)

    def read(self):
        """The bytes the host has sent, without waiting; None if none. Ends the process
        when the host has closed the port (the simulation is over)."""
        data = b""
        while self._stdin.poll(0):
            try:
                byte = self._in.read(1)
            except OSError:  # a pty whose other end is closed
                byte = b""
            if not byte:
                sys.exit(0)
            data += byte
        return data or None

    def write(self, data):
        """Sends ``data``; ends the process as ``read`` does when the host has closed the
        port (a pty whose other side is gone fails the write: no traceback for that)."""
        while data:
            try:
                sent = self._out.write(data)
            except OSError:
                sys.exit(0)
            data = data[sent or 0 :]

    def wait(self, ms):
        """Waits up to ``ms`` for the host or the control pipe; applies control lines."""
        for obj, _ in self._all.poll(ms):
            # MicroPython's poll gives back the object registered, CPython's its fd.
            if self._keys is not None and (obj is self._keys or obj == self._keys.fileno()):
                self._control()

    def _control(self):
        """Applies every control line waiting: a burst of presses lands in one scan."""
        while self._keys_ready.poll(0):
            byte = self._keys.read(1)
            if not byte:  # the pipe's writer is gone: the keys stay as they are
                self._all.unregister(self._keys)
                self._keys = None
                return
            if byte == b"\n":
                if not control(self._matrix, self._line):
                    sys.stderr.write("hub simulation: bad control line " + repr(self._line) + "\n")
                self._line = b""
            elif len(self._line) < 80:
                self._line += byte


def _raw_tty(fd):
    """Puts a terminal that still echoes in raw mode. One already raw (as the host should
    make its pty before starting the hub) is left alone: setraw() would flush its input,
    the host's first hello among it."""
    try:
        import termios  # the unix port has setraw(); CPython's is tty.setraw()
    except ImportError:
        return
    try:
        echoing = termios.tcgetattr(fd)[3] & _ECHO
    except (OSError, getattr(termios, "error", OSError)):
        return  # not a terminal: a pipe needs nothing
    if echoing:
        setraw = getattr(termios, "setraw", None)
        if setraw is None:
            import tty

            setraw = tty.setraw
        setraw(fd)


_ECHO = 0o10  # termios' ECHO in c_lflag (Linux and the BSDs); the unix port does not name it


def arm():
    """Production mode has no watchdog here: nothing to feed."""
    return None
