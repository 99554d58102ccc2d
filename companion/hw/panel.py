"""A fake I²C OLED: an SMBus that keeps the panel's display RAM from the bytes it gets.

luma's real ``i2c`` interface and its real ssd1306 / sh1106 drivers talk to this bus
exactly as they would to ``smbus2``. The panel interprets their commands (addressing,
page and column) and data into its RAM, so what the simulator draws is what a real
OLED would show, and the bytes it counts are the bytes a real bus would carry. It can
also stop answering, as a loose cable does, or fail now and then, as a flaky one does:
a data write that fails lands in part, garbled, as a write cut short may.
"""

from __future__ import annotations

import errno
from collections.abc import Callable

from PIL import Image

# Commands that take arguments, and how many, per controller (from the datasheets).
_COMMON_ARGS = {
    0x81: 1,  # contrast
    0xA8: 1,  # multiplex ratio
    0xD3: 1,  # display offset
    0xD5: 1,  # clock divide
    0xD9: 1,  # pre-charge
    0xDA: 1,  # COM pins
    0xDB: 1,  # VCOM detect
}
_ARGS = {
    "ssd1306": {
        **_COMMON_ARGS,
        0x20: 1,  # memory addressing mode
        0x21: 2,  # column address window
        0x22: 2,  # page address window
        0x8D: 1,  # charge pump
    },
    # The SH1106 has page addressing only; bytes it does not know are single commands.
    "sh1106": {**_COMMON_ARGS, 0xAD: 1},  # DC-DC control
}
CONTROL_COMMAND = 0x00
CONTROL_DATA = 0x40


class FakePanel:
    """A 128×64 SSD1306 or SH1106 on a fake bus. ``image()`` is what it shows."""

    def __init__(self, controller: str = "ssd1306", width: int = 128, height: int = 64):
        if controller not in ("ssd1306", "sh1106"):
            raise ValueError(f"unknown controller {controller!r}")
        self.controller = controller
        self.width, self.height = width, height
        self.pages = height // 8
        self.ram_width = 132 if controller == "sh1106" else width
        self.column_offset = 2 if controller == "sh1106" else 0  # luma's page_address_offset
        self.ram = [bytearray(self.ram_width) for _ in range(self.pages)]
        self.bytes_sent = 0  # control + payload bytes of the writes that got through
        self.answering = True
        self.writes = 0  # block writes tried, failed ones included
        # Given a write's number (from 1), True to make that write fail; None: none fails.
        self.fails: Callable[[int], bool] | None = None
        self._args = _ARGS[controller]
        self._pending: list[int] = []  # a command still waiting for its arguments
        self._column = 0
        self._page = 0
        self._window = (0, width - 1, 0, self.pages - 1)  # SSD1306 horizontal mode

    # --- the SMBus calls luma makes -----------------------------------------------------

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self.writes += 1
        if not self.answering:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if self.fails is not None and self.fails(self.writes):
            if register == CONTROL_DATA:  # cut short: the first half lands, inverted
                for byte in data[: len(data) // 2]:
                    self._data(byte ^ 0xFF)
            raise OSError(errno.EIO, "Input/output error")
        self.bytes_sent += 1 + len(data)
        if register == CONTROL_COMMAND:
            for byte in data:
                self._command(byte)
        elif register == CONTROL_DATA:
            for byte in data:
                self._data(byte)

    def close(self) -> None:
        pass

    # --- faults --------------------------------------------------------------------------

    def fail_every(self, n: int) -> None:
        """Make every ``n``-th write from now on fail (0: none)."""
        first = self.writes
        self.fails = (lambda k: (k - first) % n == 0) if n else None

    # --- what it shows -----------------------------------------------------------------

    def image(self) -> Image.Image:
        """The visible display RAM as a 1-bit image."""
        img = Image.new("1", (self.width, self.height))
        px = img.load()
        for page, row in enumerate(self.ram):
            for x in range(self.width):
                byte = row[x + self.column_offset]
                for bit in range(8):
                    if byte >> bit & 1:
                        px[x, page * 8 + bit] = 1
        return img

    # --- the controller ----------------------------------------------------------------

    def _command(self, byte: int) -> None:
        pending = self._pending
        if pending:
            pending.append(byte)
            if len(pending) - 1 == self._args[pending[0]]:
                self._apply(pending)
                self._pending = []
            return
        if byte in self._args:
            self._pending = [byte]
        elif 0xB0 <= byte <= 0xB7:  # page start (page addressing)
            self._page = byte & 0x07
        elif byte <= 0x0F:  # low nibble of the column (page addressing)
            self._column = (self._column & 0xF0) | byte
        elif 0x10 <= byte <= 0x1F:  # high nibble of the column
            self._column = (self._column & 0x0F) | (byte & 0x0F) << 4

    def _apply(self, command: list[int]) -> None:
        code = command[0]
        if code == 0x21:
            self._window = (command[1], command[2], *self._window[2:])
            self._column = command[1]
        elif code == 0x22:
            self._window = (*self._window[:2], command[1] & 0x07, command[2] & 0x07)
            self._page = command[1] & 0x07

    def _data(self, byte: int) -> None:
        if self._page < self.pages and self._column < self.ram_width:
            self.ram[self._page][self._column] = byte
        self._column += 1
        if self.controller == "ssd1306":  # horizontal mode: wrap inside the window
            c0, c1, p0, p1 = self._window
            if self._column > c1:
                self._column = c0
                self._page = p0 if self._page >= p1 else self._page + 1
