"""The settings screens: the list of the device's settings, your board's rates editor,
and "Discard changes?". Each is a title, its lines (the cursor's inverted, a window of
them that keeps the cursor in sight) and a hint of what ◀ OK ▶ do there.

A builder gives a ``Page``, the words only: ``screens`` (which imports this module, so
this one does not import it back) lays it out as it lays out the menu.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Rate
from ..table.view import DiscardView, RatesView, SettingsView
from .catalog import Catalog, language_names


@dataclass(frozen=True, slots=True)
class Page:
    title: str
    lines: tuple[str, ...]
    cursor: int | None  # None: plain lines, no cursor
    hint: str  # a catalog key


def settings_page(body: SettingsView, w: Catalog) -> Page:
    lines = tuple(w.t(f"screen.setting.{i}", value=_value(body, i, w)) for i in body.items)
    item = body.items[body.cursor]
    if item in ("rates", "back"):
        hint = f"hint.settings_{item}"
    else:  # as the options: ◀ on an item's first value goes back
        hint = "hint.setting_first" if body.first else "hint.setting"
    return Page(w.t("screen.settings"), lines, body.cursor, hint)


def rates_page(body: RatesView, w: Catalog) -> Page:
    lines = tuple(
        w.t("screen.rates_line", space=space, rate=_rate(rate, w))
        for space, rate in enumerate(body.rates)
    )
    last = body.space == len(body.rates) - 1
    return Page(w.t("screen.rates"), lines, body.space, "hint.rates_last" if last else "hint.rates")


def discard_page(body: DiscardView, w: Catalog) -> Page:
    return Page(
        w.t("screen.discard_rates"), (w.t("screen.discard_rates_text"),), None, "hint.confirm"
    )


BUILDERS = {SettingsView: settings_page, RatesView: rates_page, DiscardView: discard_page}


def _value(body: SettingsView, item: str, w: Catalog) -> object:
    if item == "language":
        return language_names().get(body.language, body.language)
    if item == "board":
        name = w.t(f"board.{body.board}") if body.board else w.t("board.custom")
        return name if body.verified else f"{name}?"
    if item == "sound":
        return w.t("screen.setting.on" if body.sound else "screen.setting.off")
    return getattr(body, item, "")  # target, volume, contrast; rates and back have none


def _rate(rate: Rate | None, w: Catalog) -> str:
    return w.t("screen.rates_none") if rate is None else str(rate)
