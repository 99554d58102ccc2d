# The Pico pad hub's firmware: scans the pads' diode matrix, debounces each key and tells the
# host over USB serial (PROTOCOL.md). On a Pico it runs at boot (main.py). Elsewhere (the
# simulator, tests) it is started as
#
#   HUB_KEYS_FD=<fd> micropython firmware/main.py      (cwd: any; pins.json is found
#                                                       beside this file)
#
# stdin and stdout: the serial port, one end of a pty in raw mode (companion/sim/hub.py
# gives it the master and the host opens the slave, as it opens /dev/ttyACM0 on a Pi; the
# tests give it the slave). Make it raw before starting: one that still echoes is made raw
# here, which flushes what the host already wrote;
# <fd>: an inherited pipe (pass_fds) of control lines "press SEAT KEY\n" and
# "release SEAT KEY\n" (SEAT 1..6, KEY 1..8). It exits with status 0 when the pty's other
# side closes. `python3 firmware/main.py` runs the same code under CPython.

import json

import board
from debounce import Debouncer
from hub import Hub
from scan import scan

# Equal readings in a row before a change is said. On the Pico a scan is ~4.5 ms (6 rows
# of board.SETTLE_US, 500 µs, then its 1 ms wait), and it scans always: a press is said
# some 20-25 ms after its contact settles.
DEBOUNCE = 5
SCAN_MS = 1
IDLE_MS = 20  # the simulation's wait while no key changes (its keys wake it anyway)


def load_pins(folder):
    """The hub's pins (``{"rows": [...], "columns": [...]}``, Pico GP numbers)."""
    with open(folder + "pins.json") as f:
        return json.load(f)


class Firmware:
    """The parts wired together; ``step()`` is one pass of the main loop."""

    def __init__(self, pins, matrix, clock, write, arm=None):
        self.rows = len(pins["rows"])
        self.matrix = matrix
        self.watchdog = None
        self._arm = arm
        columns = len(pins["columns"])
        self.hub = Hub(self.rows, columns, clock, write, self._armed, self._reading)
        self.debouncer = Debouncer(self.rows, DEBOUNCE, self.hub.key)

    def _armed(self):
        # The first hello puts the hub in production; until then Ctrl-C still reaches the
        # REPL, so mpremote can stop a hub that no host has spoken to (firmware/README.md).
        if self._arm is not None:
            self.watchdog = self._arm()
            self._arm = None

    def _reading(self, row):
        return self.debouncer.reading(row)

    def step(self, data=None):
        """Takes the host's bytes (if any), scans once, says what is due; feeds the dog."""
        if data:
            self.hub.receive(data)
        scan(self.matrix, self.rows, self.debouncer)
        self.hub.tick()
        if self.watchdog is not None:
            self.watchdog.feed()

    def pause(self):
        """How long the loop may wait before the next scan, in ms."""
        return SCAN_MS if self.debouncer.busy() else IDLE_MS


def _folder():
    path = globals().get("__file__", "")
    return path[: path.rfind("/") + 1]


def run():
    pins = load_pins(_folder())
    matrix = board.Matrix(pins["rows"], pins["columns"])
    port = board.Port(matrix)
    firmware = Firmware(pins, matrix, board.clock, port.write, board.arm)
    while True:
        firmware.step(port.read())
        port.wait(firmware.pause())


if __name__ == "__main__":
    run()
