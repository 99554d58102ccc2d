"""The menu (hold OK): back to the game, scores, undo the last round, the settings, end
the game. Undoing and ending ask first; undo also works from the ranking. Before a game
and after one, holding OK opens the settings themselves."""

from __future__ import annotations

from dataclasses import replace

from .effects import CLICK, REFUSED, GameChanged, GameFinished
from .events import HostKey, HostPress, PadDown, Press
from .round import next_round
from .setup import set_aside
from .state import (
    MENU_ITEMS,
    Confirm,
    DiscardRates,
    Flow,
    Game,
    HistoryPages,
    Join,
    KeptList,
    Menu,
    Mode,
    NameEditor,
    NamesList,
    Options,
    Over,
    Phase,
    RatesEditor,
    Resume,
    Scores,
    SettingsList,
    Step,
    current_game,
    not_now,
    seat_names,
)

_OPENED_THERE = (NamesList, NameEditor, HistoryPages)  # from the menu or the settings
_NO_MENU = (
    Resume,
    Menu,
    Confirm,
    SettingsList,
    RatesEditor,
    DiscardRates,
    KeptList,
    *_OPENED_THERE,
)
_SETTINGS_ONLY = (Join, Options, Over)  # no game to go back to: the menu is the settings


def open_menu(flow: Flow) -> Flow:
    if isinstance(flow.mode, _SETTINGS_ONLY):
        return replace(flow, mode=SettingsList(flow.mode), deadline=None)
    if flow.game is None or isinstance(flow.mode, _NO_MENU):
        return flow
    return replace(flow, mode=Menu(flow.mode), deadline=None)


def menu(flow: Flow, mode: Menu, event: Press, now: float) -> Step:
    """◀ ▶ move along the items, OK chooses; ◀ on the first item goes back to the game."""
    if not isinstance(event, HostPress):
        return flow, ()
    if event.key is not HostKey.OK:
        cursor = mode.cursor + (1 if event.key is HostKey.RIGHT else -1)
        if cursor < 0:
            return back_to(flow, mode.back, now), (CLICK,)
        if cursor >= len(MENU_ITEMS):
            return flow, (REFUSED,)
        return replace(flow, mode=replace(mode, cursor=cursor)), (CLICK,)
    item = MENU_ITEMS[mode.cursor]
    if item == "scores":
        return replace(flow, mode=Scores(back=mode.back), deadline=None), (CLICK,)
    if item == "undo":
        if not can_undo(flow):
            return flow, (REFUSED,)
        return replace(flow, mode=Confirm("undo", mode)), (CLICK,)
    if item == "end":
        return replace(flow, mode=Confirm("end", mode)), (CLICK,)
    if item == "settings":
        return replace(flow, mode=SettingsList(mode)), (CLICK,)
    if item == "history":
        return replace(flow, mode=HistoryPages(mode)), (CLICK,)
    return back_to(flow, mode.back, now), (CLICK,)


def can_undo(flow: Flow) -> bool:
    """A round to take back, or a game ended from the menu to go on with."""
    game = flow.game
    return game is not None and (bool(game.history) or game.record.ended)


def confirm(flow: Flow, mode: Confirm, event: Press, now: float) -> Step:
    """OK does it; ◀ or ▶ go back where the question came from."""
    if not isinstance(event, HostPress):
        return flow, ()
    if event.key is not HostKey.OK:
        return replace(flow, mode=mode.back), (CLICK,)
    if isinstance(mode.back, Resume):
        return set_aside(flow, mode.back)
    if mode.action == "undo":
        return _undo(flow, now)
    if mode.action == "new":
        return replace(flow, mode=Join()), (CLICK,)
    return _end(flow)


def scores(flow: Flow, mode: Scores, event: Press, now: float) -> Step:
    """Between rounds OK goes on at once; opened from the menu, OK goes back."""
    if isinstance(event, PadDown):  # a pad waits for the next round
        return not_now(flow, event, now)
    if not (isinstance(event, HostPress) and event.key is HostKey.OK):
        return flow, ()
    if mode.back is not None:
        return back_to(flow, mode.back, now), (CLICK,)
    return next_round(replace(flow, deadline=None), now), (CLICK,)


def back_to(flow: Flow, mode: Mode, now: float) -> Flow:
    """Back where the menu was opened, with that mode's pause started afresh."""
    timing = flow.settings.timing
    pause = {
        Phase.SUPPLY: timing.supply,
        Phase.COUNTDOWN: timing.countdown,
        Phase.REVEAL: timing.reveal,
        Phase.STEP: timing.step,
        Phase.SCORES: timing.scores,
    }.get(mode.phase)
    return replace(flow, mode=mode, deadline=None if pause is None else now + pause)


def _undo(flow: Flow, now: float) -> Step:
    """The last round taken back (the round in progress, if any, is dropped unrevealed);
    a game ended from the menu goes on instead, at its next round."""
    game = current_game(flow)
    if game.record.ended:
        record = replace(game.record, ended=False)
        game = replace(game, record=record)
    else:
        record = replace(game.record, rounds=game.record.rounds[:-1])
        game = Game(record, game.history[-1], game.history[:-1])
    return next_round(replace(flow, game=game), now), (CLICK, GameChanged(record))


def _end(flow: Flow) -> Step:
    """The game ends now, as the rules end one: conversion and ranking after the last
    round played. The round in progress, if any, is dropped unrevealed."""
    game = current_game(flow)
    record = replace(game.record, ended=True)
    game = replace(game, record=record)
    mode = Over()
    finished = GameFinished(record, seat_names(flow))
    return replace(flow, game=game, mode=mode, deadline=None), (CLICK, finished)
