"""``companion run``: the device service, on the Pi's own pins and display."""

from __future__ import annotations

import signal
import traceback
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import TextIO

from ..app.config import ConfigError
from ..app.device import open_table
from ..app.effective import effective
from ..app.loop import STOP
from ..app.notify import Notifier
from ..errors import CompanionError

EXIT_BAD_INPUT = 2
EXIT_CRASHED = 1  # systemd's Restart=on-failure starts it again, on the resume screen


def run_command(config_path: str | None, *, err: TextIO) -> int:
    def report(message: str) -> None:
        err.write(f"companion: {message}\n")
        err.flush()

    # The config is checked whole before any hardware opens: a mistake in it is named
    # as such, never taken for missing hardware. The settings saved on the device apply
    # over it (a damaged settings.json is set aside and said).
    try:
        found = effective(Path(config_path) if config_path else None, report=report)
    except CompanionError as e:
        err.write(f"companion run: {e}\n")
        return EXIT_BAD_INPUT

    with ExitStack() as stack:
        try:
            table = open_table(stack, found, report)
        except ConfigError as e:  # a config mistake, never "no hardware"
            err.write(f"companion run: {e}\n")
            return EXIT_BAD_INPUT
        except Exception as e:  # off a Pi: no display, no pins. Say so, point at simulate.
            err.write(
                f"companion run: the hardware is not here ({type(e).__name__}: {str(e)[:80]}); "
                "on a machine without it, try: companion simulate --players 3\n"
            )
            return EXIT_BAD_INPUT
        web = found.config.web
        if web.enabled:
            from ..web.serve import serve_table  # off by default: nothing to load then

            try:  # the page for phones: a port in use is said, and the table plays on
                server = serve_table(table.app, web.address, web.port, found.config.state_dir)
                stack.callback(server.close)
                report(f"the page for phones is at {server.url}")
            except OSError as e:
                report(f"[web] {web.address}:{web.port}: {e.strerror or e}; no page for phones")
        signal.signal(signal.SIGTERM, lambda *_: table.app.put(STOP))
        table.app.notify = Notifier.from_environ()
        try:
            with suppress(KeyboardInterrupt):
                table.app.run()
        except Exception as e:
            _crashed(e, err)
            return EXIT_CRASHED
    return 0


def _crashed(e: Exception, err: TextIO) -> None:
    """A bug: one block in the journal, a clear line first, then where it happened. The
    game was saved after its last change, so the restart offers to resume it."""
    first = (
        f"companion run: stopped by an unexpected error ({type(e).__name__}); the game is "
        "saved and the service restarts on the resume screen. Please report this:\n"
    )
    err.write(first + "".join(traceback.format_exception(e)))
    err.flush()
