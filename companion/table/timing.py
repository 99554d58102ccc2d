"""How long the table pauses by itself, in seconds."""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Timing:
    """Pauses in seconds. ``FAST`` has none: the table waits only for people."""

    supply: float = 1.5
    countdown: float = 3.0
    reveal: float = 3.0
    step: float = 3.0
    scores: float = 8.0
    message: float = 2.0

    def faster(self, speed: float) -> Timing:
        """Every pause divided by ``speed`` (the simulator's --speed, a positive number)."""
        return Timing(*(getattr(self, f.name) / speed for f in fields(self)))


TABLE = Timing()  # the device's pauses
FAST = Timing(0, 0, 0, 0, 0, 0)
