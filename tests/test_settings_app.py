"""The settings changed at the table reach the parts at once and the state folder, on the
simulated table: the pins pressed, luma's driver on its fake bus, real files."""

from __future__ import annotations

import json

from companion.app.simulator import Simulator
from companion.game.boards import profile
from companion.storage import StateDir
from companion.table import Phase, public_view
from companion.table.events import HostKey


def open_settings(sim: Simulator) -> None:
    sim.button(HostKey.OK, hold=True)  # on the Join screen: the settings themselves
    assert sim.flow.phase is Phase.SETTINGS


def items(sim: Simulator) -> tuple[str, ...]:
    return public_view(sim.flow, 0.0).body.items


def test_language_and_contrast_apply_at_once_and_are_saved(tmp_path):
    frames = []
    sim = Simulator(fast=True, store=StateDir(tmp_path), on_frame=frames.append)
    try:
        open_settings(sim)
        english = frames[-1]
        sim.button(HostKey.RIGHT)  # en -> fr
        assert sim.app.words.lang == "fr"
        assert frames[-1] != english  # drawn again, in French
        for _ in range(items(sim).index("contrast")):
            sim.button(HostKey.OK)
        sim.button(HostKey.LEFT)  # 8 -> 7
        assert sim.panel.contrast == round(7 * 255 / 10)
    finally:
        sim.close()
    saved = json.loads((tmp_path / "settings.json").read_text("utf-8"))
    assert saved == {"language": "fr", "contrast": 7}

    again = Simulator(fast=True, store=StateDir(tmp_path))
    try:
        assert again.app.words.lang == "fr" and again.flow.prefs.contrast == 7
        assert again.panel.contrast == round(7 * 255 / 10)
    finally:
        again.close()
    given = Simulator(fast=True, store=StateDir(tmp_path), lang="nl", board=profile("winter"))
    try:  # the command line wins over the saved settings, and saves nothing
        assert given.app.words.lang == "nl" and given.flow.board == profile("winter")
    finally:
        given.close()
    assert json.loads((tmp_path / "settings.json").read_text("utf-8")) == saved


def test_without_a_state_folder_the_settings_apply_and_nothing_is_written(tmp_path):
    sim = Simulator(fast=True)
    try:
        open_settings(sim)
        sim.button(HostKey.RIGHT)
        assert sim.app.words.lang == "fr"
    finally:
        sim.close()
    assert list(tmp_path.iterdir()) == []


def test_an_active_buzzer_offers_no_volume():
    sim = Simulator(fast=True)  # the shipped pin map: an active buzzer
    try:
        open_settings(sim)
        assert "volume" not in items(sim)
    finally:
        sim.close()
