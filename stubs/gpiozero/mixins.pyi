from collections.abc import Callable

# An event handler takes no argument, or the device itself (gpiozero looks which).
Handler = Callable[[], object] | Callable[..., object]

class EventsMixin:
    # Set to a handler (or None); read back, the handler as gpiozero wrapped it.
    when_activated: Handler | None
    when_deactivated: Handler | None
    def wait_for_active(self, timeout: float | None = None) -> bool: ...
    def wait_for_inactive(self, timeout: float | None = None) -> bool: ...
    @property
    def active_time(self) -> float | None: ...
    @property
    def inactive_time(self) -> float | None: ...

class HoldMixin(EventsMixin):
    when_held: Handler | None
    hold_time: float
    hold_repeat: bool
    @property
    def is_held(self) -> bool: ...
    @property
    def held_time(self) -> float | None: ...
