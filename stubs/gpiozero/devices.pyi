from types import TracebackType
from typing import Self

from .pins import Factory, Pin

# A GPIO as gpiozero takes it: a BCM number, or a name such as "GPIO17", "BCM17", "J8:11".
PinSpec = int | str

class GPIOBase:
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None: ...

class Device(GPIOBase):
    # On the class: the default factory of devices made without one (None until the first
    # such device, or until set in code); on a device: the factory it was made with.
    pin_factory: Factory | None
    def __init__(self, *, pin_factory: Factory | None = None) -> None: ...
    @staticmethod
    def ensure_pin_factory() -> None: ...
    @property
    def value(self) -> float: ...
    @property
    def is_active(self) -> bool: ...

class GPIODevice(Device):
    def __init__(
        self, pin: PinSpec | None = None, *, pin_factory: Factory | None = None
    ) -> None: ...
    @property
    def pin(self) -> Pin | None: ...  # None once closed
