"""Fake OLEDs that keep the panel's display RAM from the bytes they get.

``FakePanel`` is an SMBus: luma's real ``i2c`` interface and its real ssd1306 / ssd1309 /
sh1106 drivers talk to it exactly as they would to ``smbus2``. ``FakeSsd1322`` is a
spidev ``SpiDev`` that reads the D/C line from a (mock) GPIO, for luma's real ``spi``
interface and ssd1322 driver. Each panel interprets the commands (address windows) and
data into its RAM, so what the simulator draws is what a real OLED would show, and the
bytes it counts are the bytes a real bus would carry. Either can also stop answering, as
a loose cable does, or fail now and then, as a flaky one does: a data write that fails
lands in part, garbled, as a write cut short may.
"""

from __future__ import annotations

import errno
from collections.abc import Callable

from gpiozero.pins import Factory
from luma.core.device import device as LumaDevice
from PIL import Image

from ..errors import Closing
from ..hw.display import DC_PIN, RESET_PIN, Connector
from ..hw.panels import SPI_ONLY

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
_ARGS["ssd1309"] = _ARGS["ssd1306"]  # the same command set, for addressing and contrast
CONTROL_COMMAND = 0x00
CONTROL_DATA = 0x40


class _Bus(Closing):
    """What both fakes share: counting writes, and failing them on demand. Closing one
    (luma does, at its cleanup) changes nothing: a panel keeps what it shows."""

    def __init__(self) -> None:
        self.bytes_sent = 0  # bytes of the writes that got through (I²C: with control byte)
        self.answering = True
        self.writes = 0  # writes tried, failed ones included
        # Given a write's number (from 1), True to make that write fail; None: none fails.
        self.fails: Callable[[int], bool] | None = None
        self.contrast: int | None = None  # the last contrast level the panel was sent

    def _attempt(self, data: list[int], is_data: bool, land: Callable[[int], None]) -> None:
        """Count a write of ``data``; raise if it fails (a failed data write lands in
        part: its first half, inverted)."""
        self.writes += 1
        if not self.answering:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if self.fails is not None and self.fails(self.writes):
            if is_data:
                for byte in data[: len(data) // 2]:
                    land(byte ^ 0xFF)
            raise OSError(errno.EIO, "Input/output error")

    def fail_every(self, n: int) -> None:
        """Make every ``n``-th write from now on fail (0: none)."""
        first = self.writes
        self.fails = (lambda k: (k - first) % n == 0) if n else None

    def close(self) -> None:
        pass


class FakePanel(_Bus):
    """A 128×64 SSD1306, SSD1309 or SH1106 on a fake I²C bus. ``image()`` is what it shows.

    It can lose its power (``power_off``): it no longer answers, and once powered again
    (``power_on``) it has forgotten its set-up as a real controller does: its display is
    off (0xAE) and its RAM and contrast are the chip's own after reset, until a driver
    sets it up again (luma's start ends with 0xAF, display on)."""

    def __init__(self, controller: str = "ssd1306", width: int = 128, height: int = 64):
        if controller not in _ARGS:
            raise ValueError(f"unknown controller {controller!r}")
        super().__init__()
        self.controller = controller
        self.width, self.height = width, height
        self.pages = height // 8
        self.ram_width = 132 if controller == "sh1106" else width
        self.column_offset = 2 if controller == "sh1106" else 0  # luma's page_address_offset
        self._args = _ARGS[controller]
        self._reset()
        self.display_on = True  # as a panel a driver has set up: a test may write raw bytes
        self.contrast = None  # none sent yet

    def _reset(self) -> None:
        """The controller as its power-on reset leaves it."""
        self.ram = [bytearray(self.ram_width) for _ in range(self.pages)]
        self._pending: list[int] = []  # a command still waiting for its arguments
        self._column = 0
        self._page = 0
        self._window = (0, self.width - 1, 0, self.pages - 1)  # SSD1306 horizontal mode
        self.display_on = False
        self.contrast = 0x7F  # the datasheets' reset value

    def power_off(self) -> None:
        """The panel's supply is cut: it answers nothing."""
        self.answering = False

    def power_on(self) -> None:
        """The supply is back: it answers, with its set-up forgotten."""
        self._reset()
        self.answering = True

    # --- the SMBus calls luma makes -----------------------------------------------------

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self._attempt(data, register == CONTROL_DATA, self._data)
        self.bytes_sent += 1 + len(data)
        if register == CONTROL_COMMAND:
            for byte in data:
                self._command(byte)
        elif register == CONTROL_DATA:
            for byte in data:
                self._data(byte)

    # --- what it shows -----------------------------------------------------------------

    def image(self) -> Image.Image:
        """The visible display RAM as a 1-bit image (all dark while the display is off)."""
        img = Image.new("1", (self.width, self.height))
        if not self.display_on:
            return img
        px = img.load()
        assert px is not None  # a new image's pixels are in memory
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
        elif byte in (0xAE, 0xAF):  # display off, on
            self.display_on = byte == 0xAF
        elif 0xB0 <= byte <= 0xB7:  # page start (page addressing)
            self._page = byte & 0x07
        elif byte <= 0x0F:  # low nibble of the column (page addressing)
            self._column = (self._column & 0xF0) | byte
        elif 0x10 <= byte <= 0x1F:  # high nibble of the column
            self._column = (self._column & 0x0F) | (byte & 0x0F) << 4

    def _apply(self, command: list[int]) -> None:
        code = command[0]
        if code == 0x81:
            self.contrast = command[1]
        elif code == 0x21:
            self._window = (command[1], command[2], *self._window[2:])
            self._column = command[1]
        elif code == 0x22:
            self._window = (*self._window[:2], command[1] & 0x07, command[2] & 0x07)
            self._page = command[1] & 0x07

    def _data(self, byte: int) -> None:
        if self._page < self.pages and self._column < self.ram_width:
            self.ram[self._page][self._column] = byte
        self._column += 1
        if self.controller != "sh1106":  # horizontal mode: wrap inside the window
            c0, c1, p0, p1 = self._window
            if self._column > c1:
                self._column = c0
                self._page = p0 if self._page >= p1 else self._page + 1


# SSD1322 commands the fake keeps: their arguments follow as data bytes (D/C high).
SET_COLUMNS, SET_ROWS, WRITE_RAM, SET_CONTRAST = 0x15, 0x75, 0x5C, 0xC1
_SSD1322_ARGS = {SET_COLUMNS: 2, SET_ROWS: 2, SET_CONTRAST: 1}
# A byte of RAM is two pixels, the left one in the high nibble, under the remap luma's
# driver sets up (0xA0 0x14 0x11); shown here as 0 or 255 each.
_TWO_PIXELS = [bytes((255 * (b >> 4 > 0), 255 * (b & 15 > 0))) for b in range(256)]


class FakeSsd1322(_Bus):
    """A 256×64 SSD1322 (4-bit greyscale) as a spidev ``SpiDev``; ``dc`` reads the D/C
    line (high: data). ``image()`` is what it shows, every lit pixel white."""

    RAM_COLUMNS, RAM_ROWS = 120, 128  # column addresses of 4 pixels (2 bytes) each

    def __init__(self, dc: Callable[[], bool], width: int = 256, height: int = 64):
        super().__init__()
        self.controller = "ssd1322"
        self.width, self.height = width, height
        self._dc = dc
        self.column_offset = (4 * self.RAM_COLUMNS - width) // 2  # in pixels, as luma's
        self.ram = [bytearray(2 * self.RAM_COLUMNS) for _ in range(self.RAM_ROWS)]
        self.max_speed_hz = 0
        self.mode = 0
        self._command = 0
        self._args: list[int] = []
        self._window = (0, self.RAM_COLUMNS - 1, 0, self.RAM_ROWS - 1)
        self._column = self._row = self._half = 0

    # --- the spidev calls luma makes ----------------------------------------------------

    def open(self, port: int, device: int) -> None:
        pass

    def writebytes(self, data: list[int]) -> None:
        is_data = self._dc()
        self._attempt(data, is_data and self._command == WRITE_RAM, self._pixels)
        self.bytes_sent += len(data)
        for byte in data:
            if not is_data:
                self._command, self._args = byte, []
            elif self._command == WRITE_RAM:
                self._pixels(byte)
            else:
                self._argument(byte)

    # --- what it shows -----------------------------------------------------------------

    def image(self) -> Image.Image:
        """The visible display RAM as a 1-bit image: every pixel not 0 is lit."""
        start = self.column_offset // 2
        rows = bytearray()
        for row in self.ram[: self.height]:
            for byte in row[start : start + self.width // 2]:
                rows += _TWO_PIXELS[byte]
        return Image.frombytes("L", (self.width, self.height), bytes(rows)).convert("1")

    # --- the controller ----------------------------------------------------------------

    def _argument(self, byte: int) -> None:
        self._args.append(byte)
        if len(self._args) != _SSD1322_ARGS.get(self._command, -1):
            return
        if self._command == SET_CONTRAST:
            self.contrast = self._args[0]
        elif self._command == SET_COLUMNS:
            first, last = self._args
            self._window = (first, last, *self._window[2:])
            self._column, self._half = first, 0
        else:
            first, last = self._args
            self._window = (*self._window[:2], first, last)
            self._row = first

    def _pixels(self, byte: int) -> None:
        if self._row < self.RAM_ROWS and self._column < self.RAM_COLUMNS:
            self.ram[self._row][2 * self._column + self._half] = byte
        self._half ^= 1
        if self._half:
            return
        c0, c1, r0, r1 = self._window  # horizontal increment: wrap inside the window
        self._column += 1
        if self._column > c1:
            self._column = c0
            self._row = r0 if self._row >= r1 else self._row + 1


Panel = FakePanel | FakeSsd1322  # a fake panel of any controller


def fake_device(
    controller: str = "ssd1306",
    rotate: int = 0,
    *,
    pin_factory: Factory | None = None,
    dc: int = DC_PIN,
    reset: int = RESET_PIN,
) -> tuple[LumaDevice, Panel]:
    """A real luma driver on a fake bus: (device, panel), as ``fake_connector`` opens it.
    The SSD1322 is on a fake SPI device whose D/C and reset lines are gpiozero pins of
    ``pin_factory`` (None: a ``MockFactory`` of its own)."""
    if pin_factory is None:
        from gpiozero.pins.mock import MockFactory

        pin_factory = MockFactory()
    connector, panel = fake_connector(
        controller, rotate, pin_factory=pin_factory, dc=dc, reset=reset
    )
    assert connector.opened is not None  # a fake panel answers
    return connector.opened, panel


def fake_connector(
    controller: str = "ssd1306",
    rotate: int = 0,
    *,
    pin_factory: Factory,
    dc: int = DC_PIN,
    reset: int = RESET_PIN,
) -> tuple[Connector, Panel]:
    """The device's way to its display, on a fake bus: a ``Connector`` opened on a fake
    panel, (connector, panel). A panel that loses its power (``power_off``, then
    ``power_on``) is opened again by the ``Oled`` that holds it, as on the device."""
    if controller not in SPI_ONLY:
        panel: Panel = FakePanel(controller)
        where = Connector(controller, "i2c", rotate=rotate, bus=panel, pin_factory=pin_factory)
    else:
        factory = pin_factory
        panel = FakeSsd1322(dc=lambda: bool(factory.pin(dc).state))
        where = Connector(
            controller, "spi", rotate=rotate, dc=dc, reset=reset, bus=panel, pin_factory=factory
        )
    where.open()
    return where, panel
