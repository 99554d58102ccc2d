"""The game record (docs/record-format.md): setup plus each round's plays and trade offers.

``GameRecord.from_json(text)`` and ``record.to_json()`` are a pair that survives a
round trip. Parsing checks shapes and types (``RecordError``) and the setup
(``SetupError``); what the rules forbid in a round is found when the record is
replayed (``IllegalPlayError``, ``GameOverError``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import chain
from operator import itemgetter, methodcaller
from typing import Any, NamedTuple

from ..errors import shown
from ..rules import (
    Board,
    GameState,
    RecordError,
    RoundResult,
    Setup,
    new_game,
    outcome,
    replay,
    resolve_round,
)
from ..rules.ending import final_scores
from ..rules.state import TARGET_MAX
from ..rules.table import CARDS_OF, Table, card_count
from .boards import board_from_spec, board_spec
from .bots import STRENGTHS
from .jsontext import parse_json


class RoundRecord(NamedTuple):
    """One round: the cards each seat played, and each seat's trade offer."""

    plays: tuple[tuple[int, ...], ...]
    trades: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GameRecord:
    players: int
    board: Board
    target: int = 30
    rounds: tuple[RoundRecord, ...] = ()
    # Ended at the table ("End the game") before any seat reached the target: the game
    # is over all the same, with its conversion and ranking after the last round.
    ended: bool = False
    # The strength of each seat a bot plays (one of ``bots.STRENGTHS``), None for a
    # person; () when people play every seat. The table seats bots after the people.
    bots: tuple[str | None, ...] = ()
    # The game's identity, given once when it starts (``new_id()``) and kept by every
    # save, set-aside and history row of it; None in a record written before ids were.
    # A replay never reads it.
    game_id: str | None = None

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        return cls.from_dict(parse_json(text))

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        doc, setup, raw, ended = _head(data)
        rounds = _rounds(raw, setup.players)
        bots = _bots(doc.get("bots"), setup.players)
        game_id = _game_id(doc.get("id"))
        return cls(setup.players, setup.board, setup.target, rounds, ended, bots, game_id)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {} if self.game_id is None else {"id": self.game_id}
        out |= {
            "players": self.players,
            "board": board_spec(self.board),
            "target": self.target,
            "rounds": [
                {"plays": [list(p) for p in r.plays], "trades": list(r.trades)} for r in self.rounds
            ],
        }
        if self.ended:
            out["ended"] = True
        if self.bots:
            out["bots"] = list(self.bots)
        return out

    def identified(self) -> GameRecord:
        """This record with its id: its own, or for a record written before games had
        one, an id made from what it holds (``legacy_id``), the same wherever it is made."""
        if self.game_id is not None:
            return self
        return replace(self, game_id=legacy_id(self))

    def bot(self, seat: int) -> str | None:
        """The strength of the bot at ``seat``, or None for a person."""
        return self.bots[seat] if self.bots else None

    def start(self) -> GameState:
        return new_game(self.players, self.board, self.target)

    def replay(self) -> GameState:
        """The state after the last round. Raises the rules' error for the first bad round."""
        return replay(self.start(), self.rounds)

    def results(self) -> Iterator[RoundResult]:
        """Every round resolved with its steps, for narration."""
        state = self.start()
        for r in self.rounds:
            result = resolve_round(state, r.plays, r.trades)
            yield result
            state = result.state


ID_FORM = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{0,63}")


def new_id(entropy: bytes) -> str:
    """A game id from ``entropy`` (16 random bytes, from the caller: this layer draws
    nothing): 32 hex digits."""
    return hashlib.sha256(b"game " + entropy).hexdigest()[:32]


def following_id(game_id: str) -> str:
    """The id after ``game_id``: a table given one random id at power-on gives each game
    it starts the next of this chain, without drawing again."""
    return hashlib.sha256(b"next " + game_id.encode()).hexdigest()[:32]


def legacy_id(record: GameRecord) -> str:
    """The id of a record that has none (written before games had ids): made from its
    setup and rounds, so that every copy of it, in any file, is the same game."""
    text = replace(record, game_id=None).to_json()
    return hashlib.sha256(b"legacy " + text.encode()).hexdigest()[:32]


def _game_id(raw: object) -> str | None:
    if raw is None:
        return None
    if type(raw) is not str or ID_FORM.fullmatch(raw) is None:
        raise RecordError(
            "'id' must be text of 1 to 64 letters, digits, '-' or '_' (starting with a "
            f"letter or digit), got {shown(raw)}"
        )
    return raw


def state_to_dict(state: GameState, ended: bool = False) -> dict[str, Any]:
    """The replay output (docs/record-format.md); ``result`` only once the game has
    ended (by the target, or ``ended`` at the table). Its values as JSON has them, for
    callers that read them back (the history)."""
    finished = state.finished or ended
    out: dict[str, Any] = {
        "round": state.round,
        "finished": finished,
        "rows": {"vp": state.rows.vp, "goods": state.rows.goods, "trader": state.rows.trader},
        "players": [
            {"vp": vp, "goods": goods, "hand": sorted(hand), "discard": sorted(discard)}
            for vp, goods, hand, discard in zip(
                state.vp, state.goods, state.hands, state.discards, strict=True
            )
        ],
    }
    if finished:
        end = outcome(state)
        out["result"] = {
            "vp": list(end.vp),
            "goods": list(end.goods),
            "winners": list(end.winners),
        }
    return out


def replay_json(data: object) -> str:
    """``json.dumps(state_to_dict(...))`` of the record ``data`` (JSON as parsed), the
    same text and the same errors as ``GameRecord.from_dict(data)`` then its replay.

    A batch's usual record is read once into (plays, offers) pairs and played on one
    working table, and the text is written from the table: no record, state or dict is
    built. Any other record goes through ``from_dict``, which names what is wrong."""
    doc, setup, raw, ended = _head(data)
    rounds = _usual_rounds(raw, setup.players)
    if rounds is None:
        record = GameRecord.from_dict(doc)
        return json.dumps(state_to_dict(record.replay(), record.ended))
    _bots(doc.get("bots"), setup.players)
    _game_id(doc.get("id"))
    table = Table.start(setup)
    table.play_rounds(*rounds)
    return _state_json(table, ended)


def _head(data: object) -> tuple[dict[str, Any], Setup, list[Any], bool]:
    """A record (a JSON object), its setup, its rounds as found and ``ended``: each
    checked, the first wrong named, in the order ``from_dict`` reads them."""
    if not isinstance(data, dict):
        raise RecordError(f"a game record is a JSON object, got {_kind(data)}")
    players = data.get("players")
    if type(players) is not int:
        raise RecordError(f"'players' must be a whole number 2..6, got {shown(players)}")
    target = data.get("target", 30)
    if type(target) is not int or not 0 < target <= TARGET_MAX:
        raise RecordError(f"'target' must be a whole number 1..{TARGET_MAX}, got {shown(target)}")
    board = board_from_spec(data.get("board", "standard"))
    setup = Setup(players, board, target)  # a wrong setup is named before any round is read
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list):
        raise RecordError(f"'rounds' must be a list, got {_kind(rounds)}")
    ended = data.get("ended", False)
    if type(ended) is not bool:
        raise RecordError(f"'ended' must be true or false, got {shown(ended)}")
    return data, setup, rounds, ended


def _state_json(table: Table, ended: bool) -> str:
    """``json.dumps(state_to_dict(table.state(), ended))``, written from the table."""
    vp, goods, hands, discards = table.vp, table.goods, table.hands, table.discards
    finished = ended or table.finished
    seats = ", ".join(
        [
            f'{{"vp": {v}, "goods": {g}, "hand": {_LISTED[h]}, "discard": {_LISTED[d]}}}'
            for v, g, h, d in zip(vp, goods, hands, discards, strict=True)
        ]
    )
    v, g, t = table.rows
    text = (
        f'{{"round": {table.round}, "finished": {"true" if finished else "false"}, '
        f'"rows": {{"vp": {v}, "goods": {g}, "trader": {t}}}, "players": [{seats}]'
    )
    if not finished:
        return text + "}"
    end = final_scores(vp, goods, list(map(card_count, hands)))
    return (
        f'{text}, "result": {{"vp": {_list(end.vp)}, "goods": {_list(end.goods)}, '
        f'"winners": {_list(end.winners)}}}}}'
    )


def _list(numbers: Sequence[int]) -> str:
    return f"[{', '.join(map(str, numbers))}]"


_LISTED = [_list(cards) for cards in CARDS_OF]  # a hand or discard as JSON, by its bitmask


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false"}
    return names.get(type(value), "null" if value is None else shown(value))


def _rounds(raw: list[Any], players: int) -> tuple[RoundRecord, ...]:
    """Every round of a record: the usual record's in a few passes (``_usual_rounds``);
    anything else is read round by round to name the first mistake."""
    usual = _usual_rounds(raw, players)
    if usual is not None:
        return tuple(map(RoundRecord, map(_tuples, usual[0]), map(tuple, usual[1])))
    return tuple([_round(i + 1, r, players) for i, r in enumerate(raw)])


def _usual_rounds(raw: list[Any], players: int) -> tuple[list[Any], list[Any]] | None:
    """Every round's plays and trade offers, as parsed, if the record is the usual one
    (objects of lists of lists, offers that are whole numbers 0 or more, or none), else
    None. Checked in a few passes over all rounds at once: ``raw`` is JSON as parsed, of
    any shape, and the passes check the types of all of it."""
    try:
        if not _DICT_ONLY.issuperset(map(type, raw)):
            return None
        plays = list(map(itemgetter("plays"), raw))
    except LookupError:  # a round with no plays
        return None
    trades = list(map(_TRADES, raw))  # in C; a round with no offers shares one empty list
    if not _LIST_ONLY.issuperset(map(type, trades)):  # null, say: no offers either
        trades = [r.get("trades") or [] for r in raw]
    if (
        _LIST_ONLY.issuperset(map(type, plays))
        and _LIST_ONLY.issuperset(map(type, chain.from_iterable(plays)))
        and _LIST_ONLY.issuperset(map(type, trades))
        and max(map(len, trades), default=0) <= players
        and _INT_ONLY.issuperset(map(type, chain.from_iterable(trades)))
        and min(chain.from_iterable(trades), default=0) >= 0
    ):
        return plays, trades
    return None


def _tuples(lists: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(map(tuple, lists))


def _round(number: int, raw: object, players: int) -> RoundRecord:
    # Only shapes are checked here; every card is checked by the rules when the round
    # is played, with the round and the seat in the message.
    if type(raw) is not dict:
        raise RecordError(f"round {number}: expected an object with 'plays', got {_kind(raw)}")
    plays = raw.get("plays")
    if type(plays) is not list:
        raise RecordError(f"round {number}: 'plays' must be a list of each seat's cards")
    if not _LIST_ONLY.issuperset(map(type, plays)):
        seat, cards = next((s, c) for s, c in enumerate(plays) if type(c) is not list)
        raise RecordError(
            f"round {number}, seat P{seat + 1}: expected a list of cards, got {_kind(cards)}"
        )
    trades = raw.get("trades") or ()
    if type(trades) is not list and trades != ():
        raise RecordError(f"round {number}: 'trades' must be a list of goods offered")
    if len(trades) > players:
        raise RecordError(f"round {number}: {len(trades)} trade offers for {players} seats")
    if trades:
        if None in trades:  # null: no offer
            trades = [0 if o is None else o for o in trades]
        if not _INT_ONLY.issuperset(map(type, trades)) or min(trades) < 0:
            seat, offer = next((s, o) for s, o in enumerate(trades) if type(o) is not int or o < 0)
            raise RecordError(
                f"round {number}, seat P{seat + 1}: "
                f"trade offer {shown(offer)} is not a number of goods"
            )
    return RoundRecord(tuple(map(tuple, plays)), tuple(trades))


def _bots(raw: object, players: int) -> tuple[str | None, ...]:
    """The ``bots`` key: null or a strength per seat, bots after the people (where the
    table seats them); every null, or the key left out, is a game of people only."""
    if raw is None:
        return ()
    if type(raw) is not list or len(raw) != players:
        raise RecordError(f"'bots' must be a list of {players} entries (null or a strength)")
    for seat, kind in enumerate(raw):
        if kind is not None and kind not in STRENGTHS:
            raise RecordError(
                f"'bots', seat P{seat + 1}: expected null or one of {', '.join(STRENGTHS)}, "
                f"got {shown(kind)}"
            )
    people = [seat for seat, kind in enumerate(raw) if kind is None]
    if people and people[-1] != len(people) - 1:
        raise RecordError("'bots': the bots sit after the people (a null after a strength)")
    return tuple(raw) if len(people) < players else ()


_DICT_ONLY = {dict}
_TRADES = methodcaller("get", "trades", [])
_LIST_ONLY = {list}
_INT_ONLY = {int}
