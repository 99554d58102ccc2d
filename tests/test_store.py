"""The game on disk: saved whole after every round, resumed exactly, never half-written."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

from test_flow import BOARDS, Driver
from test_properties import model_game
from test_simulate import model_script, simulate

from companion.app.device import resumable
from companion.game.boards import profile
from companion.game.record import state_to_dict
from companion.storage.games import GameStore
from companion.table.events import HostKey, HostPress
from companion.table.flow import FAST, Flow, Phase


def test_save_and_load(tmp_path):
    record, _ = model_game(random.Random(1), 3, profile("standard"), 30, max_rounds=4)
    store = GameStore(tmp_path / "state" / "game.json")
    assert store.load() == (None, None)
    store.save(record)
    assert store.load() == (record, None)
    assert not list(tmp_path.glob("state/*.tmp"))


def test_a_bad_file_is_set_aside_not_lost(tmp_path):
    store = GameStore(tmp_path / "game.json")
    store.path.write_text('{"players": 3, "rounds": [{"plays": [[1, 1], [2, 3], [4, 5]]}]}')
    record, problem = store.load()
    assert record is None and "card 1 is chosen twice" in problem and "game.json.bad" in problem
    assert (tmp_path / "game.json.bad").exists() and not store.path.exists()


def test_power_on_offers_only_an_unfinished_game(tmp_path):
    store = GameStore(tmp_path / "game.json")
    finished, _ = model_game(random.Random(2), 4, profile("standard"), 30)
    store.save(finished)
    assert resumable(Flow(BOARDS, FAST), store, print).phase is Phase.JOIN
    unfinished = finished.__class__(4, finished.board, 30, finished.rounds[:3])
    store.save(unfinished)
    flow = resumable(Flow(BOARDS, FAST), store, print)
    assert flow.phase is Phase.RESUME and flow.saved == unfinished


def test_resume_exactly_and_undo_after(tmp_path):
    record, _ = model_game(random.Random(3), 3, profile("winter"), 45, max_rounds=5)
    table = Driver(Flow(BOARDS, FAST))
    from companion.table.flow import offer_resume

    table.flow = offer_resume(table.flow, record)
    table.ok()
    assert table.flow.phase is Phase.SELECT
    assert table.flow.game == record.replay() and table.flow.record == record
    table.send(HostPress(HostKey.OK, long=True))
    table.send(HostPress(HostKey.RIGHT))
    table.send(HostPress(HostKey.RIGHT))  # undo
    table.ok()
    assert table.flow.record.rounds == record.rounds[:-1]


def test_new_game_instead(tmp_path):
    record, _ = model_game(random.Random(4), 3, profile("standard"), 30, max_rounds=2)
    from companion.table.flow import offer_resume

    table = Driver(offer_resume(Flow(BOARDS, FAST), record))
    table.send(HostPress(HostKey.LEFT))
    assert table.flow.phase is Phase.JOIN and table.flow.saved is None


def test_a_game_across_a_restart_through_the_pins(tmp_path):
    script, expected = model_script(random.Random(5), 4, profile("standard").to_rates(), 30)
    rounds = script.split("# round ")
    first = "# round ".join(rounds[: len(rounds) // 2])
    rest = "# round " + "# round ".join(rounds[len(rounds) // 2 :])
    state = str(tmp_path / "game.json")
    (tmp_path / "a.txt").write_text(first)
    (tmp_path / "b.txt").write_text("press OK\n" + rest)  # OK: resume
    for name in ("a", "b"):
        args = ["--fast", "--state", state, "--script", str(tmp_path / f"{name}.txt"), "--json"]
        code, out, err = simulate(tmp_path, *(["--players", "4"] if name == "a" else []), *args)
        assert code == 0, err
    assert json.loads(out) == expected


WRITER = """
import sys, random
sys.path[:0] = {paths!r}
from test_properties import model_game
from companion.game.boards import profile
from companion.storage.games import GameStore
record, _ = model_game(random.Random(6), 3, profile("standard"), 45, max_rounds=60)
store = GameStore(__import__("pathlib").Path({path!r}))
print(len(record.rounds), flush=True)
while True:
    for n in range(1, len(record.rounds) + 1):
        store.save(record.__class__(3, record.board, 45, record.rounds[:n]))
"""


def test_killed_at_any_moment_the_saved_game_is_whole(tmp_path):
    """SIGKILL a process that saves round after round: what is on disk is always a
    whole record, the same game up to some round."""
    path = tmp_path / "game.json"
    full, _ = model_game(random.Random(6), 3, profile("standard"), 45, max_rounds=60)
    here = os.path.dirname(__file__)
    code = WRITER.format(paths=[here, os.path.dirname(here)], path=str(path))
    rng = random.Random(7)
    for _ in range(12):
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        proc.stdout.readline()  # the writer is running
        time.sleep(rng.uniform(0.0, 0.05))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        record, problem = GameStore(path).load()
        assert problem is None and record is not None
        n = len(record.rounds)
        assert record.rounds == full.rounds[:n]
        assert state_to_dict(record.replay())["round"] == n
