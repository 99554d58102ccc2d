"""Host button gestures from raw edges and time: a press, or OK held (the menu).

◀ and ▶ act when they go down. OK acts when it comes up, unless it was held for
``hold`` seconds: then the long press is the gesture, sent as soon as the time is up
(the loop wakes for it), and the release is nothing. Pure: no thread polls a button.
"""

from __future__ import annotations

from dataclasses import dataclass

from .events import HostDown, HostKey, HostPress, HostUp


@dataclass(frozen=True, slots=True)
class Keys:
    """OK's state: since when it is down (None: up), and whether its long press fired."""

    ok_since: float | None = None
    long_fired: bool = False

    def due(self, hold: float) -> float | None:
        """When the long press fires, if OK is down and it has not fired yet."""
        if self.ok_since is None or self.long_fired:
            return None
        return self.ok_since + hold


NO_KEYS = Keys()


def edge(keys: Keys, event: HostDown | HostUp, now: float, hold: float):
    """The keys after an edge, and the gesture it completes (or None)."""
    if event.key is not HostKey.OK:
        return keys, HostPress(event.key) if isinstance(event, HostDown) else None
    if isinstance(event, HostDown):
        return Keys(ok_since=now), None
    if keys.ok_since is None or keys.long_fired:  # a release after the long press
        return Keys(), None
    return Keys(), HostPress(HostKey.OK, long=now - keys.ok_since >= hold)


def elapsed(keys: Keys, now: float, hold: float):
    """The keys once ``now`` has come, and the long press if its time is up."""
    due = keys.due(hold)
    if due is None or now < due:
        return keys, None
    return Keys(keys.ok_since, long_fired=True), HostPress(HostKey.OK, long=True)
