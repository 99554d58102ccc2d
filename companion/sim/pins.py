"""gpiozero mock pins that keep no history, for the simulator's long runs.

gpiozero's ``MockPin`` appends every state change to its ``states`` list, for tests
that assert a pin's past. The simulator toggles the matrix rows a dozen times a scan,
so that list grows by kilobytes a key press, without end. ``SimPin`` behaves the same
in every other way and remembers nothing: ``states`` stays empty.
"""

from __future__ import annotations

from time import monotonic
from typing import Any, TypeVar, overload

from gpiozero.pins.mock import MockFactory, MockPin

P = TypeVar("P", bound=MockPin)


class SimPin(MockPin):
    """A ``MockPin`` whose ``states`` history stays empty."""

    def _change_state(self, value: float) -> bool:
        if self._state == value:
            return False
        self._state = value
        self._last_change = monotonic()  # the edge's time, as the callbacks get it
        return True

    def clear_states(self) -> None:
        self.states = []


class SimFactory(MockFactory):
    """A ``MockFactory`` that makes ``SimPin``s unless told otherwise."""

    def __init__(self, revision: str | None = None) -> None:
        super().__init__(revision, pin_class=SimPin)

    @overload
    def pin(self, name: int | str, pin_class: None = None, **kwargs: Any) -> MockPin: ...

    @overload
    def pin(self, name: int | str, pin_class: type[P], **kwargs: Any) -> P: ...

    def pin(
        self, name: int | str, pin_class: type[MockPin] | None = None, **kwargs: Any
    ) -> MockPin:
        if pin_class is not None and not issubclass(pin_class, SimPin):
            raise TypeError(f"{pin_class.__name__} keeps a history; SimFactory needs a SimPin")
        return super().pin(name, pin_class, **kwargs)
