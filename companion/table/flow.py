"""The table flow: ``step(flow, event, now)`` gives the next flow and the
effects to carry out, as data.

Time only enters through ``now`` and ``Tick`` events; nothing here reads a clock, a
pin or a file, so every path is a plain test. What the table may show is
``public_view(flow, now)`` (``view.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import assert_never

from . import bots as _bots
from . import menu as _menu
from . import names as _names
from . import round as _round
from . import settings as _settings
from . import setup as _setup
from .effects import Effect, Stuck
from .events import (
    BotChose,
    ChangeSettings,
    CodeUsed,
    Event,
    HistoryKnown,
    HostDown,
    HostKey,
    HostPress,
    HostUp,
    HubMismatch,
    HubRefused,
    KeyStuck,
    NameSet,
    PadDown,
    Press,
    SaveFailed,
    ShowCode,
    Tick,
)
from .gestures import edge, elapsed, stuck
from .state import (
    Choosing,
    Confirm,
    DiscardRates,
    Flow,
    HistoryPages,
    Join,
    KeptList,
    Menu,
    Mode,
    NameEditor,
    NamesList,
    Notice,
    Options,
    Over,
    Phase,
    RatesEditor,
    Resolving,
    Resume,
    Scores,
    SettingsList,
    Step,
    not_now,
    notice,
)


def step(flow: Flow, event: Event, now: float) -> Step:
    """The next flow after ``event`` at time ``now``, and the effects it asks for (the
    bots to ask among them, when the seats start choosing)."""
    after, effects = _step(flow, event, now)
    return after, effects + _bots.asks(flow, after)


def _step(flow: Flow, event: Event, now: float) -> Step:
    if flow.notice is not None and now >= flow.notice.until:
        flow = replace(flow, notice=None)
    if isinstance(event, HostDown | HostUp):
        keys, press = edge(flow.keys, event, now, flow.settings.hold)
        flow = replace(flow, keys=keys)
        return _act(flow, press, now) if press else (flow, ())
    if isinstance(event, Tick):
        flow, told = _stuck_buttons(flow, now)
        flow, effects = _tick(flow, now)
        return flow, told + effects
    if isinstance(event, BotChose):
        return _bots.chose(flow, event, now)
    if isinstance(event, SaveFailed):
        return notice(flow, "notice.save_failed", now, reason=event.reason), ()
    if isinstance(event, KeyStuck):  # the pad's source ignores the key until it is up
        # Never the card: its press may have chosen it, and a choice is secret until the
        # reveal (`companion pads` names the key for the maker).
        if event.seat in flow.pads:
            said = notice(flow, "notice.key_stuck", now, seat=flow.pads.index(event.seat))
        else:  # a pad nobody sits at: its own number, which no seat's name is mistaken for
            said = notice(flow, "notice.pad_stuck", now, pad=event.seat + 1)
        return said, (Stuck(event),)
    if isinstance(event, HubMismatch):
        return notice(flow, "notice.hub_protocol", now, hub=event.hub, ours=event.ours), ()
    if isinstance(event, HubRefused):
        return notice(flow, "notice.hub_refused", now), ()
    if isinstance(event, NameSet):
        return _names.set_name(flow, event.pad, event.name)
    if isinstance(event, HistoryKnown):
        return _names.know_history(flow, event.summary), ()
    if isinstance(event, PadDown | HostPress):
        return _act(flow, event, now)
    if isinstance(event, ShowCode):  # the phone page's pairing code, for a minute
        code = Notice("notice.pair_code", (("code", event.code),), now + event.seconds)
        return replace(flow, notice=code), ()
    if isinstance(event, CodeUsed):
        shown = flow.notice is not None and flow.notice.key == "notice.pair_code"
        return (replace(flow, notice=None) if shown else flow), ()
    if isinstance(event, ChangeSettings):
        return _settings.remote(flow, dict(event.values))
    return flow, ()  # a key coming up on a pad means nothing


def _tick(flow: Flow, now: float) -> Step:
    keys, press = elapsed(flow.keys, now, flow.settings.hold)
    if press is not None:
        return _act(replace(flow, keys=keys), press, now)
    if flow.deadline is not None and now >= flow.deadline:
        return _timeout(replace(flow, deadline=None), now)
    return flow, ()


def _stuck_buttons(flow: Flow, now: float) -> Step:
    """A host button held for ``STUCK`` seconds: told once, on the screen and in the log."""
    keys, held = stuck(flow.keys, now)
    if not held:
        return flow, ()
    flow = notice(replace(flow, keys=keys), "notice.button_stuck", now, button=held[0].value)
    return flow, tuple(Stuck(key) for key in held)


def due(flow: Flow) -> float | None:
    """When the flow must be stepped by itself (a pause, a notice, a long press, a button
    held long enough to count as stuck)."""
    times = [flow.deadline, flow.keys.due(flow.settings.hold), flow.keys.stuck_due()]
    if flow.notice is not None:
        times.append(flow.notice.until)
    return min((t for t in times if t is not None), default=None)


def settle(
    flow: Flow, now: float, passing: Callable[[Flow, tuple[Effect, ...]], None] | None = None
) -> Step:
    """Step through every pause already due at ``now`` (no pauses: on at once).
    ``passing``: told each flow passed through, with the effects that led there (they
    are then its to carry out), as a simulator keeping every screen wants."""
    effects: tuple[Effect, ...] = ()
    while flow.deadline is not None and flow.deadline <= now:
        if passing is not None:
            passing(flow, effects)
            effects = ()
        flow, more = step(flow, Tick(), now)
        effects += more
    return flow, effects


def _act(flow: Flow, event: Press, now: float) -> Step:
    if isinstance(event, HostPress) and event.long:
        return _menu.open_menu(flow), ()
    return _handle(flow, flow.mode, event, now)


def _handle(flow: Flow, mode: Mode, event: Press, now: float) -> Step:
    """A press, for the handler of the mode on the table (``mode``, the flow's), which
    takes the mode as its own class."""
    match mode:
        case Resume():
            return _setup.resume(flow, mode, event, now)
        case Join():
            return _setup.join(flow, mode, event, now)
        case Options():
            return _setup.options(flow, mode, event, now)
        case Choosing():
            return _round.choose(flow, mode, event, now)
        case Resolving():
            return _resolving(flow, mode, event, now)
        case Scores():
            return _menu.scores(flow, mode, event, now)
        case Over():
            return _setup.over(flow, mode, event, now)
        case Menu():
            return _menu.menu(flow, mode, event, now)
        case Confirm():
            return _menu.confirm(flow, mode, event, now)
        case SettingsList():
            return _settings.settings(flow, mode, event, now)
        case RatesEditor():
            return _settings.rates(flow, mode, event, now)
        case DiscardRates():
            return _settings.discard(flow, mode, event, now)
        case NamesList():
            return _names.names_list(flow, mode, event, now)
        case NameEditor():
            return _names.name_editor(flow, mode, event, now)
        case HistoryPages():
            return _names.history_pages(flow, mode, event, now)
        case KeptList():
            return _setup.kept_list(flow, mode, event, now)
        case _:
            assert_never(mode)


def _timeout(flow: Flow, now: float) -> Step:
    """The mode's pause is over: the supply phase, the countdown, the reveal and each
    step, the scores move on."""
    mode = flow.mode
    if isinstance(mode, Choosing):
        if mode.phase is Phase.SUPPLY:
            return _round.supply_over(flow, mode, now), ()
        if mode.phase is Phase.COUNTDOWN:
            return _round.reveal(flow, mode, now)
        return flow, ()
    if isinstance(mode, Resolving):
        return _round.advance(flow, mode, now)
    if isinstance(mode, Scores):
        return _round.next_round(flow, now), ()
    return flow, ()


def _resolving(flow: Flow, mode: Resolving, event: Press, now: float) -> Step:
    """A Trader picks a trade; the reveal and each step move on with OK, or by themselves
    after their pause."""
    if mode.phase is Phase.TRADE:
        return _round.trade(flow, mode, event, now)
    if isinstance(event, HostPress) and event.key is HostKey.OK:
        return _timeout(replace(flow, deadline=None), now)
    if isinstance(event, PadDown):  # the cards are chosen: a pad waits for the next round
        return not_now(flow, event, now)
    return flow, ()
