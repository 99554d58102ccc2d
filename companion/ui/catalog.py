"""The message catalog: every word a user reads comes from ``locale/<lang>.json``.

A ``Catalog`` is the words of one language. Code that shows words takes one, instead
of a language code threaded through every call.
"""

from __future__ import annotations

import copy
import json
import string
from datetime import datetime
from functools import cache
from importlib import resources

DEFAULT = "en"
# One file per language, <code>.json: adding a language is adding a file here.
LOCALE = resources.files(__package__).joinpath("locale")


class UnknownLanguage(LookupError):
    """No catalog for that language code."""


def languages() -> list[str]:
    """The language codes shipped, e.g. ``["en", "fr", "nl"]``."""
    return sorted(p.name[:-5] for p in LOCALE.iterdir() if p.name.endswith(".json"))


def language_names() -> dict[str, str]:
    """Each language's code and its name in itself (``{"nl": "Nederlands", ...}``): a
    menu of languages offers each in its own words, so any reader finds theirs."""
    return {code: catalog(code).t("language") for code in languages()}


class _Forms(string.Formatter):
    """``{n:card|cards}`` is the word for the count ``n``: its first form when the
    language's ``grammar.singular`` lists the count (French: 0 and 1), else the second.
    Grammar stays in the catalog, so no language's plural rule is written in code."""

    def __init__(self, singular: frozenset[int]):
        self.singular = singular

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" not in format_spec:
            return str(super().format_field(value, format_spec))
        one, other = format_spec.split("|", 1)
        return one if isinstance(value, int) and abs(value) in self.singular else other


ABBR = "abbr."  # the abbreviation table: "abbr.<word>" is the one short form of <word>


class Catalog:
    """The words of one language; a missing translation falls back to English.

    A word that must be shortened where room is scarce has ONE abbreviation, in the
    catalog's table: ``"abbr.goods": "gd"``. A message says it as ``{abbr[goods]}``, never
    by spelling a short form of its own, so a word is never abbreviated two ways. The
    cards' short forms (``card.short.<n>``) belong to the same table (``abbreviations``)."""

    def __init__(self, lang: str, messages: dict[str, str]):
        self.lang = lang
        self.messages = messages
        self.bots: tuple[bool, ...] = ()  # the seats a bot plays (``with_bots``)
        counts = messages.get("grammar.singular", "1").split()
        self._forms = _Forms(frozenset(int(n) for n in counts))
        self.abbr = {k[len(ABBR) :]: v for k, v in messages.items() if k.startswith(ABBR)}

    def t(self, key: str, /, **values: object) -> str:
        """The message ``key`` with ``values`` filled in (and the abbreviations, as
        ``{abbr[word]}``)."""
        message = self.messages[key]
        if "|" in message:  # a word with a form per count: rare, so the rest stays fast
            return self._forms.format(message, abbr=self.abbr, **values)
        return message.format(abbr=self.abbr, **values)

    def abbreviations(self) -> dict[str, str]:
        """Every abbreviation of this language, keyed by the message of the word it
        shortens: ``{"goods": "gd", "card.7": "Trad", ...}``."""
        cards = {f"card.{c}": self.short_card(c) for c in range(1, 9)}
        return {**self.abbr, **cards}

    def card(self, card: int) -> str:
        return self.messages[f"card.{card}"]

    def short_card(self, card: int) -> str:
        return self.messages[f"card.short.{card}"]

    def cut_card(self, card: int) -> str:
        """A card's name where it must be cut: its one short form, and its number beside
        it (the number printed on the card), so a cut name is never all there is."""
        return self.t("card.cut", n=card, short=self.short_card(card))

    def date(self, day: int, month: int) -> str:
        """A day as this language writes it ("28 Nov", "28 nov", "28 nov."): the one form
        of every screen and the page, never a number that reads as another day."""
        months = self.messages["date.months"].split()
        return self.t("date.day", day=day, month=months[month - 1])

    def moment(self, when: str) -> str:
        """A moment (ISO 8601, to the minute at least) as this language writes it: the
        day as ``date`` does, then the time ("28 Nov 20:15")."""
        at = datetime.fromisoformat(when)
        return self.t("date.moment", date=self.date(at.day, at.month), time=f"{at:%H:%M}")

    def seat(self, seat: int) -> str:
        """Seats are 0-based in data and P1..P6 to people; a bot's seat is named a bot's."""
        if seat < len(self.bots) and self.bots[seat]:
            return self.t("seat.bot", n=seat + 1)
        return self.t("seat", n=seat + 1)

    def who(self, seat: int, name: str | None = None, bot: str | None = None) -> str:
        """A seat as the history names it: a bot by its strength ("Bot (strong)", never
        mixed with a person), a person by name, else the seat's label."""
        if bot:
            return self.t("history.bot", strength=self.t(f"bot.{bot}"))
        return name or self.seat(seat)

    def unnamed(self, seat: int, date: str) -> str:
        """An unnamed seat as the history's stats name it: the seat of one game (its
        date, ISO 8601, to the minute), never the same person as another game's."""
        return self.t("history.unnamed", seat=self.seat(seat), date=date[:16].replace("T", " "))

    def with_bots(self, bots: tuple[bool, ...]) -> Catalog:
        """These words naming the seats ``bots`` marks as bots' (``catalog()`` is shared:
        a copy, never changed in place)."""
        if not any(bots):
            return self
        other = copy.copy(self)
        other.bots = bots
        return other


@cache
def catalog(lang: str = DEFAULT) -> Catalog:
    if lang not in languages():
        raise UnknownLanguage(f"no language {lang!r} (known: {', '.join(languages())})")
    path = LOCALE.joinpath(f"{lang}.json")
    messages = json.loads(path.read_text("utf-8"))
    if lang != DEFAULT:
        messages = {**catalog(DEFAULT).messages, **messages}
    return Catalog(lang, messages)
