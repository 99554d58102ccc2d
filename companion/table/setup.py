"""Before and after a game: resuming a saved game, seats joining, options, the ranking."""

from __future__ import annotations

from dataclasses import replace

from ..game.record import GameRecord
from ..rules import TARGETS, new_game
from .effects import CLICK, REFUSED, GameChanged, KeepAside
from .events import HostKey, HostPress, PadDown
from .round import next_round
from .state import (
    OPTION_ITEMS,
    Confirm,
    Flow,
    Game,
    Join,
    NamesList,
    Options,
    Over,
    Resume,
    choose_board,
    notice,
)


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
    """A pad key seats its pad (again: nothing changes, but the click says it is in);
    ▶ opens the pads' names (``names.py``)."""
    if isinstance(event, PadDown):
        if event.seat in flow.pads:
            return flow, (CLICK,)
        return replace(flow, pads=tuple(sorted((*flow.pads, event.seat)))), (CLICK,)
    if isinstance(event, HostPress) and event.key is HostKey.RIGHT:
        return replace(flow, mode=NamesList(flow.mode)), (CLICK,)
    if isinstance(event, HostPress) and event.key is HostKey.OK:
        if len(flow.pads) >= 2:
            return replace(flow, mode=Options()), (CLICK,)
        return notice(flow, "notice.need_two", now), (REFUSED,)
    return flow, ()


def options(flow: Flow, event: object, now: float):
    """◀ ▶ change the value of the item on screen, OK goes on to the next item (on
    *Start*, starts). ◀ below an item's first value goes back one item, and from the
    first item back to the seats; ▶ past the last value is refused."""
    if not isinstance(event, HostPress):
        return flow, ()
    cursor = flow.mode.cursor
    item = OPTION_ITEMS[cursor]
    if event.key is HostKey.OK:
        if item == "start":
            return new_game_on(flow, now)
        return replace(flow, mode=Options(cursor + 1)), (CLICK,)
    values, current = option_values(flow, item)
    index = current + (1 if event.key is HostKey.RIGHT else -1)
    if index < 0:
        back = Options(cursor - 1) if cursor else Join()
        return replace(flow, mode=back), (CLICK,)
    if index >= len(values):
        return flow, (REFUSED,)
    return replace(flow, choice=replace(flow.choice, **{item: values[index]})), (CLICK,)


def option_values(flow: Flow, item: str) -> tuple[tuple, int]:
    """The values an option item offers, in order, and the index of the one chosen."""
    choice = flow.choice
    if item == "board":
        return tuple(range(len(flow.settings.boards))), choice.board
    if item == "target":  # the rulebook's targets, and one of the table's own
        targets = tuple(sorted({*TARGETS, choice.target}))
        return targets, targets.index(choice.target)
    return (), -1  # start: no value, ◀ goes back


def over(flow: Flow, event: object, now: float):
    """After the ranking, OK sets up the next game with the same seats; ◀ offers to undo
    the last round (or the ending, for a game ended from the menu). The finished game
    stays in ``game`` until the new one starts."""
    if not isinstance(event, HostPress):
        return flow, ()
    if event.key is HostKey.OK:
        return replace(flow, mode=Join()), (CLICK,)
    if event.key is HostKey.LEFT:
        return replace(flow, mode=Confirm("undo", Over())), (CLICK,)
    return flow, ()
