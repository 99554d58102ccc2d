"""Board sides: the rate printed on each trader space, and what a trade buys there.

A board is data: the engine accepts any table of 16 spaces, each ``None`` (no trade
there) or a rate ``(goods, vp)``. On a space, a Trader may trade at that space's rate
or at any rate printed on the spaces below it.

Every table is monotone: going down the board, a rate never gives more VP per good
than a rate above it (the rulebook's "any worse rate" below the marker). So a rate
printed lower is always a worse rate, whichever table the players bring.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from ..errors import shown
from .errors import BoardError
from .tables import GOODS_MAX, ROW_MAX

SPACES = ROW_MAX + 1
# A rate hands in 1..15 goods (no one holds more) for 1..99 VP. The VP bound keeps every
# score a short number: printed boards pay a few VP per trade, never dozens.
RATE_VP_MAX = 99


class Rate(NamedTuple):
    """Hand in ``goods`` goods, receive ``vp`` victory points."""

    goods: int
    vp: int

    def __str__(self) -> str:
        return f"{self.goods}:{self.vp}"


class Quote(NamedTuple):
    """What a trade costs and buys: goods actually handed in, VP received."""

    spent: int
    vp: int


@dataclass(frozen=True, slots=True)
class Board:
    """One side of the board. ``name`` is a profile name, or None for a custom table."""

    rates: tuple[Rate | None, ...]
    name: str | None = None
    verified: bool = True
    # _quotes[space][g]: the best trade with up to g goods there, looked up per trade.
    _quotes: tuple[tuple[Quote, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_size(self.rates)
        _check_rates(self.rates)
        object.__setattr__(self, "_quotes", _quote_tables(self.rates))

    @classmethod
    def from_rates(cls, rates: object, name: str | None = None, verified: bool = True) -> Board:
        """Build a board from ``[[goods, vp] | None, ...]`` as found in JSON, validating it.

        BoardError names the first space that is wrong (or the value, if it is not a list):
        not null or two whole numbers, out of goods 1..15 and VP 1..99, or paying more VP
        per good than a space above.
        """
        if type(rates) is not list and type(rates) is not tuple:
            raise BoardError(f"trader_rates must be a list of {SPACES} entries, got {shown(rates)}")
        _check_size(rates)  # before reading the entries: a list may be huge
        return cls(tuple([_parse_rate(i, r) for i, r in enumerate(rates)]), name, verified)

    def to_rates(self) -> list[list[int] | None]:
        """The table as JSON data: ``from_rates(b.to_rates()) == b``."""
        return [None if r is None else [r.goods, r.vp] for r in self.rates]

    def available(self, space: int) -> list[Rate]:
        """The distinct rates a Trader may use with the marker on ``space``, best first."""
        found = {r for r in self.rates[: space + 1] if r is not None}
        return sorted(found, key=lambda r: (-r.vp / r.goods, r.goods))

    def quote(self, space: int, offer: int) -> Quote:
        """The trade for "hand in up to ``offer`` goods" on ``space``.

        The most VP those goods can buy at the available rates, mixing rates freely,
        and only the goods that VP needs.
        """
        if offer < 0:
            raise ValueError(f"a trade offer is a number of goods, got {shown(offer)}")
        return self._quotes[space][min(offer, GOODS_MAX)]

    def quote_row(self, space: int) -> tuple[Quote, ...]:
        """Every ``quote(space, g)`` for g = 0..15, as one tuple: ``row[g]``."""
        return self._quotes[space]

    def offers(self, space: int, goods: int) -> list[Quote]:
        """Every trade worth making with ``goods`` goods on ``space``, cheapest first.

        One quote per reachable VP total, each at the fewest goods that buy it; the
        first is always the empty trade.
        """
        row = self._quotes[space]
        return sorted({row[g] for g in range(min(goods, GOODS_MAX) + 1)})


def _check_size(rates: Sequence[object]) -> None:
    if len(rates) != SPACES:
        raise BoardError(f"a trader table has {SPACES} spaces (0..15), got {len(rates)}")


def _parse_rate(space: int, raw: object) -> Rate | None:
    """A JSON entry as a rate; its numbers are checked with every other rate's."""
    if raw is None:
        return None
    # exactly these types (a list or tuple subclass, another named tuple, is no rate)
    if (type(raw) is list or type(raw) is tuple or type(raw) is Rate) and len(raw) == 2:
        return Rate(*raw)
    raise _bad_rate(space, raw)


def _check_rates(rates: Sequence[Rate | None]) -> None:
    """Refuse the first space whose rate is not 1..15 goods for 1..99 VP, or is worse
    (fewer VP per good) than a rate on a space below it.

    One pass up the board, keeping the best rate so far: a rate worse than any rate
    below it is worse than that one. On equal rates the higher space is kept, so a
    message names the space nearest the one that breaks the order.
    """
    best: Rate | None = None
    best_space = 0
    for space, rate in enumerate(rates):
        if rate is None:
            continue
        if type(rate) is not Rate:
            raise _bad_rate(space, rate)
        goods, vp = rate
        if not (type(goods) is int and type(vp) is int):
            raise _bad_rate(space, [goods, vp])  # shown as it was written in JSON
        if not (0 < goods <= GOODS_MAX and 0 < vp <= RATE_VP_MAX):
            raise _bad_rate(space, [goods, vp])
        if best is None or vp * best.goods >= best.vp * goods:
            best, best_space = rate, space
        else:
            raise BoardError(
                f"trader space {best_space}: {best} gives more VP per good than "
                f"{rate} on space {space} above it"
            )


def _bad_rate(space: int, raw: object) -> BoardError:
    return BoardError(
        f"trader space {space}: expected null or [goods, vp] as whole numbers, "
        f"goods 1..{GOODS_MAX} and VP 1..{RATE_VP_MAX}, got {shown(raw)}"
    )


def _quote_tables(rates: tuple[Rate | None, ...]) -> tuple[tuple[Quote, ...], ...]:
    """``quotes[space][g]``: the best trade with up to g goods on ``space``, g up to 15.

    Unbounded knapsack, one rate at a time up the board: most_vp[g] is the most VP that
    g goods buy with the rates seen so far, which are exactly those usable on the
    space reached. Adding a rate is one pass over g, so a whole board costs about as
    much as one space did when each space was solved on its own.
    """
    most_vp = [0] * (GOODS_MAX + 1)
    row = _quotes_for(tuple(most_vp))
    tables = []
    for rate in rates:
        # A rate that buys no more than its goods already buy adds nothing anywhere
        # (a + b goods buy what a goods buy plus what b goods buy): most rates repeat one below.
        if rate is not None and rate.vp > most_vp[rate.goods]:
            cost, vp = rate
            for g in range(cost, GOODS_MAX + 1):
                if most_vp[g - cost] + vp > most_vp[g]:
                    most_vp[g] = most_vp[g - cost] + vp
            row = _quotes_for(tuple(most_vp))
        tables.append(row)
    return tuple(tables)


@lru_cache(maxsize=4096)
def _quotes_for(most_vp: tuple[int, ...]) -> tuple[Quote, ...]:
    """A trade spends the fewest goods that reach the same VP. Boards share few
    distinct tables, so they are cached (and their quotes shared)."""
    return tuple(Quote(most_vp.index(v), v) for v in most_vp)
