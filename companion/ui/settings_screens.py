"""The settings screens: the list of the device's settings, your board's rates editor,
"Discard changes?", the pads' names and the history. Each is a title, its lines (the
cursor's inverted, a window of them that keeps the cursor in sight) and a hint of what
◀ OK ▶ do there.

A builder gives a ``Page``, the words only (``said.Lines`` or ``said.Choices`` under
the title): ``say`` (which imports this module, so this one does not import it back)
makes it what the screen says, and the layouter lays it out as it lays out the menu.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game.names import PastGame, Tally
from ..rules import Rate
from ..table.names import DEL, END, NEW, NONE
from ..table.view import DiscardView, HistoryView, NamesView, NameView, RatesView, SettingsView
from .catalog import Catalog, language_names
from .said import Choices, Lines


@dataclass(frozen=True, slots=True)
class Page:
    title: str
    content: Lines | Choices  # plain lines, or lines with a cursor
    hint: str  # a catalog key


def _page(title: str, lines: tuple[str, ...], cursor: int | None, hint: str) -> Page:
    return Page(title, Lines(lines) if cursor is None else Choices(lines, cursor), hint)


def settings_page(body: SettingsView, w: Catalog) -> Page:
    lines = tuple(w.t(f"screen.setting.{i}", value=_value(body, i, w)) for i in body.items)
    item = body.items[body.cursor]
    if item in ("rates", "names", "history"):  # no value: OK opens them
        hint = "hint.settings_rates"
    elif item == "back":
        hint = "hint.settings_back"
    else:  # as the options: ◀ on an item's first value goes back
        hint = "hint.setting_first" if body.first else "hint.setting"
    return _page(w.t("screen.settings"), lines, body.cursor, hint)


def rates_page(body: RatesView, w: Catalog) -> Page:
    """A line per space, the one being changed with ◀ ▶ around its rate, then *Keep*."""
    lines = tuple(_rate_line(body, space, rate, w) for space, rate in enumerate(body.rates))
    if body.editing:
        hint = "hint.rates_edit"
    else:
        hint = "hint.rates_keep" if body.space == len(body.rates) else "hint.rates"
    return _page(w.t("screen.rates"), (*lines, w.t("screen.rates_keep")), body.space, hint)


def _rate_line(body: RatesView, space: int, rate: Rate | None, w: Catalog) -> str:
    key = "screen.rates_editing" if body.editing and space == body.space else "screen.rates_line"
    return w.t(key, space=space, rate=_rate(rate, w))


def discard_page(body: DiscardView, w: Catalog) -> Page:
    lines = (w.t("screen.discard_rates_text"),)
    return _page(w.t("screen.discard_rates"), lines, None, "hint.confirm")


def names_page(body: NamesView, w: Catalog) -> Page:
    lines = tuple(
        w.t("screen.names_line", seat=w.seat(pad), name=name or w.t("screen.name_none"))
        for pad, name in enumerate(body.names)
    )
    return _page(w.t("screen.names"), lines, body.cursor, "hint.names")


def name_page(body: NameView, w: Catalog) -> Page:
    """The choices (recent names first), or the letters spelled and the wheel's letter."""
    title = w.t("screen.name_for", seat=w.seat(body.pad))
    if body.spelled is None:
        words = {NEW: w.t("screen.name_new"), NONE: w.t("screen.name_none")}
        lines = tuple(words.get(choice, choice) for choice in body.choices)
        return _page(title, lines, body.choice, "hint.name_choose")
    keys = {" ": "screen.name_space", DEL: "screen.name_del", END: "screen.name_end"}
    letter = w.t(keys[body.letter]) if body.letter in keys else body.letter
    lines = (f"{body.spelled}_", w.t("screen.name_letter", letter=letter))
    return _page(title, lines, 1, "hint.name_spell")


def history_page(body: HistoryView, w: Catalog) -> Page:
    """Wins per person, or the last games: a line each, the page's number in the title.
    No wins to show says why: no game yet, or no finished game with a named pad."""
    title = w.t(f"screen.history_{body.kind}", page=body.page + 1, pages=body.pages)
    if body.kind == "wins":
        wins = tuple(_win(t, w) for t in body.lines if isinstance(t, Tally))
        empty = w.t("screen.history_no_names" if body.played else "screen.history_empty")
        return _page(title, wins or (empty,), None, "hint.history")
    games = tuple(_past(g, w) for g in body.lines if isinstance(g, PastGame))
    return _page(title, games, None, "hint.history")


def _win(tally: Tally, w: Catalog) -> str:
    bot = tally.bot and w.t("screen.history_bot", strength=w.t(f"bot.{tally.bot}"))
    who = bot or tally.name
    return w.t("screen.history_win", who=who, wins=tally.wins, games=tally.games)


def _past(game: PastGame, w: Catalog) -> str:
    when = {"date": w.date(game.day, game.month)}
    if game.seat is None:  # abandoned: no winner
        return w.t("screen.history_abandoned", **when)
    shared = game.shared
    who = w.t("screen.history_shared") if shared else w.who(game.seat, game.winner, game.bot)
    return w.t("screen.history_game", who=who, vp=game.vp, **when)


Body = SettingsView | RatesView | DiscardView | NamesView | NameView | HistoryView


def page(body: Body, w: Catalog) -> Page:
    """The page for a settings screen's view."""
    if isinstance(body, SettingsView):
        return settings_page(body, w)
    if isinstance(body, RatesView):
        return rates_page(body, w)
    if isinstance(body, DiscardView):
        return discard_page(body, w)
    if isinstance(body, NamesView):
        return names_page(body, w)
    if isinstance(body, NameView):
        return name_page(body, w)
    return history_page(body, w)


def board_name(name: str, verified: bool, w: Catalog) -> str:
    """A board's name, with the unverified rates' mark."""
    return name if verified else w.t("board.unsure_name", name=name)


def _value(body: SettingsView, item: str, w: Catalog) -> object:
    if item == "language":
        return language_names().get(body.language, body.language)
    if item == "board":
        name = w.t(f"board.{body.board}") if body.board else w.t("board.custom")
        return board_name(name, body.verified, w)
    if item == "sound":
        return w.t("screen.setting.on" if body.sound else "screen.setting.off")
    return getattr(body, item, "")  # target, volume, contrast; rates and back have none


def _rate(rate: Rate | None, w: Catalog) -> str:
    return w.t("screen.rates_none") if rate is None else str(rate)
