"""The OLED: luma's real drivers, sending only what the panel does not hold yet.

luma's ``ssd1306.display()`` and ``sh1106.display()`` always push the whole frame
(1,024 bytes). ``Oled`` keeps, page by page (8 pixel rows) and column by column, what
the panel is known to hold, and sends each page only the window of columns it lacks,
through the same driver's ``command`` and ``data``. A seat locking in then costs a few
dozen bytes instead of a kilobyte.

A bus can fail. The game goes on: the problem is reported once per outage, and a write
that failed leaves its columns unknown (it may have landed in part, garbled); what got
through is not sent again. The first failure of an outage makes the whole panel unknown
(a fault may have left anything on it), so the whole frame goes again. ``show`` sends a
new frame; ``retry`` sends what is still missing, for the app to call while ``dirty``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from luma.core.device import device as LumaDevice
from luma.core.error import Error as LumaError
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from ..rules import CompanionError

# Command codes (datasheets; luma.oled.const names them the same).
COLUMNADDR, PAGEADDR = 0x21, 0x22
PAGE_START, LOW_COLUMN, HIGH_COLUMN = 0xB0, 0x00, 0x10
# Data goes out in pieces of at most one I²C block (luma's own i2c chunk size): each
# piece that gets through is known to be on the panel, whatever happens to the next.
BLOCK = 32

Page = list[int | None]  # a byte per column, top row in bit 0; None: not known


class DisplayError(CompanionError):
    """The display did not answer."""


class Oled:
    """A luma OLED device that is sent only what it lacks, and retried after faults."""

    def __init__(self, device: LumaDevice, on_error: Callable[[str], None] | None = None):
        self.device = device
        self.size = device.size
        self._on_error = on_error
        # The panels known here are sent page windows; any other device, whole frames.
        self._paged = isinstance(device, (ssd1306, sh1106))
        self._image: Image.Image | None = None  # the last frame given, for whole frames
        self._want: list[Page] = []  # that frame, page by page
        self._held: list[Page] = []  # what the panel holds, page by page
        self.failing = False

    @property
    def dirty(self) -> bool:
        """True while the panel is not known to show the last frame given."""
        return self._held != self._want

    def show(self, image: Image.Image) -> None:
        """Put ``image`` (mode "1", the display's size) on the panel."""
        image = image.convert("1")
        if self._paged:
            self._want = page_bytes(self.device.preprocess(image))
        else:  # luma's display() turns it to the panel's way itself
            self._image = image
            self._want = [list(image.tobytes())]
        if len(self._held) != len(self._want):
            self._held = [[None] * len(page) for page in self._want]
        self._flush()

    def retry(self) -> None:
        """Send what the panel still lacks of the last frame (nothing if not ``dirty``)."""
        if self.dirty:
            self._flush()

    def invalidate(self) -> None:
        """Forget what the panel shows: the next frame (or retry) is sent whole."""
        self._held = [[None] * len(page) for page in self._held]

    def _flush(self) -> None:
        problem = None
        for send in self._sends():
            try:
                send()
            except (LumaError, OSError) as e:  # the other pages may still get through
                problem = problem or e
                if not self.failing:
                    self._outage(e)
        if problem is None and self.failing:
            self.failing = False
            self._report("the display answers again")

    def _outage(self, error: Exception) -> None:
        self.failing = True
        self.invalidate()
        self._report(f"the display does not answer ({error}); the game goes on")

    def _report(self, message: str) -> None:
        if self._on_error is not None:
            self._on_error(message)

    def _sends(self) -> list[Callable[[], None]]:
        """The frame's parts, to send one by one: its pages on the panels known here,
        the whole frame through luma's own display() on any other device."""
        if self._paged:
            return [partial(self._send_page, page) for page in range(len(self._want))]
        return [self._send_whole]

    def _send_page(self, page: int) -> None:
        """Send the window of columns of ``page`` that the panel does not hold."""
        held, want = self._held[page], self._want[page]
        lacking = [x for x, (h, w) in enumerate(zip(held, want, strict=True)) if h != w]
        if not lacking:
            return
        x0, x1 = lacking[0], lacking[-1] + 1
        self._address(page, x0, x1)
        for start in range(x0, x1, BLOCK):
            end = min(start + BLOCK, x1)
            try:
                self.device.data(want[start:end])
            except (LumaError, OSError):
                held[start:end] = [None] * (end - start)  # it may have landed, garbled
                raise
            held[start:end] = want[start:end]

    def _send_whole(self) -> None:
        try:
            self.device.display(self._image)
        except (LumaError, OSError):
            self.invalidate()
            raise
        self._held = [list(page) for page in self._want]

    def _address(self, page: int, x0: int, x1: int) -> None:
        """Point the panel's RAM at columns x0..x1-1 of ``page``."""
        device = self.device
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
