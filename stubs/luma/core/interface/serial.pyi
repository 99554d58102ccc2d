from collections.abc import Sequence
from typing import Any, Protocol

# What the interfaces drive: an smbus2 SMBus, a spidev SpiDev, the RPi.GPIO module, or
# anything with the same few calls.

class _SMBus(Protocol):
    def write_i2c_block_data(self, address: int, register: int, data: list[int], /) -> None: ...

class _SpiDev(Protocol):
    max_speed_hz: int
    mode: int
    def open(self, port: int, device: int, /) -> None: ...
    def writebytes(self, data: list[int], /) -> None: ...
    def close(self) -> None: ...

class _GPIO(Protocol):
    # luma hands back the module's own constants: OUT to setup(), LOW and HIGH to output().
    @property
    def OUT(self) -> Any: ...
    @property
    def LOW(self) -> Any: ...
    @property
    def HIGH(self) -> Any: ...
    def setup(self, pin: int, mode: Any, /) -> None: ...
    def output(self, pin: int, value: Any, /) -> None: ...
    def cleanup(self, pins: Any = ..., /) -> None: ...

class i2c:
    def __init__(self, bus: _SMBus | None = None, port: int = 1, address: int = 0x3C) -> None: ...
    def command(self, *cmd: int) -> None: ...
    def data(self, data: Sequence[int]) -> None: ...
    def cleanup(self) -> None: ...

class bitbang:
    def __init__(
        self,
        gpio: _GPIO | None = None,
        transfer_size: int = 4096,
        reset_hold_time: float = 0,
        reset_release_time: float = 0,
        *,
        SCLK: int | None = None,
        SDA: int | None = None,
        CE: int | None = None,
        DC: int | None = None,
        RST: int | None = None,
    ) -> None: ...
    def command(self, *cmd: int) -> None: ...
    def data(self, data: Sequence[int]) -> None: ...
    def cleanup(self) -> None: ...

class spi(bitbang):
    def __init__(
        self,
        spi: _SpiDev | None = None,
        gpio: _GPIO | None = None,
        port: int = 0,
        device: int = 0,
        bus_speed_hz: int = 8000000,
        transfer_size: int = 4096,
        gpio_DC: int = 24,
        gpio_RST: int = 25,
        spi_mode: int | None = None,
        reset_hold_time: float = 0,
        reset_release_time: float = 0,
    ) -> None: ...

class noop:
    def __getattr__(self, attr: str) -> object: ...
