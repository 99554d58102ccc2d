"""The one composition root: the device and the simulator are the same app, with
different parts plugged in (a pin factory, a luma device, a state directory).

Every part is opened inside an ``ExitStack``: when a later part fails to open, or
the app stops, the parts already open are closed again, in reverse order.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass

from PIL import Image

from ..game.settings import DeviceSettings
from ..hw.buttons import Beeper, HostButtons
from ..hw.display import Oled
from ..hw.hub import HubPads
from ..hw.matrix import PadMatrix
from ..storage import Source, StateDir
from ..storage.history import History
from ..storage.settings import NamesFile, SettingsFile
from ..table import Flow, offer_resume
from ..table.names import seat_names
from ..table.state import with_volume
from ..ui.catalog import Catalog, catalog
from .bots import BotSeats
from .config import Pins
from .loop import App
from .sinks import (
    HistoryRecorder,
    NamesSaver,
    Report,
    Saver,
    SettingsSaver,
    beeps,
    remembered,
    stuck_keys,
)


@dataclass(frozen=True)
class Parts:
    """What differs between the device and the simulator."""

    pins: Pins
    luma: object  # a luma device: on the Pi's bus, or on the simulator's fake panel
    pin_factory: object | None = None  # None: gpiozero's own choice (the Pi's pins)
    hub: str | None = None  # the pads through the Pico hub on this port; None: the matrix


@dataclass(frozen=True)
class Keys:
    """What people press, and the buzzer that answers: the parts ``companion pads``
    tries, and the table is built on."""

    pads: PadMatrix | HubPads
    buttons: HostButtons
    beeper: Beeper


@dataclass(frozen=True)
class Assembled:
    app: App
    oled: Oled
    beeper: Beeper
    pads: PadMatrix | HubPads


class _Watched:
    """A display that tells ``after`` of every frame it was handed (the simulator draws
    the panel then)."""

    def __init__(self, oled: Oled, after: Callable[[], None]):
        self._oled, self._after = oled, after
        self.size = oled.size

    def show(self, image: Image.Image) -> None:
        self._oled.show(image)
        self._after()

    @property
    def dirty(self) -> bool:
        return self._oled.dirty

    def retry(self) -> None:
        self._oled.retry()
        self._after()


def assemble(
    stack: ExitStack,
    parts: Parts,
    flow: Flow,
    words: Catalog,
    *,
    store: StateDir | None,
    report: Report,
    clock: Callable[[], float] = time.monotonic,
    splash: float = 0.0,
    after_frame: Callable[[], None] | None = None,
    bots: Callable[[Callable, Report], BotSeats] | None = None,
) -> Assembled:
    """Open every part on ``stack`` and wire them to one app; the sources are started.
    ``bots`` makes the bots' sink from the app's ``put`` and ``report`` (None: bots think
    on a thread of their own, as on the device)."""
    keys = open_keys(stack, parts, report)
    beeper = keys.beeper
    oled = Oled(parts.luma, on_error=report)
    display = oled if after_frame is None else _Watched(oled, after_frame)
    flow = with_volume(flow, beeper.has_volume)  # the settings offer a volume if it has one
    app = App(flow, display, words, sinks=[beeps(beeper.beep)], clock=clock, splash=splash)
    app.sinks.append(stuck_keys(report))
    seats = (bots or _threaded_bots)(app.put, report)
    stack.callback(seats.close)
    app.sinks.append(seats)
    if store is not None:
        history = History(store.path, report=report)
        stack.callback(history.close)
        app.flow = remembered(app.flow, store, history, report)  # names, the history screen
        names = lambda record: seat_names(app.flow, record)  # noqa: E731 (read at its end)
        recorder = HistoryRecorder(history, store, report, names=names, told=app.put)
        app.sinks.append(recorder)  # before the Saver
        app.sinks.append(Saver(store, app.put, report))
        app.sinks.append(NamesSaver(NamesFile(store.path), report))
    for source in (keys.pads, keys.buttons):
        source.start(app.put)
    return Assembled(app, oled, beeper, keys.pads)


def _threaded_bots(put: Callable, report: Report) -> BotSeats:
    # Seeded afresh at each power-on: the same position need not get the same answer.
    return BotSeats(put, report, threaded=True, seed=random.randrange(2**32))


def open_keys(stack: ExitStack, parts: Parts, report: Report) -> Keys:
    """The buzzer, the pads (the matrix, or the hub ``parts`` names) and the host
    buttons, every pin from ``parts.pin_factory``; closed by ``stack``. Not started."""
    pins, factory = parts.pins, parts.pin_factory
    beeper = Beeper(pins.buzzer, kind=pins.buzzer_kind, pin_factory=factory)
    stack.callback(beeper.close)
    pads = open_pads(parts, report)
    stack.callback(pads.close)
    buttons = HostButtons(pins.buttons, pin_factory=factory)
    stack.callback(buttons.close)
    return Keys(pads, buttons, beeper)


def open_pads(parts: Parts, report: Report) -> PadMatrix | HubPads:
    """The players' pads: through the hub when ``parts`` names its port, else the key
    matrix on the pins."""
    if parts.hub is not None:
        return HubPads(parts.hub, report=report)
    return PadMatrix(parts.pins.rows, parts.pins.columns, pin_factory=parts.pin_factory)


def apply_settings(
    table: Assembled,
    prefs: DeviceSettings,
    file: SettingsFile | None,
    saved: Mapping[str, object],
    report: Report,
) -> SettingsSaver:
    """``prefs`` on the parts now, and every change made on the device applied to them at
    once (sound, volume, contrast, language) and saved in ``file``, if there is one."""
    beeper, oled, app = table.beeper, table.oled, table.app

    def sound(on: bool, volume: int) -> None:
        beeper.set_on(on)
        beeper.set_volume(volume)

    sound(prefs.sound, prefs.volume)
    oled.contrast(prefs.contrast)
    saver = SettingsSaver(
        file,
        prefs,
        saved,
        report,
        on_contrast=oled.contrast,
        on_sound=sound,
        on_language=lambda code: app.set_words(catalog(code)),
    )
    app.sinks.append(saver)
    return saver


def power_on(flow: Flow, store: StateDir | None, report: Report) -> Flow:
    """The table at power-on: offering the saved game if one is unfinished. A save that
    cannot be used is told, and kept (the store never overwrites it)."""
    if store is None:
        return flow
    loaded = store.load()
    for message in loaded.messages:
        report(message)
    if loaded.record is not None and not loaded.finished:
        return offer_resume(flow, loaded.record, backup=loaded.source is Source.BACKUP)
    return flow
