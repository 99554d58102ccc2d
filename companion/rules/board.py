"""Board sides: the rate printed on each trader space, and what a trade buys there.

A board is data (design §2): the engine accepts any table of 16 spaces, each ``None``
(no trade there) or a rate ``(goods, vp)``. On a space, a Trader may trade at that
space's rate or at any rate printed on the spaces below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from .errors import BoardError
from .tables import GOODS_MAX, ROW_MAX

SPACES = ROW_MAX + 1


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
    # _fronts[space]: the rates worth using there (none is both dearer and worth less).
    _fronts: tuple[tuple[Rate, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.rates) != SPACES:
            raise BoardError(f"a trader table has {SPACES} spaces (0..15), got {len(self.rates)}")
        object.__setattr__(self, "_fronts", _fronts(self.rates))

    @classmethod
    def from_rates(cls, rates: Sequence[object], name: str | None = None, verified: bool = True):
        """Build a board from ``[[goods, vp] | None, ...]`` as found in JSON, validating it."""
        if type(rates) not in (list, tuple):
            raise BoardError(f"trader_rates must be a list of {SPACES} entries, got {rates!r}")
        return cls(tuple([_parse_rate(i, r) for i, r in enumerate(rates)]), name, verified)

    def to_rates(self) -> list[list[int] | None]:
        """The table as JSON data: ``from_rates(b.to_rates()) == b``."""
        return [None if r is None else [r.goods, r.vp] for r in self.rates]

    def available(self, space: int) -> list[Rate]:
        """The distinct rates a Trader may use with the marker on ``space``, best first."""
        found = {r for r in self.rates[: space + 1] if r is not None}
        return sorted(found, key=lambda r: (-r.vp / r.goods, r.goods))

    def quote(self, space: int, offer: int) -> Quote:
        """The trade for "hand in up to ``offer`` goods" on ``space`` (design §2).

        The most VP those goods can buy at the available rates, mixing rates freely,
        and only the goods that VP needs.
        """
        if offer < 0:
            raise ValueError(f"a trade offer is a number of goods, got {offer}")
        return _best_trades(self._fronts[space])[min(offer, GOODS_MAX)]

    def offers(self, space: int, goods: int) -> list[Quote]:
        """Every trade worth making with ``goods`` goods on ``space``, cheapest first.

        One quote per reachable VP total, each at the fewest goods that buy it; the
        first is always the empty trade.
        """
        row = _best_trades(self._fronts[space])
        return sorted({row[g] for g in range(min(goods, GOODS_MAX) + 1)})

    def cheapest(self, space: int) -> int | None:
        """Fewest goods that buy anything on ``space``, or None if nothing can be bought."""
        rates = self.available(space)
        return min(r.goods for r in rates) if rates else None


def _parse_rate(space: int, raw: object) -> Rate | None:
    if raw is None:
        return None
    if type(raw) in (list, tuple, Rate) and len(raw) == 2:
        goods, vp = raw
        if type(goods) is int and type(vp) is int and goods > 0 and vp > 0:
            return Rate(goods, vp)
    raise BoardError(
        f"trader space {space}: expected null or [goods, vp] as two positive whole numbers, "
        f"got {raw!r}"
    )


def _fronts(rates: tuple[Rate | None, ...]) -> tuple[tuple[Rate, ...], ...]:
    """For each space, the rates usable there that no other usable rate beats.

    A rate is beaten by one that costs no more goods and buys at least as many VP;
    dropping beaten rates changes no quote and keeps the trade search small.
    """
    fronts = []
    front: list[Rate] = []
    for rate in rates:
        if rate is not None:
            if not (type(rate.goods) is int and type(rate.vp) is int and rate.goods > 0 < rate.vp):
                raise BoardError(
                    f"trader space {len(fronts)}: a rate is two positive whole "
                    f"numbers, got {rate!r}"
                )
            if not any(o.goods <= rate.goods and o.vp >= rate.vp for o in front):
                front = [o for o in front if not (rate.goods <= o.goods and rate.vp >= o.vp)]
                front.append(rate)
                front.sort()
        fronts.append(tuple(front))
    return tuple(fronts)


@lru_cache(maxsize=4096)
def _best_trades(rates: tuple[Rate, ...]) -> tuple[Quote, ...]:
    """``quotes[g]``: the best trade with up to g goods, for every g up to 15.

    Unbounded knapsack: most_vp[g] is the most VP that g goods buy; a trade spends the
    fewest goods that reach that same VP. Boards share few distinct sets of useful
    rates, so the tables are cached by that set.
    """
    most_vp = [0] * (GOODS_MAX + 1)
    for g in range(1, GOODS_MAX + 1):
        best = most_vp[g - 1]
        for cost, vp in rates:
            if cost <= g and most_vp[g - cost] + vp > best:
                best = most_vp[g - cost] + vp
        most_vp[g] = best
    return tuple(Quote(most_vp.index(most_vp[g]), most_vp[g]) for g in range(GOODS_MAX + 1))
