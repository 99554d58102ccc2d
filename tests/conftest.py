"""The shared fixtures. What the tests share as plain code (``table``, ``Driver``,
``simulate``...) is in helpers.py: a test imports it from there, never from here."""

from __future__ import annotations

import pytest
from helpers import TEST_RATES, Pads

from companion.rules import Board


@pytest.fixture(autouse=True)
def no_config_of_this_machine(monkeypatch, tmp_path_factory):
    """The tests read no config file of the machine they run on (the device's, or the
    developer's ~/.config): commands that look for one find none, here and in the
    processes the tests start."""
    from companion.app import config

    monkeypatch.setattr(config, "DEFAULT_PATHS", ())
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))


@pytest.fixture(autouse=True)
def not_under_systemd(monkeypatch):
    """The tests run as a command, never as the service: a ``NOTIFY_SOCKET`` of the
    environment they run in (a CI job under systemd) would make ``companion run`` wait
    and refuse backends as the service does. The tests of the service set their own."""
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)


@pytest.fixture
def board() -> Board:
    return Board.from_rates(TEST_RATES)


@pytest.fixture
def pads():
    parts = Pads()
    yield parts
    parts.close()


@pytest.fixture
def make_pads():
    """``Pads`` with other options (``scan_interval``, ``clock``...), closed afterwards."""
    made: list[Pads] = []

    def make(**options) -> Pads:
        made.append(Pads(**options))
        return made[-1]

    yield make
    for parts in made:
        parts.close()
