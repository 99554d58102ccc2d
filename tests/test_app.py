"""The event loop with a clock of its own: it wakes only when the screen must change."""

from __future__ import annotations

import pytest
from helpers import BOARDS

from companion.app.loop import RETRY, App
from companion.table import Beep, GameChanged, Phase, Timing, new_flow, start
from companion.table.events import HostDown, HostKey, HostPress, HostUp, PadDown, Tick
from companion.ui.catalog import catalog


class Screen:
    """A display that keeps the frames it is shown; it can be made to fail."""

    size = (128, 64)

    def __init__(self):
        self.frames: list = []
        self.dirty = False
        self.retries = 0

    def show(self, image) -> None:
        self.frames.append(image)

    def retry(self) -> None:
        self.retries += 1
        self.dirty = False


@pytest.fixture
def table():
    clock = [0.0]
    timing = Timing(supply=1, countdown=3, reveal=5, step=5, scores=5, message=2)
    flow, effects = start(new_flow(BOARDS, timing), 4, BOARDS[0], 30, 0.0)
    seen: list = []
    app = App(flow, Screen(), sinks=[seen.append], clock=lambda: clock[0])
    app.apply(effects)
    app.refresh()
    return app, clock, seen


def test_waits_for_people_without_waking(table):
    app, clock, _ = table
    # 4 seats: the rows move 3 spaces in the 1 s supply phase, a move every 0.25 s
    assert app.next_wake() == pytest.approx(0.25)
    frames = len(app.display.frames)
    for move in (0.25, 0.5, 0.75):
        clock[0] = move
        app.handle(Tick())
    assert len(app.display.frames) == frames + 3  # each move drawn
    assert app.next_wake() == pytest.approx(0.25)  # then the end of the pause
    clock[0] = 1.0
    app.handle(Tick())
    assert app.flow.phase is Phase.SELECT and app.next_wake() is None  # nothing to time


def test_countdown_redraws_each_second(table):
    app, clock, _ = table
    clock[0] = 1.0
    app.handle(Tick())
    for seat in range(4):
        app.handle(PadDown(seat, seat + 1))
    assert app.flow.phase is Phase.COUNTDOWN
    shown = len(app.display.frames)
    clock[0] = 1.4
    assert app.next_wake() == pytest.approx(0.6)  # when "3" becomes "2"
    clock[0] = 2.0
    app.handle(Tick())
    assert len(app.display.frames) == shown + 1  # the number changed
    clock[0] = 4.0
    app.handle(Tick())
    assert app.flow.phase is Phase.REVEAL


def test_a_notice_clears_by_itself(table):
    app, clock, _ = table
    clock[0] = 1.0
    app.handle(Tick())
    app.handle(HostPress(HostKey.OK))  # OK does nothing while seats choose: no frame
    shown = len(app.display.frames)
    app.handle(PadDown(0, 1))
    app.handle(PadDown(0, 2))  # a second card in a 1-card game: refused, with a notice
    assert app.flow.notice is not None and app.next_wake() == pytest.approx(2.0)
    notice_frames = len(app.display.frames)
    assert notice_frames > shown
    clock[0] = 3.0
    app.handle(Tick())
    assert app.flow.notice is None and len(app.display.frames) == notice_frames + 1


def test_unchanged_screen_sends_no_frame(table):
    app, clock, _ = table
    clock[0] = 1.0
    app.handle(Tick())
    shown = len(app.display.frames)
    app.handle(HostPress(HostKey.OK))
    app.handle(HostPress(HostKey.LEFT))
    assert len(app.display.frames) == shown


def test_the_long_press_wakes_the_loop_once(table):
    app, clock, _ = table
    clock[0] = 1.0
    app.handle(Tick())
    app.handle(HostDown(HostKey.OK))
    assert app.next_wake() == pytest.approx(1.0)  # the hold time
    clock[0] = 2.0
    app.handle(Tick())
    assert app.flow.phase is Phase.MENU
    assert app.next_wake() == pytest.approx(9.0)  # held: due only to be told stuck at 10 s
    app.handle(HostUp(HostKey.OK))
    assert app.flow.phase is Phase.MENU


def test_effects_go_to_every_sink_in_order(table):
    app, clock, seen = table
    assert isinstance(seen[0], GameChanged) and seen[0].record.rounds == ()
    clock[0] = 1.0
    app.handle(Tick())
    app.handle(PadDown(0, 1))
    assert isinstance(seen[-1], Beep)


def test_a_display_that_stopped_answering_is_retried_until_it_answers(table):
    app, clock, _ = table
    clock[0] = 1.0
    app.handle(Tick())
    assert app.next_wake() is None
    app.display.dirty = True
    assert app.next_wake() == pytest.approx(RETRY)
    clock[0] = 2.0
    app.handle(Tick())
    assert app.display.retries == 1 and app.next_wake() is None


def test_the_panel_shows_the_game_again_once_the_bus_answers():
    """A real driver on the fake bus: after a fault the loop retries by itself, and the
    whole frame goes out again even though the screen did not change meanwhile."""
    from companion.hw.display import Oled
    from companion.sim.panel import fake_device
    from companion.table import public_view
    from companion.ui.screens import draw

    clock = [0.0]
    device, panel = fake_device("ssd1306")
    said: list[str] = []
    flow, _ = start(new_flow(BOARDS, Timing(0, 0, 0, 0, 0, 0)), 4, BOARDS[0], 30, 0.0)
    app = App(flow, Oled(device, on_error=said.append), clock=lambda: clock[0])
    app.refresh()
    panel.answering = False
    app.handle(PadDown(0, 1))  # the mark changes; the bus does not answer
    assert app.next_wake() == pytest.approx(RETRY) and len(said) == 1
    panel.ram[0][:] = bytes(len(panel.ram[0]))  # what the panel holds now is anyone's guess
    clock[0] = 1.0
    app.handle(Tick())  # still down: tried again, said only once
    panel.answering = True
    clock[0] = 2.0
    app.handle(Tick())
    expected = draw(public_view(app.flow, clock[0]), catalog("en"))
    assert panel.image().tobytes() == expected.tobytes()
    assert app.next_wake() is None and len(said) == 2  # "answers again", once


def test_an_event_taken_off_the_queue_but_not_yet_handled_is_not_an_idle_table(table):
    """A waiter (the simulator) never takes the moment between the loop's ``get`` and its
    ``handle`` for a table waiting for people: the queue counts an event until handled."""
    app, clock, _ = table
    clock[0] = 1.0
    app.handle(Tick())  # the supply phase is over: the seats choose, nothing is due
    assert app.wait_ready(timeout=0.0)
    app.put(PadDown(0, 1))
    taken = app.events.get()  # as the loop does, just before it handles it
    assert not app.wait_ready(timeout=0.0)
    app.handle(taken)
    app.events.task_done()
    assert app.wait_ready(timeout=0.0)
