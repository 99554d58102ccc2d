"""The input threads' health and the watchdog: the loop pings systemd only while the pad
scanner (and the hub reader) is alive and scanning. A scanner killed by a failing pin read
is logged whole, once, and ``companion run`` exits 1 for systemd to restart it on the
resume screen; a scanner that stops scanning stops the pings."""

from __future__ import annotations

import errno
import io
import random
import socket
import threading
from dataclasses import replace

import pytest
import serial
from devices import MockHardware
from helpers import BOARDS, PAD_COLUMNS, PAD_ROWS, model_game, nothing_waiting, received

from companion.app.loop import STALL, App, InputFailed
from companion.app.notify import Notifier
from companion.cli.run import Machine, run_command
from companion.game.boards import profile
from companion.hw.health import Heartbeat
from companion.hw.hub import HubPads, PortRefused
from companion.hw.matrix import PadMatrix
from companion.sim.matrix import SimulatedMatrix
from companion.sim.pins import SimFactory
from companion.storage import StateDir
from companion.table import TABLE, new_flow
from companion.table.events import HostKey, HostPress, HubRefused, Tick
from companion.table.view import ResumeView

GUARD = 10.0  # seconds a wait may take before the test fails (never a sleep)
RECORD, _ = model_game(random.Random(6), 3, profile("standard"), 45, max_rounds=4)


class Clock:
    """A clock of the test's own."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Panel:
    size = (128, 64)
    dirty = False

    def show(self, image) -> None: ...

    def retry(self) -> None: ...


def broken_matrix(factory) -> tuple[SimulatedMatrix, threading.Event]:
    """The pads' wiring, whose column reads fail (an OSError, as a gone GPIO chip gives)
    once the event is set."""
    sim = SimulatedMatrix(factory, PAD_ROWS, PAD_COLUMNS)
    broken = threading.Event()
    reading = sim.reading

    def read(card: int) -> None:
        if broken.is_set():
            raise OSError(5, "Input/output error")
        reading(card)

    sim.reading = read  # type: ignore[method-assign]
    return sim, broken


# --- the heartbeat alone ---------------------------------------------------------------


def test_a_heartbeat_tells_dead_ended_stuck_and_well_apart():
    clock = Clock()
    heart = Heartbeat("pad-matrix", clock)
    assert heart.trouble(STALL) is None
    clock.now = STALL
    trouble = heart.trouble(STALL)
    assert trouble is not None and not trouble.dead
    assert trouble.what == "the pad-matrix thread has not scanned for 10 s"
    heart.beat()
    assert heart.trouble(STALL) is None
    with heart.resting():  # asleep on purpose, however long
        clock.now += 1000
        assert heart.trouble(STALL) is None
    assert heart.trouble(STALL) is None  # resting ends with a beat

    heart.when_dead = lambda: None
    heart.run(lambda: None)()  # it ended, and nobody asked it to
    trouble = heart.trouble(STALL)
    assert trouble is not None and trouble.dead and trouble.what == "the pad-matrix thread ended"

    asked = Heartbeat("pad-hub", clock)
    asked.stop()
    asked.run(lambda: None)()
    assert asked.trouble(STALL) is None  # closed: its end is no trouble


def test_a_thread_nobody_watches_dies_as_before():
    heart = Heartbeat("pad-matrix")

    def fail() -> None:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):  # Python prints it, as it always did
        heart.run(fail)()
    trouble = heart.trouble(STALL)
    assert trouble is not None and trouble.dead and isinstance(trouble.error, ValueError)


def test_the_scanner_and_the_hub_reader_beat():
    factory = SimFactory()
    SimulatedMatrix(factory, PAD_ROWS, PAD_COLUMNS)
    clock = Clock()
    matrix = PadMatrix(PAD_ROWS, PAD_COLUMNS, pin_factory=factory, settle=0, beat_clock=clock)
    hub = HubPads("loop://", report=lambda line: None)
    try:
        matrix.start(lambda event: None)
        assert matrix.wait_idle(GUARD)
        clock.now = 1000  # idle: it waits for a key, resting on purpose
        assert matrix.health.trouble(STALL) is None
        assert hub.health.trouble(STALL) is None
    finally:
        matrix.close()
        hub.close()
        factory.reset()
    assert matrix.health.trouble(STALL) is None and hub.health.trouble(STALL) is None


# --- the loop and systemd's watchdog ---------------------------------------------------


@pytest.fixture
def manager(tmp_path):
    """systemd's end of the notify socket, read by the test."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(GUARD)
    yield sock, Notifier.from_environ({"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "30000000"})
    sock.close()


class Running:
    """``App.run`` on a thread; what it raised, if anything."""

    def __init__(self, app: App) -> None:
        self.app, self.failure = app, None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.app.run()
        except BaseException as e:
            self.failure = e

    def ended(self) -> bool:
        self.thread.join(GUARD)
        return not self.thread.is_alive()


def test_a_scanner_killed_by_a_pin_read_stops_the_pings_and_the_loop(manager):
    sock, notify = manager
    factory, clock = SimFactory(), Clock()
    sim, broken = broken_matrix(factory)
    matrix = PadMatrix(PAD_ROWS, PAD_COLUMNS, pin_factory=factory, settle=0)
    app = App(new_flow(BOARDS, TABLE), Panel(), notify=notify, clock=clock, threads=[matrix.health])
    running = Running(app)
    try:
        matrix.start(app.put)
        assert received(sock) == "READY=1"
        clock.now = 15.0
        app.put(Tick())
        assert received(sock) == "WATCHDOG=1"  # healthy: fed

        broken.set()
        sim.press(2, 5)  # the scanner wakes, reads a column, and dies
        assert running.ended()  # the dying thread woke the loop, which stopped
        clock.now = 45.0
        app.put(Tick())
        assert nothing_waiting(sock)  # no ping, ever again: systemd restarts the service
    finally:
        app.stop()
        matrix.close()
        factory.reset()
    failure = running.failure
    assert isinstance(failure, InputFailed)
    assert str(failure) == "the pad-matrix thread stopped on OSError"
    assert isinstance(failure.__cause__, OSError)  # the thread's own error, and its traceback


def test_a_stuck_input_thread_stops_the_pings_until_it_scans_again(manager):
    sock, notify = manager
    clock, beats, said = Clock(), Clock(), []
    heart = Heartbeat("pad-matrix", beats)  # a thread that beats when the test says
    app = App(
        new_flow(BOARDS, TABLE),
        Panel(),
        notify=notify,
        clock=clock,
        threads=[heart],
        report=said.append,
    )
    running = Running(app)
    try:
        assert received(sock) == "READY=1"
        clock.now = beats.now = 15.0
        heart.beat()
        app.put(Tick())
        assert received(sock) == "WATCHDOG=1"
        clock.now = beats.now = 30.0  # no scan for 15 s
        app.put(Tick())
        assert app.wait_idle(0, GUARD)
        clock.now = beats.now = 45.0
        app.put(Tick())
        assert app.wait_idle(0, GUARD)
        assert app.next_wake() == pytest.approx(15.0)  # no spinning while it skips the pings
        assert nothing_waiting(sock)
        assert said == [
            "the pad-matrix thread has not scanned for 15 s: the watchdog is no longer fed"
        ]
        heart.beat()  # it scans again: the pings come back, were systemd still waiting
        clock.now = 60.0
        app.put(Tick())
        assert received(sock) == "WATCHDOG=1"
    finally:
        app.stop()
    assert running.ended() and running.failure is None


# --- companion run: the exit, the journal, the restart ---------------------------------


class Breaker:
    """An input of the test's own, beside the table's: when started it breaks the
    matrix's column reads and presses a key, so the scanner dies."""

    def __init__(self, sim: SimulatedMatrix, broken: threading.Event) -> None:
        self.sim, self.broken = sim, broken

    def __call__(self, stack, factory, report):
        return self

    def start(self, put) -> None:
        self.broken.set()
        self.sim.press(0, 3)

    def close(self) -> None:
        pass


def test_companion_run_exits_1_with_the_thread_s_traceback_once_and_resumes(tmp_path):
    StateDir(tmp_path).save(RECORD)
    config = tmp_path / "companion.toml"
    config.write_text('[paths]\nstate_dir = "."\n')
    hardware = MockHardware()
    sim, broken = broken_matrix(hardware.factory)
    machine = Machine(
        pins=lambda found: lambda stack, report: hardware.factory,
        open_device=hardware.open,
        splash=0.0,
        signals=False,
        inputs=(Breaker(sim, broken),),
    )
    err = io.StringIO()
    assert run_command(str(config), err=err, machine=machine) == 1  # Restart=on-failure

    log = err.getvalue()
    first = log.splitlines()[0]
    assert first.startswith("companion run: stopped by an unexpected error (InputFailed)")
    assert log.count("OSError: [Errno 5] Input/output error") == 1  # the thread's, once
    assert "in _scan" in log  # where the scanner died
    assert (
        log.splitlines()[-1]
        == "companion.app.loop.InputFailed: the pad-matrix thread stopped on OSError"
    )

    broken.clear()  # the restart: the pads answer again, the game is offered
    hardware.factory.reset()
    again = MockHardware()
    offered: list = []
    resumed = again.machine(HostPress(HostKey.OK), seen=offered)
    assert run_command(str(config), err=io.StringIO(), machine=resumed) == 0
    assert offered[0][0].body == ResumeView(RECORD.players, len(RECORD.rounds), backup=False)


def test_companion_run_on_a_hub_port_that_stays_refused_says_so_and_exits_3(tmp_path):
    """The hub's port refused to the service (its DeviceAllow= class unknown when it
    started): one line, the table's notice, and exit 3, which systemd restarts; never a
    healthy retry for ever, nor a crash's traceback."""
    StateDir(tmp_path).save(RECORD)
    config = tmp_path / "companion.toml"
    config.write_text('[paths]\nstate_dir = "."\n')
    hardware, seen, held = MockHardware(), [], []
    clock = Clock()

    def refused(url: str):
        clock.now += 1.0  # a second a try, as the thread's own wait
        raise serial.SerialException(errno.EPERM, f"could not open port {url}: refused")

    def hub(stack, factory, report):
        return HubPads("/dev/santo-domingo-hub", report=report, clock=clock,
                       reopen_every=0.001, opener=refused)  # fmt: skip

    machine = replace(
        hardware.machine(seen=seen), inputs=(hub,), hold_off=lambda: held.append(len(seen))
    )
    err = io.StringIO()
    assert run_command(str(config), err=err, machine=machine) == 3
    lines = err.getvalue().splitlines()
    said = (
        "the pad hub's port /dev/santo-domingo-hub has refused us for 10 s (Operation not"
        " permitted): starting again, which lets the port in if its driver loaded after the"
        " start"
    )
    assert lines[-1] == f"companion run: {said}" and "Traceback" not in err.getvalue()
    assert held == [len(seen)]  # held off after the notice was shown, before the exit
    assert seen[-1][0].notice == ("notice.hub_refused", ())  # what the panel shows


def test_a_dying_threads_last_word_is_shown_before_the_loop_ends():
    """The hub's notice, put just before its thread dies, is drawn even when the loop was
    busy then: it handles what is queued before it ends on the dead thread."""
    heart, seen = Heartbeat("pad-hub"), []
    app = App(
        new_flow(BOARDS, TABLE),
        Panel(),
        threads=[heart],
        watchers=[lambda view, prefs: seen.append(view)],
    )
    app.put(HubRefused("the pad hub's port /dev/x has refused us for 10 s (EPERM)"))

    def refused() -> None:
        raise PortRefused("refused")

    heart.run(refused)()  # dead before the loop's first turn, its notice still queued
    with pytest.raises(InputFailed):
        app.run()
    assert seen[-1].notice == ("notice.hub_refused", ())
