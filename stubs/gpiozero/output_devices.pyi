from .devices import GPIODevice, PinSpec
from .pins import Factory

class OutputDevice(GPIODevice):
    def __init__(
        self,
        pin: PinSpec | None = None,
        *,
        active_high: bool = True,
        initial_value: bool | None = False,
        pin_factory: Factory | None = None,
    ) -> None: ...
    def on(self) -> None: ...
    def off(self) -> None: ...
    def toggle(self) -> None: ...
    @property
    def value(self) -> float: ...
    @value.setter
    def value(self, value: float) -> None: ...
    @property
    def active_high(self) -> bool: ...
    @active_high.setter
    def active_high(self, value: bool) -> None: ...

class DigitalOutputDevice(OutputDevice):
    def __init__(
        self,
        pin: PinSpec | None = None,
        *,
        active_high: bool = True,
        initial_value: bool | None = False,
        pin_factory: Factory | None = None,
    ) -> None: ...
    def blink(
        self, on_time: float = 1, off_time: float = 1, n: int | None = None, background: bool = True
    ) -> None: ...

class Buzzer(DigitalOutputDevice):
    def beep(
        self, on_time: float = 1, off_time: float = 1, n: int | None = None, background: bool = True
    ) -> None: ...

class PWMOutputDevice(OutputDevice):
    def __init__(
        self,
        pin: PinSpec | None = None,
        *,
        active_high: bool = True,
        initial_value: float = 0,
        frequency: float = 100,
        pin_factory: Factory | None = None,
    ) -> None: ...
    @property
    def frequency(self) -> float | None: ...
    @frequency.setter
    def frequency(self, value: float | None) -> None: ...
