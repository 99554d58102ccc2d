"""systemd's notify socket, for real: an AF_UNIX datagram socket bound here, and the event
loop on a clock of the test's own. The watchdog is fed while the loop is healthy and no
longer once a handler hangs, so systemd would restart the service."""

from __future__ import annotations

import os
import socket
import threading
import uuid

import pytest
from helpers import BOARDS, nothing_waiting, received

from companion.app.loop import STOP, App
from companion.app.notify import SILENT, Notifier
from companion.table import TABLE, new_flow
from companion.table.events import ChangeSettings, Tick

GUARD = 10.0  # seconds a receive may take before the test fails (never a sleep)


class Panel:
    """A display that can be made to hang, as a stuck bus would, until released."""

    size = (128, 64)
    dirty = False

    def __init__(self):
        self.hang = False
        self.entered, self.release = threading.Event(), threading.Event()

    def show(self, image) -> None:
        if self.hang:
            self.entered.set()
            assert self.release.wait(GUARD)

    def retry(self) -> None: ...


@pytest.fixture
def manager(tmp_path):
    """systemd's end of the socket: bound in tmp_path, read by the test."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(GUARD)
    yield sock, str(path)
    sock.close()


def idle_app(clock: list[float], notify: Notifier, panel=None) -> App:
    flow = new_flow(BOARDS, TABLE)
    return App(flow, panel or Panel(), notify=notify, clock=lambda: clock[0])


def test_ready_then_pings_while_healthy_and_none_once_a_handler_hangs(manager):
    sock, path = manager
    clock, panel = [0.0], Panel()
    notify = Notifier.from_environ({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"})
    assert notify.interval == 15.0  # half of WatchdogSec=30
    app = idle_app(clock, notify, panel)
    loop = threading.Thread(target=app.run, daemon=True)
    loop.start()
    assert received(sock) == "READY=1"
    for now in (15.0, 30.0):  # the loop handles its queue: it feeds the watchdog
        clock[0] = now
        app.put(Tick())
        assert received(sock) == "WATCHDOG=1"
    assert app.next_wake() == pytest.approx(15.0)  # it wakes by itself to feed it again

    panel.hang = True
    app.put(ChangeSettings((("language", "fr"),)))  # the frame is drawn again: show hangs
    assert panel.entered.wait(GUARD)
    clock[0] = 1000.0  # long past the watchdog period, and events keep coming
    app.put(Tick())
    app.put(Tick())
    assert nothing_waiting(sock)  # stuck in a handler: no ping, systemd restarts it

    panel.hang = False
    panel.release.set()  # the handler returns: the loop feeds the watchdog again
    assert received(sock) == "WATCHDOG=1"
    app.put(STOP)
    assert received(sock) == "STOPPING=1"
    loop.join(GUARD)
    assert not loop.is_alive()


def test_without_a_watchdog_an_idle_table_never_wakes(manager):
    sock, path = manager
    notify = Notifier.from_environ({"NOTIFY_SOCKET": path})
    assert notify.interval is None
    app = idle_app([0.0], notify)
    loop = threading.Thread(target=app.run, daemon=True)
    loop.start()
    assert received(sock) == "READY=1"
    assert app.next_wake() is None  # asleep in queue.get until someone presses a key
    app.put(STOP)
    assert received(sock) == "STOPPING=1"
    loop.join(GUARD)


def test_the_abstract_namespace_is_reached_by_its_at_sign():
    name = f"santo-domingo-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(GUARD)
        notify = Notifier.from_environ({"NOTIFY_SOCKET": "@" + name})
        notify.status("Waiting for players\nsecond line dropped")
        notify.close()
        assert received(sock) == "STATUS=Waiting for players"


@pytest.mark.parametrize(
    ("environ", "interval"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 15.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}, 15.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, None),  # another process's
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({}, None),
    ],
)
def test_the_watchdog_is_this_process_s_only_when_systemd_says_so(environ, interval):
    notify = Notifier.from_environ({"NOTIFY_SOCKET": "/run/systemd/notify", **environ})
    assert notify.interval == interval


def test_outside_systemd_nothing_is_sent_and_nothing_fails():
    notify = Notifier.from_environ({"WATCHDOG_USEC": "30000000"})  # no socket: no watchdog
    assert notify.interval is None and SILENT.interval is None
    notify.ready()  # a no-op, not an error
    gone = Notifier("/nonexistent/notify")
    gone.ready()  # systemd went away: the game goes on
