import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

class GPIOThread(threading.Thread):
    stopping: threading.Event
    def __init__(
        self,
        target: Callable[..., object],
        args: Iterable[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        name: str | None = None,
    ) -> None: ...
    def stop(self, timeout: float = 10) -> None: ...
