"""Host button gestures from raw edges and time: a press, or OK held (the menu).

◀ and ▶ act when they go down. OK acts when it comes up, unless it was held for
``hold`` seconds: then the long press is the gesture, sent as soon as the time is up
(the loop wakes for it), and the release is nothing. Pure: no thread polls a button.

A button held for ``STUCK`` seconds (a shorted or jammed one) is told once, and does
nothing more until it comes up.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .events import STUCK, HostDown, HostKey, HostPress, HostUp


@dataclass(frozen=True, slots=True)
class Keys:
    """OK's state: since when it is down (None: up), and whether its long press fired;
    every button down and since when, and those told stuck."""

    ok_since: float | None = None
    long_fired: bool = False
    down: tuple[tuple[HostKey, float], ...] = ()
    stuck: tuple[HostKey, ...] = ()

    def due(self, hold: float) -> float | None:
        """When the long press fires, if OK is down and it has not fired yet."""
        if self.ok_since is None or self.long_fired:
            return None
        return self.ok_since + hold

    def stuck_due(self) -> float | None:
        """When a button down and not told stuck yet counts as stuck."""
        times = [since + STUCK for key, since in self.down if key not in self.stuck]
        return min(times, default=None)


NO_KEYS = Keys()
Gesture = tuple[Keys, HostPress | None]  # the keys after an edge or a while, and any gesture


def edge(keys: Keys, event: HostDown | HostUp, now: float, hold: float) -> Gesture:
    """The keys after an edge, and the gesture it completes (or None)."""
    keys = _track(keys, event, now)
    if event.key is not HostKey.OK:
        return keys, HostPress(event.key) if isinstance(event, HostDown) else None
    if isinstance(event, HostDown):
        return replace(keys, ok_since=now, long_fired=False), None
    since, fired = keys.ok_since, keys.long_fired
    keys = replace(keys, ok_since=None, long_fired=False)
    if since is None or fired:  # a release after the long press
        return keys, None
    return keys, HostPress(HostKey.OK, long=now - since >= hold)


def _track(keys: Keys, event: HostDown | HostUp, now: float) -> Keys:
    """The buttons down after ``event``: a release also ends its being stuck."""
    down = tuple((key, since) for key, since in keys.down if key is not event.key)
    if isinstance(event, HostDown):
        down += ((event.key, now),)
    return replace(keys, down=down, stuck=tuple(k for k in keys.stuck if k is not event.key))


def stuck(keys: Keys, now: float) -> tuple[Keys, tuple[HostKey, ...]]:
    """The keys once ``now`` has come, and the buttons that have just become stuck."""
    new = tuple(k for k, since in keys.down if k not in keys.stuck and now - since >= STUCK)
    return (replace(keys, stuck=keys.stuck + new), new) if new else (keys, ())


def elapsed(keys: Keys, now: float, hold: float) -> Gesture:
    """The keys once ``now`` has come, and the long press if its time is up."""
    due = keys.due(hold)
    if due is None or now < due:
        return keys, None
    return replace(keys, long_fired=True), HostPress(HostKey.OK, long=True)
