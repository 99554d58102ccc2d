from typing import Any, NamedTuple, TypeVar, overload

from . import PinInfo
from .pi import PiFactory, PiPin

class PinState(NamedTuple):
    timestamp: float  # seconds since the change before it
    state: float

class MockPin(PiPin):
    states: list[PinState]  # every change of state, kept for tests
    # The pin's own state; subclasses change it.
    _function: str
    _pull: str
    _state: float  # a bool on a MockPin, a duty cycle on a MockPWMPin
    _bounce: float | None
    _edges: str
    _last_change: float
    def __init__(self, factory: MockFactory, info: PinInfo) -> None: ...
    @property
    def factory(self) -> MockFactory: ...
    def _change_state(self, value: float) -> bool: ...  # True if it changed
    def drive_high(self) -> None: ...
    def drive_low(self) -> None: ...
    def clear_states(self) -> None: ...
    def assert_states(self, expected_states: list[float]) -> None: ...
    def assert_states_and_times(self, expected_states: list[tuple[float, float]]) -> None: ...

class MockPWMPin(MockPin): ...

_P = TypeVar("_P", bound=MockPin)

class MockFactory(PiFactory):
    pin_class: type[MockPin]
    pins: dict[PinInfo, MockPin]  # mock pins only
    def __init__(
        self, revision: str | None = None, pin_class: type[MockPin] | str | bytes | None = None
    ) -> None: ...
    def reset(self) -> None: ...
    # Keywords go to the pin class's constructor, for a pin not made yet.
    @overload
    def pin(self, name: int | str, pin_class: None = None, **kwargs: Any) -> MockPin: ...
    @overload
    def pin(self, name: int | str, pin_class: type[_P], **kwargs: Any) -> _P: ...
    @staticmethod
    def ticks() -> float: ...
    @staticmethod
    def ticks_diff(later: float, earlier: float) -> float: ...
