"""The page's own parts: its icon, what it offers of the settings (a volume only where
the buzzer has one), and its words spelled out where the display shortens them."""

from __future__ import annotations

import importlib.util
import io
import json
import re
import sys
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import pytest
from devices import open_table
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image
from test_screens import SHOTS

from companion.app.effective import effective
from companion.game.settings import DeviceSettings
from companion.sim.panel import fake_device
from companion.ui.catalog import catalog, languages
from companion.web.server import Table, WebServer
from companion.web.viewjson import view_data

ROOT = Path(__file__).resolve().parent.parent


def load_script():
    spec = importlib.util.spec_from_file_location("make_icon", ROOT / "scripts/make_icon.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def serve(tmp_path, volume: bool) -> WebServer:
    table = Table(lambda event: None, DeviceSettings, tuple(languages()), tmp_path, volume)
    return WebServer(table, "127.0.0.1", 0)


def get(server: WebServer, path: str) -> tuple[str, bytes]:
    url = f"http://127.0.0.1:{server.address[1]}{path}"
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.headers["Content-Type"], answer.read()


def test_the_page_has_an_icon_drawn_from_the_display_s_star(tmp_path):
    make = load_script()
    with serve(tmp_path, True) as server:
        kind, icon = get(server, "/favicon.ico")
        page = get(server, "/")[1].decode()
    assert kind == "image/x-icon"
    assert '<link rel="icon" href="/favicon.ico"' in page
    shown = Image.open(io.BytesIO(icon))
    assert shown.format == "ICO" and shown.info["sizes"] == {(s, s) for s in make.SIZES}
    for size in make.SIZES:  # the committed file is what the script draws
        shown.size = (size, size)
        drawn = make.draw(size)
        assert shown.convert("RGBA").tobytes() == drawn.tobytes(), size
        assert drawn.getpixel((size // 2, size // 2)) == make.GOLD  # the star's middle


@pytest.mark.parametrize("volume", [True, False])
def test_the_page_is_told_whether_the_table_has_a_volume(tmp_path, volume):
    with serve(tmp_path, volume) as server:
        assert json.loads(get(server, "/api/settings")[1])["volume"] is volume


@pytest.mark.parametrize(
    ("sound", "volume"),
    # no buzzer here has a volume that acts (buttons.PASSIVE_DUTY): none offers one
    [('buzzer = "passive"', False), ('buzzer = "active"', False), ("", False)],
)
def test_the_config_says_of_the_volume_what_the_opened_buzzer_says(tmp_path, sound, volume):
    """The page offers a volume by the config (``Pins.has_volume``), the device's menu by
    the buzzer it opened (``Beeper.has_volume``): they must agree."""
    path = tmp_path / "companion.toml"
    path.write_text(f'[sound]\n{sound}\n[paths]\nstate_dir = "."\n')
    found = effective(path, report=lambda message: None)
    factory = MockFactory(pin_class=MockPWMPin)
    try:
        with ExitStack() as stack:
            display = lambda *a, **k: fake_device("ssd1309")[0]  # noqa: E731
            table = open_table(stack, found, print, open_display=display, factory=factory)
            assert table.beeper.has_volume is found.config.pins.has_volume is volume
    finally:
        factory.reset()


def test_a_table_without_a_buzzer_offers_no_volume_either():
    from companion.app.config import Pins

    assert not Pins((), (), {}, buzzer=None, buzzer_kind="passive").has_volume


# The display's short forms of a word (for goods), which a phone has the room to spell.
SHORT = {"en": (), "fr": ("mar.", "march.", " m."), "nl": ()}


@pytest.mark.parametrize("lang", languages())
def test_the_page_spells_out_the_goods_the_display_shortens(lang):
    words = catalog(lang)
    for name, view in SHOTS.items():
        for line in view_data(view, words)["lines"]:
            assert not any(short in line for short in SHORT[lang]), (name, line)
            assert not re.search(r"\b([02-9]|\d\d+) goed\b", line), (name, line)  # goederen


def test_the_goods_on_the_page_read_in_full_and_counted():
    def lines(name: str, lang: str) -> list[str]:
        return view_data(SHOTS[name], catalog(lang))["lines"]

    assert lines("step-bonus", "fr")[0] == "J2 +4 marchandises"
    assert lines("step-bonus", "nl")[0] == "S2 +4 goederen"
    assert lines("step-trade", "fr") == ["J1 -2 marchandises +1 PV"]
    assert lines("trade", "fr") == ["possède 12 marchandises", "échanger 12 marchandises → +6 PV"]
    assert lines("trade", "nl") == ["heeft 12 goederen", "ruil 12 goederen → +6 OP"]
    assert lines("trade-none", "en") == ["holds 12 goods", "no trade (keeps 12 goods)"]
    # where the display has no room for the word, it draws the goods' picture after
    # "possède 12" ("a 12" read as "à 12")
    assert "possède 12" in [t.text for t in _texts("trade", "fr")]


def _texts(name: str, lang: str):
    from companion.ui.screens import Text, screen

    return [i for i in screen(SHOTS[name], catalog(lang)).items if isinstance(i, Text)]
