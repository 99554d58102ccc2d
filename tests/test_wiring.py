"""The wiring drawings and the hardware README's pin tables match the pin map the code reads.

``scripts/wiring.py`` draws them from ``companion/data/pins.toml``; a pin map changed
without running it again (``make hardware/wiring.svg``) fails here.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import load_script

from companion.app.config import BUS_PINS, defaults, hub_pins, pin_map, shipped_pins

ROOT = Path(__file__).parent.parent
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def wiring():
    return load_script("wiring")


def test_the_committed_files_are_what_the_script_makes_now(wiring):
    for path, text in wiring.outputs().items():
        assert path.read_text("utf-8") == text, (
            f"{path.relative_to(ROOT)} is out of date: run make hardware/wiring.svg"
        )


def test_check_changes_nothing_and_says_what_is_stale(wiring, tmp_path, monkeypatch, capsys):
    stale = tmp_path / "wiring.svg"
    stale.write_text("<svg/>", "utf-8")
    monkeypatch.setattr(wiring, "ROOT", tmp_path)
    monkeypatch.setattr(wiring, "outputs", lambda: {stale: "<svg>new</svg>"})
    assert wiring.main(["--check"]) == 1
    assert stale.read_text("utf-8") == "<svg/>"
    assert capsys.readouterr().err == "wiring.svg: out of date\n"
    assert wiring.main([]) == 0
    assert stale.read_text("utf-8") == "<svg>new</svg>"


def groups(svg: str, prefix: str) -> dict[int, list[str]]:
    """Each pin's group in a drawing: physical pin -> the texts in it, in order."""
    root = ET.fromstring(svg)
    found = {}
    for group in root.iter(f"{SVG}g"):
        ident = group.get("id", "")
        if ident.startswith(prefix):
            found[int(ident[len(prefix) :])] = [t.text for t in group.iter(f"{SVG}text")]
    return found


def test_the_pi_drawing_names_every_pin_of_the_map_on_its_header_pin(wiring):
    pins = groups(wiring.PI_SVG.read_text("utf-8"), "pin")
    assert sorted(pins) == list(range(1, 41))
    by_gpio = {int(texts[1][4:]): texts for texts in pins.values() if texts[1].startswith("GPIO")}
    data = pin_map()
    cards = wiring.cards()
    for seat, gpio in enumerate(data["rows"], 1):
        assert by_gpio[gpio][2] == f"P{seat} row"
    for card, gpio in enumerate(data["columns"], 1):
        assert by_gpio[gpio][2] == f"card {card} {cards[card - 1]}"
    assert by_gpio[data["buttons"]["left"]][2] == "◀ button"
    assert by_gpio[data["buttons"]["ok"]][2] == "OK button"
    assert by_gpio[data["buttons"]["right"]][2] == "▶ button"
    assert by_gpio[data["buzzer"]["pin"]][2].startswith("buzzer")
    assert by_gpio[data["display_reset"]][2] == "OLED RES (reset)"
    for gpio, line in BUS_PINS["i2c"].items():
        assert by_gpio[gpio][2].startswith(f"OLED {line}")
    for gpio, line in BUS_PINS["spi"].items():
        assert by_gpio[gpio][2] == f"free: SPI {line}"


def test_the_header_pins_are_the_pis_own(wiring):
    pins = groups(wiring.PI_SVG.read_text("utf-8"), "pin")
    # A few fixed facts of every 40-pin header, known apart from gpiozero's table.
    assert pins[1][:2] == ["1", "3V3"]
    assert pins[3][:2] == ["3", "GPIO2"]
    assert pins[10][:2] == ["10", "GPIO15"]
    assert pins[39][:2] == ["39", "GND"]
    assert pins[40][:2] == ["40", "GPIO21"]


def test_the_hub_drawing_names_every_hub_pin(wiring):
    pins = groups(wiring.HUB_SVG.read_text("utf-8"), "pico")
    assert sorted(pins) == list(range(1, 41))
    by_gp = {texts[1]: texts for texts in pins.values()}
    hub, cards = hub_pins(), wiring.cards()
    for seat, gp in enumerate(hub["rows"], 1):
        assert by_gp[f"GP{gp}"][2] == f"P{seat} row"
    for card, gp in enumerate(hub["columns"], 1):
        assert by_gp[f"GP{gp}"][2] == f"card {card} {cards[card - 1]}"
    assert pins[4][1] == "GP2" and pins[40][1] == "VBUS"  # the Pico's own pinout


def test_a_moved_pin_is_drawn_where_it_went(wiring):
    pins = shipped_pins()
    moved = dataclasses.replace(pins, rows=(pins.rows[1], pins.rows[0], *pins.rows[2:]))
    svg = wiring.pi_svg(moved, defaults().display, wiring.cards())
    assert svg != wiring.PI_SVG.read_text("utf-8")
    by_gpio = {int(t[1][4:]): t for t in groups(svg, "pin").values() if t[1].startswith("GPIO")}
    assert by_gpio[pins.rows[1]][2] == "P1 row"
    assert by_gpio[pins.rows[0]][2] == "P2 row"


def table(name: str) -> list[list[str]]:
    """The rows of the README's generated table ``name``, cells stripped, header left out."""
    text = (ROOT / "hardware" / "README.md").read_text("utf-8")
    block = re.search(rf"<!-- wiring\.py: {name} -->\n(.*?)\n<!-- /wiring\.py -->", text, re.S)
    assert block, f"hardware/README.md has no table {name}"
    lines = block[1].splitlines()[2:]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def test_the_readme_pad_table_is_the_pin_map(wiring):
    data, hub = pin_map(), hub_pins()
    rows = table("pads")
    assert len(rows) == len(data["rows"]) + len(data["columns"])
    header = {name: n for n, name in wiring.header().items()}
    lines = [*zip(data["rows"], hub["rows"], strict=True)]
    lines += [*zip(data["columns"], hub["columns"], strict=True)]
    for (what, gpio, pin, gp, pico, _plug), (want_gpio, want_gp) in zip(rows, lines, strict=True):
        assert int(gpio) == want_gpio, what
        assert int(pin) == header[f"GPIO{want_gpio}"], what
        assert gp == f"GP{want_gp}", what
        assert wiring.PICO[int(pico) - 1] == gp, what
    assert [r[5] for r in rows] == ["9"] * len(data["rows"]) + [str(k) for k in range(1, 9)]


def test_the_readme_host_table_is_the_pin_map(wiring):
    data = pin_map()
    rows = {what: gpio for what, gpio, _ in table("host")}
    assert rows["◀ button (other leg to ground)"] == str(data["buttons"]["left"])
    assert rows["OK button (other leg to ground)"] == str(data["buttons"]["ok"])
    assert rows["▶ button (other leg to ground)"] == str(data["buttons"]["right"])
    assert rows["buzzer, through a transistor"] == str(data["buzzer"]["pin"])
    for gpio, line in BUS_PINS["i2c"].items():
        assert rows[f"OLED {line} (I²C)"] == str(gpio)


def test_a_readme_without_a_block_is_refused(wiring):
    with pytest.raises(SystemExit, match=r"no block <!-- wiring\.py: pads -->"):
        wiring.readme("# Hardware\n", {"pads": "| table |"})


def test_the_pis_power_pins_say_what_goes_on_them(wiring):
    pins = groups(wiring.PI_SVG.read_text("utf-8"), "pin")
    header = wiring.header()
    three = [n for n, name in header.items() if name == "3V3"]
    assert pins[1][2] == "OLED VCC (3.3 V only)"
    assert [pins[n][2] for n in three if n != 1] == ["3.3 V: the 8 column pull-ups (10 kΩ)"]
    for n in (n for n, name in header.items() if name == "5V"):
        assert pins[n][2].startswith("5 V: the buzzer's +"), "the buzzer's supply, and no GPIO"
    assert any("OLED GND, DC, CS" in texts[-1] for texts in pins.values() if len(texts) > 2)


def test_the_pi_drawing_says_the_oled_dc_and_cs_go_to_ground(wiring):
    root = ET.fromstring(wiring.PI_SVG.read_text("utf-8"))
    notes = [t.text for t in root.iter(f"{SVG}text")]
    assert any(n.startswith("OLED on I²C: DC and CS to ground (address 0x3C)") for n in notes)
    assert any("VCC on 3.3 V only" in n for n in notes)


def test_the_hub_drawing_hangs_a_pullup_on_every_column_from_3v3_out(wiring):
    text = wiring.HUB_SVG.read_text("utf-8")
    pins = groups(text, "pico")
    assert pins[36][1:] == ["3V3(OUT)", "3.3 V: the 8 column pull-ups (10 kΩ)"]
    root = ET.fromstring(text)
    rail = root.find(f".//{SVG}polyline[@id='rail']")
    rail_y = {p.split(",")[1] for p in rail.get("points").split()}
    hub = hub_pins()
    for k, gp in enumerate(hub["columns"], 1):
        pullup = root.find(f".//{SVG}g[@id='pullup-{k}']")
        lead = pullup.find(f"{SVG}polyline").get("points").split()
        assert lead[0].split(",")[1] in rail_y, f"pull-up {k} hangs from the rail"
        words = [t.text for t in pullup.iter(f"{SVG}text")]
        assert words[1:] == [f"card {k}", f"GP{gp} · pin {wiring.pico_pin(gp)}"]
    assert root.find(f".//{SVG}g[@id='pullup-{len(hub['columns']) + 1}']") is None
    assert any(t.text == "3V3(OUT), pin 36" for t in root.iter(f"{SVG}text"))


def test_the_readme_host_table_says_where_the_pullups_and_the_buzzer_take_power(wiring):
    rows = {what: pin for what, _, pin in table("host")}
    header = wiring.header()
    assert header[int(rows["the 8 column pull-ups (3.3 V)"])] == "3V3"
    assert [header[int(n)] for n in rows["buzzer + (its supply, 5 V)"].split(" or ")] == [
        "5V",
        "5V",
    ]
    assert rows["OLED DC and CS (I²C mode)"].startswith("ground: ")
