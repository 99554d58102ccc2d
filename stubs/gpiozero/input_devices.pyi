from .devices import GPIODevice, PinSpec
from .mixins import EventsMixin, Handler, HoldMixin
from .pins import Factory

class InputDevice(GPIODevice):
    def __init__(
        self,
        pin: PinSpec | None = None,
        *,
        pull_up: bool | None = False,
        active_state: bool | None = None,
        pin_factory: Factory | None = None,
    ) -> None: ...
    @property
    def pull_up(self) -> bool | None: ...

class DigitalInputDevice(EventsMixin, InputDevice):
    def __init__(
        self,
        pin: PinSpec | None = None,
        *,
        pull_up: bool | None = False,
        active_state: bool | None = None,
        bounce_time: float | None = None,
        pin_factory: Factory | None = None,
    ) -> None: ...

class Button(HoldMixin, DigitalInputDevice):
    def __init__(
        self,
        pin: PinSpec | None = None,
        *,
        pull_up: bool | None = True,
        active_state: bool | None = None,
        bounce_time: float | None = None,
        hold_time: float = 1,
        hold_repeat: bool = False,
        pin_factory: Factory | None = None,
    ) -> None: ...
    # Aliases gpiozero sets on the class.
    @property
    def is_pressed(self) -> bool: ...
    when_pressed: Handler | None
    when_released: Handler | None
    def wait_for_press(self, timeout: float | None = None) -> bool: ...
    def wait_for_release(self, timeout: float | None = None) -> bool: ...
