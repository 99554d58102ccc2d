"""``companion run`` hit by a bug: it says so in one block in the journal (stderr), exits 1
for systemd to restart it, and the restart offers the saved game again."""

from __future__ import annotations

import io
import random

import pytest
from devices import mock_machine
from gpiozero.pins.mock import MockFactory
from helpers import model_game

from companion.app import loop
from companion.cli.run import run_command
from companion.game.boards import profile
from companion.sim.panel import fake_device
from companion.storage import StateDir
from companion.table import Phase
from companion.table.events import HostKey, HostPress, Tick
from companion.table.view import ResumeView

RECORD, _ = model_game(random.Random(6), 3, profile("standard"), 45, max_rounds=4)


def machine(*events, seen=None):
    """MockFactory pins and a fake panel in place of the Pi's."""
    display = lambda *a, **k: fake_device("ssd1306")[0]  # noqa: E731
    return mock_machine(MockFactory(), display, *events, seen=seen)


@pytest.fixture
def device_in(tmp_path):
    """A config whose state folder holds an unfinished game."""
    StateDir(tmp_path).save(RECORD)
    config = tmp_path / "companion.toml"
    config.write_text('[paths]\nstate_dir = "."\n')
    return str(config), tmp_path / "game.json"


def test_a_bug_is_logged_with_its_traceback_and_the_restart_offers_the_game(device_in, monkeypatch):
    config, game = device_in
    saved = game.read_bytes()
    assert not RECORD.replay().finished

    def broken_step(flow, event, now):
        raise ZeroDivisionError("a bug in a handler")

    with monkeypatch.context() as bug:
        bug.setattr(loop, "step", broken_step)
        err = io.StringIO()
        code = run_command(config, err=err, machine=machine(Tick()))
        assert code == 1  # systemd's Restart=on-failure restarts it

    first, *rest = err.getvalue().splitlines()
    assert first.startswith("companion run: stopped by an unexpected error (ZeroDivisionError)")
    assert rest[0] == "Traceback (most recent call last):"
    assert rest[-1] == "ZeroDivisionError: a bug in a handler"
    assert "in broken_step" in err.getvalue()  # where it happened
    assert game.read_bytes() == saved  # the game is as it was saved

    offered: list = []
    resumed = machine(HostPress(HostKey.OK), seen=offered)  # the restart, and OK: resume
    assert run_command(config, err=io.StringIO(), machine=resumed) == 0
    resume = ResumeView(RECORD.players, len(RECORD.rounds), backup=False)
    (first, _), *_, (last, _) = offered
    assert first.phase is Phase.RESUME and first.body == resume
    assert last.phase is Phase.SUPPLY and last.body.round == len(RECORD.rounds) + 1


def test_a_clean_stop_is_not_a_crash(device_in):
    config, _ = device_in
    err = io.StringIO()
    assert run_command(config, err=err, machine=machine()) == 0 and err.getvalue() == ""
