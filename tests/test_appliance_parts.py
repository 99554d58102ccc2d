"""The appliance test's own parts that run here too (`make appliance-test` runs the rest,
docs/appliance-test.md): its shell scripts are shellcheck-clean, and the save trap freezes
a process at the save's step it waits for, and only then."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
APPLIANCE = REPO / "appliance"
SHELL = ("image.sh", "host-tools.sh", "guest/hub-gadget")
WAIT = 10.0  # seconds: far beyond a healthy answer, short of a hung test


@pytest.mark.slow
def test_its_shell_scripts_are_shellcheck_clean():
    shellcheck = Path(sys.executable).parent / "shellcheck"
    done = subprocess.run(
        [str(shellcheck), "-x", "--severity=style", *SHELL],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=APPLIANCE,
    )
    assert done.returncode == 0, done.stdout
    assert all(os.access(APPLIANCE / name, os.X_OK) for name in SHELL)


def trap(folder: Path, pid: int, moment: str) -> subprocess.Popen:
    started = subprocess.Popen(
        [sys.executable, str(APPLIANCE / "guest/save-trap"), str(folder), str(pid), moment, "20"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert started.stdout is not None
    assert json.loads(started.stdout.readline()) == {"watching": moment}
    return started


def stopped(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T"


@pytest.mark.parametrize(
    ("moment", "files"),
    [
        ("temp", ["game.json", "game.json.tmp"]),
        ("between", ["game.json.tmp", "game.prev.json"]),
    ],
)
def test_the_save_trap_freezes_the_saver_at_its_moment(tmp_path, moment, files):
    (tmp_path / "game.json").write_text("{}")
    saver = subprocess.Popen(["sleep", "60"])
    try:
        watching = trap(tmp_path, saver.pid, moment)
        (tmp_path / "other.tmp").write_text("")  # not the save's: nothing happens
        (tmp_path / "other.tmp").rename(tmp_path / "other.json")
        (tmp_path / "other.json").unlink()
        assert not stopped(saver.pid)
        (tmp_path / "game.json.tmp").write_text("{")  # the save's steps, as state.py takes them
        if moment == "between":
            (tmp_path / "game.json").rename(tmp_path / "game.prev.json")
        out, _ = watching.communicate(timeout=WAIT)
        assert json.loads(out) == {"frozen": moment, "files": files}
        assert watching.returncode == 0 and stopped(saver.pid)
    finally:
        saver.send_signal(signal.SIGKILL)
        saver.wait(WAIT)


def test_the_save_trap_gives_up_after_its_time(tmp_path):
    done = subprocess.run(
        [sys.executable, str(APPLIANCE / "guest/save-trap"), str(tmp_path), "1", "temp", "0.2"],
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == '{"error": "no temp within 0.2 s"}'


def test_a_button_pressed_through_the_fifo_is_one_press_however_late_the_service_reads(
    tmp_path,
):
    """press-button writes the release only once the press was read, held at least its
    hold: the service's real FIFO (sim/wire.py) sees one down and one up on a debounced
    button, never the two lines at once (a bounce, the release lost: OK held, the menu)."""
    from gpiozero import Button
    from gpiozero.pins.mock import MockFactory

    from companion.hw.buttons import BOUNCE_TIME
    from companion.sim.wire import PinWire

    factory, said = MockFactory(), []
    fifo = tmp_path / "pins"
    button = Button(21, pull_up=True, bounce_time=BOUNCE_TIME, pin_factory=factory)
    edges: list[str] = []
    button.when_pressed = lambda: edges.append("down")
    button.when_released = lambda: edges.append("up")
    try:
        with PinWire(factory, fifo, said.append):
            for _ in range(2):
                done = subprocess.run(
                    [sys.executable, str(APPLIANCE / "guest/press-button"), str(fifo), "21"],
                    capture_output=True, text=True, timeout=WAIT,
                )  # fmt: skip
                assert done.returncode == 0, done.stderr
        assert edges == ["down", "up", "down", "up"] and said == []
    finally:
        button.close()
        factory.reset()


def test_the_hub_wire_relays_both_ways_and_reads_the_hubs_key_reports(tmp_path):
    """The real firmware (MicroPython unix port) behind the appliance's relay: a host's
    hello reaches it, its answer and key lines come back whole, and the relay counts the
    keys it reported down and up, so a release can wait for the hub's ``up``."""
    sys.path.insert(0, str(APPLIANCE))
    from hubwire import start_firmware

    from companion.hw import hublink

    qemu, host = socket.socketpair()  # QEMU's end of the line, and the guest's host
    firmware, wire, keys = start_firmware(qemu, subprocess.DEVNULL)  # as both tests start it
    heard = hublink.Lines()
    host.settimeout(WAIT)

    def said() -> list:
        return [hublink.decode(line) for line in heard.feed(host.recv(4096))]

    try:
        host.sendall(hublink.hello("N0NCE"))
        lines: list = []
        while not any(isinstance(m, hublink.Hello) for m in lines):
            lines += said()
        os.write(keys, b"press 2 5\n")
        while not any(isinstance(m, hublink.Down) for m in lines):
            lines += said()
        assert wire.downs[(2, 5)] == 1 and wire.ups[(2, 5)] == 0
        os.write(keys, b"release 2 5\n")
        wire.wait_up((2, 5), 0, WAIT)
        while not any(isinstance(m, hublink.Up) for m in lines):
            lines += said()  # the up the relay counted is on its way to the guest too
        with pytest.raises(TimeoutError):
            wire.wait_up((2, 5), 1, 0.05)
    finally:
        os.close(keys)
        wire.close()
        host.close()
        firmware.wait(WAIT)
