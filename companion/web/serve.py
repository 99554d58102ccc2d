"""``serve_table``: the page for a running table (the device's app or the simulator's)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from ..game.settings import DeviceSettings
from ..table import View
from ..table.events import Event
from ..ui.catalog import languages
from .server import Table, WebServer


class Shown:
    """What the app tells the page (a watcher of the app): each new view, published to
    the page's followers, and the settings in force with it, for its settings tab."""

    def __init__(self, prefs: DeviceSettings):
        self.prefs = prefs
        self.server: WebServer | None = None

    def __call__(self, view: View, prefs: DeviceSettings) -> None:
        self.prefs = prefs
        if self.server is not None:
            self.server.publish(view)

    def settings(self) -> DeviceSettings:
        return self.prefs


def serve_table(
    put: Callable[[Event], None],
    address: str,
    port: int,
    state_dir: Path | None,
    prefs: DeviceSettings,
    *,
    clock: Callable[[], float] = time.monotonic,
    volume: bool = True,
) -> tuple[WebServer, Shown]:
    """A server on ``address``:``port`` that sends what the page asks to ``put`` (the
    loop's queue), and the watcher to hand the app: the server shows every view the app
    tells it from then on. Stop it with ``close``. OSError when the port is taken.
    ``volume``: the table's buzzer has a volume to set (else the page offers none)."""
    shown = Shown(prefs)
    table = Table(put, shown.settings, tuple(languages()), state_dir, volume)
    shown.server = WebServer(table, address, port, clock=clock)
    return shown.server, shown
