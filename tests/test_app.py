"""The event loop with a clock of its own: it wakes only when the screen must change."""

from __future__ import annotations

from queue import SimpleQueue

import pytest
from test_flow import BOARDS

from companion.app.loop import App
from companion.table.events import HostKey, HostPress, PadDown
from companion.table.flow import Flow, Phase, Tick, Timing, start


@pytest.fixture
def table():
    clock = [0.0]
    frames = []
    timing = Timing(supply=1, countdown=3, reveal=5, step=5, scores=5, message=2)
    flow = start(Flow(BOARDS, timing), 4, BOARDS[0], 30, 0.0)
    app = App(flow, frames.append, SimpleQueue(), clock=lambda: clock[0])
    app.refresh()
    return app, clock, frames


def test_waits_for_people_without_waking(table):
    app, clock, _ = table
    assert app.next_wake() == pytest.approx(1.0)  # the supply phase's pause
    clock[0] = 1.0
    app.handle(Tick())
    assert app.flow.phase is Phase.SELECT and app.next_wake() is None  # nothing to time


def test_countdown_redraws_each_second(table):
    app, clock, frames = table
    clock[0] = 1.0
    app.handle(Tick())
    for seat in range(4):
        app.handle(PadDown(seat, seat + 1))
    assert app.flow.phase is Phase.COUNTDOWN
    shown = len(frames)
    clock[0] = 1.4
    assert app.next_wake() == pytest.approx(0.6)  # when "3" becomes "2"
    clock[0] = 2.0
    app.handle(Tick())
    assert len(frames) == shown + 1  # the number changed
    clock[0] = 4.0
    app.handle(Tick())
    assert app.flow.phase is Phase.REVEAL


def test_a_notice_clears_by_itself(table):
    app, clock, frames = table
    clock[0] = 1.0
    app.handle(Tick())
    app.handle(HostPress(HostKey.OK))  # OK does nothing while seats choose: no frame
    shown = len(frames)
    app.handle(PadDown(0, 1))
    app.handle(PadDown(0, 2))  # a second card in a 1-card game: refused, with a notice
    assert app.flow.message is not None and app.next_wake() == pytest.approx(2.0)
    notice_frames = len(frames)
    assert notice_frames > shown
    clock[0] = 3.0
    app.handle(Tick())
    assert app.flow.message is None and len(frames) == notice_frames + 1


def test_unchanged_screen_sends_no_frame(table):
    app, clock, frames = table
    clock[0] = 1.0
    app.handle(Tick())
    shown = len(frames)
    app.handle(HostPress(HostKey.OK))
    app.handle(HostPress(HostKey.LEFT))
    assert len(frames) == shown
