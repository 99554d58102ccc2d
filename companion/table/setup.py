"""Before and after a game: resuming a saved game, seats joining, options, the ranking."""

from __future__ import annotations

from dataclasses import replace

from ..game.bots import STRENGTHS
from ..game.record import GameRecord, following_id
from ..rules import TARGETS, Board, new_game
from . import bots as _bots
from .effects import CLICK, REFUSED, GameChanged, KeepAside, ResumeKept
from .events import HostKey, HostPress, PadDown, Press
from .round import next_round
from .state import (
    KEPT_SHOWN,
    PADS,
    Choice,
    Confirm,
    Flow,
    Game,
    Join,
    KeptGame,
    KeptList,
    NamesList,
    Options,
    Over,
    Resume,
    Step,
    choose_board,
    current_game,
    notice,
    seat_names,
)


def start(
    flow: Flow, players: int, board: Board, target: int, now: float, bots: tuple[str, ...] = ()
) -> Step:
    """Skip setup: a game of ``players`` people on pads 1..players, and ``bots`` (their
    strengths) at the seats after them; the bots are asked at once."""
    before = choose_board(flow, board)
    choice = replace(before.choice, target=target, bots=tuple(bots))
    after, effects = new_game_on(replace(before, pads=tuple(range(players)), choice=choice), now)
    return after, effects + _bots.asks(before, after)


def offer_resume(flow: Flow, saved: GameRecord, backup: bool = False) -> Flow:
    """Power on with an unfinished game saved: offer to resume it (``backup``: the last
    save was unusable, this is the version before it)."""
    return replace(flow, mode=Resume(saved, backup))


def new_game_on(flow: Flow, now: float) -> Step:
    """A new game with the seats and choices on the table, saved at once. A game that
    ended before it is kept beside it in the state folder, not replaced."""
    board, target = flow.board, flow.choice.target
    bots = (None,) * len(flow.pads) + flow.choice.bots if flow.choice.bots else ()
    game_id = flow.next_id or None
    record = GameRecord(flow.players, board, target, bots=bots, game_id=game_id)
    flow = replace(flow, next_id=following_id(game_id) if game_id else "")
    old = flow.game
    kept = (KeepAside(old.record, seat_names(flow)),) if old is not None and old.over else ()
    game = Game(record, new_game(flow.players, board, target))
    return next_round(replace(flow, game=game), now), (*kept, GameChanged(record))


def resume(flow: Flow, mode: Resume, event: Press, now: float) -> Step:
    """OK resumes the saved game at the start of its next round; ◀ asks whether to set it
    aside for a new one (it is kept beside it: nothing is lost by a wrong key)."""
    if not isinstance(event, HostPress):
        return flow, ()
    if event.key is HostKey.LEFT:
        return replace(flow, mode=Confirm("aside", mode)), (CLICK,)
    if event.key is not HostKey.OK:
        return flow, ()
    return resumed(flow, mode.saved, now), ()


def resume_kept(flow: Flow, record: GameRecord, now: float) -> Step:
    """A game set aside (``record``) on the table again, at the start of its next round,
    from outside a step (``companion simulate --resume``): its bots asked at once, as
    ``step()`` asks them when it is chosen from the seats' screen."""
    after, effects = _resume_kept(flow, record, now)
    return after, effects + _bots.asks(flow, after)


def _resume_kept(flow: Flow, record: GameRecord, now: float) -> Step:
    after = resumed(flow, record, now)
    return after, (ResumeKept(current_game(after).record),)


def resumed(flow: Flow, record: GameRecord, now: float) -> Flow:
    """``record``'s game on the table, at the start of its next round. A record saved
    before games had ids is given the one its contents make (``identified``), which the
    history gives its other copies too."""
    record = record.identified()
    flow = choose_board(flow, record.board)
    bots = tuple(b for b in record.bots if b is not None)  # the seats after the people's
    flow = replace(
        flow,
        choice=replace(flow.choice, target=record.target, bots=bots),
        pads=tuple(range(record.players - len(bots))),
        game=Game.from_record(record),
    )
    return next_round(flow, now)


def set_aside(flow: Flow, mode: Resume) -> Step:
    """The saved game kept beside the next one (confirmed): the seats join afresh, and
    it is first among the games set aside."""
    saved = mode.saved
    kept = (KeptGame(saved), *flow.kept)[:KEPT_SHOWN]
    return replace(flow, mode=Join(), kept=kept), (CLICK, KeepAside(saved, seat_names(flow, saved)))


def kept_list(flow: Flow, mode: KeptList, event: Press, now: float) -> Step:
    """◀ ▶ move over "back" and the games set aside, OK resumes the one on the cursor (or
    goes back to the seats)."""
    if not isinstance(event, HostPress):
        return flow, ()
    if event.key is not HostKey.OK:
        cursor = mode.cursor + (1 if event.key is HostKey.RIGHT else -1)
        if not 0 <= cursor <= len(flow.kept):
            return flow, (REFUSED,)
        return replace(flow, mode=KeptList(cursor)), (CLICK,)
    if mode.cursor == 0:
        return replace(flow, mode=Join()), (CLICK,)
    chosen = flow.kept[mode.cursor - 1]
    flow = replace(flow, kept=tuple(k for k in flow.kept if k is not chosen))
    after, effects = _resume_kept(flow, chosen.record, now)
    return after, (CLICK, *effects)


def join(flow: Flow, mode: Join, event: Press, now: float) -> Step:
    """A pad key seats its pad (again: nothing changes, but the click says it is in);
    ▶ opens the pads' names (``names.py``)."""
    if isinstance(event, PadDown):
        if event.seat in flow.pads:
            return flow, (CLICK,)
        return replace(flow, pads=tuple(sorted((*flow.pads, event.seat)))), (CLICK,)
    if isinstance(event, HostPress) and event.key is HostKey.RIGHT:
        return replace(flow, mode=NamesList(mode)), (CLICK,)
    if isinstance(event, HostPress) and event.key is HostKey.LEFT and flow.kept:
        return replace(flow, mode=KeptList(1)), (CLICK,)  # on the newest: OK resumes it
    if isinstance(event, HostPress) and event.key is HostKey.OK:
        if flow.pads:  # one person is enough: the options can add bots
            bots = flow.choice.bots[: PADS - len(flow.pads)]  # six seats in all
            return replace(flow, mode=Options(), choice=replace(flow.choice, bots=bots)), (CLICK,)
        return notice(flow, "notice.need_two", now), (REFUSED,)
    return flow, ()


def options(flow: Flow, mode: Options, event: Press, now: float) -> Step:
    """◀ ▶ change the value of the item on screen, OK goes on to the next item (on
    *Start*, starts). ◀ below an item's first value goes back one item, and from the
    first item back to the seats; ▶ past the last value is refused."""
    if not isinstance(event, HostPress):
        return flow, ()
    cursor = mode.cursor
    item = option_items(flow)[cursor]
    if event.key is HostKey.OK:
        if item != "start":
            return replace(flow, mode=Options(cursor + 1)), (CLICK,)
        if flow.players < 2:
            return notice(flow, "notice.need_two", now), (REFUSED,)
        return new_game_on(flow, now)
    values, current = option_values(flow, cursor)
    index = current + (1 if event.key is HostKey.RIGHT else -1)
    if index < 0:
        back = Options(cursor - 1) if cursor else Join()
        return replace(flow, mode=back), (CLICK,)
    if index >= len(values):
        return flow, (REFUSED,)
    return replace(flow, choice=_chosen(flow, item, cursor, index)), (CLICK,)


def _chosen(flow: Flow, item: str, cursor: int, index: int) -> Choice:
    """Setup's choice with the item at ``cursor`` set to its value at ``index``."""
    choice = flow.choice
    if item == "bot":
        return _set_bot(flow, cursor - BOT_ITEMS, BOT_VALUES[index])
    if item == "board":
        return replace(choice, board=_boards(flow)[index])
    return replace(choice, target=_targets(choice)[index])


OPTION_FIRST = ("board", "target")
BOT_ITEMS = len(OPTION_FIRST)  # the cursor of the first seat a bot may take
BOT_VALUES = (None, *STRENGTHS)  # None: no bot at that seat


def option_items(flow: Flow) -> tuple[str, ...]:
    """The items on the options screen: the board, the target, a "bot" item for each bot
    seat and one more to add a bot while there is a seat left (six in all), start."""
    bots = flow.choice.bots
    more = len(bots) + (len(flow.pads) + len(bots) < PADS)
    return (*OPTION_FIRST, *("bot",) * more, "start")


def _set_bot(flow: Flow, index: int, strength: str | None) -> Choice:
    """The choice with the bot ``index`` (after the people) of ``strength``: None removes
    it, and the bots after it move up a seat."""
    bots = list(flow.choice.bots)
    if strength is None:
        del bots[index]
    elif index == len(bots):
        bots.append(strength)
    else:
        bots[index] = strength
    return replace(flow.choice, bots=tuple(bots))


def option_values(flow: Flow, cursor: int) -> tuple[tuple[int | str | None, ...], int]:
    """The values the option item at ``cursor`` offers, in order, and the index of the one
    chosen."""
    choice = flow.choice
    item = option_items(flow)[cursor]
    if item == "bot":
        bots, index = choice.bots, cursor - BOT_ITEMS  # setup's draft, not the last game's
        return BOT_VALUES, BOT_VALUES.index(bots[index] if index < len(bots) else None)
    if item == "board":
        return _boards(flow), choice.board
    if item == "target":
        targets = _targets(choice)
        return targets, targets.index(choice.target)
    return (), -1  # start: no value, ◀ goes back


def _boards(flow: Flow) -> tuple[int, ...]:
    """The board item's values: an index into the sides on offer."""
    return tuple(range(len(flow.settings.boards)))


def _targets(choice: Choice) -> tuple[int, ...]:
    """The target item's values: the rulebook's targets, and one of the table's own."""
    return tuple(sorted({*TARGETS, choice.target}))


def over(flow: Flow, mode: Over, event: Press, now: float) -> Step:
    """After the ranking, OK asks whether to set up the next game with the same seats (the
    key people press to skip should not skip the ranking); ◀ offers to undo the last
    round (or the ending, for a game ended from the menu). The finished game stays in
    ``game`` until the new one starts."""
    if not isinstance(event, HostPress):
        return flow, ()
    if event.key is HostKey.OK:
        return replace(flow, mode=Confirm("new", Over())), (CLICK,)
    if event.key is HostKey.LEFT:
        return replace(flow, mode=Confirm("undo", Over())), (CLICK,)
    return flow, ()
