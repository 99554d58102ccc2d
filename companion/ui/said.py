"""What a screen says: the semantic model of one frame, in words, before any layout.

``say(view, words)`` (``say.py``) turns a public view into a ``Said``: its title, what
it shows under the title (``content``, one of the kinds below), the hint saying what
the host buttons do, a fact for the hint line's right (the round, how many seated) and
a notice over the bottom. Every word is already in the catalog's language; nothing is
measured or placed. Two readers lay it out:

- the OLED's layouter (``screens.py``) turns it into text, boxes, tracks and icons on a
  canvas of a given size, in the pixel fonts, choosing where a short form must stand
  in for a long one (``Both``) and a seat's label for its name (``Seat``);
- the phone page's JSON (``web/viewjson.py``) gives the same words to the page, at
  length: it has the room.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Rate


@dataclass(frozen=True, slots=True)
class Tally:
    """A line of amounts, each with the picture of what it counts ("P1 -3 [goods] +1 [vp]"):
    where even a line's short form is too wide, its numbers keep their units as icons;
    ``after``, words that follow them, longest first (the first that fits is said)."""

    seat: str
    amounts: tuple[tuple[str, str], ...]  # (a signed number, the icon of its unit)
    after: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Both:
    """A line said at length (whole: what a reader with room, the page, reads), and in
    short where the long form does not fit; ``least``, shorter still, for a column of
    half the width (None: the short form does); ``tally``, the same line as numbers and
    pictures, where there is one."""

    long: str
    short: str
    least: str | None = None
    tally: Tally | None = None

    @property
    def tight(self) -> str:
        """The shortest form."""
        return self.least or self.short


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as the screen names it: its label (P1, a bot's B3), and the pad's name
    that stands in its place where there is room (None: no name, or none shown here)."""

    label: str
    name: str | None = None

    @property
    def named(self) -> str:
        return self.name or self.label


@dataclass(frozen=True, slots=True)
class Mark:
    """One seat's mark: how many cards it has placed (never which); 1 or 0 for seated."""

    seat: Seat
    placed: int


@dataclass(frozen=True, slots=True)
class Row:
    """A board row ("vp", "goods" or "trader") with its marker on ``value``; ``moved``,
    the space the marker just left; on the trader row, ``pays``, the rate a Trader gets
    there (None: none), whether the board's rates are ``verified``, and ``rate``, that
    rate as the board prints it ("2:1", "-" for none, marked "~2:1" while unverified)."""

    name: str
    value: int
    moved: int | None = None
    pays: Rate | None = None
    verified: bool = True
    rate: str | None = None


# --- what a screen shows under its title ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Lines:
    """Plain lines of text."""

    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Choices:
    """Lines to choose from, the one under the cursor highlighted."""

    lines: tuple[str, ...]
    cursor: int


@dataclass(frozen=True, slots=True)
class Seated:
    """Joining: what to do, and a mark per pad (placed 1: seated)."""

    say: str
    marks: tuple[Mark, ...]


@dataclass(frozen=True, slots=True)
class Marks:
    """A mark per seat while cards are chosen; ``need``, the cards each seat plays."""

    marks: tuple[Mark, ...]
    need: int


@dataclass(frozen=True, slots=True)
class Countdown:
    """The countdown to the reveal: its words and the seconds left."""

    say: str
    seconds: int


@dataclass(frozen=True, slots=True)
class Board:
    """The board's three rows (VP, goods, trader), and under them the seats' marks or
    the countdown; ``legend``, what the unverified rates' mark means (short lines; none
    when the rates are verified)."""

    rows: tuple[Row, ...]
    below: Marks | Countdown
    legend: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PerSeat:
    """A line per seat (the plays revealed, or what a step gave each seat), under the
    row the step moved if it moved one; ``extra`` lines follow, whole."""

    lines: tuple[Both, ...]
    row: Row | None = None
    extra: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Discards:
    """The end of a round: who discards their played cards."""

    by: str  # "Cards discarded by"
    seats: str  # the seats, one after the other


@dataclass(frozen=True, slots=True)
class Offer:
    """A Trader's choice: the goods held (at length, and in short: the words before the
    goods' picture), the trader row, and the offer on screen and what it buys;
    ``buying``, whether it buys anything (the VP then matter most)."""

    held: str
    row: Row
    offer: str
    buys: str
    buying: bool
    held_short: str = ""
    # the goods held, and the offer with what it buys, spelled out (the page has room)
    spelled: tuple[str, str] = ("", "")

    @property
    def whole(self) -> str:
        """The offer and what it buys, on one line."""
        return f"{self.offer} {self.buys}"


@dataclass(frozen=True, slots=True)
class Score:
    seat: Seat
    vp: int
    goods: int
    cards: int  # in hand


@dataclass(frozen=True, slots=True)
class Scores:
    """A line per seat: its VP, goods and cards in hand."""

    lines: tuple[Score, ...]


@dataclass(frozen=True, slots=True)
class Place:
    """A seat's place (tied seats share one), its VP and what breaks a tie on VP: the
    goods left after the conversion, then the cards in hand. ``split``, the value that
    set it apart from a seat of the same VP ("goods", "cards"), none: no such seat."""

    place: int
    seat: Seat
    vp: int
    goods: int = 0
    cards: int = 0
    split: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ranking:
    """The final ranking, best first; ``title_short``, the title naming the winner by its
    label, where the title with its name does not fit; ``tie``, how a tie on VP was broken
    in words, None: no tie on VP was broken, and ``tie_short`` the same said shorter;
    ``cards``, whether the cards in hand broke one (else they do not matter, and are not
    shown)."""

    places: tuple[Place, ...]
    title_short: str
    tie: str | None = None
    cards: bool = False
    tie_short: str | None = None


Content = Lines | Choices | Seated | Board | PerSeat | Discards | Offer | Scores | Ranking


@dataclass(frozen=True, slots=True)
class Said:
    """Everything one screen says. ``title`` None: the screen has none (the board, the
    scores' columns are on top)."""

    title: str | None
    content: Content
    hint: str  # what the host buttons do here
    fact: str | None = None  # on the hint line's right where it fits: the round, a count
    notice: str | None = None  # a message over the bottom of the screen
    # The board as this screen stands (VP, goods, trader; empty: no game on the table).
    # The rows the content draws are these, so the OLED and the page cannot disagree.
    rows: tuple[Row, ...] = ()
    fact_short: str | None = None  # the fact where it does not fit whole (a moment's day)
