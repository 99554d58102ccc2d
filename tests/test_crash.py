"""``companion run`` hit by a bug: it says so in one block in the journal (stderr), exits 1
for systemd to restart it, and the restart offers the saved game again."""

from __future__ import annotations

import io
import random
import signal

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from helpers import model_game

from companion.app import device, loop
from companion.app.loop import App
from companion.cli.run import run_command
from companion.game.boards import profile
from companion.hw import display
from companion.sim.panel import fake_device
from companion.storage import StateDir
from companion.table import Phase
from companion.table.events import Tick

RECORD, _ = model_game(random.Random(6), 3, profile("standard"), 45, max_rounds=4)


@pytest.fixture
def device_in(tmp_path, monkeypatch):
    """A config whose state folder holds an unfinished game; MockFactory pins and a fake
    panel in place of the Pi's; no splash (it sleeps), SIGTERM left alone."""
    monkeypatch.setattr(display, "open_device", lambda *a, **k: fake_device("ssd1306")[0])
    monkeypatch.setattr(signal, "signal", lambda *a: None)
    monkeypatch.setattr(device, "SPLASH", 0.0)
    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    StateDir(tmp_path).save(RECORD)
    config = tmp_path / "companion.toml"
    config.write_text('[paths]\nstate_dir = "."\n')
    yield str(config), tmp_path / "game.json"
    factory.reset()


def test_a_bug_is_logged_with_its_traceback_and_the_restart_offers_the_game(device_in, monkeypatch):
    config, game = device_in
    saved = game.read_bytes()
    assert not RECORD.replay().finished

    def broken_step(flow, event, now):
        raise ZeroDivisionError("a bug in a handler")

    running = App.run
    with monkeypatch.context() as bug:
        bug.setattr(loop, "step", broken_step)
        bug.setattr(App, "run", lambda app: (app.put(Tick()), running(app)))
        err = io.StringIO()
        assert run_command(config, err=err) == 1  # systemd's Restart=on-failure restarts it

    first, *rest = err.getvalue().splitlines()
    assert first.startswith("companion run: stopped by an unexpected error (ZeroDivisionError)")
    assert rest[0] == "Traceback (most recent call last):"
    assert rest[-1] == "ZeroDivisionError: a bug in a handler"
    assert "in broken_step" in err.getvalue()  # where it happened
    assert game.read_bytes() == saved  # the game is as it was saved

    offered = []
    monkeypatch.setattr(App, "run", lambda app: offered.append(app.flow))
    assert run_command(config, err=io.StringIO()) == 0  # the restart
    assert offered[0].phase is Phase.RESUME and offered[0].mode.saved == RECORD


def test_a_clean_stop_is_not_a_crash(device_in, monkeypatch):
    config, _ = device_in
    running = App.run
    monkeypatch.setattr(App, "run", lambda app: (app.put(loop.STOP), running(app)))
    err = io.StringIO()
    assert run_command(config, err=err) == 0 and err.getvalue() == ""
