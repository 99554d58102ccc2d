"""One game, one identity: resume, set-aside, a new game and the history's look keep each
game once, whatever moment the power is cut at.

Each path is played by the table's two sinks (the saver and the history's writer) in a
child process, which is SIGKILLed at its n-th file operation or history write (a rename,
an unlink, an fsync, a row written), for every n until the path runs to its end. Then
the table powers on again (the writer looks the folder through, twice: the second look
must change nothing) and the folder and the history must hold every game that had a
round played, each once: no set-aside file of the game in progress, nor of a game the
history shows finished after it, and none offered twice.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.app.sinks import HistoryRecorder, Saver
from companion.game.record import GameRecord
from companion.storage import FileOps, StateDir
from companion.storage.history import History
from companion.table import GameChanged, GameFinished, KeepAside
from companion.table.effects import ResumeKept

ROUNDS = [
    {"plays": [[1, 3], [2, 5], [4, 8]], "trades": [0, 0, 0]},
    {"plays": [[7, 6], [7, 1], [3, 5]], "trades": [9, 4, 0]},
]
UNNAMED = (None, None, None)


def game(game_id: str, rounds: int, target: int = 30, **more) -> GameRecord:
    data = {"id": game_id, "players": 3, "target": target, "rounds": ROUNDS[:rounds], **more}
    return GameRecord.from_dict(data)


def set_aside_in_folder(store: StateDir) -> None:
    """``simulate --resume`` first sets aside the unfinished game in the game file."""
    store.set_aside()


Step = object  # an effect for the sinks, or a call on the state folder
PATHS: dict[str, list[Step]] = {
    "resumed from the seats' screen after another game": [
        GameChanged(game("g1", 0)),
        GameChanged(game("g1", 1)),
        KeepAside(game("g1", 1), UNNAMED),  # set aside at power-on
        GameChanged(game("g2", 0)),
        GameChanged(game("g2", 1)),
        GameFinished(game("g2", 2, target=6), UNNAMED),
        ResumeKept(game("g1", 1)),  # the game that ended is set aside by this save
        GameChanged(game("g1", 2)),
        GameFinished(game("g1", 2, ended=True), UNNAMED),
    ],
    "simulate --resume over a game in progress": [
        GameChanged(game("g1", 0)),
        GameChanged(game("g1", 1)),
        KeepAside(game("g1", 1), UNNAMED),
        GameChanged(game("g2", 0)),
        GameChanged(game("g2", 1)),
        set_aside_in_folder,
        ResumeKept(game("g1", 1)),
        GameChanged(game("g1", 2)),
        KeepAside(game("g1", 2), UNNAMED),  # set aside again at the next power-on
    ],
    "a new game after one that ended (--then-new)": [
        GameChanged(game("g1", 0, target=6)),
        GameChanged(game("g1", 1, target=6)),
        GameFinished(game("g1", 2, target=6), UNNAMED),
        GameChanged(game("g2", 0)),  # its first save sets the ended game aside
        GameChanged(game("g2", 1)),
        GameFinished(game("g2", 1, ended=True), UNNAMED),
        GameChanged(game("g3", 0)),
        GameChanged(game("g3", 1)),
    ],
    "a round undone after the end, then set aside for a new game": [
        GameChanged(game("g1", 0, target=6)),
        GameChanged(game("g1", 1, target=6)),
        GameFinished(game("g1", 2, target=6), UNNAMED),
        GameChanged(game("g1", 1, target=6)),  # the last round undone: not finished now
        KeepAside(game("g1", 1, target=6), UNNAMED),
        GameChanged(game("g2", 0)),
        GameChanged(game("g2", 1)),
    ],
}


class Cut:
    """Counts the file operations and history writes; SIGKILLs the process at ``at``."""

    def __init__(self, at: int):
        self.at = at
        self.count = itertools.count()

    def __call__(self, op: Callable) -> Callable:
        def cut_or_do(*args, **kwargs):
            if next(self.count) == self.at:
                os.kill(os.getpid(), signal.SIGKILL)
            return op(*args, **kwargs)

        return cut_or_do

    def ops(self) -> FileOps:
        real = FileOps()
        return FileOps(**{f.name: self(getattr(real, f.name)) for f in dataclasses.fields(real)})


def table(folder: Path, cut: Cut | None = None) -> tuple[StateDir, Saver, HistoryRecorder]:
    store = StateDir(folder, ops=cut.ops() if cut else None)
    history = History(folder)
    if cut is not None:
        history.put = cut(history.put)  # type: ignore[method-assign]
    recorder = HistoryRecorder(history, lambda _line: None, store=store)
    return store, Saver(store, lambda _event: None, lambda _line: None), recorder


def play_until_cut(folder: Path, steps: list[Step], at: int) -> tuple[bool, int]:
    """The path in a child process cut at call ``at``: whether it was cut, and how many
    steps it had finished."""
    done_r, done_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: plays, tells each step done, dies at the cut
        os.close(done_r)
        try:
            store, saver, recorder = table(folder, Cut(at))
            for step in steps:
                if callable(step):
                    step(store)
                else:
                    saver(step)
                    recorder(step)
                os.write(done_w, b".")
        finally:
            os._exit(0)
    os.close(done_w)
    with os.fdopen(done_r, "rb") as done:
        finished = len(done.read())
    _, status = os.waitpid(pid, 0)
    return os.WIFSIGNALED(status), finished


def power_on(folder: Path) -> tuple[dict[str, GameRecord], dict[str, bytes]]:
    """The table's start: the writer looks the folder through. The history's games by id,
    and the folder's files."""
    _store, _saver, recorder = table(folder)
    recorder.start()
    with recorder.history as history:
        rows = {g.game_id: g.record for g in history.games()}
    files = {p.name: p.read_bytes() for p in sorted(folder.glob("game*.json"))}
    return rows, files


def played_by(steps: list[Step], finished: int) -> set[str]:
    """The games that had a round saved by the steps done."""
    return {
        s.record.game_id
        for s in steps[:finished]
        if isinstance(s, GameChanged | GameFinished | KeepAside | ResumeKept) and s.record.rounds
    }


def last_moments(steps: list[Step], finished: int) -> dict[str, list[GameRecord]]:
    """Per game, its record in the last step done, and in the step the cut came in (if
    that step is of the same game): the game is at one of them."""
    moments: dict[str, list[GameRecord]] = {}
    effects = [s for s in steps if not callable(s)]
    done = [s for s in steps[:finished] if not callable(s)]
    for step in done:
        moments[step.record.game_id] = [step.record]
    if len(done) < len(effects):
        step = effects[len(done)]
        moments.setdefault(step.record.game_id, []).append(step.record)
    return moments


@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_cut_at_any_call_keeps_each_game_once(tmp_path, path):
    steps = PATHS[path]
    for at in itertools.count():
        folder = tmp_path / str(at)
        cut, finished = play_until_cut(folder, steps, at)
        rows, files = power_on(folder)
        store = StateDir(folder)
        playing = store.load().record
        kept = store.kept_files()
        # Every game that had a round is kept: in the history, or in the folder.
        everywhere = set(rows) | {k.game_id for k in kept}
        if playing is not None:
            everywhere.add(playing.game_id)
        assert played_by(steps, finished) <= everywhere, (at, files)
        assert set(rows) <= {"g1", "g2", "g3"}  # no game the table did not start
        assert all(r.rounds for r in rows.values())  # nothing played: no row
        # No copy of the game in progress set aside, none of a game the history shows
        # finished after it, none offered twice.
        assert playing is None or playing.game_id not in {k.game_id for k in kept}, at
        for k in kept:
            row = rows.get(k.game_id)
            assert row is None or not (row.replay().finished and not k.finished), at
        # The history never shows a game finished that was undone since, nor the undone
        # game lost: its last moment done (or the one being done) is kept somewhere.
        for game_id, moments in last_moments(steps, finished).items():
            row = rows.get(game_id)
            if row is not None and row.replay().finished:
                assert any(m.replay().finished for m in moments), (at, game_id)
            resumable = {k.record for k in kept} | {playing} | {row}
            kept_somewhere = any(m in resumable for m in moments)
            assert kept_somewhere or not any(m.rounds for m in moments), (at, game_id)
        offered = [r.game_id for _, r in store.unfinished_kept(10)]
        assert len(offered) == len(set(offered)), at
        # The folder and the history in step: the next look changes nothing.
        assert power_on(folder) == (rows, files), at
        if not cut:
            assert at > 10  # the path was cut at its every call before this
            break
