"""The Pico pad hub's firmware (firmware/) under CPython: its logic on a simulated diode
matrix and a clock that moves only when told to. tests/test_firmware_unix.py runs the same
code under the real MicroPython unix port."""

from __future__ import annotations

import binascii
import importlib
import itertools
import json
import re
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.app.config import hub_pins

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
sys.path.insert(0, str(FIRMWARE))  # the firmware's modules import each other by bare names

import board  # noqa: E402
import hub  # noqa: E402
import main  # noqa: E402
import proto  # noqa: E402
import simboard  # noqa: E402
from debounce import Debouncer  # noqa: E402

PINS = {"rows": [2, 3, 4, 5, 6, 7], "columns": [8, 9, 10, 11, 12, 13, 14, 15]}


def line(body: bytes) -> bytes:
    """A line as the host writes it, checksummed by CPython's own CRC-16/CCITT."""
    return body + b"*%04X\n" % binascii.crc_hqx(body, 0xFFFF)


class Rig:
    """The firmware's parts as main.run() wires them, on a simulated matrix and a manual
    clock; each step() is one scan, 1 ms after the one before."""

    def __init__(self, start: int = 0, arm=None):
        self.clock = simboard.ManualClock(start)
        self.matrix = simboard.Matrix(PINS["rows"], PINS["columns"])
        self.sent = bytearray()
        self.firmware = main.Firmware(PINS, self.matrix, self.clock, self.sent.extend, arm)

    def step(self, data: bytes | None = None, scans: int = 1) -> None:
        for _ in range(scans):
            self.clock.advance(1)
            self.firmware.step(data)
            data = None

    def lines(self) -> list[bytes]:
        """The bodies sent since the last call, each line's CRC checked with CPython's."""
        raw, self.sent[:] = bytes(self.sent), b""
        bodies = []
        for text in raw.split(b"\n")[:-1]:
            body, _, crc = text.rpartition(b"*")
            assert crc == b"%04X" % binascii.crc_hqx(body, 0xFFFF), text
            bodies.append(body)
        assert raw.endswith(b"\n") or not raw
        return bodies

    def hello(self, nonce: bytes = b"5EED") -> None:
        self.step(line(b"hello 2 " + nonce))
        assert self.lines() == [b"0 hello 2 0.2.0 6 8 " + nonce]

    def press(self, seat: int, key: int, down: bool = True, scans: int = main.DEBOUNCE) -> None:
        self.matrix.press(seat, key, down)
        self.step(scans=scans)


def events(bodies: list[bytes]) -> list[bytes]:
    """The bodies without their sequence numbers."""
    return [body.split(b" ", 1)[1] for body in bodies]


# --- the line: CRC, framing, cutting bytes into lines --------------------------------------


@given(st.binary(max_size=200))
def test_the_crc_is_cpythons_crc_ccitt_false(data):
    assert proto.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_the_crc_has_the_catalogued_check_value():
    assert proto.crc16(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE's check value


def test_a_framed_line_is_body_star_crc_newline():
    assert proto.frame(b"hello 1") == line(b"hello 1")
    assert proto.unframe(line(b"hello 1")[:-1]) == (proto.GOOD, b"hello 1")


@pytest.mark.parametrize(
    ("text", "status"),
    [
        (line(b"hello 1")[:-1].replace(b"hello", b"hellp"), proto.BAD_CRC),
        (line(b"hello 1")[:-1].lower(), proto.MALFORMED),  # the CRC's hex is upper case
        (b"hello 1", proto.MALFORMED),  # no CRC
        (b"*", proto.MALFORMED),
        (line(b"hel\x01lo")[:-1], proto.MALFORMED),  # not printable
        (line(b"x" * 76)[:-1], proto.MALFORMED),  # 81 bytes
        (line(b"x" * 75)[:-1], proto.GOOD),  # 80 bytes
    ],
)
def test_a_line_is_taken_only_whole_and_printable(text, status):
    assert proto.unframe(text)[0] == status


def test_the_reader_cuts_lines_drops_a_cr_and_a_long_line_whole():
    reader = proto.LineReader()
    stream = b"ab\r\n" + b"x" * 82 + b"\ncd\n" + b"y" * 80 + b"\r\n"
    lines = [got for byte in stream if (got := reader.feed(byte)) is not None]
    assert lines == [b"ab", b"", b"cd", b"y" * 80]


# --- debouncing and the diode matrix ---------------------------------------------------------


def test_a_chattering_key_goes_down_and_up_once_each():
    heard = []
    debouncer = Debouncer(6, 5, lambda row, key, down: heard.append((row, key, down)))
    bounce = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]
    for i, level in enumerate(bounce):
        debouncer.update(2, level << 3)
        if i == 13:
            assert heard == [(2, 3, True)]  # the fifth equal reading in a row
    assert heard == [(2, 3, True), (2, 3, False)]
    assert not debouncer.busy()


def test_a_glitch_shorter_than_the_debounce_is_never_reported():
    rig = Rig()
    rig.hello()
    for _ in range(3):
        rig.press(1, 1, scans=main.DEBOUNCE - 1)
        rig.press(1, 1, down=False, scans=2)
    assert rig.lines() == []


def test_a_press_is_reported_on_the_debounces_last_scan():
    rig = Rig()
    rig.hello()
    rig.press(3, 5, scans=main.DEBOUNCE - 1)
    assert rig.lines() == []
    rig.step()
    assert rig.lines() == [b"1 down 3 5"]


def test_every_key_at_once_reads_true_on_the_diode_matrix():
    rig = Rig()
    rig.hello()
    # Three corners of a rectangle: without diodes the fourth (seat 2, key 2) would read.
    corners = [(1, 1), (1, 2), (2, 1)]
    for seat, key in corners:
        rig.matrix.press(seat, key, True)
    rig.step(scans=main.DEBOUNCE)
    assert sorted(events(rig.lines())) == [b"down 1 1", b"down 1 2", b"down 2 1"]
    everything = list(itertools.product(range(1, 7), range(1, 9)))
    for seat, key in everything:
        rig.matrix.press(seat, key, True)
    rig.step(scans=main.DEBOUNCE)
    got = events(rig.lines())
    assert sorted(got) == sorted(b"down %d %d" % k for k in everything if k not in corners)
    for seat, key in everything:
        rig.matrix.press(seat, key, False)
    rig.step(scans=main.DEBOUNCE)
    assert sorted(events(rig.lines())) == sorted(b"up %d %d" % k for k in everything)


def test_the_simulated_matrix_reads_only_the_selected_rows_keys():
    matrix = simboard.Matrix(PINS["rows"], PINS["columns"])
    matrix.press(1, 3, True)
    matrix.press(4, 8, True)
    assert matrix.columns() == 0  # no row driven: nothing reads
    matrix.select(3)
    assert matrix.columns() == 0b1000_0000
    matrix.deselect(3)
    matrix.select(0)
    assert matrix.columns() == 0b0000_0100


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        (b"press 6 8", True),
        (b"release 1 1", True),
        (b"press 7 1", False),
        (b"press 1 9", False),
        (b"press 1", False),
        (b"hold 1 1", False),
        (b"press x 1", False),
    ],
)
def test_control_lines_press_and_release_simulated_keys(text, ok):
    matrix = simboard.Matrix(PINS["rows"], PINS["columns"])
    assert simboard.control(matrix, text) is ok
    matrix.select(5)
    assert matrix.columns() == (0b1000_0000 if text == b"press 6 8" else 0)


# --- the session: hello, sequence numbers, beats, stuck keys, errors -----------------------


def test_before_any_hello_only_beats_are_sent():
    rig = Rig()
    rig.press(1, 1)
    rig.step(scans=2000)
    rig.press(1, 1, down=False)
    assert rig.lines() == [b"0 beat", b"1 beat"]


def test_keys_already_down_at_hello_are_not_reported_until_pressed_again():
    rig = Rig()
    rig.press(2, 2)
    rig.hello()
    rig.press(2, 2, down=False)
    assert rig.lines() == []
    rig.press(2, 2)
    rig.press(2, 2, down=False)
    assert rig.lines() == [b"1 down 2 2", b"2 up 2 2"]


@pytest.mark.parametrize("scans", range(1, main.DEBOUNCE))
def test_a_key_closing_as_the_hello_comes_is_held_until_it_opens(scans):
    """Closed for fewer scans than the debounce when the hello comes: it is held at the
    hello all the same, so its down is not reported when the debounce ends."""
    rig = Rig()
    rig.press(3, 7, scans=scans)
    rig.hello()
    rig.step(scans=main.DEBOUNCE * 3)
    assert rig.lines() == []
    rig.press(3, 7, down=False)
    assert rig.lines() == []  # its down was never said: no up either
    rig.press(3, 7)
    assert rig.lines() == [b"1 down 3 7"]


def test_a_key_opening_as_the_hello_comes_is_not_held():
    rig = Rig()
    rig.press(4, 1)
    rig.press(4, 1, down=False, scans=2)  # still reading down to the debouncer
    rig.hello()
    rig.step(scans=main.DEBOUNCE)
    rig.press(4, 1)
    assert rig.lines() == [b"1 down 4 1"]


def test_each_hello_is_answered_with_its_own_nonce():
    rig = Rig()
    rig.hello(b"1")
    rig.hello(b"0123456789ABCDEZ")
    rig.step(line(b"hello 2 7C0FFEE7"))
    assert rig.lines() == [b"0 hello 2 0.2.0 6 8 7C0FFEE7"]


def test_a_hello_again_restarts_the_numbers_and_forgets_the_keys_down():
    rig = Rig()
    rig.hello()
    rig.press(1, 4)
    assert rig.lines() == [b"1 down 1 4"]
    rig.hello()
    rig.press(1, 4, down=False)  # its down belonged to the old session: no up
    rig.press(1, 4)
    assert rig.lines() == [b"1 down 1 4"]


@pytest.mark.parametrize(
    ("hello", "answer"),
    [
        (b"hello 1", b"0 hello 2 0.2.0 6 8"),  # protocol 1 had no nonce
        (b"hello 3 AB12", b"0 hello 2 0.2.0 6 8 AB12"),
        (b"hello 3 with more fields AB12", b"0 hello 2 0.2.0 6 8 AB12"),  # the last echoed
        (b"hello 3 ab12", b"0 hello 2 0.2.0 6 8"),  # not a nonce: none echoed
    ],
)
def test_a_hello_with_another_protocol_is_answered_then_refused(hello, answer):
    rig = Rig()
    rig.step(line(hello))
    assert rig.lines() == [answer, b"1 error proto"]
    rig.press(1, 1)
    rig.press(1, 1, down=False)
    assert rig.lines() == []
    rig.hello()
    rig.press(1, 1)
    assert rig.lines() == [b"1 down 1 1"]


@pytest.mark.parametrize(
    ("sent", "answer"),
    [
        (b"hello 2*DEB9\n", b"error crc"),  # the CRC of "hello 1"
        (b"hello 1*0000\n", b"error crc"),
        (line(b"goodbye"), b"error unknown"),
        (line(b"hello"), b"error unknown"),
        (line(b"hello 01"), b"error unknown"),
        (line(b"hello one"), b"error unknown"),
        (line(b"hello 2"), b"error unknown"),  # ours needs a nonce
        (line(b"hello 2 abc"), b"error unknown"),  # digits and upper-case letters only
        (line(b"hello 2 " + b"A" * 17), b"error unknown"),  # 16 at most
        (line(b"hello 2 A B"), b"error unknown"),
        (line(b"hello 2  A"), b"error unknown"),
        (line(b"hello  2 A"), b"error unknown"),
    ],
)
def test_a_host_line_it_cannot_take_is_answered_with_an_error(sent, answer):
    rig = Rig()
    rig.hello()
    rig.step(sent)
    assert rig.lines() == [b"1 " + answer]
    rig.press(1, 1)  # the session goes on
    assert rig.lines() == [b"2 down 1 1"]


def test_malformed_host_lines_are_dropped_and_counted():
    rig = Rig()
    rig.hello()
    rig.step(b"\x00\xff\x03garbage\n" + b"z" * 300 + b"\n\n" + line(b"hello 1").lower())
    assert rig.lines() == []
    assert rig.firmware.hub.dropped == 4


def test_a_beat_after_a_second_without_a_line():
    rig = Rig()
    rig.hello()
    rig.step(scans=999)
    assert rig.lines() == []
    rig.step()
    assert rig.lines() == [b"1 beat"]
    rig.step(scans=500)
    rig.press(1, 2)  # a line sent: the next beat is a second after it
    rig.step(scans=999)
    assert rig.lines() == [b"2 down 1 2"]
    rig.step()
    assert rig.lines() == [b"3 beat"]


def test_the_clock_wrapping_around_changes_nothing():
    rig = Rig(start=simboard.Clock.PERIOD - 500)
    rig.hello()
    rig.step(scans=999)
    assert rig.lines() == []
    rig.step()
    assert rig.lines() == [b"1 beat"]


def test_a_key_held_ten_seconds_is_stuck_once_and_still_comes_up():
    rig = Rig()
    rig.hello()
    rig.press(4, 6)
    assert rig.lines() == [b"1 down 4 6"]
    rig.step(scans=hub.STUCK_MS - 1)
    assert b"stuck 4 6" not in events(rig.lines())
    rig.step()
    assert rig.lines() == [b"11 stuck 4 6"]  # after beats 2..10
    rig.step(scans=30_000)
    assert set(events(rig.lines())) == {b"beat"}
    rig.press(4, 6, down=False)
    assert events(rig.lines()) == [b"up 4 6"]


def test_sequence_numbers_wrap_after_65535():
    rig = Rig()
    rig.hello()
    for _ in range(65_535):
        rig.clock.advance(hub.BEAT_MS)
        rig.firmware.hub.tick()
    assert rig.lines()[-1] == b"65535 beat"
    rig.press(1, 1)
    rig.press(1, 1, down=False)
    assert rig.lines() == [b"0 down 1 1", b"1 up 1 1"]


def test_the_first_hello_arms_the_watchdog_which_every_scan_feeds():
    class Watchdog:  # stands in for machine.WDT: the Pico resets when it starves
        feeds = 0

        def feed(self):
            self.feeds += 1

    armed = []
    rig = Rig(arm=lambda: armed.append(Watchdog()) or armed[-1])
    rig.step(scans=10)
    assert armed == []  # no host yet: Ctrl-C still reaches the REPL, for mpremote
    rig.hello()
    rig.step(scans=10)
    rig.hello()
    assert len(armed) == 1 and armed[0].feeds == 12


def test_the_simulation_scans_every_millisecond_while_a_key_settles():
    rig = Rig()
    assert rig.firmware.pause() == main.IDLE_MS
    rig.press(1, 1, scans=1)
    assert rig.firmware.pause() == main.SCAN_MS == 1


# --- the pin map, the board ------------------------------------------------------------------


def test_pins_json_is_the_hub_table_of_the_pin_map():
    """firmware/pins.json is made by `make firmware/pins.json`: remake it after pins.toml."""
    assert main.load_pins(str(FIRMWARE) + "/") == hub_pins()
    assert json.loads((FIRMWARE / "pins.json").read_text()) == PINS


def test_off_a_pico_the_board_is_the_simulation():
    assert not board.PICO
    assert board.Matrix is simboard.Matrix and board.arm() is None


def test_the_protocol_and_firmware_versions():
    assert (hub.PROTOCOL, hub.FIRMWARE) == (2, "0.2.0")


def test_the_readmes_hello_is_answered_as_the_readme_says():
    readme = (FIRMWARE / "README.md").read_text()
    sent = re.search(r"s\.write\(b'(hello [^']*)\\n'\)", readme)[1].encode()
    answer = re.search(r"prints `b'(0 hello [^']*)\\n'`", readme)[1].encode()
    rig = Rig()
    rig.step(sent + b"\n")
    assert [line(body)[:-1] for body in rig.lines()] == [answer]
    assert readme.count(sent.decode()) == 2  # the hello to type in the terminal, too


def test_the_readmes_wiring_table_is_the_pin_map():
    # GP0..GP15 on the Pico's left edge, pins 1..20 with a ground every fifth pin.
    physical = [1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20]  # by GP number
    readme = (FIRMWARE / "README.md").read_text()
    table = re.findall(r"^\| (row|column) .*? \| GP(\d+) \| (\d+) \|$", readme, re.M)
    wanted = [("row", gp) for gp in PINS["rows"]] + [("column", gp) for gp in PINS["columns"]]
    assert [(kind, int(gp)) for kind, gp, _ in table] == wanted
    assert all(physical[int(gp)] == int(pin) for _, gp, pin in table)


# --- board.py's Pico side, on pins that model the wires ------------------------------------


class Wires:
    """The pads' wires as the Pico's pins see them: a column reads low when a closed key
    joins it, through its diode, to a row driven low."""

    def __init__(self):
        self.closed: set[tuple[int, int]] = set()  # (row GP, column GP)
        self.pins: dict[int, FakePin] = {}

    def level(self, gp: int) -> int:
        return (
            0
            if any(
                col == gp and self.pins[row].mode == FakePin.OPEN_DRAIN and self.pins[row].out == 0
                for row, col in self.closed
            )
            else 1
        )


class FakePin:  # stands in for machine.Pin, its level set by the wires
    IN, OUT, OPEN_DRAIN, PULL_UP = "in", "out", "open-drain", "pull-up"
    wires: Wires

    def __init__(self, gp, mode, pull=None, *, value=None):
        self.gp, self.mode, self.pull, self.out = gp, mode, pull, value
        self.wires.pins[gp] = self

    def value(self, level=None):
        if level is None:
            return self.wires.level(self.gp)
        self.out = level
        return None


@pytest.fixture
def pico(monkeypatch):
    """board.py imported as on a Pico, its machine module a model of the wires."""
    FakePin.wires = Wires()
    fed = []
    kbd = []
    machine = type(sys)("machine")
    machine.Pin = FakePin
    machine.WDT = lambda timeout: fed.append(timeout) or "dog"
    micropython = type(sys)("micropython")
    micropython.kbd_intr = kbd.append
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    monkeypatch.setattr(sys, "platform", "rp2")
    monkeypatch.setattr(time, "sleep_us", lambda us: None, raising=False)
    monkeypatch.delitem(sys.modules, "board")
    pico_board = importlib.import_module("board")
    monkeypatch.setitem(sys.modules, "board", board)  # the others keep the simulated one
    return pico_board, FakePin.wires, fed, kbd


def test_on_a_pico_rows_are_open_drain_and_columns_pulled_up(pico):
    pico_board, wires, _, _ = pico
    pico_board.Matrix(PINS["rows"], PINS["columns"])
    assert {wires.pins[gp].mode for gp in PINS["rows"]} == {FakePin.OPEN_DRAIN}
    assert {wires.pins[gp].out for gp in PINS["rows"]} == {1}  # released: floating
    assert {(wires.pins[gp].mode, wires.pins[gp].pull) for gp in PINS["columns"]} == {
        (FakePin.IN, FakePin.PULL_UP)
    }


def test_on_a_pico_the_scan_reads_each_seats_keys(pico):
    pico_board, wires, _, _ = pico
    matrix = pico_board.Matrix(PINS["rows"], PINS["columns"])
    heard = []
    debouncer = Debouncer(6, 1, lambda row, key, down: heard.append((row + 1, key + 1, down)))
    wires.closed = {(2, 8), (2, 9), (3, 8), (7, 15)}  # a rectangle's three corners, P6 key 8
    main.scan(matrix, 6, debouncer)
    assert sorted(heard) == [(1, 1, True), (1, 2, True), (2, 1, True), (6, 8, True)]
    assert {wires.pins[gp].out for gp in PINS["rows"]} == {1}  # every row released again


def test_on_a_pico_arming_stops_ctrl_c_and_starts_a_two_second_watchdog(pico):
    pico_board, _, fed, kbd = pico
    assert pico_board.PICO
    assert pico_board.arm() == "dog"
    assert (fed, kbd) == ([2000], [-1])
