"""The working table: a mutable copy of a ``GameState`` that rounds are played on.

Every rule of a round lives here, once. ``GameState`` stays the immutable value that
the rest of the companion sees; a ``Table`` is made from one, plays any number of
rounds, and gives the state back. Replaying a record plays all its rounds on one
table, which is what makes a replay cheap.

Hands and discards are bitmasks of card values (bit ``c`` for card ``c``) here, so
checking and moving cards is integer arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain, combinations, permutations
from operator import and_, invert
from typing import NoReturn

from ..errors import shown
from .board import Quote
from .cards import Card, Row
from .errors import GameOverError, IllegalPlayError, PlayProblem
from .state import START_ROWS, GameState, Rows, Setup
from .steps import (
    Beggar,
    BeggarGain,
    Bonus,
    BonusGain,
    Discard,
    Gain,
    Share,
    Step,
    Supply,
    Trade,
    TradeGain,
)
from .tables import BONUSES, GOODS_MAX, ROW_MAX, SHARES, SUPPLY, TRADER_PUSHBACK, beggar_hand_goods

Plays = Sequence[Sequence[int]]
Log = list[Step] | None

ALL_MASK = 0b1_1111_1110  # cards 1..8


def _cards_of_masks() -> tuple[tuple[int, ...], ...]:
    """Every mask's cards, ascending: its lowest card, then the cards of the rest (a
    smaller mask, already listed). Built at import: one short tuple a mask."""
    out: list[tuple[int, ...]] = [(), ()]  # bit 0 is no card
    for m in range(2, ALL_MASK + 1):
        low = m & -m
        out.append((low.bit_length() - 1,) + out[m ^ low])
    return tuple(out)


CARDS_OF = _cards_of_masks()  # a mask's cards, ascending
_SETS = tuple(map(frozenset, CARDS_OF))
_MASKS = {_SETS[m]: m for m in range(0, ALL_MASK + 1, 2)}  # bit 0 is no card


def advance_rows(rows: list[int], players: int) -> None:
    """The supply phase, in place: every row advances by the table's spaces, never past 15."""
    step = SUPPLY[players]
    vp, goods, trader = rows
    rows[:] = (min(ROW_MAX, vp + step), min(ROW_MAX, goods + step), min(ROW_MAX, trader + step))


def mask(cards: frozenset[int] | Sequence[int]) -> int:
    known = _MASKS.get(cards) if type(cards) is frozenset else None
    if known is not None:  # the hands of states: one lookup, not a loop
        return known
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def card_count(m: int) -> int:
    """Cards in a bitmask (``int.bit_count`` as a function, for ``map``)."""
    return m.bit_count()


def selections_of(hand: int, k: int) -> tuple[int, ...]:
    """Every selection of ``k`` cards from the bitmask ``hand``, as bitmasks."""
    return _SELECTIONS[k][hand]


class Table:
    """A game in progress, changed in place one round at a time."""

    __slots__ = ("discards", "goods", "hands", "round", "rows", "setup", "trades", "vp")

    def __init__(self, state: GameState):
        self.setup = state.setup
        self.round = state.round
        self.vp = list(state.vp)
        self.goods = list(state.goods)
        self.hands = [mask(h) for h in state.hands]
        self.discards = [mask(d) for d in state.discards]
        self.rows = list(state.rows)
        # What the last round's Traders faced, (space, ((seat, goods held), ...)) in
        # trading order, or None: bots value a trade without the round's written steps.
        self.trades: tuple[int, tuple[tuple[int, int], ...]] | None = None

    @classmethod
    def start(cls, setup: Setup) -> Table:
        """The table of ``new_game(setup...)``, without building that state."""
        table = cls.__new__(cls)
        players = setup.players
        table.setup, table.round, table.rows = setup, 0, list(START_ROWS)
        table.vp, table.goods = [0] * players, [players] * players
        table.hands, table.discards = [ALL_MASK] * players, [0] * players
        table.trades = None
        return table

    def state(self) -> GameState:
        return GameState(
            self.setup,
            tuple(self.vp),
            tuple(self.goods),
            tuple(_SETS[m] for m in self.hands),
            tuple(_SETS[m] for m in self.discards),
            Rows(*self.rows),
            self.round,
        )

    @property
    def finished(self) -> bool:
        return max(self.vp) >= self.setup.target

    def check(self, plays: Plays) -> list[int]:
        """Each seat's selection as a bitmask; IllegalPlayError for the first one wrong."""
        return self._read(plays)[0]

    def check_seat(self, seat: int, cards: Sequence[int]) -> int:
        """One seat's selection as a bitmask, or IllegalPlayError saying what is wrong."""
        try:
            m = _WRITTEN.get(tuple(cards)) if len(cards) == self.setup.cards_per_round else None
        except TypeError:  # an unhashable "card": a list, say
            m = None
        # True and 1.0 hash as 1: the look-up finds them, the types refuse them
        if m is None or m & ~self.hands[seat] or not _CARD_TYPES.issuperset(map(type, cards)):
            self._refuse(seat, cards)  # finds what exactly is wrong
        return m

    def _read(self, plays: Plays) -> tuple[list[int], list[list[int]]]:
        """Check every selection, and index the seats by card: (masks, seats_of[card])."""
        setup = self.setup
        if len(plays) != setup.players:
            raise IllegalPlayError(
                PlayProblem.WRONG_SEATS,
                f"{len(plays)} seat(s) played; the game has {setup.players}",
                round=self.round + 1,
                seat=None,
            )
        selections = self._read_fast(plays)
        if selections is None:  # something is off: seat by seat, naming the first wrong
            check = self.check_seat
            selections = [check(seat, cards) for seat, cards in enumerate(plays)]
        seats_of: list[list[int]] = [[], [], [], [], [], [], [], [], []]
        for seat, m in enumerate(selections):
            for card in CARDS_OF[m]:
                seats_of[card].append(seat)
        return selections, seats_of

    def _read_fast(self, plays: Plays) -> list[int] | None:
        """The usual round in a few C-level passes: every selection a tuple of the right
        number of cards in hand. None for anything else (lists too), which ``check_seat``
        then reads seat by seat: the same answer, or the exact refusal."""
        try:
            selections = list(map(_WRITTEN_AS[self.setup.cards_per_round].__getitem__, plays))
        except (KeyError, TypeError):  # not written as such a tuple, or unhashable
            return None
        if any(map(and_, selections, map(invert, self.hands))):  # a card not in hand
            return None
        # True and 1.0 hash as 1: the look-up finds them, the types refuse them
        if not _CARD_TYPES.issuperset(map(type, chain.from_iterable(plays))):
            return None
        return selections

    def play(self, plays: Plays, offers: Sequence[int] = (), log: Log = None) -> None:
        """Play one round: supply, resolution, discards. A refused round changes nothing."""
        if self.finished:
            raise GameOverError(
                f"round {self.round + 1}: the game already ended after round {self.round}"
            )
        selections, seats_of = self._read(plays)
        if len(offers) > self.setup.players:
            raise IllegalPlayError(
                PlayProblem.WRONG_SEATS,
                f"{len(offers)} trade offers; the game has {self.setup.players} seats",
                round=self.round + 1,
                seat=None,
            )
        for seat in seats_of[_TRADER_CARD]:
            self._offer(seat, offers)  # refuse a bad offer before anything changes
        self._resolve(selections, seats_of, offers, log)

    def fork(self) -> Table:
        """An independent copy, for playing out a position without building states."""
        twin = Table.__new__(Table)
        twin.setup, twin.round, twin.rows = self.setup, self.round, self.rows[:]
        twin.vp, twin.goods = self.vp[:], self.goods[:]
        twin.hands, twin.discards = self.hands[:], self.discards[:]
        twin.trades = None
        return twin

    def play_known(self, selections: Sequence[int], offers: Sequence[int] = ()) -> None:
        """Play one round from selections already known legal, as bitmasks of cards in
        hand (a search draws them from the hands): ``play`` without its checks, nothing
        written down. The same rules run, as one flat round (``_round``); only the
        refusals are skipped. Offers must be whole numbers 0 or more (missing: none)."""
        self._round(selections, offers)

    def play_rounds(self, plays: Sequence[Plays], offers: Sequence[Sequence[int]]) -> None:
        """``play(plays[i], offers[i])`` for every round i in turn: the same state at the
        end, the same refusal for the first round wrong (the rounds before it played).

        A replay's usual round (each selection a list or tuple of cards in hand, every
        offer a whole number 0 or more) is checked in a few C-level passes, the types of
        every card and offer once for the whole game, and resolved by ``_round``;
        anything else goes through ``play``, which says what is wrong. ``trades`` is
        left as ``_round`` leaves it for the last round.
        """
        setup = self.setup
        players, target = setup.players, setup.target
        written = _WRITTEN_AS[setup.cards_per_round].__getitem__
        vp, hands, resolve, play = self.vp, self.hands, self._round, self.play
        checked = _cards_and_offers_usual(plays, offers, players)
        for cards, offered in zip(plays, offers, strict=True):
            try:
                selections = list(map(written, map(tuple, cards)))  # lists as parsed too
            except (KeyError, TypeError):  # not a tuple of the right number of cards
                play(cards, offered)
                continue
            if (
                len(selections) != players
                or max(vp) >= target
                or any(map(and_, selections, map(invert, hands)))  # a card not in hand
                or not (checked or _cards_and_offers_usual((cards,), (offered,), players))
            ):
                play(cards, offered)  # the refusal, or a round only play reads
                continue
            resolve(selections, offered)

    def _round(self, selections: Sequence[int], offers: Sequence[int]) -> None:
        """One round from legal selections (bitmasks) and whole-number offers, in one
        pass: the counts of each card played, the rows' shares, then each seat's gains.

        The same numbers as ``_resolve``: a seat's goods from the Governor, Frigate and
        Galleon are all gains, so capping their sum at 15 caps each in turn; the Trader
        then spends, and the Beggar's goods come last, capped again. Traders trade in
        any order (each spends only its own goods), so seats go in seat order.
        """
        vp, goods, hands, discards, rows = self.vp, self.goods, self.hands, self.discards, self.rows
        step = _SUPPLY_STEPS[len(vp)]
        v, g, t = rows
        v = v + step if v + step < ROW_MAX else ROW_MAX
        g = g + step if g + step < ROW_MAX else ROW_MAX
        t = t + step if t + step < ROW_MAX else ROW_MAX
        counts = sum(map(_COUNTED.__getitem__, selections))  # 3 bits a card, card c at 3c
        c1, c2, c4, c5 = counts >> 3 & 7, counts >> 6 & 7, counts >> 12 & 7, counts >> 15 & 7
        c7 = counts >> 21 & 7
        e1 = e2 = e4 = e5 = 0
        if c1:
            e1 = v // c1
            if e1 > _CAPTAIN_CAP:
                e1 = _CAPTAIN_CAP
            v -= e1 * c1
        if c2:
            e2 = v // c2
            if e2 > _ADMIRAL_CAP:
                e2 = _ADMIRAL_CAP
            v -= e2 * c2
        if c4:
            e4 = g // c4
            if e4 > _FRIGATE_CAP:
                e4 = _FRIGATE_CAP
            g -= e4 * c4
        if c5:
            e5 = g // c5
            g -= e5 * c5
        # What a seat gets for each card it played, before what its own other card
        # takes off a bonus (``_OWN``): VP, goods.
        vp_for = (0, e1, e2, 0, 0, 0, _CUSTOMS_4 * c4 + _CUSTOMS_5 * c5, 0, 0)
        goods_for = (0, 0, 0, _GOVERNOR_1 * c1 + _GOVERNOR_2 * c2, e4, e5, 0, 0, 0)
        beggar_traders = _BEGGAR_7 * c7
        if c7:
            space = t - TRADER_PUSHBACK * (c7 - 1)
            if space < 0:
                space = 0
            quotes = self.setup.board.quote_row(space)
            traders: list[tuple[int, int, int]] = []  # (-VP as it trades, seat, goods held)
        for seat, m in enumerate(selections):
            a, b, own_vp, own_goods, gives, trades, begs = _PLAYED[m]
            if gives:  # a Governor, Frigate or Galleon: goods up to the cap
                held = goods[seat] + goods_for[a] + goods_for[b] - own_goods
                goods[seat] = held if held < GOODS_MAX else GOODS_MAX
            gained = vp_for[a] + vp_for[b] - own_vp
            if gained:
                vp[seat] += gained
            if trades:
                held = goods[seat]
                traders.append((-vp[seat], seat, held))
                offer = offers[seat] if seat < len(offers) else 0
                if offer:
                    offer = offer if offer < held else held
                    quote = quotes[offer if offer < GOODS_MAX else GOODS_MAX]
                    goods[seat] = held - quote.spent
                    vp[seat] += quote.vp
            if begs:
                paid = _BEGGAR_HAND[(hands[seat] & ~m).bit_count()] + beggar_traders
                if trades:
                    paid -= _BEGGAR_7
                held = goods[seat] + paid
                goods[seat] = held if held < GOODS_MAX else GOODS_MAX
                hands[seat], discards[seat] = ALL_MASK, 0
            else:
                hands[seat] &= ~m
                discards[seat] |= m
        if c7:
            t = 0
            if len(traders) > 1:  # the trading order, as ``_trade`` goes: most VP first
                traders.sort()
            self.trades = (space, tuple([(seat, held) for _, seat, held in traders]))
        else:
            self.trades = None
        rows[0], rows[1], rows[2] = v, g, t
        self.round += 1

    def _resolve(
        self, selections: Sequence[int], seats_of: list[list[int]], offers: Sequence[int], log: Log
    ) -> None:
        self.trades = None
        self._supply(log)
        for card in range(1, 9):
            if seats_of[card]:
                _ACTIONS[card](self, card, seats_of, selections, offers, log)
        self._end(seats_of[_BEGGAR_CARD], selections, log)
        self.round += 1

    def _refuse(self, seat: int, cards: Sequence[int]) -> NoReturn:
        """Raise the error naming the first thing wrong with a seat's selection."""

        def illegal(problem: PlayProblem, message: str) -> IllegalPlayError:
            return IllegalPlayError(problem, message, round=self.round + 1, seat=seat)

        for card in cards:
            if type(card) is not int and not isinstance(card, Card):
                raise illegal(
                    PlayProblem.OUT_OF_RANGE, f"card {shown(card)} is not a card number 1..8"
                )
            if not 1 <= card <= 8:
                raise illegal(
                    PlayProblem.OUT_OF_RANGE, f"card {shown(card)} does not exist (cards are 1..8)"
                )
        if len(set(cards)) != len(cards):
            twice = next(c for c in cards if list(cards).count(c) > 1)
            raise illegal(PlayProblem.REPEATED, f"card {twice} is chosen twice")
        need = self.setup.cards_per_round
        if len(cards) != need:
            raise illegal(
                PlayProblem.WRONG_COUNT,
                f"{len(cards)} card(s) chosen; with {self.setup.players} players "
                f"each seat plays {need}",
            )
        missing = next(c for c in cards if not self.hands[seat] >> c & 1)  # the one left
        raise illegal(
            PlayProblem.NOT_IN_HAND,
            f"card {missing} ({Card(missing).name.title()}) is not in hand "
            f"(hand: {_listed(self.hands[seat])}; discard: {_listed(self.discards[seat])})",
        )

    def _offer(self, seat: int, offers: Sequence[int]) -> int:
        """A Trader's offer: missing means none; anything but a count of goods is refused."""
        offer = offers[seat] if seat < len(offers) else 0
        if type(offer) is not int or offer < 0:
            raise IllegalPlayError(
                PlayProblem.BAD_OFFER,
                f"trade offer {shown(offer)} is not a number of goods",
                round=self.round + 1,
                seat=seat,
            )
        return offer

    def _supply(self, log: Log) -> None:
        """Every row advances by the table's spaces, never past 15."""
        if log is None:
            advance_rows(self.rows, self.setup.players)
            return
        before = Rows(*self.rows)
        advance_rows(self.rows, self.setup.players)
        log.append(Supply(before, Rows(*self.rows)))

    def _give_goods(self, seat: int, amount: int) -> int:
        """Add goods up to the cap of 15; returns the goods lost over it."""
        held = self.goods[seat] + amount
        if held > GOODS_MAX:
            self.goods[seat] = GOODS_MAX
            return held - GOODS_MAX
        self.goods[seat] = held
        return 0

    def _share(
        self,
        card: int,
        seats_of: list[list[int]],
        sel: Sequence[int],
        offers: Sequence[int],
        log: Log,
    ) -> None:
        """Everyone who played ``card`` takes the same amount from its row, up to its cap."""
        row, cap = _SHARE[card]
        seats = seats_of[card]
        before = self.rows[row]
        each = before // len(seats)
        if cap is not None and each > cap:
            each = cap
        self.rows[row] = before - each * len(seats)
        if row == _VP:
            vp = self.vp
            for seat in seats:
                vp[seat] += each
            lost = _NO_LOSS
        else:
            give = self._give_goods
            lost = [give(seat, each) for seat in seats]
        if log is not None:
            gains = tuple(
                Gain(s, *_amounts(row == _VP, each, lost[i] if lost else 0))
                for i, s in enumerate(seats)
            )
            log.append(Share(Card(card), _ROWS[row], each, before, self.rows[row], gains))

    def _bonus(
        self,
        card: int,
        seats_of: list[list[int]],
        sel: Sequence[int],
        offers: Sequence[int],
        log: Log,
    ) -> None:
        """Governor, Customs: paid per card the *other* seats played, not from the board."""
        to_vp, pays = _BONUS[card]
        gains = []
        for seat in seats_of[card]:
            m = sel[seat]
            amount = 0
            for c, each in pays:
                amount += each * (len(seats_of[c]) - (m >> c & 1))
            if to_vp:
                self.vp[seat] += amount
                lost = 0
            else:
                lost = self._give_goods(seat, amount)
            if log is not None:
                named = tuple((Card(c), len(seats_of[c]) - (m >> c & 1)) for c, _ in pays)
                gains.append(BonusGain(seat, *_amounts(to_vp, amount, lost), counted=named))
        if log is not None:
            log.append(Bonus(Card(card), tuple(gains)))

    def _trade(
        self,
        card: int,
        seats_of: list[list[int]],
        sel: Sequence[int],
        offers: Sequence[int],
        log: Log,
    ) -> None:
        """Marker back 2 per extra Trader, each Trader trades, marker to 0."""
        board = self.setup.board
        seats = seats_of[card]
        before = self.rows[_TRADER]
        space = max(0, before - TRADER_PUSHBACK * (len(seats) - 1))
        gains = []
        held_by = []
        # Trades touch only the trader's own goods, so the order (most VP first) is
        # for the narration; it cannot change any number.
        order = seats if len(seats) == 1 else sorted(seats, key=lambda s: (-self.vp[s], s))
        for seat in order:
            offer = self._offer(seat, offers)
            held = self.goods[seat]
            held_by.append((seat, held))
            quote = board.quote(space, min(offer, held)) if offer else _NO_TRADE
            self.goods[seat] = held - quote.spent
            self.vp[seat] += quote.vp
            if log is not None:
                gains.append(TradeGain(seat, quote.vp, -quote.spent, 0, offer, held))
        self.rows[_TRADER] = 0
        self.trades = (space, tuple(held_by))
        if log is not None:
            log.append(Trade(before, space, tuple(board.available(space)), tuple(gains)))

    def _beggar(
        self,
        card: int,
        seats_of: list[list[int]],
        sel: Sequence[int],
        offers: Sequence[int],
        log: Log,
    ) -> None:
        """Goods for the cards left in hand and for the other seats' Traders."""
        _, pays = _BONUS[card]
        gains = []
        for seat in seats_of[card]:
            m = sel[seat]
            in_hand = (self.hands[seat] & ~m).bit_count()
            hand_goods = _BEGGAR_HAND[in_hand]
            paid = 0
            for c, each in pays:
                paid += each * (len(seats_of[c]) - (m >> c & 1))
            lost = self._give_goods(seat, hand_goods + paid)
            if log is not None:
                counted = [len(seats_of[c]) - (m >> c & 1) for c, _ in pays]
                returned = tuple(sorted(_SETS[self.discards[seat] | sel[seat]]))
                gain = BeggarGain(
                    seat,
                    goods=hand_goods + paid - lost,
                    lost=lost,
                    in_hand=in_hand,
                    hand_goods=hand_goods,
                    traders=sum(counted),
                    trader_goods=paid,
                    returned=returned,
                )
                gains.append(gain)
        if log is not None:
            log.append(Beggar(tuple(gains)))

    def _end(self, beggars: list[int], selections: Sequence[int], log: Log) -> None:
        """Beggars take every card back; everyone else discards what they played."""
        hands, discards = self.hands, self.discards
        for seat, m in enumerate(selections):
            hands[seat] &= ~m
            discards[seat] |= m
        for seat in beggars:
            hands[seat], discards[seat] = ALL_MASK, 0
        if log is not None:
            discarded = tuple(
                (seat, tuple(sorted(_SETS[m])))
                for seat, m in enumerate(selections)
                if seat not in beggars
            )
            if discarded:
                log.append(Discard(discarded))


def _cards_and_offers_usual(
    plays: Sequence[Plays], offers: Sequence[Sequence[int]], players: int
) -> bool:
    """Whether every card in these rounds is an int (True and 1.0 hash as 1: a look-up
    finds them, their types refuse them) and every round's offers are at most one a
    seat, each a whole number 0 or more."""
    try:
        return (
            _CARD_TYPES.issuperset(map(type, chain.from_iterable(chain.from_iterable(plays))))
            and max(map(len, offers), default=0) <= players
            and _OFFER_TYPES.issuperset(map(type, chain.from_iterable(offers)))
            and min(chain.from_iterable(offers), default=0) >= 0
        )
    except TypeError:  # a round or a selection that is not a list: play reads it
        return False


def _amounts(to_vp: bool, amount: int, lost: int) -> tuple[int, int, int]:
    """A seat's gain as a step reports it, (vp, goods, lost): VP, or the goods it kept and
    those it lost."""
    if to_vp:
        return amount, 0, 0
    return 0, amount - lost, lost


def _listed(m: int) -> str:
    return " ".join(map(str, sorted(_SETS[m]))) or "none"


# What each card value does, derived once from the tables so that the hot loop indexes
# lists by card value instead of hashing enums.
_CARD_TYPES = {int, Card}  # not bool, not float: True == 1 and 1.0 == 1 are not cards
_NO_TRADE = Quote(0, 0)
_NO_LOSS: list[int] = []  # VP have no cap: nothing is ever lost
_BITS = tuple(1 << c for c in range(9))
_HAND_BITS = [[_BITS[c] for c in cards] for cards in CARDS_OF]  # a mask's cards as bits
_SELECTIONS = tuple(
    tuple([tuple(map(sum, combinations(bits, k))) for bits in _HAND_BITS]) for k in range(3)
)  # [k][hand]: every selection of k cards, as bitmasks in ascending card order
# Every way to write a selection of one or two different cards, to its bitmask.
_WRITTEN = {cards: mask(cards) for k in (1, 2) for cards in permutations(range(1, 9), k)}
# The same, by the number of cards a seat plays: _WRITTEN_AS[k][cards] (k is 1 or 2).
# Keyed by any seat's play: a list is not a key (unhashable), and a caller catches that.
_WRITTEN_AS: list[dict[Sequence[int], int]] = [
    {c: m for c, m in _WRITTEN.items() if len(c) == k} for k in range(3)
]
_BEGGAR_HAND = [beggar_hand_goods(k) for k in range(8)]  # by cards left in hand
_OFFER_TYPES = {int}  # not bool: an offer is a count of goods
_SUPPLY_STEPS = [SUPPLY.get(players, 0) for players in range(max(SUPPLY) + 1)]  # by players
_ROWS = (Row.VP, Row.GOODS, Row.TRADER)  # the order of Table.rows and of Rows' fields
_VP, _GOODS, _TRADER = range(3)
_TRADER_CARD, _BEGGAR_CARD = int(Card.TRADER), int(Card.BEGGAR)  # list indexes, not enums
_SHARE: list[tuple[int, int | None]] = [(0, None)] * 9
_BONUS: list[tuple[bool, tuple[tuple[int, int], ...]]] = [(False, ())] * 9
# An action: (table, card, seats_of, selections, offers, log), as ``Table._share`` takes them.
Action = Callable[[Table, int, list[list[int]], Sequence[int], Sequence[int], Log], None]
_ACTIONS: list[Action] = [Table._share] * 9
for _card in Card:
    if _card in SHARES:
        _row, _cap = SHARES[_card]
        _SHARE[_card] = (_ROWS.index(_row), _cap)
    elif _card is Card.TRADER:
        _ACTIONS[_card] = Table._trade
    else:
        _pays_in, _pays = BONUSES[_card]
        _BONUS[_card] = (_pays_in is Row.VP, tuple((int(c), k) for c, k in _pays.items()))
        _ACTIONS[_card] = Table._beggar if _card is Card.BEGGAR else Table._bonus


# The flat round (``Table._round``) reads the same tables, as plain numbers.
def _counted(m: int) -> int:
    """A selection as counts of each card played, 3 bits a card (card c at bit 3c):
    summing the selections of up to 6 seats counts every card without a carry."""
    return sum(1 << 3 * c for c in CARDS_OF[m])


# Only selections are counted and read (one or two cards): the other masks stay blank.
_SELECTION_MASKS = _SELECTIONS[1][ALL_MASK] + _SELECTIONS[2][ALL_MASK]
_COUNTED = [0] * (ALL_MASK + 1)
for _m in _SELECTION_MASKS:
    _COUNTED[_m] = _counted(_m)


def _most(card: Card) -> int:
    """The most each seat takes with ``card``, for a share that has a cap."""
    most = SHARES[card][1]
    assert most is not None, f"{card.name} has a cap in SHARES"
    return most


_CAPTAIN_CAP, _ADMIRAL_CAP = _most(Card.CAPTAIN), _most(Card.ADMIRAL)
_FRIGATE_CAP = _most(Card.FRIGATE)
_GOVERNOR = BONUSES[Card.GOVERNOR][1]
_GOVERNOR_1, _GOVERNOR_2 = _GOVERNOR[Card.CAPTAIN], _GOVERNOR[Card.ADMIRAL]
_CUSTOMS = BONUSES[Card.CUSTOMS][1]
_CUSTOMS_4, _CUSTOMS_5 = _CUSTOMS[Card.FRIGATE], _CUSTOMS[Card.GALLEON]
_BEGGAR_7 = BONUSES[Card.BEGGAR][1][Card.TRADER]


def _played(m: int) -> tuple[int, int, int, int, bool, bool, bool]:
    """What the flat round reads of a selection of one or two cards: its cards (0 for
    none), the VP and goods its own cards take off its bonuses (a Customs does not count
    the seat's own Frigate), whether it gets goods before the trade, trades, begs."""
    cards = _SETS[m]
    a, b = (CARDS_OF[m] + (0, 0))[:2]
    own_vp = sum(k for c, k in _CUSTOMS.items() if c in cards) if Card.CUSTOMS in cards else 0
    own_goods = sum(k for c, k in _GOVERNOR.items() if c in cards) if Card.GOVERNOR in cards else 0
    gives = not cards.isdisjoint((Card.GOVERNOR, Card.FRIGATE, Card.GALLEON))
    return a, b, own_vp, own_goods, gives, Card.TRADER in cards, Card.BEGGAR in cards


_PLAYED = [_played(0)] * (ALL_MASK + 1)
for _m in _SELECTION_MASKS:
    _PLAYED[_m] = _played(_m)
