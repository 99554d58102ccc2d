"""Before and after a game: resuming a saved game, seats joining, options, the ranking."""

from __future__ import annotations

from dataclasses import replace

from ..game.record import GameRecord
from ..rules import TARGETS, new_game
from .effects import Beep, GameChanged, KeepAside, Sound
from .events import HostKey, HostPress, PadDown
from .round import next_round
from .state import OPTION_ITEMS, Flow, Game, Join, Options, Resume, choose_board, notice


def start(flow: Flow, players: int, board, target: int, now: float):
    """Skip setup: a game of ``players`` seats on pads 1..players."""
    flow = choose_board(flow, board)
    flow = replace(flow, pads=tuple(range(players)), choice=replace(flow.choice, target=target))
    return new_game_on(flow, now)


def offer_resume(flow: Flow, saved: GameRecord, backup: bool = False) -> Flow:
    """Power on with an unfinished game saved: offer to resume it (``backup``: the last
    save was unusable, this is the version before it)."""
    return replace(flow, mode=Resume(saved, backup))


def new_game_on(flow: Flow, now: float):
    """A new game with the seats and choices on the table, saved at once. A game that
    ended before it is kept beside it in the state folder, not replaced."""
    board, target = flow.board, flow.choice.target
    record = GameRecord(flow.players, board, target)
    kept = (KeepAside(),) if flow.game is not None and flow.game.over else ()
    game = Game(record, new_game(flow.players, board, target))
    return next_round(replace(flow, game=game), now), (*kept, GameChanged(record))


def resume(flow: Flow, event: object, now: float):
    """OK resumes the saved game at the start of its next round; ◀ starts a new one
    (the saved game is kept beside it: nothing is lost by a wrong key)."""
    if not isinstance(event, HostPress):
        return flow, ()
    if event.key is HostKey.LEFT:
        return replace(flow, mode=Join()), (KeepAside(),)
    if event.key is not HostKey.OK:
        return flow, ()
    record = flow.mode.saved
    flow = choose_board(flow, record.board)
    flow = replace(
        flow,
        choice=replace(flow.choice, target=record.target),
        pads=tuple(range(record.players)),
        game=Game.from_record(record),
    )
    return next_round(flow, now), ()


def join(flow: Flow, event: object, now: float):
    if isinstance(event, PadDown):
        if event.seat in flow.pads:
            return flow, ()
        return replace(flow, pads=tuple(sorted((*flow.pads, event.seat)))), (Beep(Sound.LOCKED),)
    if isinstance(event, HostPress) and event.key is HostKey.OK:
        if len(flow.pads) >= 2:
            return replace(flow, mode=Options()), ()
        return notice(flow, "notice.need_two", now), (Beep(Sound.REFUSED),)
    return flow, ()


def options(flow: Flow, event: object, now: float):
    if not isinstance(event, HostPress):
        return flow, ()
    cursor = flow.mode.cursor
    item = OPTION_ITEMS[cursor]
    if event.key is HostKey.OK:
        if item == "start":
            return new_game_on(flow, now)
        return replace(flow, mode=Options(cursor + 1)), ()
    delta = 1 if event.key is HostKey.RIGHT else -1
    choice = flow.choice
    if item == "board":
        choice = replace(choice, board=(choice.board + delta) % len(flow.settings.boards))
    elif item == "target":
        i = TARGETS.index(choice.target) if choice.target in TARGETS else 0
        choice = replace(choice, target=TARGETS[(i + delta) % len(TARGETS)])
    return replace(flow, choice=choice), ()


def over(flow: Flow, event: object, now: float):
    """After the ranking, OK sets up the next game with the same seats. The finished
    game stays in ``game`` until the new one starts."""
    if isinstance(event, HostPress) and event.key is HostKey.OK:
        return replace(flow, mode=Join()), ()
    return flow, ()
