"""``companion simulate --pads hub``: the hub's firmware behind a pty, its matrix
pressed by the script lines; the same game, the same --json and the same frames as
on the mock pins. Where the MicroPython unix port is missing, the same firmware runs
under CPython (firmware/main.py runs under both)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from helpers import BOARDS, model_script, simulate

from companion.app.script import parse_script
from companion.app.simulator import Simulator
from companion.game.boards import profile
from companion.game.record import state_to_dict
from companion.sim import hub as simhub
from companion.table import TABLE, new_flow, public_view, step
from companion.table.events import HubMismatch
from companion.ui.catalog import catalog, languages
from companion.ui.screens import screen


def firmware() -> list[str]:
    """The firmware under MicroPython where the venv has it, else under CPython."""
    try:
        return simhub.firmware_command()
    except simhub.HubMissing:
        return [sys.executable, str(simhub.FIRMWARE)]


RATES = profile("standard").to_rates()
DEMO = Path(__file__).parent.parent / "companion" / "examples" / "demo-script.txt"


def play(hub) -> tuple[dict, list[bytes], list[str]]:
    frames: list[bytes] = []
    sim = Simulator(
        players=3, fast=True, on_frame=lambda image: frames.append(image.tobytes()), hub=hub
    )
    try:
        sim.run(parse_script(DEMO.read_text("utf-8"), str(DEMO)))
        game = sim.flow.game
        state = state_to_dict(game.state, game.record.ended)
    finally:
        sim.close()
    return state, frames, sim.errors


@pytest.mark.slow
def test_the_demo_through_the_hub_is_the_demo_on_the_pins():
    on_pins = play(None)
    through_hub = play(firmware())
    assert through_hub[2] == []  # nothing said: no line dropped, no reconnection
    assert through_hub[0] == on_pins[0]
    assert through_hub[1] == on_pins[1]
    assert "result" in on_pins[0]  # the demo plays to its end
    assert len(on_pins[1]) > 50


@pytest.mark.slow
def test_the_hub_unplugged_mid_game_releases_the_key_and_the_game_goes_on():
    lines = parse_script(DEMO.read_text("utf-8"), str(DEMO))
    cut = next(i for i, line in enumerate(lines) if line.action == "pad" and i > len(lines) // 2)
    sim = Simulator(players=3, fast=True, hub=firmware())
    try:
        sim.run(lines[:cut])
        held = lines[cut]
        sim.wiring.press(held.seat, held.card)  # a finger on the key as the cable comes out
        sim.settle(1)  # its PadDown
        sim.wiring.unplug()
        sim.settle(1)  # its PadUp: released by the host, the hub being gone
        assert sim.pads.wait_ready(0) is False
        sim.wiring.plug()  # under the same name: the host opens it again
        assert sim.pads.wait_ready(10)
        sim.run(lines[cut + 1 :])
        game = sim.flow.game
        state = state_to_dict(game.state, game.record.ended)
    finally:
        sim.close()
    assert state == play(None)[0]
    assert len(sim.errors) == 2, sim.errors  # gone, and back
    assert "opening it again" in sim.errors[0] and "answering again" in sim.errors[1]


@pytest.mark.slow
def test_simulate_pads_hub_prints_the_same_json_and_frames(monkeypatch, tmp_path):
    command = firmware()
    monkeypatch.setattr("companion.cli.simulate.firmware_command", lambda: command)
    runs = {}
    for pads in ("matrix", "hub"):
        frames = tmp_path / pads
        runs[pads] = simulate(
            "--players",
            "3",
            "--fast",
            "--script",
            str(DEMO),
            "--json",
            "--frames",
            str(frames),
            "--pads",
            pads,
        )
        runs[pads] += (sorted((p.name, p.read_bytes()) for p in frames.iterdir()),)
    assert runs["hub"][0] == 0, runs["hub"][2]
    assert runs["hub"] == runs["matrix"]
    assert len(runs["hub"][3]) > 50


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 5, 6])
def test_random_games_through_the_hub_equal_the_model(monkeypatch, tmp_path, players):
    command = firmware()
    monkeypatch.setattr("companion.cli.simulate.firmware_command", lambda: command)
    script, expected = model_script(random.Random(700 + players), players, RATES, 30)
    path = tmp_path / "game.txt"
    path.write_text(script)
    code, out, err = simulate(
        *("--players", str(players), "--fast", "--script", str(path), "--json", "--pads", "hub")
    )
    assert code == 0, err
    assert json.loads(out) == expected


def test_pads_hub_without_the_firmware_is_one_line_and_status_2(monkeypatch, tmp_path):
    monkeypatch.setattr(simhub, "FIRMWARE", tmp_path / "firmware" / "main.py")
    code, out, err = simulate("--players", "3", "--fast", "--pads", "hub")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "firmware" in err and "not found" in err


def test_pads_hub_without_micropython_is_one_line_and_status_2(monkeypatch, tmp_path):
    monkeypatch.setattr(simhub.sys, "executable", str(tmp_path / "python"))
    monkeypatch.setattr(simhub.shutil, "which", lambda name: None)
    code, out, err = simulate("--players", "3", "--fast", "--pads", "hub")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "MicroPython" in err


def test_a_firmware_that_dies_is_said_in_one_line(monkeypatch):
    dies = [sys.executable, "-c", "import sys; sys.exit('no pins here')"]
    monkeypatch.setattr("companion.cli.simulate.firmware_command", lambda: dies)
    code, out, err = simulate("--players", "3", "--fast", "--script", str(DEMO), "--pads", "hub")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no pins here" in err


@pytest.mark.parametrize("lang", languages())
def test_a_hub_of_another_protocol_is_a_notice_on_the_display(lang):
    words = catalog(lang)
    flow, _ = step(new_flow(BOARDS, TABLE), HubMismatch(2, 1), 100.0)
    shown = screen(public_view(flow, 100.0), words, (128, 64))
    assert shown.notice == words.t("notice.hub_protocol")
    assert "firmware/" in shown.notice
