"""One writer per state folder: while a table (another process) holds the folder, a second
table or a writing command is refused in one line naming that process, and changes
nothing; the commands that only read go on."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from devices import mock_machine
from gpiozero.pins.mock import MockFactory
from helpers import simulate
from test_crash import RECORD

from companion.cli.history import history_command
from companion.cli.run import run_command
from companion.sim.panel import fake_device
from companion.storage import StateDir
from companion.storage.history import History

HOLDER = """
import sys
from pathlib import Path
from companion.storage import StateDir
StateDir(Path(sys.argv[1])).claim("companion run")
print("held", flush=True)
sys.stdin.read()  # until the test lets go
"""


@pytest.fixture
def held(tmp_path):
    """A folder with a game and a history, held by another process (as the device's)."""
    folder = tmp_path / "s"
    StateDir(folder).save(RECORD)
    History(folder).connect().close()
    root = str(Path(__file__).parent.parent)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={"PYTHONPATH": root, "PATH": ""},
    )
    assert holder.stdout.readline() == "held\n"  # what the holder says once it holds it
    yield folder, holder.pid
    holder.stdin.close()
    holder.wait()
    holder.stdout.close()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def busy(folder: Path, pid: int) -> str:
    return f"state folder {folder} is in use by process {pid} (companion run)"


def test_a_second_table_is_refused_naming_the_first_and_changes_nothing(held):
    folder, pid = held
    before = snapshot(folder)
    for options in (("--players", "3", "--new"), ()):
        code, out, err = simulate(
            *options, "--fast", "--state-dir", str(folder), "--script", "/dev/null"
        )
        assert (code, out) == (2, "") and err.count("\n") == 1
        assert err.startswith(f"companion simulate: {busy(folder, pid)}")
    assert snapshot(folder) == before


def test_an_import_is_refused_while_a_table_holds_the_folder(held, tmp_path):
    folder, pid = held
    (tmp_path / "in.jsonl").write_text(RECORD.to_json() + "\n")
    before = snapshot(folder)
    out, err = io.StringIO(), io.StringIO()
    code = history_command(
        "import", None, str(folder), file=str(tmp_path / "in.jsonl"), out=out, err=err
    )
    assert code == 2 and out.getvalue() == "" and err.getvalue().count("\n") == 1
    assert busy(folder, pid) in err.getvalue()
    assert snapshot(folder) == before


@pytest.mark.parametrize("verb", ["list", "export", "stats"])
def test_the_commands_that_read_go_on_while_a_table_holds_the_folder(held, verb):
    folder, _pid = held
    out, err = io.StringIO(), io.StringIO()
    assert history_command(verb, None, str(folder), out=out, err=err) == 0
    assert err.getvalue() == ""


def test_the_device_holds_off_while_another_program_writes_its_folder(held, tmp_path):
    """The service starts again later (exit 3, as with no hardware): the folder is free
    once the other program ends, and the table comes back by itself."""
    folder, pid = held
    (folder / "settings.json").write_text("{damaged")  # set aside only by the folder's holder
    before = snapshot(folder)
    config = tmp_path / "companion.toml"
    config.write_text(f'[paths]\nstate_dir = "{folder}"\n')
    display = lambda *a, **k: fake_device("ssd1306")[0]  # noqa: E731
    err = io.StringIO()
    assert run_command(str(config), err=err, machine=mock_machine(MockFactory(), display)) == 3
    assert err.getvalue() == f"companion run: {busy(folder, pid)}: one program writes it at a " + (
        "time; stop that one first, or use another --state-dir\n"
    )
    assert snapshot(folder) == before


def test_a_table_lets_the_folder_go_when_it_ends(tmp_path):
    folder = str(tmp_path / "s")
    for _ in range(2):  # in one process, one after the other: each holds, then lets go
        code, _out, err = simulate(
            "--players", "3", "--new", "--fast", "--state-dir", folder, "--script", "/dev/null"
        )
        assert code == 0, err


@pytest.mark.parametrize("what", ["folder", "link"])
def test_something_else_at_the_lock_file_is_said_never_taken_for_no_lock(tmp_path, what):
    folder = tmp_path / "s"
    folder.mkdir()
    lock = folder / "companion.lock"
    if what == "folder":
        lock.mkdir()
    else:
        lock.symlink_to(tmp_path / "elsewhere")
    code, out, err = simulate("--players", "3", "--fast", "--state-dir", str(folder))
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "companion.lock cannot be its lock" in err
    assert sorted(p.name for p in folder.iterdir()) == ["companion.lock"]
