"""The device's settings at the table: every item, the rates editor, and where they go."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from helpers import BOARDS, Driver

from companion.game.boards import offered_rates
from companion.game.settings import OWN, DeviceSettings
from companion.rules import Board, BoardError, Rate
from companion.table import FAST, Phase, new_flow, start
from companion.table.effects import SettingsChanged, Sound
from companion.table.events import HostKey
from companion.table.settings import SPACES, TARGETS, items, out_of_order
from companion.table.state import MENU_ITEMS
from companion.table.view import DiscardView, RatesView, SettingsView

LANGUAGES = ("en", "fr", "nl")
DEFAULTS = DeviceSettings()
OWN_RATES = Board.from_rates([None, [3, 1], [3, 1]] + [[2, 1]] * 5 + [[3, 2]] * 8).rates


def table(prefs: DeviceSettings = DEFAULTS, *, volume: bool = True) -> Driver:
    """A table before a game, its settings open (hold OK on the Join screen)."""
    flow = new_flow(BOARDS, FAST, prefs=prefs, languages=LANGUAGES)
    flow = dataclasses.replace(flow, settings=dataclasses.replace(flow.settings, volume=volume))
    driver = Driver(flow)
    driver.key(HostKey.OK, long=True)
    assert driver.view.phase is Phase.SETTINGS
    return driver


def go_to(driver: Driver, item: str) -> None:
    """OK on each item before ``item`` (OK goes on to the next item)."""
    for _ in range(items(driver.flow).index(item)):
        driver.ok()
    assert driver.view.body.items[driver.view.body.cursor] == item


def changes(driver: Driver) -> list[DeviceSettings]:
    return [e.settings for e in driver.effects if isinstance(e, SettingsChanged)]


ENDS = [  # item, a starting value, the presses of ▶ to its last value, that value
    ("language", {"language": "en"}, 2, "nl"),
    ("board", {"board": "standard"}, 1, "winter"),
    ("target", {"target": 5}, len(TARGETS) - 1, 950),
    ("sound", {"sound": False}, 1, True),
    ("volume", {"volume": 1}, 9, 10),
    ("contrast", {"contrast": 1}, 9, 10),
]


@pytest.mark.parametrize(("item", "start_at", "presses", "last"), ENDS)
def test_every_item_changes_and_is_refused_past_its_last_value(item, start_at, presses, last):
    driver = table(DeviceSettings(**start_at))
    go_to(driver, item)
    driver.effects.clear()
    for _ in range(presses):
        driver.key(HostKey.RIGHT)
    assert getattr(driver.flow.prefs, item) == last
    assert driver.view.body.last
    assert changes(driver)[-1] == driver.flow.prefs  # each change said at once
    assert len(changes(driver)) == presses
    driver.key(HostKey.RIGHT)  # past the last value: refused, nothing changes
    assert driver.beeps[-1] is Sound.REFUSED
    assert getattr(driver.flow.prefs, item) == last
    assert len(changes(driver)) == presses


@pytest.mark.parametrize(("item", "start_at", "presses", "last"), ENDS)
def test_left_below_the_first_value_goes_back_one_item(item, start_at, presses, last):
    driver = table(DeviceSettings(**start_at))
    go_to(driver, item)
    cursor = driver.view.body.cursor
    assert driver.view.body.first
    driver.key(HostKey.LEFT)
    assert driver.beeps[-1] is Sound.CLICK
    assert not changes(driver)
    if cursor == 0:  # the first item: out of the settings, back where they were opened
        assert driver.view.phase is Phase.JOIN
    else:
        assert driver.view.body.cursor == cursor - 1


def test_without_a_volume_the_item_is_not_offered():
    assert "volume" not in table(volume=False).view.body.items
    assert "volume" in table(volume=True).view.body.items


def test_the_target_offers_30_and_45_and_ones_own_in_a_few_presses():
    assert {30, 45, 100, 500, 950} <= set(TARGETS)
    driver = table(DeviceSettings(target=37))  # a config's own target is offered too
    go_to(driver, "target")
    driver.key(HostKey.RIGHT)
    assert driver.flow.prefs.target == 40
    driver.key(HostKey.LEFT)  # 37 was offered as the target in force; now 40 is
    assert driver.flow.prefs.target == 35


def test_the_language_reaches_the_view_at_once():
    driver = table()
    driver.key(HostKey.RIGHT)
    view = driver.view.body
    assert isinstance(view, SettingsView) and view.language == "fr"
    assert changes(driver) == [DeviceSettings(language="fr")]


def test_board_and_target_become_the_next_games_setup():
    driver = table()
    go_to(driver, "board")
    driver.key(HostKey.RIGHT)  # winter
    driver.ok()
    driver.key(HostKey.RIGHT)  # 35
    driver.key(HostKey.RIGHT)  # 40
    driver.key(HostKey.RIGHT)  # 45
    assert changes(driver)[-1] == DeviceSettings(board="winter", target=45)
    go_to_back(driver)
    assert driver.view.phase is Phase.JOIN
    driver.press(0, 1)
    driver.press(1, 1)
    driver.ok()
    assert (driver.view.body.board, driver.view.body.target) == ("winter", 45)


def go_to_back(driver: Driver) -> None:
    """On to the last item and OK on it: ▶ passes the items OK opens (*Your board*...)."""
    body = driver.view.body
    while body.items[body.cursor] != "back":
        no_value = body.items[body.cursor] in ("rates", "names", "history")
        driver.key(HostKey.RIGHT if no_value else HostKey.OK)
        body = driver.view.body
    driver.key(HostKey.RIGHT)  # nothing past the last item
    assert driver.beeps[-1] is Sound.REFUSED
    driver.ok()


def test_the_settings_are_in_the_menu_and_go_back_to_it():
    driver = Driver(*start(new_flow(BOARDS, FAST), 3, BOARDS[0], 30, 0.0))
    driver.menu("settings")
    driver.ok()
    assert driver.view.phase is Phase.SETTINGS
    assert driver.view.board is None  # the settings use the whole screen
    driver.key(HostKey.LEFT)  # ◀ on the first item's first value: back to the menu
    assert driver.view.phase is Phase.MENU
    assert driver.view.body.cursor == MENU_ITEMS.index("settings")


def test_hold_ok_after_a_game_opens_the_settings():
    driver = Driver(*start(new_flow(BOARDS, FAST), 2, BOARDS[0], 30, 0.0))
    driver.menu("end")
    driver.ok()
    driver.ok()
    assert driver.view.phase is Phase.OVER
    driver.key(HostKey.OK, long=True)
    assert driver.view.phase is Phase.SETTINGS


# --- your own board's rates -------------------------------------------------------------


def editor(prefs: DeviceSettings = DEFAULTS) -> Driver:
    driver = table(prefs)
    go_to(driver, "rates")
    driver.ok()
    assert isinstance(driver.view.body, RatesView)
    return driver


def enter(driver: Driver, table_: tuple[Rate | None, ...]) -> None:
    """Change every space with OK, ◀ ▶ (from "none" up to the wanted rate) and OK, then
    keep the table with OK on *Keep*."""
    for space, wanted in enumerate(table_):
        assert driver.view.body.space == space and not driver.view.body.editing
        set_rate(driver, wanted)
    driver.ok()  # on Keep


def set_rate(driver: Driver, wanted: Rate | None) -> None:
    """Change the space under the cursor to ``wanted``; OK sets it and moves on a line."""
    driver.ok()
    assert driver.view.body.editing
    space = driver.view.body.space
    while not driver.view.body.first:
        driver.key(HostKey.LEFT)
    while driver.view.body.rates[space] != wanted:
        driver.key(HostKey.RIGHT)
    driver.ok()


def test_the_editor_opens_on_the_chosen_sides_rates():
    assert editor().view.body.rates == BOARDS[0].rates
    mine = DeviceSettings(board=OWN, own_rates=OWN_RATES)
    assert editor(mine).view.body.rates == OWN_RATES


def test_a_good_table_becomes_the_next_games_board_verified():
    driver = editor()
    enter(driver, OWN_RATES)
    assert driver.view.phase is Phase.SETTINGS
    assert driver.beeps[-1] is Sound.CLICK
    saved = changes(driver)[-1]
    assert (saved.board, saved.own_rates) == (OWN, OWN_RATES)
    assert driver.view.body.board is None and driver.view.body.verified
    go_to_back(driver)
    for seat in (0, 1):
        driver.press(seat, 1)
    for _ in range(5):  # Options, the board, the target, no bot, Start
        driver.ok()
    board = driver.flow.game.state.setup.board
    assert board.rates == OWN_RATES and board.verified
    assert driver.view.board.verified


def test_a_table_out_of_order_is_refused_naming_the_space():
    driver = editor()
    wrong = list(OWN_RATES)
    wrong[9] = Rate(2, 1)  # pays less per good than 3:2 on space 8 below it
    enter(driver, tuple(wrong))
    assert driver.beeps[-1] is Sound.REFUSED
    assert driver.view.phase is Phase.RATES and driver.view.body.space == 9
    assert driver.view.body.editing  # the space named is being changed
    assert driver.view.notice == ("screen.rates_wrong", (("space", 9), ("below", 8)))
    assert not changes(driver)
    driver.key(HostKey.RIGHT)  # 5:3 is still less than 3:2
    driver.key(HostKey.RIGHT)  # 3:2
    driver.ok()  # set: on to space 10
    for _ in range(SPACES - 10):  # on to Keep, every rate as it is
        driver.key(HostKey.RIGHT)
    driver.ok()
    assert driver.view.phase is Phase.SETTINGS
    assert changes(driver)[-1].own_rates == OWN_RATES


def test_out_of_order_names_the_pair_the_rules_name():
    table_ = (None, Rate(3, 2), None, Rate(3, 1), *[None] * 12)
    with pytest.raises(BoardError, match=r"trader space 1: 3:2 .* on space 3"):
        Board(table_)
    assert out_of_order(table_) == (1, 3)


def test_each_space_steps_through_none_and_the_offered_rates():
    driver = editor()
    driver.ok()  # change space 0
    driver.key(HostKey.RIGHT)  # none -> the worst rate offered
    assert driver.view.body.rates[0] == Rate(6, 1)
    driver.key(HostKey.LEFT)
    assert driver.view.body.rates[0] is None and driver.view.body.first
    driver.key(HostKey.LEFT)  # below "none": refused, still on space 0
    assert driver.beeps[-1] is Sound.REFUSED
    assert driver.view.phase is Phase.RATES and driver.view.body.space == 0
    for _ in range(20):
        driver.key(HostKey.RIGHT)
    assert driver.view.body.last and driver.beeps[-1] is Sound.REFUSED


def test_walking_back_changes_no_rate():
    driver = editor()
    mine = (Rate(6, 1), Rate(4, 1), Rate(3, 1), Rate(2, 1))
    for rate in mine:
        set_rate(driver, rate)
    assert driver.view.body.space == 4
    for space in (3, 2, 1, 0):
        driver.key(HostKey.LEFT)
        assert driver.view.body.space == space and not driver.view.body.editing
        assert driver.view.body.rates[:4] == mine
    for _ in range(4):  # and forward again past them
        driver.key(HostKey.RIGHT)
    assert driver.view.body.rates == (*mine, *BOARDS[0].rates[4:])
    for _ in range(5):  # back past space 0: the changes would be lost, so it asks
        driver.key(HostKey.LEFT)
    assert isinstance(driver.view.body, DiscardView)
    driver.key(HostKey.LEFT)  # no: back to the editor, every rate as it was set
    assert driver.view.body.rates[:4] == mine


def test_right_past_keep_is_refused():
    driver = editor()
    for _ in range(SPACES):
        driver.key(HostKey.RIGHT)
    assert driver.view.body.space == SPACES
    driver.key(HostKey.RIGHT)
    assert driver.beeps[-1] is Sound.REFUSED and driver.view.body.space == SPACES
    driver.ok()  # keeps the table it opened with, as your own board
    assert changes(driver)[-1].own_rates == BOARDS[0].rates


def test_leaving_unchanged_goes_back_at_once():
    driver = editor()
    driver.key(HostKey.LEFT)  # on space 0: leaves
    assert driver.view.phase is Phase.SETTINGS


def test_leaving_with_changes_asks_first():
    driver = editor()
    driver.key(HostKey.RIGHT)
    set_rate(driver, None)  # space 1: 3:1 -> none, and on to space 2
    for _ in range(3):  # back to space 1, 0, and out: ask first
        driver.key(HostKey.LEFT)
    assert isinstance(driver.view.body, DiscardView)
    driver.key(HostKey.RIGHT)  # no: back to the editor, the changes kept
    assert driver.view.body.space == 0 and driver.view.body.rates[1] is None
    driver.key(HostKey.LEFT)
    driver.ok()  # yes: discarded
    assert driver.view.phase is Phase.SETTINGS
    assert not changes(driver)
    driver.ok()
    assert driver.view.body.rates == BOARDS[0].rates  # opened afresh


def test_a_game_on_the_table_keeps_its_board():
    driver = Driver(*start(new_flow(BOARDS, FAST), 2, BOARDS[0], 30, 0.0))
    driver.menu("settings")
    driver.ok()
    go_to(driver, "board")
    driver.key(HostKey.RIGHT)
    assert driver.flow.prefs.board == "winter"
    go_to_back(driver)
    assert driver.view.phase is Phase.MENU
    assert driver.flow.game.state.setup.board == BOARDS[0]
    assert driver.flow.board == BOARDS[1]  # the next game's


def test_the_offered_rates_are_valid_and_worst_first():
    offered = offered_rates()
    assert len(set(offered)) == len(offered) >= 10
    Board((None, *offered[:15]))  # in order up the board: the rules accept them as a table
    assert all(a.vp * b.goods < b.vp * a.goods for a, b in itertools.pairwise(offered))
    assert {Rate(3, 1), Rate(2, 1), Rate(3, 2), Rate(1, 1)} <= set(offered)


def test_a_rate_from_a_board_file_is_offered_on_its_space():
    rates = list(OWN_RATES)
    rates[15] = Rate(10, 7)  # not in the list
    driver = editor(DeviceSettings(board=OWN, own_rates=tuple(rates)))
    for _ in range(15):
        driver.key(HostKey.RIGHT)
    driver.ok()
    driver.key(HostKey.RIGHT)
    driver.key(HostKey.LEFT)
    assert driver.view.body.rates[15] == Rate(10, 7)
