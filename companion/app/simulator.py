"""The table on simulated parts: the same app as the device, other parts plugged in.

Everything below the app is the real thing on simulated electrons: ``PadMatrix`` on
gpiozero mock pins wired as a diode matrix, ``HostButtons`` on mock pins, luma's
driver on a fake bus (I²C, or SPI for the SSD1322) whose panel RAM is what gets drawn. Script
lines press keys through those pins, never around them, and each waits until the app
has handled the one before.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

from PIL import Image

from ..errors import Closing
from ..game.boards import profile, profile_names
from ..game.record import GameRecord
from ..game.settings import board_values
from ..hw.hub import HubPads
from ..rules import Board
from ..sim.hub import HubMissing, SimulatedHub
from ..sim.matrix import SimulatedMatrix
from ..sim.panel import fake_connector
from ..sim.pins import SimFactory
from ..storage import StateDir
from ..table import FAST, TABLE, Effect, Flow, Phase, new_flow, start
from ..table.events import HostKey, NameSet, Put, Source, Tick
from ..table.setup import resume_kept
from ..ui.catalog import languages
from .bots import BotSeats, counting_clock
from .compose import Sink, Spec, WatcherSource, any_order, build
from .config import PadsConfig
from .device import given_display, given_pins
from .effective import Effective, effective
from .inputs import InputSource, table_inputs
from .memory import power_on
from .script import Line
from .sinks import Report

HOLD = 0.25  # the simulator's long press; the device holds 1 s
HUB_READY = 30.0  # seconds the hub's firmware has to answer the first hello
SPLASH = 1.5


def _inline_bots(put: Put, report: Report) -> BotSeats:
    return BotSeats(put, report, threaded=False, clock=counting_clock)


def simulator_settings(
    config: Path | None,
    store: StateDir | None,
    *,
    board: Board | None,
    target: int | None,
    lang: str | None,
    report: Report,
    search: bool = False,
    set_aside: bool = True,
) -> Effective:
    """The simulator's settings, resolved as every command's are: the packaged defaults <
    the config file (``config``; ``search``: else the device's, if there is one) < the
    settings saved in ``store`` (none without a store) < the options given (None: not
    given). ``set_aside`` false only looks at a damaged settings.json."""
    given: dict[str, object] = {"language": lang, "target": target}
    if board is not None:
        given |= board_values(board)
    return effective(
        config,
        store.path if store is not None else None,
        given,
        report=report,
        set_aside=set_aside,
        config_file=search,
        device=store is not None,
    )


class Simulator(Closing):
    """The whole table on simulated parts, its app running on a thread of its own."""

    def __init__(
        self,
        *,
        players: int | None = None,
        board: Board | None = None,
        target: int | None = None,
        fast: bool = False,
        speed: float = 1.0,
        controller: str | None = None,
        on_frame: Callable[[Image.Image], None] | None = None,
        store: StateDir | None = None,
        lang: str | None = None,
        hub: Sequence[str] | None = None,
        bots: Sequence[str] = (),
        seed: int = 0,
        resume: GameRecord | None = None,
        clock: Callable[[], float] = time.monotonic,
        settings: Effective | None = None,
        watchers: tuple[WatcherSource, ...] = (),
        inputs: tuple[InputSource, ...] = (),
        arrange: Callable[[list[Sink]], Sequence[Sink]] = any_order,
    ):
        """``hub``: the pads through the hub's firmware, started with this command line
        (``simhub.firmware_command()``) behind a pty; None: the matrix on mock pins.
        ``bots``: the strengths of bots seated after the people (``players`` of them, or
        setup's default); they answer at once, the same on every run of the same ``seed``
        (a different seed: other choices, another game). ``resume``: a game to go on
        with at once, at its next round (a game set aside, say). ``clock``: the
        table's time (a test's own, advanced by hand, makes pauses end when it says).
        ``settings``: resolved by the command (None: the packaged defaults, the settings
        saved in ``store``, and ``lang``, ``board``, ``target`` over them); ``controller``
        (None: the settings' display) the simulated panel; ``watchers``: the page;
        ``inputs``: more sources beside the pads and the buttons."""
        self._clock = clock
        self.errors: list[str] = []
        self._on_frame = on_frame
        self._inputs = 0
        self.failure: BaseException | None = None  # what stopped the app thread, if anything
        self._stack = ExitStack()
        if settings is None:
            report = self.errors.append
            found = simulator_settings(
                None, store, board=board, target=target, lang=lang, report=report
            )
        elif (board, target, lang) != (None, None, None):
            raise ValueError("give the settings resolved, or board, target and lang: not both")
        else:
            found = settings
        spec = (players, fast, speed, controller, store, hub, tuple(bots), seed, resume)
        parts = (inputs, watchers)
        try:
            self._open(found, *spec, *parts, arrange)
        except BaseException:
            self._stack.close()
            raise
        self._thread = threading.Thread(target=self._run_app, name="app", daemon=True)
        self._thread.start()
        self.app.put(Tick())  # what is due already (--fast's pauses): see ``caught_up``

    def _open(
        self,
        found: Effective,
        players: int | None,
        fast: bool,
        speed: float,
        controller: str | None,
        store: StateDir | None,
        hub: Sequence[str] | None,
        bots: tuple[str, ...],
        seed: int,
        resume: GameRecord | None,
        inputs: tuple[InputSource, ...],
        watchers: tuple[WatcherSource, ...],
        arrange: Callable[[list[Sink]], Sequence[Sink]],
    ) -> None:
        cfg, prefs = found.config, found.settings
        self.factory = SimFactory()
        self._stack.callback(self.factory.close)
        self.wiring: SimulatedMatrix | SimulatedHub
        if hub is None:  # the matrix on mock pins, whatever the config's [pads] says
            self.wiring = SimulatedMatrix(self.factory, cfg.pins.rows, cfg.pins.columns)
            # its columns settle at once: no wait after a row switch
            cfg = replace(cfg, pads=PadsConfig("matrix", cfg.pads.hub, settle_us=0))
        else:
            self.wiring = SimulatedHub(hub)
            self._stack.callback(self.wiring.close)
            cfg = replace(cfg, pads=PadsConfig("hub", self.wiring.port))
        lines = cfg.display  # an SPI panel's D/C and reset, as the device has them
        # The device's way to its display: a panel that loses its power is set up again.
        luma, self.panel = fake_connector(
            controller or lines.controller, pin_factory=self.factory, dc=lines.dc, reset=lines.reset
        )
        self._stack.callback(luma.close)
        boards = tuple(profile(name) for name in profile_names())
        timing = FAST if fast else TABLE.faster(speed)
        start_flow = new_flow(
            boards, timing, prefs=prefs, languages=tuple(languages()), hold=HOLD, seed=seed
        )
        start_flow = replace(start_flow, choice=replace(start_flow.choice, bots=bots))
        flow = power_on(start_flow, store, self.errors.append)
        effects: tuple[Effect, ...] = ()
        if players is not None:
            now = self._clock()
            flow, effects = start(flow, players, flow.board, prefs.target, now, bots)
        elif resume is not None:  # as the device resumes a game set aside: its file, its row
            flow, effects = resume_kept(flow, resume, self._clock())
        spec = Spec(
            settings=found,
            pins=given_pins(self.factory),
            display=given_display(luma),
            inputs=table_inputs(cfg, cfg.pads.source) + inputs,
            flow=flow,
            report=self.errors.append,
            store=store,
            bots=_inline_bots,
            watchers=watchers,
            clock=self._clock,
            splash=0.0 if fast or players is not None else SPLASH,
            after_frame=self._frame if self._on_frame is not None else None,
            every_screen=self._on_frame is not None,  # frames kept or shown: each screen
            arrange=arrange,
        )
        self.table = build(spec, self._stack)
        self.app = self.table.app
        if hub is not None:
            self._await_hub()
        self.app.apply(effects)  # the game that --players began is saved like any other
        buttons = cfg.pins.buttons
        self.button_pins = {key: self.factory.pin(buttons[key.value]) for key in HostKey}

    def _await_hub(self) -> None:
        """Keys pressed before the hub answers would be lost: wait for its answer."""
        assert isinstance(self.wiring, SimulatedHub)
        deadline = time.monotonic() + HUB_READY
        pads = self.pads
        assert isinstance(pads, HubPads)
        while not pads.wait_ready(0.1):
            if self.wiring.failure() is not None:
                raise HubMissing(self.wiring.failure())
            if time.monotonic() > deadline:
                raise HubMissing(f"the hub's firmware did not answer in {HUB_READY:g} s")

    @property
    def flow(self) -> Flow:
        return self.app.flow

    @property
    def pads(self) -> Source:
        """The players' pads: the matrix on mock pins, or the hub's."""
        return self.table.inputs[0]

    @property
    def oled(self):
        return self.table.oled

    @property
    def save_failed(self) -> str | None:
        """Why the game's last save failed (``Read-only file system``), or None: it
        worked, or there is no state folder."""
        saver = self.table.saver
        return saver.reason if saver is not None and saver.failing else None

    @property
    def beeper(self):
        return self.table.beeper

    def _frame(self) -> None:
        if self._on_frame is not None:
            self._on_frame(self.panel.image())

    def _run_app(self) -> None:
        try:
            self.app.run()
        except BaseException as e:  # the runner re-raises it instead of waiting in vain
            self.failure = e

    def _check(self) -> None:
        if self.failure is not None:
            raise RuntimeError(f"the app stopped: {self.failure!r}") from self.failure

    # --- acting like people -------------------------------------------------------------

    def press(self, seat: int, card: int) -> None:
        """Press and release a pad key, through the matrix pins, as a person would."""
        self.wiring.press(seat, card)
        self.settle(1)
        self.wiring.release(seat, card)
        self.settle(1)

    def button(self, key: HostKey, hold: bool = False) -> None:
        """Press a host button through its pin; ``hold`` keeps it down until the long
        press has fired (OK: the menu)."""
        pin = self.button_pins[key]
        pin.drive_low()
        self.settle(1)
        if hold:
            self._ready()
        pin.drive_high()
        self.settle(1)

    def run(self, lines: list[Line], *, then_new: bool = False) -> list[Line]:
        """Play script lines. A press waits for the table as a person would: until no
        pause is running (with --fast there are none). The script stops at the final
        ranking (what it reports is that game), unless ``then_new``: the lines it did
        not play are returned."""
        for index, line in enumerate(lines):
            if line.action != "wait":
                self._ready(f"line {line.number}: ")
            if not then_new and self.ranked:
                return lines[index:]
            self.act(line)
        self._ready("after the last line: ")  # let the last pauses run out
        return []

    @property
    def ranked(self) -> bool:
        """Whether the table shows a game's final ranking."""
        return self.flow.mode.phase is Phase.OVER

    def play_out(self) -> None:
        """A game of bots alone: wait, for as long as its pauses take, until it is over
        (the table then waits for people, who are not there)."""
        self._ready("while the bots played: ", timeout=math.inf)

    def act(self, line: Line) -> None:
        """Do what one line says at once, even during a pause, as a key at the keyboard
        does: OK then cuts the pause short."""
        if line.action == "pad":
            self.press(line.seat, line.card)
        elif line.action in ("button", "hold"):
            assert line.key is not None  # the script's parser gives a button's lines one
            self.button(line.key, hold=line.action == "hold")
        elif line.action == "name":  # as the web page would set it: no keys to press
            self.app.put(NameSet(line.seat, line.name))
            self.settle(0)
        else:
            time.sleep(line.ms / 1000)
            self.settle(0)

    def _ready(self, where: str = "", timeout: float = 120.0) -> None:
        if not self.app.wait_ready(timeout, alive=self._thread.is_alive):
            self._check()
            raise RuntimeError(f"{where}the table never became ready")

    def caught_up(self, timeout: float = 120.0) -> None:
        """Wait until the table has stepped through what was due when it started (the
        page's first answer is then the table as people see it)."""
        if not self.app.wait_idle(self._inputs, timeout, alive=self._thread.is_alive):
            self._check()
            raise RuntimeError(f"the table did not start within {timeout:g} s")

    def settle(self, inputs: int) -> None:
        """Wait until ``inputs`` more input events are handled and the app is idle."""
        self._inputs += inputs
        if not self.app.wait_idle(self._inputs, alive=self._thread.is_alive):
            self._check()
            raise RuntimeError("the app did not handle an input within 10 s")

    def close(self) -> None:
        """Stop the app and release every part. Safe to call more than once."""
        self.app.stop()
        self._thread.join()  # at once if the app has already stopped
        self._stack.close()
