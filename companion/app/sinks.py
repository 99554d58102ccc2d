"""Where the table's effects go: the beeper, the saved game, the history, the saved
settings and the pads' names in the state directory."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial

from ..errors import CompanionError
from ..game.names import NO_HISTORY, Names
from ..game.record import GameRecord
from ..game.settings import DeviceSettings, changed
from ..storage import StateDir, StorageError
from ..storage.history import History
from ..storage.settings import NamesFile, SettingsFile
from ..table import Beep, Effect, Flow, GameChanged, GameFinished, KeepAside
from ..table.effects import NamesChanged, SettingsChanged, Stuck
from ..table.events import STUCK, Event, HistoryKnown, HostKey, SaveFailed

Report = Callable[[str], None]


def beeps(beep: Callable[[str], None]) -> Callable[[Effect], None]:
    """A sink that sounds every ``Beep`` effect by name."""

    def sink(effect: Effect) -> None:
        if isinstance(effect, Beep):
            beep(effect.sound.value)

    return sink


def stuck_keys(report: Report) -> Callable[[Effect], None]:
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
        self.failing = False

    def __call__(self, effect: Effect) -> None:
        if isinstance(effect, GameChanged | GameFinished):
            self._save(effect)
        elif isinstance(effect, KeepAside):
            self._keep_aside()

    def _save(self, effect: GameChanged | GameFinished) -> None:
        try:
            self.store.save(effect.record)
        except StorageError as e:
            if not self.failing:
                self._report(f"{e}; the game goes on, and saving is tried again next round")
                self._put(SaveFailed(e.reason))
            self.failing = True
            return
        for note in self.store.notes:
            self._report(note)
        if self.failing:
            self._report("the game is saved again")
        self.failing = False

    def _keep_aside(self) -> None:
        try:
            kept = self.store.set_aside()
        except StorageError as e:
            self._report(f"{e}; the saved game stays where it is")
            return
        for note in self.store.notes:
            self._report(note)
        if kept is not None:
            self._report(f"the saved game is kept as {kept}")


class HistoryRecorder:
    """Writes every game that ends into the history: finished (the target reached) or
    abandoned (ended from the menu, or an unfinished game set aside for a new one). It
    must come before the Saver: a game set aside is read from the state folder before
    the Saver moves it. A history that cannot be written is told once; the game goes on.

    Every save of the game also tells the history which game is in progress, so one game
    keeps one row: a record holding no rounds starts a new game, unless this recorder has
    seen a record since the start or the last set-aside (then it is a round undone).

    ``names`` gives the names of a game's seats when it ends or is set aside (None:
    no seat has one); ``told``, if given, receives the history's new summary (``HistoryKnown``)
    each time a game is written, for the device's history screen."""

    def __init__(
        self,
        history: History,
        store: StateDir,
        report: Report,
        *,
        names: Callable[[GameRecord], Names] = lambda record: (),
        told: Callable[[Event], None] | None = None,
    ):
        self.history = history
        self.store = store
        self._report = report
        self._names = names
        self._told = told
        self._seen = False
        self.failing = False

    def __call__(self, effect: Effect) -> None:
        try:
            if isinstance(effect, GameChanged):
                fresh = not self._seen and not effect.record.rounds
                self.history.game_id(effect.record, fresh=fresh)
                self._seen = True
            elif isinstance(effect, GameFinished):
                fresh = not self._seen and not effect.record.rounds
                game_id = self.history.game_id(effect.record, fresh=fresh)
                names = self._names_of(effect.record)
                self.history.put(effect.record, game_id=game_id, names=names)
                self._seen = True
                self._tell()
            elif isinstance(effect, KeepAside):
                self._seen = False
                self._abandon()
                self._tell()
        except (CompanionError, sqlite3.Error, OSError) as e:
            if not self.failing:
                self._report(f"{e}; the game goes on without its history")
            self.failing = True
            return
        self.failing = False

    def _tell(self) -> None:
        if self._told is not None:
            self._told(HistoryKnown(self.history.summary()))

    def _abandon(self) -> None:
        record = self.store.load().record
        if record is not None and not record.ended and not record.replay().finished:
            names = self._names_of(record)
            self.history.put(record, game_id=self.history.game_id(record), names=names)

    def _names_of(self, record: GameRecord) -> Names | None:
        names = self._names(record)
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


def remembered(flow: Flow, store: StateDir, history: History, report: Report) -> Flow:
    """``flow`` with the pads' names saved in the state folder and what the history
    screen shows (a history that cannot be read is said, and the screen stays empty)."""
    names = NamesFile(store.path).names(report)
    try:
        past = history.summary()
    except (CompanionError, sqlite3.Error, OSError) as e:
        report(f"{e}; the history screen stays empty")
        past = NO_HISTORY
    return replace(flow, names=names, past=past)


class SettingsSaver:
    """Applies the settings a person changes on the device at once, and saves them in
    ``settings.json``: the keys changed there, beside those saved before (a key never
    changed on the device keeps following the config file). A failed save is told once;
    the settings still apply, and the next change saves them all again. Without a
    ``file`` (the simulator with no state folder) they only apply.

    ``current``: the settings the table started with; ``saved``: what the file held then.
    The appliers, each optional, are called when their values change: ``on_contrast``
    with 1..10, ``on_sound`` with (on, volume 1..10), ``on_language`` with its code."""

    def __init__(
        self,
        file: SettingsFile | None,
        current: DeviceSettings,
        saved: Mapping[str, object],
        report: Report,
        *,
        on_contrast: Callable[[int], None] | None = None,
        on_sound: Callable[[bool, int], None] | None = None,
        on_language: Callable[[str], None] | None = None,
    ):
        self.file = file
        self.current = current
        self.saved = dict(saved)
        self._report = report
        self._on_contrast, self._on_sound, self._on_language = on_contrast, on_sound, on_language
        self.failing = False

    def __call__(self, effect: Effect) -> None:
        if not isinstance(effect, SettingsChanged):
            return
        new = effect.settings
        keys = changed(self.current, new)
        if not keys:
            return
        self.current = new
        self._apply(new, set(keys))
        values = new.to_dict()
        self.saved |= {key: values[key] for key in keys}
        self._save()

    def _apply(self, new: DeviceSettings, keys: set[str]) -> None:
        if self._on_contrast is not None and "contrast" in keys:
            self._on_contrast(new.contrast)
        if self._on_sound is not None and keys & {"sound", "volume"}:
            self._on_sound(new.sound, new.volume)
        if self._on_language is not None and "language" in keys:
            self._on_language(new.language)

    def _save(self) -> None:
        if self.file is None:
            return
        save = partial(self.file.save, self.saved)
        self.failing = save_told_once(save, "settings", self.failing, self._report)
