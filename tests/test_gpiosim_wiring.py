"""The appliance test's gpio-sim wiring (appliance/gpiosim/wiring), its parts that need no
kernel: the commands and their answers, the keys' mask the patched driver reads, the
held buttons' pulls, ``rested`` over a fake chip (its sysfs files and GET_LINEINFO), and
the clients: a unix socket's lines, a port with no host that is opened again."""

from __future__ import annotations

import importlib.util
import os
import socket
import struct
import subprocess
import sys
import threading
import time
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parent.parent
GPIOSIM = REPO / "appliance/gpiosim"
# linux/gpio.h, independently of the wiring's own struct: GPIO_V2_GET_LINEINFO_IOCTL, and
# struct gpio_v2_line_info's offset (u32 at byte 64) and flags (u64 at byte 72)
GET_LINEINFO = 0xC100B405
INPUT, OUTPUT = 1 << 2, 1 << 3  # GPIO_V2_LINE_FLAG_INPUT, _OUTPUT
KEYS = 999  # the fake matrix_keys attribute's fd


def load() -> ModuleType:
    loader = SourceFileLoader("gpiosim_wiring", str(GPIOSIM / "wiring"))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class FakeChip:
    """What the wiring writes (sysfs attribute fd -> last text), the rows' directions
    (GET_LINEINFO's flags) and ``value`` files, and a character device (a pipe) that
    line-info events can be put on."""

    def __init__(self, wiring: ModuleType, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.w = wiring
        self.written: dict[int, str] = {}
        self.flags = dict.fromkeys(wiring.ROWS, INPUT)  # every row released
        self.lookups = 0
        self.then: list[tuple[int, dict[int, int]]] = []  # (after n lookups, flags then)
        self.values = {row: folder / f"value{row}" for row in wiring.ROWS}
        for path in self.values.values():
            path.write_text("1\n")
        self.cdev, self.events = os.pipe()
        os.set_blocking(self.cdev, False)
        monkeypatch.setattr(wiring, "write_attr", self.written.__setitem__)
        monkeypatch.setattr(wiring, "fcntl", SimpleNamespace(ioctl=self.ioctl))
        self.value_fds = {row: os.open(path, os.O_RDONLY) for row, path in self.values.items()}

    def ioctl(self, fd: int, request: int, buffer: bytearray) -> None:
        assert (fd, request, len(buffer)) == (self.cdev, GET_LINEINFO, 256)
        self.lookups += 1
        while self.then and self.lookups >= self.then[0][0]:
            self.flags.update(self.then.pop(0)[1])
        (offset,) = struct.unpack_from("I", buffer, 64)
        struct.pack_into("Q", buffer, 72, self.flags[offset])

    def drive(self, *rows: int) -> None:
        """Rows driven low (outputs at 0), the others released, with a stale 0 in their
        ``value`` as gpio-sim leaves it."""
        for row in self.w.ROWS:
            self.flags[row] = OUTPUT if row in rows else INPUT
            self.values[row].write_text("0\n")

    def wiring(self) -> object:
        pull = {n: 100 + n for n in range(self.w.LINES)}
        return self.w.Wiring(self.cdev, pull, self.value_fds, KEYS)

    def pull(self, line: int) -> str:
        return self.written[100 + line]

    def close(self) -> None:
        for fd in (self.cdev, self.events, *self.value_fds.values()):
            os.close(fd)


@pytest.fixture
def w() -> ModuleType:
    return load()


@pytest.fixture
def chip(w, tmp_path, monkeypatch):
    fake = FakeChip(w, tmp_path, monkeypatch)
    yield fake
    fake.close()


def test_the_keys_mask_has_a_bit_per_seat_and_card(w):
    assert w.key_mask([]) == 0
    assert w.key_mask([(1, 1)]) == 1
    assert w.key_mask([(3, 4)]) == 0x80000  # row 2, column 3: what the guest read
    assert w.key_mask([(6, 8), (1, 2)]) == (1 << 47) | 2


def test_press_and_release_write_the_held_keys_to_the_driver(chip):
    wiring = chip.wiring()
    assert wiring.command("press 3 4") == "ok press 3 4"
    assert chip.written[KEYS] == "0x80000"
    assert wiring.command("press 1 1") == "ok press 1 1"
    assert chip.written[KEYS] == "0x80001"
    assert wiring.command("release 3 4") == "ok release 3 4"
    assert wiring.command("release 3 4") == "ok release 3 4"  # not held: nothing changes
    assert chip.written[KEYS] == "0x1"


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("press 7 1", "no such seat or card"),
        ("press 0 1", "no such seat or card"),
        ("release 1 9", "no such seat or card"),
        ("press 1", "not a command"),
        ("press a b", "not a command"),
        ("low 5", "not a line the wiring drives"),  # a row: the companion's
        ("high 54", "not a line the wiring drives"),
        ("low", "not a command"),
        ("jump 1", "not a command"),
        ("quit now", "not a command"),
        ("rested -1", "not a command"),
        ("rested nan", "not a command"),
        ("rested 1 2", "not a command"),
        ("stats", "not a command"),  # the user-space modes' lag statistics: gone
    ],
)
def test_what_is_no_command_is_answered_with_why_and_changes_nothing(chip, line, why):
    wiring = chip.wiring()
    assert wiring.command(line) == f"error {line}: {why}"
    assert chip.written == {}


def test_low_holds_a_line_and_high_lets_it_go(chip):
    wiring = chip.wiring()
    assert wiring.command("low 21") == "ok low 21"
    assert chip.pull(21) == "pull-down"
    assert chip.pull(4) == "pull-up"  # the columns stay pulled up: the driver moves them
    assert wiring.command("high 21") == "ok high 21"
    assert chip.pull(21) == "pull-up"
    assert wiring.command("low 2") == "ok low 2"  # neither a column nor a button
    assert wiring.command("high 2") == "ok high 2"
    assert chip.pull(2) == "pull-up"


def test_a_held_button_a_program_requests_with_a_bias_is_held_again(w, chip):
    wiring = chip.wiring()
    wiring.command("low 21")
    chip.written[121] = "pull-up"  # as the kernel does when lgpio requests it pulled up
    info = w.INFO.pack(b"GPIO21", b"lgpio", 21, 0, INPUT)
    os.write(chip.events, struct.pack("256sQI20x", info, 1, 1))  # a line-info event
    wiring.on_changes()
    assert chip.pull(21) == "pull-down"


def test_rested_answers_once_every_row_is_driven_at_once(w, chip):
    wiring = chip.wiring()
    chip.drive(5)  # scanning: one row driven
    chip.then.append((40, dict.fromkeys(w.ROWS, OUTPUT)))  # then at rest: all
    assert wiring.command("rested 10") == "ok rested 10"
    assert chip.lookups >= 40
    assert wiring.command("rested") == "ok rested"  # at rest already: at once


@pytest.mark.parametrize("driven", [(5, 6, 13, 19, 26), ()])
def test_rested_is_an_error_after_its_limit_while_a_row_is_released(chip, driven):
    """A released row still reads 0 in ``value``: only its direction tells; a rest
    beside a stuck key (every row but its own) is no rest."""
    wiring = chip.wiring()
    chip.drive(*driven)
    started = time.monotonic()
    answer = wiring.command("rested 0.2")
    assert answer == "error rested 0.2: the rows not all driven in 0.2 s"
    assert 0.2 <= time.monotonic() - started < 5
    assert chip.lookups >= 10  # it kept looking, every 10 ms or so


def test_rested_serves_line_info_events_while_it_waits(w, chip):
    wiring = chip.wiring()
    wiring.command("low 21")
    chip.written[121] = "pull-up"
    info = w.INFO.pack(b"GPIO21", b"lgpio", 21, 0, INPUT)
    os.write(chip.events, struct.pack("256sQI20x", info, 1, 1))
    assert wiring.command("rested 0.1").startswith("error rested 0.1")
    assert chip.pull(21) == "pull-down"


def test_the_matrix_parameters_are_checked(w, tmp_path):
    (tmp_path / "matrix_rows").write_text("5,6,13,19,26,16\n")
    (tmp_path / "matrix_columns").write_text("4,17,27,22,23,24,25,12\n")
    w.check_matrix(tmp_path)
    (tmp_path / "matrix_columns").write_text("\n")  # loaded without the matrix
    with pytest.raises(SystemExit, match="matrix_columns is '', not 4,17,27"):
        w.check_matrix(tmp_path)
    with pytest.raises(SystemExit, match="matrix_rows"):
        w.check_matrix(tmp_path / "no module")


def test_a_port_that_reads_as_closed_is_opened_again_and_answered(w, tmp_path, monkeypatch):
    """A regular file reads as a port with no host does (an end of file), then as one
    whose host wrote a command."""
    monkeypatch.setattr(w, "REOPEN", 0.01)
    port = tmp_path / "port"
    port.write_bytes(b"")
    clients = w.Clients()
    clients.open_port(str(port))
    (fd,) = clients.wait()
    assert clients.lines(fd) == []  # closed, not dropped
    assert list(clients.closed) == [str(port)] and not clients.peers
    port.write_bytes(b"press 1 1\n")
    for _ in range(100):
        if ready := clients.wait():
            break
    (fd,) = ready
    assert clients.lines(fd) == ["press 1 1"]
    clients.reply(fd, "ok press 1 1")
    assert port.read_bytes() == b"press 1 1\nok press 1 1\n"


def test_a_missing_port_is_tried_again_and_said_once(w, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(w, "REOPEN", 0.01)
    clients = w.Clients()
    clients.open_port(str(tmp_path / "port"))
    for _ in range(5):
        clients.wait()
        time.sleep(0.01)
    assert list(clients.closed) == [str(tmp_path / "port")]
    assert capsys.readouterr().err.count("trying again") == 1
    (tmp_path / "port").write_bytes(b"quit\n")
    for _ in range(100):
        if ready := clients.wait():
            break
    assert [clients.lines(fd) for fd in ready] == [["quit"]]


def test_commands_over_the_socket_until_quit(chip, tmp_path):
    path = str(tmp_path / "wiring.sock")
    clients = chip.w.Clients(path)
    served = threading.Thread(target=chip.w.serve, args=(chip.wiring(), clients), daemon=True)
    served.start()
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(10)
        sock.connect(path)
        answers = sock.makefile("r")
        sock.sendall(b"press 2 3\nlow 21\nre")  # a command may come in pieces
        assert answers.readline() == "ok press 2 3\n"
        assert answers.readline() == "ok low 21\n"
        sock.sendall(b"lease 2 3\n\nnonsense\nquit\n")
        assert answers.readline() == "ok release 2 3\n"
        assert answers.readline() == "error nonsense: not a command\n"
        assert answers.readline() == "ok quit\n"
    served.join(10)
    assert not served.is_alive()
    assert chip.written[KEYS] == "0x0"


@pytest.mark.slow
def test_it_is_lint_clean():
    bin_ = Path(sys.executable).parent
    for command in (
        [bin_ / "shellcheck", "-x", "--severity=style", "build.sh"],
        [bin_ / "ruff", "check", "--no-cache", "wiring"],
        [bin_ / "ruff", "format", "--check", "--no-cache", "wiring"],
    ):
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=GPIOSIM)
        assert done.returncode == 0, done.stdout + done.stderr
    assert all(os.access(GPIOSIM / name, os.X_OK) for name in ("build.sh", "wiring"))
