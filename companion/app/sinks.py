"""Where the table's effects go: the beeper, and the saved game in the state directory."""

from __future__ import annotations

from collections.abc import Callable

from ..storage import StateDir, StorageError
from ..table import Beep, Effect, GameChanged, GameFinished, KeepAside
from ..table.events import Event, SaveFailed

Report = Callable[[str], None]


def beeps(beep: Callable[[str], None]) -> Callable[[Effect], None]:
    """A sink that sounds every ``Beep`` effect by name."""

    def sink(effect: Effect) -> None:
        if isinstance(effect, Beep):
            beep(effect.sound.value)

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
