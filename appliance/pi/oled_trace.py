"""The emulated Pi's display, rebuilt on the host from QEMU's ``-trace 'i2c_*'`` log.

QEMU's ``ssd0303`` model at 0x3C only ACKs an SSD1306's bytes (its own controller is
another); the trace keeps every one:

    i2c_event start(addr:0x3c)
    i2c_send send(addr:0x3c) data:0x40
    i2c_event finish(addr:0x3c)

Each write transfer begins with a control byte: 0x00, commands follow; 0x40, display
data follow (Co, bit 7, set: one byte of that kind, then another control byte). ``Ssd1306``
keeps the controller's 128×64 memory from them as the real chip would: the addressing
modes (0x20), the column and page windows (0x21, 0x22) and page addressing's start
commands. ``Follower`` reads the log as QEMU writes it (QEMU flushes each trace line) and
keeps the memory as of the last line written.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from PIL import Image

WIDTH, PAGES = 128, 8
ADDRESS = 0x3C
# Commands with argument bytes (the rest are single bytes).
ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1,
        0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}  # fmt: skip
LINE = re.compile(r"i2c_(event|send)\s+(\w+)\(addr:0x([0-9a-f]+)\)(?: data:0x([0-9a-f]+))?")


class Ssd1306:
    """An SSD1306's display memory, from the bytes of its write transfers."""

    def __init__(self) -> None:
        self.mem = bytearray(WIDTH * PAGES)
        self.mode = 2  # page addressing after reset
        self.cols, self.pages = (0, WIDTH - 1), (0, PAGES - 1)
        self.col = self.page = 0
        self.transfers = self.commands = self.data_bytes = 0
        self._pending: list[int] = []

    def transfer(self, payload: list[int]) -> None:
        self.transfers += 1
        i = 0
        while i < len(payload):
            control, i = payload[i], i + 1
            chunk = payload[i : i + 1] if control & 0x80 else payload[i:]
            i += len(chunk)
            for b in chunk:
                (self._data if control & 0x40 else self._command)(b)

    def _command(self, byte: int) -> None:
        self._pending.append(byte)
        op = self._pending[0]
        if len(self._pending) <= ARGS.get(op, 0):
            return
        args, self._pending = self._pending[1:], []
        self.commands += 1
        if op == 0x20:
            self.mode = args[0] & 3
        elif op == 0x21:
            self.cols = (args[0] & 0x7F, args[1] & 0x7F)
            self.col = self.cols[0]
        elif op == 0x22:
            self.pages = (args[0] & 7, args[1] & 7)
            self.page = self.pages[0]
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | (op & 0x0F) << 4

    def _data(self, byte: int) -> None:
        self.mem[self.page * WIDTH + self.col] = byte
        self.data_bytes += 1
        if self.mode == 0:  # horizontal: along the columns, then the next page
            self.col += 1
            if self.col > self.cols[1]:
                self.col = self.cols[0]
                self.page = self.pages[0] if self.page >= self.pages[1] else self.page + 1
        elif self.mode == 1:  # vertical: down the pages, then the next column
            self.page += 1
            if self.page > self.pages[1]:
                self.page = self.pages[0]
                self.col = self.cols[0] if self.col >= self.cols[1] else self.col + 1
        else:  # page addressing: along the page only
            self.col = self.cols[0] if self.col >= self.cols[1] else self.col + 1


class Transfers:
    """Trace lines in, the bytes of each whole write transfer to ``address`` out; fed in
    pieces as the log grows (a line cut short waits for its end)."""

    def __init__(self, address: int = ADDRESS) -> None:
        self.address = address
        self._current: list[int] | None = None
        self._rest = ""

    def feed(self, text: str) -> Iterator[list[int]]:
        *lines, self._rest = (self._rest + text).split("\n")
        return self.lines(lines)

    def lines(self, lines: Iterable[str]) -> Iterator[list[int]]:
        for line in lines:
            m = LINE.search(line)
            if not m or int(m.group(3), 16) != self.address:
                continue
            kind, what, data = m.group(1), m.group(2), m.group(4)
            if kind == "event":  # a start or a finish ends the transfer before it
                if self._current:
                    yield self._current
                self._current = [] if what == "start" else None
            elif self._current is not None and data is not None:
                self._current.append(int(data, 16))


def rebuild(lines: Iterable[str], address: int = ADDRESS) -> Ssd1306:
    """The panel after every transfer in a whole trace."""
    panel, parse = Ssd1306(), Transfers(address)
    for payload in parse.lines(lines):
        panel.transfer(payload)
    return panel


def pages(image: Image.Image) -> bytes:
    """A 128×64 picture as an SSD1306 holds it: 8 pages of 128 columns, bit n of a byte
    the pixel n rows below the page's top."""
    px = image.convert("1").load()
    assert px is not None
    return bytes(
        sum(1 << bit for bit in range(8) if px[x, page * 8 + bit])
        for page in range(PAGES)
        for x in range(WIDTH)
    )


def picture(mem: bytes) -> Image.Image:
    """The memory as the picture it shows (``pages``' inverse)."""
    img = Image.new("1", (WIDTH, PAGES * 8))
    px = img.load()
    assert px is not None
    for i, byte in enumerate(mem):
        page, x = divmod(i, WIDTH)
        for bit in range(8):
            if byte >> bit & 1:
                px[x, page * 8 + bit] = 1
    return img


class Follower:
    """Follows the trace file as QEMU writes it, the panel's memory kept up to date.

    A frame is the memory each time the reader has caught up with the file: the distinct
    ones are counted (``frames``), and the host time of the first transfer kept (the
    display's reset pulse must come before it)."""

    def __init__(self, path: Path, alive: Callable[[], bool], t0: float) -> None:
        self.path, self.alive, self.t0 = path, alive, t0
        self.panel = Ssd1306()
        self.frames: set[str] = set()
        self.first_transfer: float | None = None  # host seconds since t0
        self._mem = bytes(self.panel.mem)
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._follow, name="trace", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    @property
    def mem(self) -> bytes:
        with self._cond:
            return self._mem

    def _follow(self) -> None:
        parse = Transfers()
        with open(self.path, errors="replace") as f:
            while not self._stop.is_set():
                text = f.read(1 << 20)
                if not text:  # caught up: this is the frame QEMU has shown so far
                    self._caught_up()
                    time.sleep(0.05)
                    continue
                for payload in parse.feed(text):
                    if self.first_transfer is None:
                        self.first_transfer = time.monotonic() - self.t0
                    self.panel.transfer(payload)

    def _caught_up(self) -> None:
        mem = bytes(self.panel.mem)
        with self._cond:
            if mem != self._mem:
                self._mem = mem
                self.frames.add(hashlib.sha256(mem).hexdigest())
                self._cond.notify_all()

    def wait(self, test: Callable[[bytes], bool], limit: float) -> bytes | None:
        """The memory once ``test`` holds for it, or None after ``limit`` seconds (or
        once QEMU has ended)."""
        deadline = time.monotonic() + limit
        with self._cond:
            while not test(self._mem):
                left = deadline - time.monotonic()
                if left <= 0 or not self.alive():
                    return None
                self._cond.wait(min(left, 1.0))
            return self._mem
