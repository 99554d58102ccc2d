from luma.core.device import _Serial, device

class sh1106(device):
    _page_address_offset: int  # the RAM column of the panel's first column
    def __init__(
        self,
        serial_interface: _Serial | None = None,
        width: int = 128,
        height: int = 64,
        rotate: int = 0,
        page_address_offset: int = 0x02,
    ) -> None: ...

class ssd1306(device):
    _colstart: int  # the RAM column of the panel's first column
    _colend: int
    def __init__(
        self,
        serial_interface: _Serial | None = None,
        width: int = 128,
        height: int = 64,
        rotate: int = 0,
    ) -> None: ...

class ssd1309(ssd1306): ...
class greyscale_device(device): ...

class ssd1322(greyscale_device):
    _column_offset: int  # in pixels: the RAM column of the panel's first, times 4
    def __init__(
        self,
        serial_interface: _Serial | None = None,
        width: int = 256,
        height: int = 64,
        rotate: int = 0,
        mode: str = "RGB",  # "1": black and white, "RGB": 16 greys
        framebuffer: object = None,
    ) -> None: ...
    # The command byte, then its arguments sent as data. luma's own signature: unlike the
    # base class's, it needs at least one byte.
    def command(self, cmd: int, *args: int) -> None: ...  # type: ignore[override]
