"""The pads' names, set with the host buttons, and the history screen.

*Names* (in the settings) lists the six pads with their names: ◀ ▶ move, OK names the
pad. Naming offers the names of recent games first (an evening's regulars take one
press), then *New name* and *No name*: ◀ ▶ move, OK takes it. A new name is spelled on
a letter wheel: ◀ ▶ turn it (it wraps round, so *end* is one ◀ from A), OK adds the
letter; *del* takes the last one back, *end* keeps the name (a name of ``MAX``
letters is kept as its last letter is added). ◀ below the first item leaves, each time.

*History* (in the menu and in the settings) shows the wins per name, then the last
games, ``PER_PAGE`` lines a page: ◀ ▶ turn the pages, OK (or ◀ on the first) leaves.
The app hands the table what to show (``HistoryKnown``): the table reads no file.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from ..game.names import LETTERS, MAX, PADS, HistorySummary, PastGame, Tally
from .effects import CLICK, REFUSED, NamesChanged
from .events import HostKey, HostPress, Press
from .menu import back_to
from .state import Flow, HistoryPages, NameEditor, NamesList, Step

NEW, NONE = "+new", "-none"  # the choices after the recent names (no name has + or -)
DEL, END = "del", "end"  # the wheel's two keys after the letters
WHEEL = (*LETTERS, DEL, END)
RECENT = 5  # recent names offered at most
PER_PAGE = 3  # lines a history page shows, in the body font, above the hint

Page = tuple[str, tuple[Tally, ...] | tuple[PastGame, ...]]  # "wins" or "games", its lines


def set_name(flow: Flow, pad: int, name: str | None) -> Step:
    """``flow`` with pad ``pad`` named ``name`` (None: no name), said to be saved."""
    names = list(flow.names)
    names[pad] = name
    flow = replace(flow, names=tuple(names))
    return flow, (CLICK, NamesChanged(flow.names))


def know_history(flow: Flow, summary: HistorySummary) -> Flow:
    """The history as the app read it; a page past its end is back on its last."""
    flow = replace(flow, past=summary)
    if isinstance(flow.mode, HistoryPages):
        last = len(pages(summary)) - 1
        flow = replace(flow, mode=replace(flow.mode, page=min(flow.mode.page, last)))
    return flow


def names_list(flow: Flow, mode: NamesList, event: Press, now: float) -> Step:
    if not isinstance(event, HostPress):
        return flow, ()
    if event.key is HostKey.OK:
        return replace(flow, mode=_editor(flow, mode)), (CLICK,)
    cursor = mode.cursor + (1 if event.key is HostKey.RIGHT else -1)
    if cursor < 0:
        return replace(flow, mode=mode.back), (CLICK,)
    if cursor >= PADS:
        return flow, (REFUSED,)
    return replace(flow, mode=replace(mode, cursor=cursor)), (CLICK,)


def _editor(flow: Flow, back: NamesList) -> NameEditor:
    """The recent names first, the pad's own name among them if it has one."""
    current = flow.names[back.cursor]
    recent = tuple(n for n in flow.past.recent if n != current)[: RECENT - bool(current)]
    offered = (current, *recent) if current else recent
    return NameEditor(back, (*offered, NEW, NONE))


def name_editor(flow: Flow, mode: NameEditor, event: Press, now: float) -> Step:
    if not isinstance(event, HostPress):
        return flow, ()
    if mode.spelled is not None:
        return _spell(flow, mode, event.key)
    if event.key is HostKey.OK:
        chosen = mode.choices[mode.choice]
        if chosen == NEW:
            return replace(flow, mode=replace(mode, spelled="")), (CLICK,)
        return _keep(flow, mode, None if chosen == NONE else chosen)
    choice = mode.choice + (1 if event.key is HostKey.RIGHT else -1)
    if choice < 0:
        return replace(flow, mode=mode.back), (CLICK,)
    if choice >= len(mode.choices):
        return flow, (REFUSED,)
    return replace(flow, mode=replace(mode, choice=choice)), (CLICK,)


def _spell(flow: Flow, mode: NameEditor, key: HostKey) -> Step:
    spelled = mode.spelled or ""
    if key is not HostKey.OK:
        letter = (mode.letter + (1 if key is HostKey.RIGHT else -1)) % len(WHEEL)
        return replace(flow, mode=replace(mode, letter=letter)), (CLICK,)
    letter = WHEEL[mode.letter]
    if letter == END:
        return _keep(flow, mode, spelled.strip() or None)
    if letter == DEL:
        return replace(flow, mode=replace(mode, spelled=spelled[:-1])), (CLICK,)
    if letter == " " and (not spelled or spelled.endswith(" ")):
        return flow, (REFUSED,)  # a name begins with a letter, one space between words
    spelled += letter
    if len(spelled) >= MAX:
        return _keep(flow, mode, spelled.strip())
    return replace(flow, mode=replace(mode, spelled=spelled)), (CLICK,)


def _keep(flow: Flow, mode: NameEditor, name: str | None) -> Step:
    """The pad named, back on the list of names."""
    flow, effects = set_name(flow, mode.back.cursor, name)
    return replace(flow, mode=mode.back), effects


# --- the history -----------------------------------------------------------------------


def pages(summary: HistorySummary) -> tuple[Page, ...]:
    """The wins per name, then the last games, ``PER_PAGE`` lines a page (at least one
    page of wins, empty when no game has a winner yet)."""
    wins = [("wins", part) for part in _split(summary.tally)] or [("wins", ())]
    return (*wins, *(("games", part) for part in _split(summary.games)))


_Line = TypeVar("_Line", Tally, PastGame)


def _split(lines: tuple[_Line, ...]) -> list[tuple[_Line, ...]]:
    return [lines[i : i + PER_PAGE] for i in range(0, len(lines), PER_PAGE)]


def history_pages(flow: Flow, mode: HistoryPages, event: Press, now: float) -> Step:
    if not isinstance(event, HostPress):
        return flow, ()
    page = mode.page + (1 if event.key is HostKey.RIGHT else -1)
    if event.key is HostKey.OK or page < 0:
        return back_to(flow, mode.back, now), (CLICK,)
    if page >= len(pages(flow.past)):
        return flow, (REFUSED,)
    return replace(flow, mode=replace(mode, page=page)), (CLICK,)
