# The hub's one door to the hardware: the matrix pins, the serial port, the clock and the
# watchdog. On a Pico (sys.platform "rp2") they are machine's; anywhere else simboard.py's
# simulated parts. Every other module reaches the hardware through the names defined here:
#   Matrix(rows, columns)  select(row), deselect(row), columns() -> bits of closed keys
#   Port(matrix)           read() -> bytes or None, write(bytes), wait(ms)
#   clock                  ticks_ms(), ticks_diff(a, b)
#   arm()                  production mode: Ctrl-C is data, the watchdog runs; -> it or None

import sys

PICO = sys.platform == "rp2"
WATCHDOG_MS = 2000
# A released column line climbs back through its pull-up before the next row is read:
# long enough on the Pico's own pull-ups alone (up to 80 kOhm, RP2040 datasheet) with six
# 3 m cables (hardware/README.md's cable table), so a hub built without the 10 kOhm
# resistors leaks no card either. 6 rows: 3 ms of each scan (the Pico scans always).
SETTLE_US = 500

if PICO:
    import select
    import time

    import micropython
    from machine import WDT, Pin

    clock = time

    class Matrix:
        def __init__(self, rows, columns):
            # Open drain: a released row floats, so even a pad without its diodes shorts
            # no two outputs.
            self._rows = [Pin(pin, Pin.OPEN_DRAIN, value=1) for pin in rows]
            self._columns = [Pin(pin, Pin.IN, Pin.PULL_UP) for pin in columns]

        def select(self, row):
            self._rows[row].value(0)
            time.sleep_us(SETTLE_US)

        def deselect(self, row):
            self._rows[row].value(1)

        def columns(self):
            columns = self._columns
            low = 0
            for i in range(len(columns)):
                if not columns[i].value():
                    low |= 1 << i
            return low

    class Port:
        """USB CDC: stdin and stdout, read without blocking."""

        def __init__(self, matrix):
            self._in = sys.stdin.buffer
            self._out = sys.stdout.buffer
            self._poll = select.poll()
            self._poll.register(sys.stdin, select.POLLIN)

        def read(self):
            data = None
            for _ in range(64):  # a flood of bytes may not starve the scan
                if not self._ready():
                    break
                byte = self._in.read(1)
                data = byte if data is None else data + byte
            return data

        def _ready(self):
            for _ in self._poll.ipoll(0):  # ipoll: no list allocated each scan
                return True
            return False

        def write(self, data):
            self._out.write(data)

        def wait(self, ms):
            # The keys are real: scan again after 1 ms whatever ms says (a pass, settling
            # included, is ~4.5 ms: main.DEBOUNCE says what that makes of a press).
            time.sleep_ms(1)

    def arm():
        micropython.kbd_intr(-1)  # a 0x03 from the host is data now, not a KeyboardInterrupt
        return WDT(timeout=WATCHDOG_MS)

else:
    from simboard import Matrix, Port, arm, clock  # noqa: F401  (board's names, simulated)
