"""Where the table's effects go: the beeper, the panel's contrast, the saved game, the
history, the saved settings and the pads' names in the state directory.

Every effect carries what its sink needs: no sink reads the table or the state folder
back, so the sinks may run in any order (a test shuffles them)."""

from __future__ import annotations

import sqlite3
import threading
import traceback
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from queue import SimpleQueue
from typing import Protocol

from ..errors import Closing, CompanionError, clip, where
from ..game.names import Names
from ..game.record import GameRecord
from ..game.settings import DeviceSettings, changed
from ..storage import StateDir, StorageError
from ..storage.history import History
from ..storage.reconcile import Put, reconcile
from ..storage.settings import NamesFile, SettingsFile
from ..table import Beep, Effect, GameChanged, GameFinished, KeepAside
from ..table.effects import NamesChanged, ResumeKept, SettingsChanged, Stuck
from ..table.events import STUCK, Event, HistoryKnown, HostKey, SaveFailed
from .config import KEEP_GAMES

Report = Callable[[str], None]
Sink = Callable[[Effect], None]


def stuck_keys(report: Report) -> Sink:
    """A sink that logs each key found held down too long (its source tells it once a
    hold, and ignores it until it comes up)."""

    def sink(effect: Effect) -> None:
        if not isinstance(effect, Stuck):
            return
        key = effect.key
        what = (
            f"the {key.value} button"
            if isinstance(key, HostKey)
            else f"a key of pad {key.seat + 1}"  # never which: it may be a secret choice
        )
        report(
            f"{what} has been down for {STUCK:g} s (stuck, shorted, or something lying on "
            "it): ignored until it comes up"
        )

    return sink


class Saver:
    """Saves the game whenever it changes. A failed save (a read-only card, a full disk)
    is told once, on the screen and in the log; the game goes on, and the next round
    saves again, with every round so far."""

    def __init__(self, store: StateDir, put: Callable[[Event], None], report: Report):
        self.store = store
        self._put = put
        self._report = report
        self.failing = False  # the last save failed
        self.reason = ""  # why it failed, in the OS's few words

    def __call__(self, effect: Effect) -> None:
        if isinstance(effect, GameChanged | GameFinished):
            self._save(effect)
        elif isinstance(effect, KeepAside):
            self._keep_aside()
        elif isinstance(effect, ResumeKept):
            self._resume(effect.record)

    def _save(self, effect: GameChanged | GameFinished) -> None:
        try:
            self.store.save(effect.record)
        except StorageError as e:
            if not self.failing:
                self._report(f"{e}; the game goes on, and saving is tried again next round")
                self._put(SaveFailed(e.reason))
            self.failing, self.reason = True, e.reason
            return
        for note in self.store.notes:
            self._report(note)
        if self.failing:
            self._report("the game is saved again")
        self.failing = False

    def _resume(self, record: GameRecord) -> None:
        """A game set aside is the game in progress again: saved, its kept file gone."""
        kept = self._moved(
            lambda: self.store.resume_kept(record),
            "the game goes on, and saving is tried again next round",
        )
        if kept is not None:
            self._report(f"{kept.name} is the game in progress again")

    def _keep_aside(self) -> None:
        kept = self._moved(self.store.set_aside, "the saved game stays where it is")
        if kept is not None:
            self._report(f"the saved game is kept as {kept}")

    def _moved(self, move: Callable[[], Path | None], failing: str) -> Path | None:
        """``move`` the state folder's files, saying its notes; a failure is said with
        what happens instead (``failing``), and nothing moved (None)."""
        try:
            moved = move()
        except StorageError as e:
            self._report(f"{e}; {failing}")
            return None
        for note in self.store.notes:
            self._report(note)
        return moved


Recorded = GameChanged | GameFinished | KeepAside | ResumeKept  # what the recorder hears


class HistoryRecorder(Closing):
    """Writes every game that ends into the history: finished (the target reached) or
    abandoned (ended from the menu, or an unfinished game set aside for a new one). What
    it writes comes in the effects (the record with its id, the seats' names), so it reads
    neither the table nor the state folder for them, and its place among the sinks does
    not matter. A game is its id: written again (undone and finished again, set aside,
    resumed and finished) it is the same row; a round undone after the end writes the
    row as the game is now, no longer finished.

    A history that cannot be written (locked by another program, a full or read-only
    card, a damaged file) is told once; the game goes on. What it could not write waits,
    in order, and is written at the next write that works. ``store``, if given, is the
    state folder: at the start and after every game, its games and the history are
    brought into step (``storage.reconcile``): a game kept there that the history lacks
    (its write failed before a power cut) is written, a copy left by a resume cut short
    is removed, and the games set aside that the history holds are pruned to the last
    ``keep``; one it does not hold is never removed.

    ``threaded``: the writes run on a thread of this recorder's own (started at the first
    effect, stopped by close()), so a slow history never holds up the table; else on
    the caller's. ``told``, if given, receives the history's new summary
    (``HistoryKnown``) each time a game is written, for the device's history screen."""

    def __init__(
        self,
        history: History,
        report: Report,
        *,
        told: Callable[[Event], None] | None = None,
        store: StateDir | None = None,
        keep: int = KEEP_GAMES,
        threaded: bool = False,
    ):
        self.history = history
        self._report = report
        self._told = told
        self._store = store
        self._keep = keep
        self._threaded = threaded
        self._backlog: list[Effect] = []  # not yet written, oldest first
        self._playing: str | None = None  # the id of the game the last effect was of
        self._ended = False  # the last effect was a game finished
        self._sweep = store is not None  # the state folder is to be looked through
        self._jobs: SimpleQueue[Recorded | None] = SimpleQueue()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._stopping = False  # the thread took close()'s mark off the queue
        self.failing = False

    def __call__(self, effect: Effect) -> None:
        if not isinstance(effect, GameChanged | GameFinished | KeepAside | ResumeKept):
            return
        if not self._threaded:
            self._handle(effect)
            return
        self._started()
        self._jobs.put(effect)

    def start(self) -> None:
        """Look through the state folder (at power-on): threaded, on the writing thread,
        started now; else at once."""
        self._sweep = self._store is not None
        if not self._threaded:
            self._write()
            return
        self._started()

    def _started(self) -> None:
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._run, name="history", daemon=True)
            self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        """Write what waits (at most ``timeout`` seconds), stop the thread, close the
        history. Safe to call more than once."""
        self._closed = True
        thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(None)
            thread.join(timeout)
        if thread is None or not thread.is_alive():
            self.history.close()

    def _run(self) -> None:
        self._write()
        while not self._stopping:
            self._take([self._jobs.get()])
            self._write()
        self.history.close()  # the thread that wrote closes

    def _take(self, batch: list[Recorded | None]) -> None:
        """``batch`` and all that came meanwhile into the backlog, in one try."""
        while not self._jobs.empty():
            batch.append(self._jobs.get())
        for effect in batch:
            if effect is None:
                self._stopping = True
            else:
                self._add(effect)

    def _handle(self, effect: Recorded) -> None:
        self._add(effect)
        self._write()

    def _add(self, effect: Recorded) -> None:
        """A game that ended or was set aside waits to be written. Every effect tries what
        waits (a round saved: the history may be back); the folder is looked through
        again after a game, and when a new one starts (its first save may have set an
        ended game aside)."""
        playing, self._playing = self._playing, effect.record.game_id
        ended, self._ended = self._ended, isinstance(effect, GameFinished)
        undone = ended and isinstance(effect, GameChanged) and effect.record.game_id == playing
        if isinstance(effect, GameFinished | KeepAside) or undone:
            self._backlog.append(effect)  # undone after the end: its row is no longer so
        if not isinstance(effect, GameChanged) or effect.record.game_id != playing:
            self._sweep = self._store is not None

    def _write(self) -> None:
        try:
            if self._threaded:
                self._take([])
            wrote = 0
            while self._backlog:
                wrote += self._apply(self._backlog[0])
                self._backlog.pop(0)
            if self._sweep:
                wrote += self._look_through()
        except (CompanionError, OSError) as e:
            self._failed(str(e))
            return
        except sqlite3.Error as e:  # named with its file, as the history's own errors are
            self._failed(f"history {where(self.history.path)}: {clip(str(e))}")
            return
        except Exception as e:  # a bug: the game and its files go on, the thread lives
            trace = "".join(traceback.format_exception(e)).rstrip()
            self._failed(f"the history's writer failed ({type(e).__name__})", f":\n{trace}")
            return
        # Back only once a row is written: a pass with nothing to write (a look that met a
        # game being set aside, say) proves nothing, and the failure would be said twice.
        if self.failing and wrote:
            self._report("the history is written again")
            self.failing = False

    def _failed(self, why: str, trace: str = "") -> None:
        """Said once; what waits is tried again at the next write."""
        if not self.failing:
            self._report(
                f"{why}; the game goes on without its history, which is written when it can be"
                + trace
            )
        self.failing = True
        self.history.close()  # opened afresh at the next try

    def _apply(self, effect: Effect) -> int:
        """A game that ended, one set aside unfinished, or one undone after its end: its
        row (the rows written: 0 or 1). A game of no rounds played is no game to keep."""
        assert isinstance(effect, GameFinished | KeepAside | GameChanged)
        record = effect.record.identified()  # the table gives ids; an older record its own
        if not record.rounds:
            return 0
        if not isinstance(effect, GameFinished) and (record.ended or record.replay().finished):
            return 0  # written when it ended
        names = None if isinstance(effect, GameChanged) else _named(effect.names)
        self.history.put(record, names=names)  # no names: the row's stay
        self._tell()
        return 1

    def _look_through(self) -> int:
        """The state folder and the history brought into step (``storage.reconcile``); the
        rows written."""
        store = self._store
        assert store is not None
        before = store.kept_games()
        files = store.games()
        # A game set aside while the folder was read may be in neither list: look again
        # at the next write (a set-aside only adds a name).
        moved = store.kept_games() != before
        rows = self.history.held(f.game_id for f in files)
        puts = added = 0
        for action in reconcile(files, rows, self._keep):
            if isinstance(action, Put):
                self.history.put(action.record, date=action.date)
                puts += 1
                added += action.record.game_id not in rows
            else:
                store.forget(action.names, as_looked=True)
        if added:
            games = "1 game" if added == 1 else f"{added} games"
            self._report(f"{games} kept in {where(store.path)} written into the history")
        if puts:
            self._tell()
        self._sweep = moved
        return puts

    def _tell(self) -> None:
        if self._told is not None:
            summary = self.history.summary()
            self._told(HistoryKnown(summary))


def _named(names: Names) -> Names | None:
    """The seats' names as the history keeps them: None when no seat has one."""
    return tuple(names) if any(names) else None


def save_told_once(save: Callable[[], None], what: str, failing: bool, report: Report) -> bool:
    """Run ``save`` of the device's ``what`` ("names", "settings"), which apply whether it
    works or not, and return whether it failed. A failure is told once, not at every
    change while the card stays read-only (``failing``: the last save failed), and so is
    the first save that works again."""
    try:
        save()
    except StorageError as e:
        if not failing:
            report(f"{e}; the {what} apply until the device is switched off")
        return True
    if failing:
        report(f"the {what} are saved again")
    return False


class NamesSaver:
    """Saves the pads' names in ``names.json`` whenever one is set on the device. A
    failed save is told once; the names still apply until the device is switched off."""

    def __init__(self, file: NamesFile, report: Report):
        self.file = file
        self._report = report
        self.failing = False

    def __call__(self, effect: Effect) -> None:
        if not isinstance(effect, NamesChanged):
            return
        save = partial(self.file.save_names, effect.names)
        self.failing = save_told_once(save, "names", self.failing, self._report)


class SettingsSaver:
    """Saves the settings a person changes on the device in ``settings.json``: the keys
    changed there, beside those saved before (a key never changed on the device keeps
    following the config file). A failed save is told once; the settings still apply
    (the parts' own sinks apply them), and the next change saves them all again.

    ``current``: the settings the table started with; ``saved``: what the file held then."""

    def __init__(
        self,
        file: SettingsFile,
        current: DeviceSettings,
        saved: Mapping[str, object],
        report: Report,
    ):
        self.file = file
        self.current = current
        self.saved = dict(saved)
        self._report = report
        self.failing = False

    def __call__(self, effect: Effect) -> None:
        if not isinstance(effect, SettingsChanged):
            return
        new = effect.settings
        keys = changed(self.current, new)
        if not keys:
            return
        self.current = new
        values = new.to_dict()
        self.saved |= {key: values[key] for key in keys}
        save = partial(self.file.save, self.saved)
        self.failing = save_told_once(save, "settings", self.failing, self._report)


class Sounding(Protocol):
    """What the sound sink needs of the buzzer (``hw.buttons.Beeper``)."""

    def beep(self, name: str) -> None: ...
    def set_on(self, on: bool) -> None: ...
    def set_volume(self, level: int) -> None: ...


def sound(beeper: Sounding, prefs: DeviceSettings) -> Sink:
    """A sink that sounds every ``Beep`` by name, and follows the sound settings (on,
    volume) when a person changes them (``prefs``: the settings the buzzer has now)."""
    heard = [(prefs.sound, prefs.volume)]

    def sink(effect: Effect) -> None:
        if isinstance(effect, Beep):
            beeper.beep(effect.sound.value)
        elif isinstance(effect, SettingsChanged):
            new = effect.settings.sound, effect.settings.volume
            if new != heard[0]:
                heard[0] = new
                beeper.set_on(new[0])
                beeper.set_volume(new[1])

    return sink


def contrast(set_contrast: Callable[[int], None], prefs: DeviceSettings) -> Sink:
    """A sink that sets the panel's contrast (``Oled.contrast``) when a person changes it
    (``prefs``: the settings the panel has now)."""
    shown = [prefs.contrast]

    def sink(effect: Effect) -> None:
        if isinstance(effect, SettingsChanged) and effect.settings.contrast != shown[0]:
            shown[0] = effect.settings.contrast
            set_contrast(shown[0])

    return sink
