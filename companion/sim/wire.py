"""Pins pressed from outside the process: the appliance test's fingers on the host
buttons (docs/appliance-test.md).

``companion run`` with ``COMPANION_TEST_PINS`` set in its environment makes a FIFO at that
path. Nothing else sets the variable (the tests' units do); without it nothing is made.
Once a line is done, the count of lines done is written to the file beside the FIFO
(``PATH.done``): a finger waits on that before its next line, never on a window of time.

- On mock pins (``[gpio] pin_factory = "mock"``, a machine without GPIO), each line
  ``low PIN`` or ``high PIN`` (a BCM number) drives that mock pin as a finger on a
  button does: a press pulls its pin low, a release lets it go high.
- On real pins whose level is set from outside but whose edges no interrupt reports (an
  emulated Raspberry Pi: QEMU's BCM2835 GPIO block has levels but no edge detection), a
  line ``edge PIN`` hands the pin's edge handler the level the pin reads now, through
  the kernel, as the alert the block never raises would have.
"""

from __future__ import annotations

import os
import select
import threading
from collections.abc import Callable
from pathlib import Path

from gpiozero.exc import PinError
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from ..errors import Closing, clip

VARIABLE = "COMPANION_TEST_PINS"
LINE = 80  # bytes: a longer line is no command


class PinWire(Closing):
    """The FIFO at ``path`` and the thread that drives ``factory``'s pins from its lines;
    a line it cannot use is told to ``report`` and skipped."""

    def __init__(self, factory: Factory, path: Path, report: Callable[[str], None]) -> None:
        self._factory = factory
        self._report = report
        self._path = path
        self._done = done_path(path)
        self._count = 0
        path.unlink(missing_ok=True)  # a FIFO left by a killed run
        self._tell_done()
        os.mkfifo(path, 0o600)
        # Read and write: the FIFO never reads as ended when a writer closes it.
        self._fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
        self._wake_read, self._wake = os.pipe()
        self._thread = threading.Thread(target=self._run, name="pin-wire", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        pending = b""
        while True:
            ready, _, _ = select.select([self._fd, self._wake_read], [], [])
            if self._wake_read in ready:
                return
            pending += os.read(self._fd, 4096)
            *lines, pending = pending.split(b"\n")
            pending = pending[-LINE:]
            for line in lines:
                self.apply(line.decode(errors="replace"))
                self._count += 1
                self._tell_done()

    def _tell_done(self) -> None:
        """The count of lines done so far, in ``PATH.done``, replaced whole."""
        partial = self._done.with_name(self._done.name + ".tmp")
        partial.write_text(f"{self._count}\n")
        os.replace(partial, self._done)

    def apply(self, line: str) -> None:
        """Does what ``line`` says to the pin it names: ``low 21``, ``high 21`` on mock
        pins, ``edge 21`` on real ones."""
        words = line.split()
        mock = isinstance(self._factory, MockFactory)
        verbs = ("low", "high") if mock else ("edge",)
        if len(words) != 2 or words[0] not in verbs or not words[1].isdigit():
            said = "'low PIN' or 'high PIN'" if mock else "'edge PIN'"
            self._report(f"{VARIABLE}: not {said}: {clip(line)}")
            return
        number = int(words[1])
        if not mock and not self._held(number):  # a new pin would claim and reconfigure it
            self._report(f"{VARIABLE}: GPIO {number} is none of the table's pins")
            return
        try:
            pin = self._factory.pin(number)  # the one the button holds: a factory's own
        except PinError as e:
            self._report(f"{VARIABLE}: GPIO {number}: {e}")
            return
        if words[0] == "low":
            pin.drive_low()  # type: ignore[attr-defined]  # a MockPin's
        elif words[0] == "high":
            pin.drive_high()  # type: ignore[attr-defined]
        elif (handler := pin.when_changed) is not None:
            handler(self._factory.ticks(), pin.state)
        else:
            self._report(f"{VARIABLE}: GPIO {words[1]} waits for no edge")

    def _held(self, number: int) -> bool:
        """Whether the factory has made GPIO ``number``'s pin (a gpiozero factory keeps
        them by the pin's info on its board); a factory that keeps none says nothing."""
        held = getattr(self._factory, "pins", None)
        if held is None:
            return True
        found = self._factory.board_info.find_pin(number)  # where gpiozero looks it up
        return any(info in held for _, info in found)

    def close(self) -> None:
        if self._wake < 0:
            return
        os.write(self._wake, b"x")
        self._thread.join(timeout=5)
        for fd in (self._fd, self._wake_read, self._wake):
            os.close(fd)
        self._wake = -1
        self._path.unlink(missing_ok=True)
        self._done.unlink(missing_ok=True)


def done_path(path: Path) -> Path:
    """Where the wire at ``path`` says how many lines it has done."""
    return path.with_name(path.name + ".done")
