"""The one composition: every command says what it needs as a ``Spec`` (the resolved
settings, where the pins and the display come from, the input sources, the state
folder, the bots, the watchers, the service manager), and ``build`` opens the parts and
wires them to one app, complete when built. The device and the simulator are the same
app, other parts plugged in; ``companion pads`` opens the same keys (``open_keys``).

Every part is opened on an ``ExitStack``: when a later part fails to open, or the app
stops, the parts already open are closed again, in reverse order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from queue import Queue

from gpiozero.pins import Factory
from luma.core.device import device as LumaDevice
from PIL import Image

from ..errors import where
from ..game.settings import DeviceSettings
from ..hw.buttons import Beeper
from ..hw.display import Connector, Oled
from ..hw.health import Beating
from ..storage import StateDir
from ..storage.history import History
from ..storage.settings import NamesFile
from ..table import Flow, public_view
from ..table.events import Put, Source
from ..table.state import with_volume
from .bots import BotSeats
from .effective import Effective
from .inputs import InputSource
from .loop import App, Queued, Sink, Watcher
from .memory import remembered
from .notify import SILENT, Notifier
from .sinks import (
    HistoryRecorder,
    NamesSaver,
    Report,
    Saver,
    SettingsSaver,
    contrast,
    sound,
    stuck_keys,
)

# Where each kind of part comes from. Each opens its part on the stack (closed with it).
PinSource = Callable[[ExitStack, Report], Factory]  # the one pin factory
Luma = LumaDevice | Connector  # a luma device, or one that will be when the panel answers
DisplaySource = Callable[[ExitStack, Factory, Report], Luma]
# a watcher of the app's views, given the queue and the settings it starts with; None: none
WatcherSource = Callable[[ExitStack, Put, DeviceSettings, Report], Watcher | None]
BotRunner = Callable[[Put, Report], BotSeats]


def threaded_bots(put: Put, report: Report) -> BotSeats:
    """The device's bots: thinking on a thread of their own (seeded by the table)."""
    return BotSeats(put, report, threaded=True)


def any_order(sinks: list[Sink]) -> Sequence[Sink]:
    """The sinks as listed: their order does not matter (a test shuffles them)."""
    return sinks


@dataclass(frozen=True)
class Spec:
    """What a command needs of the table."""

    settings: Effective  # every layer resolved: the config's parts, the device's settings
    pins: PinSource
    display: DisplaySource
    inputs: tuple[InputSource, ...]  # the pads' source and the host buttons, and any other
    flow: Flow  # the table at power-on (the store adds the pads' names and the history)
    report: Report
    store: StateDir | None = None  # None: nothing is saved (a bare simulator)
    bots: BotRunner = threaded_bots
    watchers: tuple[WatcherSource, ...] = ()  # the page for phones
    notify: Notifier = SILENT  # systemd's notify socket (``companion run``)
    clock: Callable[[], float] = time.monotonic
    splash: float = 0.0  # seconds of splash screen at power-on
    after_frame: Callable[[], None] | None = None  # told after each frame (the simulator)
    # Every screen the table passes through drawn, even one a pause of 0 s skips (--fast,
    # a loop that woke late): where frames are kept or watched, never on the device.
    every_screen: bool = False
    arrange: Callable[[list[Sink]], Sequence[Sink]] = field(default=any_order)


@dataclass(frozen=True)
class Keys:
    """What people press, and the buzzer that answers: the inputs are not started."""

    inputs: tuple[Source, ...]
    beeper: Beeper


@dataclass(frozen=True)
class Table:
    """The app and the parts it was built on, all open until the stack closes."""

    app: App
    oled: Oled
    beeper: Beeper
    inputs: tuple[Source, ...]  # started: sending to the app's queue
    saver: Saver | None = None  # what keeps the game in the state folder, if there is one


def open_keys(
    found: Effective,
    inputs: Sequence[InputSource],
    stack: ExitStack,
    factory: Factory,
    report: Report,
) -> Keys:
    """The buzzer (sounding as ``found``'s settings say) and the ``inputs``, on
    ``factory``'s pins; closed by ``stack``. The table's keys, and ``companion pads``'."""
    pins, prefs = found.config.pins, found.settings
    beeper = Beeper(pins.buzzer, kind=pins.buzzer_kind, volume=prefs.volume, pin_factory=factory)
    stack.enter_context(beeper)
    beeper.set_on(prefs.sound)
    return Keys(tuple(source(stack, factory, report) for source in inputs), beeper)


def build(spec: Spec, stack: ExitStack) -> Table:
    """Open every part ``spec`` names on ``stack`` and wire them to one app; the inputs
    are started, sending to the app's queue."""
    report, prefs = spec.report, spec.settings.settings
    _one_folder(spec)
    stack.callback(spec.notify.close)
    factory = spec.pins(stack, report)
    oled = Oled(spec.display(stack, factory, report), on_error=report)
    keys = open_keys(spec.settings, spec.inputs, stack, factory, report)
    oled.contrast(prefs.contrast)
    events: Queue[Queued] = Queue()
    put: Put = events.put
    flow = with_volume(spec.flow, keys.beeper.has_volume)  # offer a volume if it has one
    sinks = [sound(keys.beeper, prefs), contrast(oled.contrast, prefs), stuck_keys(report)]
    bots = stack.enter_context(spec.bots(put, report))
    sinks.append(bots)
    saver = None
    if spec.store is not None:
        flow, stored = _stored(spec, spec.store, stack, flow, put)
        sinks += stored
        saver = next(sink for sink in stored if isinstance(sink, Saver))
    watchers = [w for make in spec.watchers if (w := make(stack, put, prefs, report)) is not None]
    if watchers:  # what the table shows now, until the loop draws its first frame
        shown = public_view(flow, spec.clock())
        for watch in watchers:
            watch(shown, prefs)
    display = oled if spec.after_frame is None else _Watched(oled, spec.after_frame)
    app = App(
        flow,
        display,
        events=events,
        sinks=spec.arrange(sinks),
        watchers=watchers,
        notify=spec.notify,
        clock=spec.clock,
        splash=spec.splash,
        every_screen=spec.every_screen,
        threads=[source.health for source in keys.inputs if isinstance(source, Beating)],
        report=report,
    )
    for source in keys.inputs:
        source.start(put)
    return Table(app, oled, keys.beeper, keys.inputs, saver)


def _one_folder(spec: Spec) -> None:
    """The settings saved on the device and the game are kept in one state folder."""
    file, store = spec.settings.settings_file, spec.store
    if file is not None and store is not None and file.folder.absolute() != store.path.absolute():
        raise ValueError(
            f"settings from {where(file.path)}, the game in {where(store.path)}: not one folder"
        )


def _stored(
    spec: Spec, store: StateDir, stack: ExitStack, flow: Flow, put: Put
) -> tuple[Flow, list[Sink]]:
    """The state folder's part: the table with the pads' names and what the history
    screen shows, and the sinks that keep the game, its history, names and settings."""
    history = History(store.path, report=spec.report)
    # The recorder owns the history: it writes on a thread of its own, and closes it.
    recorder = HistoryRecorder(
        history,
        spec.report,
        told=put,
        store=store,
        keep=spec.settings.config.keep_games,
        threaded=True,
    )
    stack.enter_context(recorder)
    names = NamesFile(store.path)
    flow = remembered(flow, names, history, spec.report)
    history.close()  # read here; from now on opened by the recorder's thread
    recorder.start()  # first writes the games the folder keeps that the history lacks
    found, report = spec.settings, spec.report
    sinks: list[Sink] = [
        recorder,
        Saver(store, put, report),
        NamesSaver(names, report),
    ]
    if found.settings_file is not None:
        sinks.append(SettingsSaver(found.settings_file, found.settings, found.saved, report))
    return flow, sinks


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
