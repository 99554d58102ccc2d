"""The state directory: the game saved whole after every round, its previous version kept,
nothing the user might want overwritten, and every failure one line instead of a traceback.

Failures are made by real folders in the way, or by file operations injected through
``FileOps``: CI runs as root, whom chmod does not stop.
"""

from __future__ import annotations

import dataclasses
import errno
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from datetime import datetime

import pytest
from helpers import BOARDS, Driver, PowerCut, cut_at, model_game, model_script, simulate

from companion.app.memory import power_on
from companion.errors import where
from companion.game.boards import profile
from companion.game.record import GameRecord, legacy_id, state_to_dict
from companion.storage import FileOps, Loaded, Source, StateDir, StorageError
from companion.storage.settings import SettingsFile
from companion.table import FAST, KeepAside, Phase, new_flow, offer_resume, public_view
from companion.table.events import HostKey

# One game of 15 rounds; its first n rounds are the versions saved one after another.
FULL, _ = model_game(random.Random(6), 3, profile("standard"), 45)
assert len(FULL.rounds) == 15 and FULL.replay().finished


def upto(n: int) -> GameRecord:
    return dataclasses.replace(FULL, rounds=FULL.rounds[:n])


def saved(folder, *rounds: int, **options) -> StateDir:
    """A state folder after saving the game up to each of ``rounds`` in turn."""
    state = StateDir(folder, **options)
    for n in rounds:
        state.save(upto(n))
    return state


def snapshot(folder) -> dict[str, bytes | None]:
    """Every name in ``folder`` with its bytes (None for a folder)."""
    if not folder.exists():
        return {}
    return {p.name: p.read_bytes() if p.is_file() else None for p in sorted(folder.iterdir())}


def os_error(code: int, path) -> OSError:
    return OSError(code, os.strerror(code), str(path))


def failing(op: str, code: int, when=lambda *args: True) -> FileOps:
    """The real file operations, except ``op``, which fails with ``code`` when ``when``."""
    real = getattr(FileOps(), op)

    def fail(*args, **kwargs):
        if when(*args):
            raise os_error(code, args[0])
        return real(*args, **kwargs)

    return dataclasses.replace(FileOps(), **{op: fail})


def writing(path, mode="r", *args) -> bool:
    return bool(set(mode) & set("wax+"))


def read_only() -> FileOps:
    """A read-only card: reading works, every change is refused."""

    def refuse(path, *args):
        raise os_error(errno.EROFS, path)

    def open_file(path, mode="r", *args, **kwargs):
        if writing(path, mode):
            refuse(path)
        return open(path, mode, *args, **kwargs)

    return FileOps(open_file, refuse, refuse, refuse, refuse, refuse)


def one_line(message: str) -> bool:
    return "\n" not in message and len(message) < 300


# --- the folder --------------------------------------------------------------------------


def test_save_and_load(tmp_path):
    folder = tmp_path / "made" / "on" / "first save"
    state = StateDir(folder)
    assert state.load() == Loaded() and not folder.exists()
    state.save(upto(3))
    assert state.load() == Loaded(upto(3), Source.GAME, folder / "game.json", False, ())
    state.save(upto(4))
    assert sorted(snapshot(folder)) == ["game.json", "game.prev.json"]
    # Only the record is written: finished rounds, no selection in progress.
    assert (folder / "game.json").read_text() == upto(4).to_json() + "\n"
    assert GameRecord.from_json((folder / "game.prev.json").read_bytes()) == upto(3)
    assert state.notes == ()


def test_the_game_file_is_named_by_the_config(tmp_path):
    saved(tmp_path, 1, 2, game_file="current")
    assert sorted(snapshot(tmp_path)) == ["current", "current.prev"]
    assert StateDir(tmp_path, "current").load().record == upto(2)
    assert StateDir(tmp_path).load() == Loaded()


def test_a_finished_game_is_not_offered(tmp_path):
    state = saved(tmp_path, 14)
    assert state.has_unfinished() and state.load().unfinished
    state.save(FULL)
    loaded = state.load()
    assert loaded.finished and not loaded.unfinished and not state.has_unfinished()


@pytest.mark.parametrize("name", ["", ".", "..", "a/b.json", "../game.json"])
def test_the_game_file_is_a_plain_name(tmp_path, name):
    with pytest.raises(StorageError, match="plain file name"):
        StateDir(tmp_path, name).check()
    with pytest.raises(StorageError, match="plain file name"):
        StateDir(tmp_path, name).save(upto(1))
    assert snapshot(tmp_path) == {}


def test_a_state_folder_naming_a_file_is_refused(tmp_path):
    file = tmp_path / "state"
    file.write_text("mine")
    for path in (file, file / "below"):
        for use in (StateDir.check, lambda state: state.save(upto(1)), StateDir.set_aside):
            with pytest.raises(StorageError) as e:
                use(StateDir(path))
            message = str(e.value)
            assert message.startswith(f"state folder {where(path)}") and one_line(message)
        # load() never raises: it says why there is no game.
        assert StateDir(path).load() == Loaded(messages=(str(e.value),))
    assert file.read_text() == "mine"


# --- a power cut --------------------------------------------------------------------------


def test_a_power_cut_at_any_step_leaves_the_old_game_or_the_new(tmp_path):
    cuts, between = 0, 0
    for call in itertools.count():
        folder = tmp_path / str(call)
        saved(folder, 2, 3)
        try:
            StateDir(folder, ops=cut_at(call)).save(upto(4))
        except PowerCut:
            cuts += 1
            loaded = StateDir(folder).load()
            assert loaded.record in (upto(3), upto(4))
            if loaded.source is Source.BACKUP:  # the cut fell between the two renames
                between += 1
                assert loaded.record == upto(3) and not (folder / "game.json").exists()
                assert loaded.messages == (
                    f"{where(folder / 'game.json')} is missing; "
                    "using the previous version game.prev.json",
                )
            StateDir(folder).save(upto(5))  # and the next save goes on from there
            assert StateDir(folder).load().record == upto(5)
        else:
            break
    # Every step of a save was cut once: the reads, the write, the syncs, the renames.
    assert cuts >= 6 and between == 1
    assert StateDir(folder).load().record == upto(4)


def test_between_the_renames_the_backup_is_the_game(tmp_path):
    state = saved(tmp_path, 2, 3)
    (tmp_path / "game.json").replace(tmp_path / "game.prev.json")
    loaded = StateDir(tmp_path, ops=read_only()).load()
    assert loaded.record == upto(3) and loaded.source is Source.BACKUP
    assert loaded.path == tmp_path / "game.prev.json" and loaded.unfinished
    state.save(upto(4))
    assert state.load().record == upto(4) and snapshot(tmp_path)["game.prev.json"] is not None


# --- a game file that cannot be used -------------------------------------------------------


def replays_badly() -> bytes:
    data = upto(4).to_dict()
    data["rounds"][2]["plays"][1][0] = 9
    return json.dumps(data).encode()


CORRUPT = {
    "not JSON": (b'{"players": 3, "rounds": [', "not valid JSON"),
    "empty": (b"", "not valid JSON"),
    "not UTF-8": (b'{"players": "\xff"}', "not UTF-8"),
    "not replayable": (replays_badly(), "round 3, seat P2: card 9 does not exist"),
    "too large": (b" " * (1 << 20) + b"{}", "larger than 1 MiB"),
}


@pytest.mark.parametrize("name", CORRUPT)
def test_a_corrupt_game_falls_back_to_the_backup_in_a_read_only_folder(tmp_path, name):
    data, why = CORRUPT[name]
    saved(tmp_path, 2, 3)
    (tmp_path / "game.json").write_bytes(data)
    before = snapshot(tmp_path)
    loaded = StateDir(tmp_path, ops=read_only()).load()
    assert loaded.record == upto(2) and loaded.source is Source.BACKUP
    (message,) = loaded.messages
    assert (
        message.startswith(f"{where(tmp_path / 'game.json')} is not a usable game (")
        and why in message
    )
    assert message.endswith("; using the previous version game.prev.json") and one_line(message)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("code", [errno.EIO, errno.EACCES])
def test_an_unreadable_game_falls_back_to_the_backup(tmp_path, code):
    saved(tmp_path, 2, 3)
    ops = failing("open_file", code, lambda path, *_: path.name == "game.json")
    loaded = StateDir(tmp_path, ops=ops).load()
    assert loaded.record == upto(2) and loaded.source is Source.BACKUP
    assert loaded.messages == (
        f"{where(tmp_path / 'game.json')} cannot be read ({os.strerror(code)}); "
        "using the previous version game.prev.json",
    )


def test_a_folder_where_the_game_should_be_falls_back_to_the_backup(tmp_path):
    saved(tmp_path, 2)
    (tmp_path / "game.json").replace(tmp_path / "game.prev.json")
    (tmp_path / "game.json").mkdir()
    loaded = StateDir(tmp_path).load()
    assert loaded.record == upto(2)
    assert "game.json is a folder, not a game file; using the previous" in loaded.messages[0]


def test_with_no_usable_file_there_is_no_game_and_each_is_said(tmp_path):
    (tmp_path / "game.json").write_bytes(replays_badly())
    assert StateDir(tmp_path).load().messages == (
        f"{where(tmp_path / 'game.json')} is not a usable game "
        "(round 3, seat P2: card 9 does not "
        "exist (cards are 1..8)); there is no previous version",
    )
    (tmp_path / "game.prev.json").write_text("[]")
    loaded = StateDir(tmp_path).load()
    assert loaded.record is None and loaded.source is None and len(loaded.messages) == 2
    assert (
        "game.prev.json is not a usable game (a game record is a JSON object, got a list)"
        in (loaded.messages[1])
    )
    (tmp_path / "game.json").unlink()
    (message,) = StateDir(tmp_path).load().messages
    assert message.startswith(f"{where(tmp_path / 'game.json')} is missing; ")


def test_a_quoted_value_is_cut_to_one_short_line(tmp_path):
    (tmp_path / "game.json").write_text(json.dumps({"players": "x" * 500 + "\n" + "y" * 500}))
    (message,) = StateDir(tmp_path).load().messages
    reason = message.split("(", 1)[1].rsplit(")", 1)[0]
    assert len(reason) == 120 and reason.endswith("…") and one_line(message)
    assert "x" * 81 not in message  # the value itself is cut to 80 characters at most


# --- a save that cannot be read is never overwritten ---------------------------------------


def test_the_next_save_moves_a_corrupt_game_aside_first(tmp_path):
    state = saved(tmp_path, 2, 3)
    bad = replays_badly()
    for aside in ("game.bad.json", "game.bad-2.json"):
        (tmp_path / "game.json").write_bytes(bad)
        assert state.load().record == upto(2)  # resumed from the backup, played on
        state.save(upto(3))
        assert (tmp_path / aside).read_bytes() == bad
        assert state.notes == (
            f"{where(tmp_path / 'game.json')} is not a usable game "
            "(round 3, seat P2: card 9 does not "
            f"exist (cards are 1..8)); kept as {aside}",
        )
        # The corrupt file never became the backup: that is still the game before.
        assert state.load().record == upto(3)
        assert GameRecord.from_json((tmp_path / "game.prev.json").read_bytes()) == upto(2)
    state.save(upto(4))
    assert state.notes == ()


def test_the_next_save_moves_an_unreadable_game_aside(tmp_path):
    saved(tmp_path, 2, 3)
    ops = failing(
        "open_file", errno.EIO, lambda path, mode="r": path.name == "game.json" and mode == "rb"
    )
    state = StateDir(tmp_path, ops=ops)
    state.save(upto(4))
    assert state.notes == (
        f"{where(tmp_path / 'game.json')} cannot be read (Input/output error); "
        "kept as game.bad.json",
    )
    assert GameRecord.from_json((tmp_path / "game.bad.json").read_bytes()) == upto(3)
    assert GameRecord.from_json((tmp_path / "game.json").read_bytes()) == upto(4)
    assert GameRecord.from_json((tmp_path / "game.prev.json").read_bytes()) == upto(2)


def test_a_corrupt_backup_is_moved_aside_not_replaced(tmp_path):
    state = saved(tmp_path, 2)
    (tmp_path / "game.prev.json").write_text("{")
    state.save(upto(3))
    assert state.notes == (
        f"{where(tmp_path / 'game.prev.json')} is not a usable game (not valid JSON: Expecting "
        "property name enclosed in double quotes at line 1 column 2); kept as game.prev.bad.json",
    )
    assert (tmp_path / "game.prev.bad.json").read_text() == "{"


def test_when_the_corrupt_game_cannot_be_moved_nothing_is_written(tmp_path):
    saved(tmp_path, 2, 3)
    (tmp_path / "game.json").write_text("{")
    before = snapshot(tmp_path)
    with pytest.raises(StorageError) as e:
        StateDir(tmp_path, ops=failing("replace", errno.EROFS)).save(upto(4))
    assert str(e.value) == (
        f"cannot save the game: renaming {tmp_path / 'game.json'} to game.bad.json: "
        "Read-only file system"
    )
    assert snapshot(tmp_path) == before


# --- a save that fails -------------------------------------------------------------------


def tmp_name(path, *args) -> bool:
    return str(path).endswith(".tmp")


FAILURES = {
    "full disk at the write": ("open_file", errno.ENOSPC, writing, "game.json.tmp"),
    "full disk at the flush": ("fsync", errno.ENOSPC, lambda fd: True, "game.json.tmp"),
    "read-only folder": ("open_file", errno.EROFS, writing, "game.json.tmp"),
    "permission denied": ("open_file", errno.EACCES, writing, "game.json.tmp"),
    "the rotation refused": ("replace", errno.EACCES, lambda a, b: True, "renaming"),
    "the folder's flush": ("fsync_dir", errno.EIO, lambda path: True, "folder"),
}


@pytest.mark.parametrize("name", FAILURES)
def test_a_failed_save_is_one_line_and_changes_nothing(tmp_path, name):
    op, code, when, doing = FAILURES[name]
    saved(tmp_path, 2, 3)
    before = snapshot(tmp_path)
    with pytest.raises(StorageError) as e:
        StateDir(tmp_path, ops=failing(op, code, when)).save(upto(4))
    message = str(e.value)
    assert message.startswith("cannot save the game: ") and one_line(message)
    assert doing in message and tmp_path.name in message and os.strerror(code) in message
    if op != "fsync_dir":  # the renames are done by then: only their flush is in doubt
        assert snapshot(tmp_path) == before
    assert StateDir(tmp_path).load().record == upto(4 if op == "fsync_dir" else 3)


def test_a_failed_last_rename_loses_no_saved_game(tmp_path):
    saved(tmp_path, 2, 3)
    ops = failing("replace", errno.EIO, lambda source, target: source.name == "game.json.tmp")
    with pytest.raises(StorageError, match="Input/output error"):
        StateDir(tmp_path, ops=ops).save(upto(4))
    assert StateDir(tmp_path).load().record == upto(3)
    assert "game.json.tmp" not in snapshot(tmp_path)


def test_a_folder_that_cannot_be_made(tmp_path):
    state = StateDir(tmp_path / "state", ops=failing("make_dirs", errno.EROFS))
    with pytest.raises(StorageError) as e:
        state.save(upto(1))
    assert (
        str(e.value) == f"cannot save the game: folder {tmp_path / 'state'}: Read-only file system"
    )
    assert snapshot(tmp_path) == {}


@pytest.mark.parametrize("name", ["game.json", "game.json.tmp", "game.prev.json"])
def test_a_folder_in_the_way_is_said_and_left_alone(tmp_path, name):
    state = saved(tmp_path, 2, 3)
    if (tmp_path / name).exists():
        (tmp_path / name).replace(tmp_path / "moved")
    (tmp_path / name).mkdir()
    (tmp_path / name / "inside").write_text("mine")
    before = snapshot(tmp_path)
    with pytest.raises(StorageError) as e:
        state.save(upto(4))
    assert where(tmp_path / name) in str(e.value) and one_line(str(e.value))
    assert "folder" in str(e.value)
    assert snapshot(tmp_path) == before and (tmp_path / name / "inside").read_text() == "mine"


def test_a_read_only_folder_refuses_saves_and_still_loads(tmp_path):
    saved(tmp_path, 2, 3)
    before = snapshot(tmp_path)
    state = StateDir(tmp_path, ops=read_only())
    with pytest.raises(StorageError, match="Read-only file system"):
        state.save(upto(4))
    assert state.load().record == upto(3) and snapshot(tmp_path) == before


@pytest.mark.parametrize("target", ["victim.txt", "missing.txt"])
def test_a_link_at_the_temporary_file_is_never_written_through(tmp_path, target):
    """A link left where the save writes its temporary file (by another user, or a
    restored backup) is replaced, never followed: what it points to stays as it was."""
    folder = tmp_path / "state"
    state = saved(folder, 2)
    victim = tmp_path / target
    if target == "victim.txt":
        victim.write_text("mine")
    (folder / "game.json.tmp").symlink_to(victim)
    state.save(upto(3))
    assert state.load().record == upto(3)
    assert not os.path.lexists(folder / "game.json.tmp")
    assert (victim.read_text() == "mine") if target == "victim.txt" else not victim.exists()


def test_a_link_at_the_settings_temporary_file_is_never_written_through(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    file = SettingsFile(tmp_path)
    file.temp.symlink_to(victim)
    file.save({"contrast": 3})
    assert victim.read_text() == "mine" and not file.temp.is_symlink()
    assert json.loads(file.path.read_text()) == {"contrast": 3}


# --- setting a game aside ------------------------------------------------------------------

CLOCK = datetime(2026, 11, 23, 10, 15, 0)


def test_set_aside_keeps_the_game_under_a_new_name(tmp_path):
    state = saved(tmp_path, 2, 3, clock=lambda: CLOCK)
    (tmp_path / "game-2026-11-23T10-15-00.prev.json").write_text("the user's")
    kept = state.set_aside()
    assert kept == tmp_path / "game-2026-11-23T10-15-00-2.json"
    assert GameRecord.from_json(kept.read_bytes()) == upto(3)
    prev = tmp_path / "game-2026-11-23T10-15-00-2.prev.json"
    assert GameRecord.from_json(prev.read_bytes()) == upto(2)
    assert state.load() == Loaded() and not state.has_unfinished()
    assert (tmp_path / "game-2026-11-23T10-15-00.prev.json").read_text() == "the user's"
    state.save(upto(1))  # the new game
    assert state.set_aside() == tmp_path / "game-2026-11-23T10-15-00-3.json"
    assert GameRecord.from_json(kept.read_bytes()) == upto(3)  # never overwritten


def test_set_aside_with_no_game(tmp_path):
    assert StateDir(tmp_path / "none").set_aside() is None
    assert not (tmp_path / "none").exists()


def test_set_aside_takes_the_game_load_offers(tmp_path):
    state = saved(tmp_path, 2, 3, clock=lambda: CLOCK)
    (tmp_path / "game.json").write_text("{")
    kept = state.set_aside()
    assert kept == tmp_path / "game-2026-11-23T10-15-00.json"
    assert GameRecord.from_json(kept.read_bytes()) == upto(2)
    assert (tmp_path / "game.bad.json").read_text() == "{"
    assert state.notes[0].endswith("kept as game.bad.json") and state.load() == Loaded()


def test_set_aside_fails_in_one_line(tmp_path):
    saved(tmp_path, 2, 3)
    before = snapshot(tmp_path)
    with pytest.raises(StorageError) as e:
        StateDir(tmp_path, ops=read_only()).set_aside()
    assert str(e.value).startswith("cannot set the game aside: renaming ")
    assert str(e.value).endswith(": Read-only file system") and snapshot(tmp_path) == before


# --- at the table -------------------------------------------------------------------------


def test_power_on_offers_only_an_unfinished_game(tmp_path):
    state = saved(tmp_path, 15)
    assert power_on(new_flow(BOARDS, FAST), state, print).phase is Phase.JOIN
    state.save(upto(3))
    flow = power_on(new_flow(BOARDS, FAST), state, print)
    assert flow.phase is Phase.RESUME and flow.mode.saved == upto(3).identified()
    state.save(replace(upto(3), ended=True))  # ended from the menu: over, as a finished one
    assert power_on(new_flow(BOARDS, FAST), state, print).phase is Phase.JOIN
    assert not state.has_unfinished()


def test_power_on_says_why_it_offers_the_previous_version(tmp_path):
    state = saved(tmp_path, 2, 3)
    (tmp_path / "game.json").write_text("{")
    said: list[str] = []
    flow = power_on(new_flow(BOARDS, FAST), state, said.append)
    assert flow.phase is Phase.RESUME and flow.mode.saved == upto(2).identified()
    assert public_view(flow, 0).body.backup  # the resume screen says so too
    assert said == list(state.load().messages) and len(said) == 1


def test_resume_exactly_and_undo_after():
    record, _ = model_game(random.Random(3), 3, profile("winter"), 45, max_rounds=5)
    table = Driver(offer_resume(new_flow(BOARDS, FAST), record))
    table.ok()
    assert table.view.phase is Phase.SELECT
    # A record saved before games had ids goes on as the game its contents make.
    assert table.flow.game.state == record.replay() and record.game_id is None
    assert (
        table.flow.game.record == record.identified() == replace(record, game_id=legacy_id(record))
    )
    table.menu("undo")
    table.ok()
    table.ok()  # yes, undo it
    assert table.saves[-1].record.rounds == record.rounds[:-1]


def test_new_game_instead_keeps_the_saved_one_aside():
    record, _ = model_game(random.Random(4), 3, profile("standard"), 30, max_rounds=2)
    table = Driver(offer_resume(new_flow(BOARDS, FAST), record))
    table.key(HostKey.LEFT)
    table.ok()  # yes, set it aside
    assert table.view.phase is Phase.JOIN and isinstance(table.saves[-1], KeepAside)


@pytest.mark.slow
def test_a_game_across_a_restart_through_the_pins(tmp_path):
    script, expected = model_script(random.Random(5), 4, profile("standard").to_rates(), 30)
    rounds = script.split("# round ")
    first = "# round ".join(rounds[: len(rounds) // 2])
    rest = "# round " + "# round ".join(rounds[len(rounds) // 2 :])
    state = str(tmp_path / "state")
    (tmp_path / "a.txt").write_text(first)
    (tmp_path / "b.txt").write_text("press OK\n" + rest)  # OK: resume
    for name in ("a", "b"):
        args = ["--fast", "--state-dir", state, "--script", str(tmp_path / f"{name}.txt"), "--json"]
        code, out, err = simulate(*(["--players", "4"] if name == "a" else []), *args)
        assert code == 0, err
    assert json.loads(out) == expected


WRITER = """
import sys, random, dataclasses
sys.path[:0] = {paths!r}
from helpers import model_game
from companion.game.boards import profile
from companion.storage import StateDir
record, _ = model_game(random.Random(6), 3, profile("standard"), 45)
state = StateDir(__import__("pathlib").Path({path!r}))
state.save(dataclasses.replace(record, rounds=record.rounds[:1]))
print(len(record.rounds), flush=True)  # running, and a first game is saved
while True:
    for n in range(1, len(record.rounds) + 1):
        state.save(dataclasses.replace(record, rounds=record.rounds[:n]))
"""


@pytest.mark.slow
def test_killed_at_any_moment_the_saved_game_is_whole(tmp_path):
    """SIGKILL a process that saves round after round: load() always finds a whole record,
    the same game up to some round, in the game file or (between renames) the backup."""
    here = os.path.dirname(__file__)
    code = WRITER.format(paths=[here, os.path.dirname(here)], path=str(tmp_path))
    rng = random.Random(7)
    for _ in range(12):
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        assert int(proc.stdout.readline()) == len(FULL.rounds)  # the writer has saved once
        time.sleep(rng.uniform(0.0, 0.05))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        loaded = StateDir(tmp_path).load()
        if loaded.record is None:  # killed as the game's first round, saved after its end
            # (a new game, as far as the folder knows), had set the finished one aside
            kept = [p for p in tmp_path.glob("game-*.json") if ".prev" not in p.name]
            assert kept and all(GameRecord.from_json(p.read_bytes()) == FULL for p in kept)
            continue
        assert loaded.messages == () or loaded.source is Source.BACKUP
        n = len(loaded.record.rounds)
        assert loaded.record == upto(n)
        assert state_to_dict(loaded.record.replay())["round"] == n


def test_a_file_changed_behind_the_savers_back_is_looked_at_again(tmp_path):
    state = saved(tmp_path, 1, 2)  # the same StateDir goes on saving, as at the table
    (tmp_path / "game.json").write_text('{"players": 3, "rounds": 7}')
    state.save(upto(3))
    assert any("game.bad.json" in note for note in state.notes)
    assert state.load().record == upto(3)
    assert StateDir(tmp_path).load().record == upto(3)
    (tmp_path / "game.prev.json").write_text("{")  # the backup, this time
    state.save(upto(4))
    assert (tmp_path / "game.prev.bad.json").exists() and state.load().record == upto(4)
