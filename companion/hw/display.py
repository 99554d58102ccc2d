"""The OLED: luma's real drivers, sending only the part of a frame that changed.

luma's ``ssd1306.display()`` and ``sh1106.display()`` always push the whole frame
(1,024 bytes). ``Oled.show`` compares the new frame with the one on the panel and
sends just the changed window, through the same driver's ``command`` and ``data``:
a column/page window on the SSD1306, the changed pages from the changed column on
the SH1106. A seat locking in then costs a few dozen bytes instead of a kilobyte.

If the display stops answering, the game goes on: ``show`` reports the problem once,
and redraws in full as soon as the display answers again.
"""

from __future__ import annotations

from collections.abc import Callable

from luma.core.device import device as LumaDevice
from luma.core.error import Error as LumaError
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageChops

from ..rules import CompanionError

# Command codes (datasheets; luma.oled.const names them the same).
COLUMNADDR, PAGEADDR = 0x21, 0x22
PAGE_START, LOW_COLUMN, HIGH_COLUMN = 0xB0, 0x00, 0x10


class DisplayError(CompanionError):
    """The display did not answer."""


class Oled:
    """A luma OLED device that is sent only what changed."""

    def __init__(self, device: LumaDevice, on_error: Callable[[str], None] | None = None):
        self.device = device
        self.size = device.size
        self._on_error = on_error
        self._shown: Image.Image | None = None  # what the panel shows, None: unknown
        self.failing = False

    def invalidate(self) -> None:
        """Forget what the panel shows: the next frame is sent whole."""
        self._shown = None

    def show(self, image: Image.Image) -> None:
        """Put ``image`` (mode "1", the display's size) on the panel."""
        frame = self.device.preprocess(image.convert("1"))
        try:
            self._send(frame)
        except (LumaError, OSError) as e:
            self._shown = None  # unknown now: the next frame goes out whole
            if not self.failing and self._on_error is not None:
                self._on_error(f"the display does not answer ({e}); the game goes on")
            self.failing = True
            return
        if self.failing and self._on_error is not None:
            self._on_error("the display answers again")
        self.failing = False
        self._shown = frame

    def _send(self, frame: Image.Image) -> None:
        if self._shown is None:
            box = (0, 0, *frame.size)
        else:
            box = ImageChops.difference(self._shown, frame).getbbox()
            if box is None:
                return
        x0, y0, x1, y1 = box
        pages = range(y0 // 8, (y1 - 1) // 8 + 1)
        device = self.device
        # luma keeps the panels' column offsets private; they are what its own
        # display() uses, so the windows here land where its full frames do.
        if isinstance(device, sh1106):
            offset = device._page_address_offset
            for page in pages:
                column = offset + x0
                device.command(
                    PAGE_START | page, LOW_COLUMN | column & 0x0F, HIGH_COLUMN | column >> 4
                )
                device.data(page_bytes(frame, x0, x1, page))
        elif isinstance(device, ssd1306):
            start = device._colstart
            device.command(COLUMNADDR, start + x0, start + x1 - 1, PAGEADDR, pages[0], pages[-1])
            data = bytearray()
            for page in pages:
                data += page_bytes(frame, x0, x1, page)
            device.data(data)
        else:  # other luma devices: their own display(), whole frames
            device.display(frame)


def page_bytes(frame: Image.Image, x0: int, x1: int, page: int) -> bytearray:
    """Columns x0..x1-1 of one 8-row page, a byte per column, top row in bit 0."""
    px = frame.load()
    top = page * 8
    out = bytearray(x1 - x0)
    for i, x in enumerate(range(x0, x1)):
        byte = 0
        for bit in range(8):
            if px[x, top + bit]:
                byte |= 1 << bit
        out[i] = byte
    return out


def open_device(controller: str, interface: str, **options: int) -> LumaDevice:
    """A real luma device: ``controller`` ssd1306 or sh1106 over ``interface`` i2c or spi."""
    from luma.core.interface.serial import i2c, spi

    drivers = {"ssd1306": ssd1306, "sh1106": sh1106}
    if controller not in drivers:
        raise DisplayError(f"unknown display {controller!r} (known: ssd1306, sh1106)")
    try:
        if interface == "i2c":
            serial = i2c(port=options.get("port", 1), address=options.get("address", 0x3C))
        elif interface == "spi":
            serial = spi(port=options.get("port", 0), device=options.get("device", 0))
        else:
            raise DisplayError(f"unknown display interface {interface!r} (known: i2c, spi)")
        return drivers[controller](serial, rotate=options.get("rotate", 0))
    except (LumaError, OSError) as e:
        raise DisplayError(f"cannot open the {controller} display over {interface}: {e}") from e


def fake_device(controller: str = "ssd1306", rotate: int = 0):
    """A real luma driver on a ``FakePanel`` bus: (device, panel)."""
    from luma.core.interface.serial import i2c

    from .panel import FakePanel

    panel = FakePanel(controller)
    drivers = {"ssd1306": ssd1306, "sh1106": sh1106}
    return drivers[controller](i2c(bus=panel), rotate=rotate), panel
