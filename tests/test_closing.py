"""Every part that holds something (pins, a bus, a port, a process, a window, a database)
is a context manager: ``with Part(...) as part:`` hands the part itself and closes it on
the way out, and closing it again changes nothing."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

import pytest
from gpiozero import DigitalOutputDevice, Factory, Pin
from gpiozero.pins.mock import MockFactory

import companion.hw
import companion.sim
import companion.storage
from companion.errors import Closing
from companion.hw.buttons import Beeper, HostButtons
from companion.hw.display import Connector, DisplayError
from companion.sim import hub as simhub
from companion.sim.panel import FakePanel, FakeSsd1322
from companion.sim.pins import SimFactory
from companion.storage.history import History
from companion.storage.lock import FolderLock

BUTTONS = {"left": 20, "ok": 21, "right": 15}
BUZZER = 18


def classes_with_close():
    """Every class of companion.hw, companion.sim and companion.storage that has close()
    (but the Protocols: they describe what a part is handed)."""
    for package in (companion.hw, companion.sim, companion.storage):
        for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            for _, cls in inspect.getmembers(importlib.import_module(module.name), inspect.isclass):
                if cls.__module__ != module.name or getattr(cls, "_is_protocol", False):
                    continue
                if callable(getattr(cls, "close", None)):
                    yield cls


@pytest.mark.parametrize("cls", sorted(set(classes_with_close()), key=lambda c: c.__qualname__))
def test_every_part_with_close_is_a_context_manager(cls):
    """Ours through ``Closing``; the simulator's pins and pin factory through gpiozero's
    own base classes, which are context managers too."""
    assert callable(getattr(cls, "__enter__", None)) and callable(getattr(cls, "__exit__", None))
    if not issubclass(cls, Pin | Factory):
        assert issubclass(cls, Closing), f"{cls.__qualname__} has close() but is no Closing"


def let_go(factory, *pins: int) -> None:
    """Each pin can be taken again: whatever held it let it go."""
    for pin in pins:
        DigitalOutputDevice(pin, pin_factory=factory).close()


def test_the_host_buttons_and_the_buzzer_let_their_pins_go():
    factory = SimFactory()
    with (
        HostButtons(BUTTONS, pin_factory=factory) as buttons,
        Beeper(BUZZER, volume=5, pin_factory=factory) as beeper,
    ):
        assert isinstance(buttons, HostButtons) and isinstance(beeper, Beeper)
        assert factory.pin(BUZZER).function == "output"
    let_go(factory, *BUTTONS.values(), BUZZER)
    buttons.close()
    beeper.close()
    factory.reset()


def test_a_connector_lets_an_spi_displays_lines_go():
    factory = MockFactory()
    with Connector("ssd1322", "spi", pin_factory=factory, dc=14, reset=15) as connector:
        assert isinstance(connector, Connector)
        with pytest.raises(DisplayError, match="spidev"):  # no spidev here
            connector.open()  # the D/C and reset lines are set up first, and held
    let_go(factory, 14, 15)
    connector.close()
    factory.reset()


def test_the_fake_panels_close_as_luma_closes_them():
    with FakePanel("sh1106") as panel:
        assert isinstance(panel, FakePanel)
    with FakeSsd1322(dc=lambda: False) as spi_panel:
        assert isinstance(spi_panel, FakeSsd1322)
    assert panel.image().getbbox() is None and spi_panel.image().getbbox() is None


def test_the_simulated_hub_ends_its_firmware_and_its_pty():
    try:
        command = simhub.firmware_command()
    except simhub.HubMissing:  # the same firmware under CPython, as test_hub_simulate runs it
        command = [sys.executable, str(simhub.FIRMWARE)]
    with simhub.SimulatedHub(command) as hub:
        assert isinstance(hub, simhub.SimulatedHub)
        port = Path(hub.port)
        assert port.exists() and hub.failure() is None
    assert not port.exists() and not port.parent.exists()
    with pytest.raises(RuntimeError, match="unplugged"):
        hub.press(0, 1)
    hub.close()


def test_the_history_closes_its_database(tmp_path):
    with History(tmp_path) as store:
        assert isinstance(store, History)
        assert store.held(["nothing"]) == {}  # opened
        assert store.connected
    assert not store.connected
    store.close()


def test_the_folder_lock_lets_go_when_closed_and_twice(tmp_path):
    with FolderLock(tmp_path, "companion test") as lock:
        assert lock.take() and lock.take()  # held; taking it again is holding it
    FolderLock(tmp_path, "another").take()  # free again
    lock.close()


def test_the_window_closes(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from companion.sim.window import Window

    with Window("Santo Domingo Companion") as window:
        assert isinstance(window, Window) and pygame.display.get_init()
    assert not pygame.display.get_init()
    window.close()
