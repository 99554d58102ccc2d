"""The device's settings at the table: a list of items, and your own board's rates.

The keys work as in setup: ◀ ▶ change the value of the item under the cursor, OK goes
on to the next item; ◀ below an item's first value goes back one item, and on the
first item leaves the settings; ▶ past the last value is refused. *Your board* and
*Back* have no value: ◀ ▶ move along them, OK opens the rates editor or leaves. Every
change applies at once (contrast and volume are felt, the language is read) and is sent
as ``SettingsChanged``.

The rates editor lists the trader spaces and a *Keep* line after them. Moving never
changes a rate: ◀ ▶ move along the lines (◀ on space 0 leaves, asking first if anything
changed; ▶ on *Keep* is refused), OK on a space changes it. Changing a space, ◀ ▶ step
through "none" and the offered rates (worst first, refused past either end), and OK
sets it and moves on to the next line. OK on *Keep* checks the whole table as a
record's is checked and keeps it, or names the space out of order and changes it.
"""

from __future__ import annotations

from dataclasses import replace

from ..game.boards import offered_rates, profile_names
from ..game.settings import OWN, DeviceSettings, SettingsError, board_of, with_values
from ..rules import Board, BoardError, Rate
from .effects import CLICK, REFUSED, SettingsChanged
from .events import HostKey, HostPress, Press
from .menu import back_to
from .state import (
    DiscardRates,
    Flow,
    HistoryPages,
    NamesList,
    RatesEditor,
    SettingsList,
    Step,
    choose_board,
    notice,
)

SPACES = 16
_NAMES = ("names", "history")  # no value: OK opens them (``names.py``)
# Targets a person reaches in a few presses: fives to 100, tens to 200, fifties to 950.
TARGETS = (*range(5, 101, 5), *range(110, 201, 10), *range(250, 951, 50))


def items(flow: Flow) -> tuple[str, ...]:
    """The items on offer: volume only where the buzzer can play softer or louder."""
    volume = ("volume",) if flow.settings.volume else ()
    return ("language", "board", "target", "sound", *volume, "contrast", "rates", *_NAMES, "back")


def values(flow: Flow, item: str) -> tuple[tuple[str | int, ...], int]:
    """The values an item offers, in order, and the index of the current one (sound's
    are ``False`` and ``True``)."""
    prefs = flow.prefs
    offered: tuple[str | int, ...]
    if item == "language":
        offered = tuple(sorted({*flow.settings.languages, prefs.language}))
    elif item == "board":
        offered = (*profile_names(), *((OWN,) if prefs.own_rates is not None else ()))
    elif item == "target":
        offered = tuple(sorted({*TARGETS, prefs.target}))
    elif item == "sound":
        offered = (False, True)
    elif item in ("volume", "contrast"):
        offered = tuple(range(1, 11))
    else:
        return (), -1  # rates, names, history, back: nothing to change, OK acts
    return offered, offered.index(getattr(prefs, item))


def settings(flow: Flow, mode: SettingsList, event: Press, now: float) -> Step:
    if not isinstance(event, HostPress):
        return flow, ()
    item = items(flow)[mode.cursor]
    if event.key is HostKey.OK:
        if item == "back":
            return leave(flow, mode, now), (CLICK,)
        if item == "rates":
            return replace(flow, mode=_editor(flow, mode)), (CLICK,)
        if item == "names":
            return replace(flow, mode=NamesList(mode)), (CLICK,)
        if item == "history":
            return replace(flow, mode=HistoryPages(mode)), (CLICK,)
        return replace(flow, mode=replace(mode, cursor=mode.cursor + 1)), (CLICK,)
    offered, current = values(flow, item)
    index = current + (1 if event.key is HostKey.RIGHT else -1)
    if not offered and event.key is HostKey.RIGHT and item != "back":
        return replace(flow, mode=replace(mode, cursor=mode.cursor + 1)), (CLICK,)
    if index < 0:
        if mode.cursor == 0:
            return leave(flow, mode, now), (CLICK,)
        return replace(flow, mode=replace(mode, cursor=mode.cursor - 1)), (CLICK,)
    if index >= len(offered):
        return flow, (REFUSED,)
    return change(flow, {item: offered[index]})


def change(flow: Flow, new: dict[str, object]) -> Step:
    """``flow`` with the settings changed, said at once; setup's defaults follow."""
    prefs = with_values(flow.prefs, new)
    return apply_prefs(flow, prefs), (CLICK, SettingsChanged(prefs))


def remote(flow: Flow, new: dict[str, object]) -> Step:
    """Settings changed on the phone page: applied and saved as the device's own are
    (no click: nobody pressed a key). A value no longer valid (another change came
    first) changes nothing."""
    try:
        prefs = with_values(flow.prefs, new)
    except SettingsError:
        return flow, ()
    if prefs == flow.prefs:
        return flow, ()
    return apply_prefs(flow, prefs), (SettingsChanged(prefs),)


def apply_prefs(flow: Flow, prefs: DeviceSettings) -> Flow:
    """``prefs`` in force: the next game's board and target are theirs. An own table
    entered before is no longer offered once another one replaces it."""
    if (prefs.board, prefs.own_rates) != (flow.prefs.board, flow.prefs.own_rates):
        old = board_of(flow.prefs)
        boards = tuple(b for b in flow.settings.boards if b.name is not None or b != old)
        flow = replace(flow, settings=replace(flow.settings, boards=boards))
        flow = choose_board(flow, board_of(prefs))
    return replace(flow, prefs=prefs, choice=replace(flow.choice, target=prefs.target))


def leave(flow: Flow, mode: SettingsList, now: float) -> Flow:
    """Back where the settings (``mode``, the flow's) were opened (a game's pauses start
    afresh)."""
    return back_to(flow, mode.back, now)


# --- your own board's rates ------------------------------------------------------------


def _editor(flow: Flow, back: SettingsList) -> RatesEditor:
    """The editor opens on your own rates, or on the chosen side's (change what differs)."""
    prefs = flow.prefs
    rates = prefs.own_rates if prefs.own_rates is not None else board_of(prefs).rates
    return RatesEditor(back, tuple(rates), tuple(rates))


def space_values(editor: RatesEditor) -> tuple[tuple[Rate | None, ...], int]:
    """ "none" and the offered rates, with the space's rate when the editor opened (one
    from a board file may not be among them), and the index of the rate it has now
    (the editor on a trader space, not on *Keep*)."""
    rate = editor.rates[editor.space]
    shown = (*offered_rates(), editor.opened[editor.space], rate)
    offered = {r for r in shown if r is not None}
    choices = (None, *sorted(offered, key=lambda r: (r.vp / r.goods, -r.goods)))
    return choices, choices.index(rate)


def rates(flow: Flow, editor: RatesEditor, event: Press, now: float) -> Step:
    if not isinstance(event, HostPress):
        return flow, ()
    if editor.editing:
        return _change(flow, editor, event.key)
    return _move(flow, editor, event.key, now)


def _move(flow: Flow, editor: RatesEditor, key: HostKey, now: float) -> Step:
    """Along the lines, every rate as it is; OK changes a space, or keeps the table."""
    if key is HostKey.OK:
        if editor.space == SPACES:
            return _keep(flow, editor, now)
        return replace(flow, mode=replace(editor, editing=True)), (CLICK,)
    space = editor.space + (1 if key is HostKey.RIGHT else -1)
    if space > SPACES:
        return flow, (REFUSED,)
    if space >= 0:
        return replace(flow, mode=replace(editor, space=space)), (CLICK,)
    if editor.edited:
        return replace(flow, mode=DiscardRates(editor)), (CLICK,)
    return replace(flow, mode=editor.back), (CLICK,)


def _change(flow: Flow, editor: RatesEditor, key: HostKey) -> Step:
    """The space's rate, one step worse or better; OK sets it and moves on a line."""
    if key is HostKey.OK:
        done = replace(editor, editing=False, space=editor.space + 1)
        return replace(flow, mode=done), (CLICK,)
    choices, current = space_values(editor)
    index = current + (1 if key is HostKey.RIGHT else -1)
    if not 0 <= index < len(choices):
        return flow, (REFUSED,)
    table = list(editor.rates)
    table[editor.space] = choices[index]
    return replace(flow, mode=replace(editor, rates=tuple(table))), (CLICK,)


def discard(flow: Flow, mode: DiscardRates, event: Press, now: float) -> Step:
    """OK drops the changes and goes back to the settings; ◀ ▶ go back to the editor."""
    if not isinstance(event, HostPress):
        return flow, ()
    if event.key is HostKey.OK:
        return replace(flow, mode=mode.editor.back), (CLICK,)
    return replace(flow, mode=mode.editor), (CLICK,)


def _keep(flow: Flow, editor: RatesEditor, now: float) -> Step:
    """The whole table checked as a record's is: kept as your board, or refused on the
    space out of order (being changed), with the space below it that pays more per good."""
    try:
        Board(editor.rates)
    except BoardError:
        below, above = out_of_order(editor.rates)
        flow = replace(flow, mode=replace(editor, space=above, editing=True))
        return notice(flow, "screen.rates_wrong", now, space=above, below=below), (REFUSED,)
    flow, effects = change(flow, {"board": OWN, "own_rates": editor.rates})
    return replace(flow, mode=editor.back), effects


def out_of_order(table: tuple[Rate | None, ...]) -> tuple[int, int]:
    """The first space that pays fewer VP per good than a space below it, and that
    space: the pair the rules' check names (``Board`` refused the table)."""
    best: Rate | None = None
    best_space = 0
    for space, rate in enumerate(table):
        if rate is None:
            continue
        if best is None or rate.vp * best.goods >= best.vp * rate.goods:
            best, best_space = rate, space
        else:
            return best_space, space
    raise ValueError("the table is in order")  # only called on a table Board refused
