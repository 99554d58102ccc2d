"""``serve_table``: the page for a running table (the device's app or the simulator's)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from ..table import Flow, View, public_view
from ..table.events import Event
from ..ui.catalog import languages
from .server import Table, WebServer


class Running(Protocol):
    """What the server needs of the app: its queue, its flow, its watchers."""

    flow: Flow
    watchers: list[Callable[[View], None]]

    def put(self, event: Event) -> None: ...


def serve_table(
    app: Running,
    address: str,
    port: int,
    state_dir: Path | None,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> WebServer:
    """A server for ``app`` on ``address``:``port``, told every new view from now on
    (and the one on screen); stop it with ``close``. OSError when the port is taken."""
    table = Table(app.put, lambda: app.flow.prefs, tuple(languages()), state_dir)
    server = WebServer(table, address, port, clock=clock)
    app.watchers.append(server.publish)
    if server.latest()[0] == 0:  # nothing new drawn yet: the view on screen now
        server.publish(public_view(app.flow, clock()))
    return server
