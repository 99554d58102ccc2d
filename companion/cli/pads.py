"""``companion pads``: the maker's check before closing the box.

It opens the pads and the host buttons as ``companion run`` does (the config's pins, on
the one pin factory ``[gpio] pin_factory`` makes) and prints every key event as it comes,
one line each: ``P2 card 5 (Galleon) down``, ``OK up``. Each press clicks the buzzer, so
the buzzer is tried too. It ends on Ctrl-C, or after ``--count`` events.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

from gpiozero.pins import Factory

from ..app.compose import Keys, open_keys
from ..app.config import ConfigError
from ..app.device import device_pins
from ..app.effective import effective
from ..app.inputs import table_inputs
from ..errors import CompanionError
from ..hw.buttons import WiringError
from ..hw.hub import HubPads
from ..hw.pinfactory import PinsUnavailable
from ..table.events import (
    STUCK,
    Event,
    HostDown,
    HostUp,
    HubMismatch,
    HubRefused,
    KeyStuck,
    PadDown,
    PadUp,
    Tick,
)
from ..ui.catalog import Catalog, catalog
from .status import EXIT_BAD_INPUT, EXIT_NO_HARDWARE

NAME = "companion pads"
PRESS_SOUND = "click"
BUSY_HINT = "is the companion service running? sudo systemctl stop companion"
DIALOUT = "is this user in the dialout group? sudo usermod -aG dialout $USER, then log in again"


def pads_command(
    config_path: str | None,
    *,
    count: int | None,
    out: TextIO,
    err: TextIO,
    wire: Callable[[Factory], None] | None = None,
) -> int:
    """Print the key events of the pads and host buttons the config names until Ctrl-C,
    or until ``count`` of them. ``wire`` is handed the pin factory before any pin is
    opened on it (a test wires its simulated matrix there)."""

    def report(message: str) -> None:
        err.write(f"{NAME}: {message}\n")
        err.flush()

    try:
        path = Path(config_path) if config_path else None
        found = effective(path, report=report, set_aside=False)  # it only looks
    except CompanionError as e:
        err.write(f"{NAME}: {e}\n")
        return EXIT_BAD_INPUT
    words = catalog(found.settings.language)
    with ExitStack() as stack:
        try:
            factory = device_pins(found)(stack, report)
            if wire is not None:
                wire(factory)
            cfg = found.config
            inputs = table_inputs(cfg, cfg.pads.source)
            keys = open_keys(found, inputs, stack, factory, report)
        except (ConfigError, WiringError) as e:  # the settings'
            err.write(f"{NAME}: {e}\n")
            return EXIT_BAD_INPUT
        except PinsUnavailable as e:  # no GPIO here: as `companion run` says it
            err.write(f"{NAME}: {e}\n")
            return EXIT_NO_HARDWARE
        except Exception as e:  # a pin another program holds, most likely
            err.write(f"{NAME}: cannot open the pins ({type(e).__name__}: {e}); {BUSY_HINT}\n")
            return EXIT_NO_HARDWARE
        keys.beeper.set_on(True)  # the buzzer is tried too, even if the settings mute it
        events: queue.Queue[Event] = queue.Queue()
        hubs = [source for source in keys.inputs if isinstance(source, HubPads)]
        for hub in hubs:  # a hub thread's end wakes the watch, which says why
            hub.health.when_dead = lambda: events.put(Tick())
        for source in keys.inputs:  # listening before it says so: a key held at start
            source.start(events.put)  # is no press (the pad matrix waits for its release)
        _say(out, words.t("pads.ready"))
        refused = _watch(keys, words, count, out, events, hubs)
        if refused is not None:
            err.write(f"{NAME}: {refused.why}: {DIALOUT}\n")
            return EXIT_BAD_INPUT
    return 0


def _watch(
    keys: Keys,
    words: Catalog,
    count: int | None,
    out: TextIO,
    events: queue.Queue[Event],
    hubs: list[HubPads],
) -> HubRefused | None:
    """Print each event as it comes; a press clicks the buzzer. Ends early, on the
    hub's ``HubRefused``, when its port refused this user (its thread then ends); a hub
    thread ended by anything else (a bug) raises its error here."""
    seen = 0
    try:
        while count is None or seen < count:
            event = events.get()  # Ctrl-C interrupts the wait
            if isinstance(event, HubRefused):
                return event
            if isinstance(event, Tick):
                for hub in hubs:
                    if hub.health.error is not None:
                        raise hub.health.error
            if isinstance(event, PadDown | HostDown):
                keys.beeper.beep(PRESS_SOUND)
            line = describe(event, words)
            if line is not None:
                _say(out, line)
                seen += 1
    except KeyboardInterrupt:
        pass
    return None


def describe(event: Event, words: Catalog) -> str | None:
    """One line for a key event: ``P2 card 5 (Galleon) down``, ``OK up``; a key held for
    10 s is said stuck. None: not a key's event."""
    if isinstance(event, PadDown | PadUp | KeyStuck):
        edge = {PadDown: "down", PadUp: "up", KeyStuck: "stuck"}[type(event)]
        return words.t(
            f"pads.pad_{edge}",
            seat=words.seat(event.seat),
            n=event.card,
            card=words.card(event.card),
            s=f"{STUCK:g}",
        )
    if isinstance(event, HostDown | HostUp):
        edge = "down" if isinstance(event, HostDown) else "up"
        return words.t(f"pads.host_{edge}", key=words.t(f"keys.{event.key.value}"))
    if isinstance(event, HubMismatch):
        return words.t("notice.hub_protocol", hub=event.hub, ours=event.ours)
    return None


def _say(out: TextIO, line: str) -> None:
    out.write(line + "\n")
    out.flush()
