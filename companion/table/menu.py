"""The menu (hold OK): back to the game, scores, undo the last round, end the game."""

from __future__ import annotations

from dataclasses import replace

from .effects import GameChanged, GameFinished
from .events import HostKey, HostPress
from .round import next_round
from .state import MENU_ITEMS, Confirm, Flow, Game, Join, Menu, Options, Over, Phase, Resume, Scores

_NO_MENU = (Resume, Join, Options, Over, Menu, Confirm)


def open_menu(flow: Flow) -> Flow:
    if flow.game is None or isinstance(flow.mode, _NO_MENU):
        return flow
    return replace(flow, mode=Menu(flow.mode), deadline=None)


def menu(flow: Flow, event: object, now: float):
    if not isinstance(event, HostPress):
        return flow, ()
    mode: Menu = flow.mode
    if event.key is not HostKey.OK:
        delta = 1 if event.key is HostKey.RIGHT else -1
        return replace(flow, mode=replace(mode, cursor=(mode.cursor + delta) % len(MENU_ITEMS))), ()
    item = MENU_ITEMS[mode.cursor]
    if item == "scores":
        return replace(flow, mode=Scores(back=mode.back), deadline=None), ()
    if item == "undo" and flow.game.history:
        return _undo(flow, now)
    if item == "end":
        return replace(flow, mode=Confirm("end", mode)), ()
    return back_to(flow, mode.back, now), ()


def confirm(flow: Flow, event: object, now: float):
    """OK ends the game; ◀ or ▶ go back to the menu."""
    if not isinstance(event, HostPress):
        return flow, ()
    if event.key is not HostKey.OK:
        return replace(flow, mode=flow.mode.back), ()
    return _end(flow)


def scores(flow: Flow, event: object, now: float):
    """Between rounds OK goes on at once; opened from the menu, OK goes back."""
    if not (isinstance(event, HostPress) and event.key is HostKey.OK):
        return flow, ()
    if flow.mode.back is not None:
        return back_to(flow, flow.mode.back, now), ()
    return next_round(replace(flow, deadline=None), now), ()


def back_to(flow: Flow, mode, now: float) -> Flow:
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


def _undo(flow: Flow, now: float):
    game = flow.game
    record = replace(game.record, rounds=game.record.rounds[:-1])
    game = Game(record, game.history[-1], game.history[:-1])
    return next_round(replace(flow, game=game), now), (GameChanged(record),)


def _end(flow: Flow):
    """The game ends now, as the rules end one: conversion and ranking after the last
    round played. The round in progress, if any, is dropped unrevealed."""
    game = flow.game
    record = replace(game.record, ended=True)
    game = replace(game, record=record)
    return replace(flow, game=game, mode=Over(), deadline=None), (GameFinished(record),)
