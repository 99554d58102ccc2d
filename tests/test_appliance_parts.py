"""The appliance test's own parts that run here too (`make appliance-test` runs the rest,
docs/appliance-test.md): its shell scripts are shellcheck-clean, and the save trap freezes
a process at the save's step it waits for, and only then."""

from __future__ import annotations

import json
import os
import signal
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
