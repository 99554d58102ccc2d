"""The settings screens: the list of the device's settings, your board's rates editor,
and "Discard changes?". Each is a title, the items with the cursor, and a one-line hint
of what ◀ OK ▶ do there; a list longer than the screen scrolls with the cursor.

A builder gives the fields of ``screens.Screen`` (``screens`` imports this module, so
this one does not import it back): ``Screen(**fields)`` is the frame."""

from __future__ import annotations

from ..rules import Rate
from ..table.view import DiscardView, RatesView, SettingsView
from .catalog import Catalog, language_names

Fields = dict[str, object]
ROOM = 5  # list lines between the title and the hint
RATE_TABS = (2, 64)  # the space, its rate


def settings_screen(body: SettingsView, w: Catalog) -> Fields:
    lines = [w.t(f"screen.setting.{item}", value=_value(body, item, w)) for item in body.items]
    first, cursor = _window(len(lines), body.cursor)
    item = body.items[body.cursor]
    hint = item if item in ("rates", "back") else "value"
    return dict(
        title=w.t("screen.settings"),
        lines=tuple((line,) for line in lines[first : first + ROOM]),
        cursor=cursor,
        footer=w.t(f"screen.settings_hint.{hint}"),
    )


def rates_screen(body: RatesView, w: Catalog) -> Fields:
    spaces = [
        (w.t("screen.rates_space", space=space), _rate(rate, w))
        for space, rate in enumerate(body.rates)
    ]
    first, cursor = _window(len(spaces), body.space)
    last = body.space == len(body.rates) - 1
    return dict(
        title=w.t("screen.rates"),
        lines=tuple(spaces[first : first + ROOM]),
        cursor=cursor,
        footer=w.t("screen.rates_hint_last" if last else "screen.rates_hint"),
        tabs=RATE_TABS,
    )


def discard_screen(body: DiscardView, w: Catalog) -> Fields:
    return dict(
        title=w.t("screen.discard_rates"),
        lines=((w.t("screen.discard_rates_text"),),),
        footer=w.t("screen.discard_rates_keys"),
    )


BUILDERS = {SettingsView: settings_screen, RatesView: rates_screen, DiscardView: discard_screen}


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


def _window(length: int, cursor: int) -> tuple[int, int]:
    """The first line shown, keeping the cursor mid-screen where it can, and the
    cursor's line on screen."""
    first = max(0, min(cursor - ROOM // 2, length - ROOM))
    return first, cursor - first
