"""The OLED: luma's real drivers, sending only what the panel does not hold yet.

luma's ``ssd1306.display()`` and ``sh1106.display()`` always push the whole frame
(1,024 bytes). ``Oled`` keeps what the panel is known to hold and sends only the part it
lacks, through the same driver's ``command`` and ``data``: on the SSD1306, SSD1309 and
SH1106 page by page (8 pixel rows), each page the window of columns it lacks; on the
SSD1322 one window of rows and columns (4 pixels a column address) around what changed.
A seat locking in then costs a few dozen bytes instead of a whole frame.

A bus can fail. The game goes on: the problem is reported once per outage, and a write
that failed leaves its part unknown (it may have landed in part, garbled); what got
through is not sent again. The first failure of an outage makes the whole panel unknown
(a fault may have left anything on it, its contrast too), so the whole frame and the
contrast go again. ``show`` sends a new frame; ``retry`` sends what is still missing, for
the app to call while ``dirty``.

A display may also be missing from the start (not plugged in, not powered, no I²C bus):
``Oled`` then holds a ``Connector`` in place of the device, keeps the last frame, and
each ``retry`` looks for the display again; once it answers, it gets that frame. An
``Oled`` made with a ``Connector`` (the device's way) treats a display that stops
answering the same way: the device is let go and opened again once the panel answers,
RES pulsed and the driver's set-up sent first, since a panel whose power was cut has
forgotten it (display off) and would stay black however many frames it were sent.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Protocol, Required, TypedDict, Unpack, cast

import luma.oled.device as oled_devices
from gpiozero import DigitalOutputDevice
from gpiozero.pins import Factory
from luma.core.device import device as LumaDevice
from luma.core.error import Error as LumaError
from luma.oled.device import sh1106, ssd1306, ssd1322
from PIL import Image

from ..errors import Closing, CompanionError
from .panels import PANELS, SPI_ONLY
from .pinfactory import given

if TYPE_CHECKING:  # imported where used: the serial interfaces are luma's, opened late
    from luma.core.interface.serial import i2c, spi

# Command codes (datasheets; luma.oled.const names them the same).
COLUMNADDR, PAGEADDR = 0x21, 0x22
PAGE_START, LOW_COLUMN, HIGH_COLUMN = 0xB0, 0x00, 0x10
SET_COLUMNS, SET_ROWS, WRITE_RAM = 0x15, 0x75, 0x5C  # SSD1322
NOP = 0xE3  # SSD1306, SSD1309 and SH1106 alike: a command that changes nothing
# luma's driver of each panel of the registry (``panels.PANELS``): luma names its classes
# as the controllers are named.
DRIVERS: dict[str, type[ssd1306] | type[sh1106] | type[ssd1322]] = {
    name: getattr(oled_devices, name) for name in PANELS
}
# The SPI display's D/C and reset lines (BCM): the I²C pins, which an SPI display leaves
# free. luma's own defaults, 24 and 25, are pad columns in the shipped pin map.
DC_PIN, RESET_PIN = 2, 3
# An I²C display's RES line is pulsed here (luma's i2c interface has none; its spi one
# pulses its own). The SSD1306 and SSD1309 datasheets' power-on sequence asks RES low for
# 3 µs or more once the supply is steady: 10 ms low, then 10 ms before the first command,
# leave room for a module's own filter capacitor on RES.
RESET_HOLD = RESET_SETTLE = 0.01  # seconds
CONTRAST_LEVELS = 10  # contrast(level) takes 1..10
# Data goes out in pieces of at most one I²C block (luma's own i2c chunk size): each
# piece that gets through is known to be on the panel, whatever happens to the next.
BLOCK = 32

# The panels written page by page (ssd1309 is an ssd1306 to luma); the SSD1322, row by row.
Paged = ssd1306 | sh1106
# What the panel holds of a page (a byte per column, top row in bit 0) or, on the SSD1322,
# of a pixel row (two bytes per 4 pixels, as one number); None: not known.
Band = list[int | None]


class I2cBus(Protocol):
    """An smbus2 ``SMBus`` as luma's ``i2c`` interface drives it, or a stand-in (the
    simulator's ``FakePanel``)."""

    def write_i2c_block_data(self, address: int, register: int, data: list[int], /) -> None: ...


class SpiBus(Protocol):
    """A spidev ``SpiDev`` as luma's ``spi`` interface drives it, or a stand-in (the
    simulator's ``FakeSsd1322``)."""

    max_speed_hz: int
    mode: int

    def open(self, port: int, device: int, /) -> None: ...

    def writebytes(self, data: list[int], /) -> None: ...

    def close(self) -> None: ...


class DisplayError(CompanionError):
    """The display did not answer."""


class DisplayMissing(DisplayError):
    """The display is not there, or not answering: the game can go on without it."""


class Oled:
    """A luma OLED device that is sent only what it lacks, and retried after faults."""

    def __init__(
        self, device: LumaDevice | Connector, on_error: Callable[[str], None] | None = None
    ) -> None:
        # A Connector: the display, opened already if it answered (``opened``), else
        # looked for at each retry; after an outage it is built again (``_outage``).
        self._connector = device if isinstance(device, Connector) else None
        self.device: LumaDevice | None = device.opened if isinstance(device, Connector) else device
        self.size = device.size  # the panel's: 256×64 for the SSD1322
        self._on_error = on_error
        self._image: Image.Image | None = None  # the last frame given
        self._want: list[list[int]] = []  # that frame, page by page (or row by row)
        self._held: list[Band] = []  # what the panel holds, likewise
        self._contrast: int | None = None  # the controller's level to keep, 0..255
        self._contrast_held = True
        self.failing = False
        self._found = self.device is not None  # a device opened once: a new look is a return

    @property
    def dirty(self) -> bool:
        """True while the panel is not known to show the last frame (and contrast) given."""
        return self.device is None or self._held != self._want or not self._contrast_held

    def show(self, image: Image.Image) -> None:
        """Put ``image`` on the panel: mode "1", the display's size or smaller (a smaller
        frame is shown centred)."""
        self._image = self._fit(image.convert("1"))
        if self.device is not None:
            self._plan()
        self._flush()

    def _plan(self) -> None:
        """What the panel must hold for the last frame given, band by band. The panels
        known here get windows (pages, or rows); any other, whole frames."""
        image, device = self._image, self.device
        if image is None or device is None:
            return
        if isinstance(device, Paged):
            self._want = page_bytes(device.preprocess(image))
        elif isinstance(device, ssd1322):
            self._want = row_units(device.preprocess(image))
        else:  # luma's display() turns it to the panel's way itself
            self._want = [list(image.tobytes())]
        if len(self._held) != len(self._want):
            self._held = [[None] * len(band) for band in self._want]

    def contrast(self, level: int) -> None:
        """Set the panel's contrast, 1 (dimmest) to 10 (brightest). It is kept: sent
        again once a display that stopped answering answers again."""
        if type(level) is not int or not 1 <= level <= CONTRAST_LEVELS:
            raise ValueError(f"contrast is 1..{CONTRAST_LEVELS}, not {level!r}")
        self._contrast = round(level * 255 / CONTRAST_LEVELS)
        self._contrast_held = False
        self._flush()

    def retry(self) -> None:
        """Send what the panel still lacks of the last frame (nothing if not ``dirty``)."""
        if self.dirty:
            self._flush()

    def invalidate(self) -> None:
        """Forget what the panel shows: the next frame (or retry) is sent whole."""
        self._held = [[None] * len(band) for band in self._held]
        self._contrast_held = self._contrast is None

    def _fit(self, image: Image.Image) -> Image.Image:
        """``image`` on a canvas of the panel's size, centred (128×64 on a 256×64 panel)."""
        if image.size == self.size:
            return image
        (width, height), (w, h) = self.size, image.size
        if w > width or h > height:
            raise ValueError(f"a {w}×{h} frame does not fit the {width}×{height} display")
        canvas = Image.new("1", self.size)
        canvas.paste(image, ((width - w) // 2, (height - h) // 2))
        return canvas

    def _flush(self) -> None:
        device = self.device if self.device is not None else self._connect()
        if device is None:
            return
        problem = None
        for send in self._sends(device):
            try:
                send()
            except (LumaError, OSError) as e:  # the other parts may still get through
                problem = problem or e
                if not self.failing:
                    self._outage(e)
                if self.device is None:  # to be built again: nothing more to this one
                    return
        if problem is None and self.failing:
            self.failing = False
            self._report("the display answers again")

    def _connect(self) -> LumaDevice | None:
        """Look for the missing display; once it answers, it is to get everything. The
        device, or None while it does not answer."""
        assert self._connector is not None
        try:
            device = self._connector.open()
        except DisplayError as e:
            if not self.failing:
                self._outage(e)
            return None
        again = self._found  # opened before: an outage ends, set up afresh
        self.device, self._found = device, True
        self._held, self._want = [], []
        self._plan()
        self._contrast_held = self._contrast is None
        self._report(
            "the display answers again"
            if again
            else f"the display answers: {self._connector.where}"
        )
        self.failing = False
        return device

    def _outage(self, error: Exception) -> None:
        self.failing = True
        self.invalidate()
        self._report(f"the display does not answer ({error}); the game goes on")
        if self._connector is not None and self.device is not None and not self._there():
            # Gone, not a passing glitch (a no-op is not heard either): it may have lost
            # its power, and with it its set-up (a blank panel however many frames it is
            # sent), so it is opened again once it answers, as at power-on.
            self._connector.forget()
            self.device = None

    def _there(self) -> bool:
        """Whether the panel hears a no-op: a write that failed once on a panel that
        still answers is a glitch (its bands go again), not a panel gone."""
        assert self.device is not None
        try:
            self.device.command(NOP)
        except (LumaError, OSError):
            return False
        return True

    def _report(self, message: str) -> None:
        if self._on_error is not None:
            self._on_error(message)

    def _sends(self, device: LumaDevice) -> list[Callable[[], None]]:
        """What to send to ``device``, part by part: the contrast if the panel lacks it,
        then the frame's pages, or its window of rows, or the whole frame through luma's
        own display() on any other device."""
        sends: list[Callable[[], None]] = []
        if not self._contrast_held and self._contrast is not None:  # held while None
            sends.append(partial(self._send_contrast, device, self._contrast))
        if isinstance(device, Paged):
            sends += [partial(self._send_page, device, page) for page in range(len(self._want))]
        elif isinstance(device, ssd1322):
            sends.append(partial(self._send_rows, device))
        elif self._image is not None and self._held != self._want:  # nothing wanted: no frame
            sends.append(partial(self._send_whole, device, self._image))
        return sends

    def _send_contrast(self, device: LumaDevice, level: int) -> None:
        device.contrast(level)
        self._contrast_held = True

    def _send_page(self, device: Paged, page: int) -> None:
        """Send the window of columns of ``page`` that the panel does not hold."""
        held, want = self._held[page], self._want[page]
        lacking = [x for x, (h, w) in enumerate(zip(held, want, strict=True)) if h != w]
        if not lacking:
            return
        x0, x1 = lacking[0], lacking[-1] + 1
        self._address(device, page, x0, x1)
        for start in range(x0, x1, BLOCK):
            end = min(start + BLOCK, x1)
            try:
                device.data(want[start:end])
            except (LumaError, OSError):
                held[start:end] = [None] * (end - start)  # it may have landed, garbled
                raise
            held[start:end] = want[start:end]

    def _send_rows(self, device: ssd1322) -> None:
        """Send one window around what the panel lacks (SSD1322: rows, and columns of 4
        pixels), a row of it at a time: each row that gets through is known."""
        lacking = {
            row: [x for x, (h, w) in enumerate(zip(held, want, strict=True)) if h != w]
            for row, (held, want) in enumerate(zip(self._held, self._want, strict=True))
        }
        rows = [row for row, columns in lacking.items() if columns]
        if not rows:
            return
        x0 = min(lacking[row][0] for row in rows)
        x1 = max(lacking[row][-1] for row in rows) + 1
        # luma keeps the RAM's column offset private; its own display() writes there.
        offset = device._column_offset // 4
        device.command(SET_COLUMNS, offset + x0, offset + x1 - 1)
        device.command(SET_ROWS, rows[0], rows[-1])
        device.command(WRITE_RAM)
        for row in range(rows[0], rows[-1] + 1):
            held, want = self._held[row], self._want[row]
            try:
                device.data([byte for unit in want[x0:x1] for byte in divmod(unit, 256)])
            except (LumaError, OSError):
                held[x0:x1] = [None] * (x1 - x0)
                raise
            held[x0:x1] = want[x0:x1]

    def _send_whole(self, device: LumaDevice, image: Image.Image) -> None:
        try:
            device.display(image)
        except (LumaError, OSError):
            self.invalidate()
            raise
        self._held = [list(band) for band in self._want]

    def _address(self, device: Paged, page: int, x0: int, x1: int) -> None:
        """Point the panel's RAM at columns x0..x1-1 of ``page``."""
        # luma keeps the panels' column offsets private; they are what its own
        # display() uses, so the windows here land where its full frames do.
        if isinstance(device, sh1106):
            column = device._page_address_offset + x0
            device.command(PAGE_START | page, LOW_COLUMN | column & 0x0F, HIGH_COLUMN | column >> 4)
        else:
            start = device._colstart
            device.command(COLUMNADDR, start + x0, start + x1 - 1, PAGEADDR, page, page)


def page_bytes(frame: Image.Image) -> list[list[int]]:
    """The frame as panel RAM: per 8-row page, a byte per column, top row in bit 0."""
    pages = frame.height // 8
    # Transposed, each column is a row of pixels; "1;R" packs them top pixel first.
    packed = frame.transpose(Image.Transpose.TRANSPOSE).tobytes("raw", "1;R")
    return [list(packed[page::pages]) for page in range(pages)]


# Four pixels (a nibble of a packed "1" row, the leftmost in bit 3) as SSD1322 RAM: two
# bytes, a pixel a nibble, the left one high, lit pixels at full brightness (0xF).
_FOUR = [
    (0xF000 * (n >> 3 & 1)) | (0x0F00 * (n >> 2 & 1)) | (0xF0 * (n >> 1 & 1)) | (0xF * (n & 1))
    for n in range(16)
]


def row_units(frame: Image.Image) -> list[list[int]]:
    """The frame as SSD1322 RAM: per pixel row, per 4 pixels (a column address) the two
    bytes it takes, as one 16-bit number."""
    stride = (frame.width + 7) // 8  # a packed "1" row: 8 pixels a byte, leftmost high
    packed = frame.tobytes()
    rows = []
    for row in range(frame.height):
        line = packed[row * stride : (row + 1) * stride]
        units = [_FOUR[nibble] for byte in line for nibble in (byte >> 4, byte & 0xF)]
        rows.append(units[: frame.width // 4])
    return rows


class GpioLines:
    """The few RPi.GPIO calls luma's SPI interface makes (its D/C and reset lines), on
    gpiozero output devices: the same pin factory as the rest of the table (lgpio on a
    Pi, mock pins in the simulator), and no RPi.GPIO to install."""

    OUT, LOW, HIGH = "out", False, True

    def __init__(self, pin_factory: Factory) -> None:
        self._factory = given(pin_factory, "display lines")
        self._lines: dict[int, DigitalOutputDevice] = {}

    def setup(self, pin: int, mode: str) -> None:
        if pin not in self._lines:
            self._lines[pin] = DigitalOutputDevice(pin, pin_factory=self._factory)

    def output(self, pin: int, value: object) -> None:
        self._lines[pin].value = bool(value)

    def cleanup(self, pins: object = None) -> None:
        """Release the lines. Safe to call more than once."""
        for line in self._lines.values():
            line.close()
        self._lines.clear()


class ResetI2c:
    """luma's I²C interface with the display's RES line beside it: the line stays driven
    high for as long as the interface lives (a luma device holds it), and is let go with
    the bus when the device is cleaned up."""

    def __init__(self, serial: i2c, line: DigitalOutputDevice) -> None:
        self.serial, self.line = serial, line

    def command(self, *cmd: int) -> None:
        self.serial.command(*cmd)

    def data(self, data: Sequence[int]) -> None:
        self.serial.data(data)

    def cleanup(self) -> None:
        try:
            self.serial.cleanup()
        finally:
            self.line.close()


class Where(TypedDict, total=False):
    """Where a display is, as ``Connector`` takes it: its keywords, the pin factory
    required (an SPI display's D/C and reset lines, an I²C display's RES, are its pins)."""

    port: int | None
    address: int
    rotate: int
    dc: int
    reset: int
    i2c_reset: int | None
    pin_factory: Required[Factory]
    bus: I2cBus | SpiBus | None
    sleep: Callable[[float], None]


def open_device(controller: str, interface: str, **where: Unpack[Where]) -> LumaDevice:
    """A real luma device: ``controller`` (ssd1306, ssd1309, sh1106, ssd1322) over
    ``interface`` i2c or spi, ``where`` as ``Connector`` takes it (port, address, rotate,
    an SPI display's dc and reset GPIOs, pin_factory). A display that is not there
    raises ``DisplayMissing``."""
    connector = Connector(controller, interface, **where)
    try:
        return connector.open()
    except DisplayError:
        connector.close()
        raise


class Connector(Closing):
    """A display that may not be there yet: ``open`` gives its luma device once it answers.

    Between tries the bus stays open (one file, not one per try), and the driver is built
    only once an I²C panel has acknowledged a no-op command: luma's drivers each register
    an exit hook, so a driver built at every failed try would pile up. An SPI panel
    cannot be heard; it counts as there once its bus opens. ``bus``: an SMBus (I²C) or
    SpiDev (SPI) to use in place of the system's, as the simulator's fake panels are.
    An SPI display's D/C and reset lines are pins of ``pin_factory``, luma's spi
    interface pulses that reset; an I²C display's RES line (``i2c_reset``, None: none,
    RES on an RC network of the module's) is pulsed here, low then high, before each
    try's first byte: a panel powered late is reset too. ``sleep`` times the pulse.
    """

    def __init__(
        self,
        controller: str,
        interface: str,
        *,
        port: int | None = None,
        address: int = 0x3C,
        rotate: int = 0,
        dc: int = DC_PIN,
        reset: int = RESET_PIN,
        i2c_reset: int | None = None,
        pin_factory: Factory,
        bus: I2cBus | SpiBus | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if controller not in DRIVERS:
            raise DisplayError(f"unknown display {controller!r} (known: {', '.join(DRIVERS)})")
        if interface not in ("i2c", "spi"):
            raise DisplayError(f"unknown display interface {interface!r} (known: i2c, spi)")
        if controller in SPI_ONLY and interface != "spi":
            raise DisplayError(f"the {controller} display has no {interface} interface, only spi")
        self.controller, self.interface, self.rotate = controller, interface, rotate
        self.port = (1 if interface == "i2c" else 0) if port is None else port
        self.address = address
        self._pins = (dc, reset, given(pin_factory, "display"))
        self._i2c_reset = i2c_reset
        self._sleep = sleep
        self._bus = bus
        width, height = PANELS[controller].size
        self.size = (height, width) if rotate % 2 else (width, height)  # as luma turns it
        self._serial: i2c | None = None  # the open I²C interface
        self._reset_line: DigitalOutputDevice | None = None  # an I²C display's RES
        self._gpio: GpioLines | None = None  # an SPI display's D/C and reset lines
        self.opened: LumaDevice | None = None  # the device the last ``open`` built

    @property
    def where(self) -> str:
        """The display as the config names it, for the log."""
        if self.interface == "i2c":
            return f"{self.controller} at 0x{self.address:02X} on I²C bus {self.port}"
        return f"{self.controller} on SPI bus {self.port}"

    def open(self) -> LumaDevice:
        """The display's luma device; ``DisplayMissing`` while it does not answer."""
        try:
            device = driver(self.controller, self._open_serial(), self.rotate)
        except ImportError as e:
            raise DisplayError(
                f"cannot open the {self.controller} display over {self.interface}: "
                f"{e} (pip install spidev)"
            ) from e
        except (LumaError, OSError) as e:
            raise DisplayMissing(f"{self.where}: {e}") from e
        self._serial = self._reset_line = None  # the device's own from now on
        self.opened = device
        return device

    def forget(self) -> None:
        """Let the device ``open`` built go (its bus, an I²C display's RES line), without
        a word to the panel, which no longer answers: the next ``open`` builds it again,
        reset pulse and the driver's set-up included. A panel that lost its power has
        forgotten that set-up (display off), which only the driver's start sends."""
        device, self.opened = self.opened, None
        if device is None:
            return
        # luma's exit hook for it stays (a closure of its own): at exit it finds its bus
        # closed, and swallows that. One an outage (a failed look builds none).
        serial = getattr(device, "_serial_interface", None)  # luma's: no public name
        with contextlib.suppress(Exception):  # each bus's own errors: it is let go anyway
            if serial is not None:
                serial.cleanup()

    def close(self) -> None:
        """Let the bus and lines go, unless a device was built on them. Safe to call
        more than once."""
        serial, self._serial = self._serial, None
        if serial is not None:
            serial.cleanup()
        line, self._reset_line = self._reset_line, None
        if line is not None:
            line.close()
        gpio, self._gpio = self._gpio, None
        if gpio is not None:
            gpio.cleanup()

    def _open_serial(self) -> i2c | spi | ResetI2c:
        from luma.core.interface.serial import i2c, spi

        # The bus is of the kind the interface names (the config, or the simulator, says
        # both): an SMBus over I²C, a SpiDev over SPI.
        if self.interface == "spi":
            dc, reset, factory = self._pins
            if self._gpio is None:
                self._gpio = GpioLines(factory)
            bus = cast("SpiBus | None", self._bus)
            return spi(
                spi=bus, port=self.port, device=0, gpio=self._gpio, gpio_DC=dc, gpio_RST=reset
            )
        if self._serial is None:
            smbus = cast("I2cBus | None", self._bus)
            self._serial = i2c(bus=smbus, port=self.port, address=self.address)
        line = self._reset()
        self._serial.command(NOP)  # raises unless the panel acknowledges its address
        return self._serial if line is None else ResetI2c(self._serial, line)

    def _reset(self) -> DigitalOutputDevice | None:
        """Pulse the I²C display's RES line low, then hold it high; the line, if any."""
        pin = self._i2c_reset
        if pin is None:
            return None
        if self._reset_line is None:
            try:  # high from the start: the pulse below is the only low it sees
                self._reset_line = DigitalOutputDevice(
                    pin, initial_value=True, pin_factory=self._pins[2]
                )
            except Exception as e:  # gpiozero's and each backend's own (lgpio.error...)
                raise DisplayError(
                    f"the display's RES line, GPIO {pin} ([pins] display_reset): {e}"
                ) from e
        self._reset_line.off()
        self._sleep(RESET_HOLD)
        self._reset_line.on()
        self._sleep(RESET_SETTLE)
        return self._reset_line


def driver(controller: str, serial: i2c | spi | ResetI2c, rotate: int) -> LumaDevice:
    """The luma driver of ``controller`` on ``serial``."""
    if controller == "ssd1322":  # drawn in black and white: no greyscale to convert
        return ssd1322(serial, width=256, height=64, rotate=rotate, mode="1")
    return DRIVERS[controller](serial, rotate=rotate)
