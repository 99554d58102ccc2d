"""The maker's pack matches its data: the pad drawing, the DE-9 pinouts, the label sheets,
the parts list and the README's tables.

``scripts/maker.py`` draws them from ``hardware/maker.toml``, the pin map, the catalog and
``hardware/bom.csv``; data changed without running it again (``make hardware/pad.svg``)
fails here. The connectors' numbering is checked against facts of the DE-9 itself, known
apart from the script.
"""

from __future__ import annotations

import csv
import itertools
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import load_script

from companion.app.config import hub_pins, pin_map
from companion.ui.catalog import catalog, languages

ROOT = Path(__file__).parent.parent
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def maker():
    return load_script("maker")


def test_the_committed_files_are_what_the_script_makes_now(maker):
    for path, text in maker.outputs().items():
        assert path.read_text("utf-8") == text, (
            f"{path.relative_to(ROOT)} is out of date: run make hardware/pad.svg"
        )


def test_check_changes_nothing_and_says_what_is_stale(maker, tmp_path, monkeypatch, capsys):
    stale = tmp_path / "pad.svg"
    stale.write_text("<svg/>", "utf-8")
    monkeypatch.setattr(maker, "ROOT", tmp_path)
    monkeypatch.setattr(maker, "outputs", lambda: {stale: "<svg>new</svg>"})
    assert maker.main(["--check"]) == 1
    assert stale.read_text("utf-8") == "<svg/>"
    assert capsys.readouterr().err == "pad.svg: out of date\n"
    assert maker.main([]) == 0
    assert stale.read_text("utf-8") == "<svg>new</svg>"


def svg(name: str) -> ET.Element:
    return ET.fromstring((ROOT / "hardware" / name).read_text("utf-8"))


def group(root: ET.Element, ident: str) -> ET.Element:
    found = root.find(f".//{SVG}g[@id='{ident}']")
    assert found is not None, f"no group {ident}"
    return found


def texts(element: ET.Element) -> list[str]:
    return [t.text for t in element.iter(f"{SVG}text")]


def centre(root: ET.Element, ident: str) -> tuple[float, float]:
    circle = group(root, ident).find(f"{SVG}circle")
    return float(circle.get("cx")), float(circle.get("cy"))


def points(element: ET.Element) -> list[tuple[float, float]]:
    pairs = element.get("points").split()
    return [(float(x), float(y)) for x, y in (p.split(",") for p in pairs)]


# ---------------------------------------------------------------------------
# The DE-9: facts of the connector, not of the script. With the wide row on top, a male
# plug seen from the front (the pins toward you) has pin 1 at the top left, 1..5 left to
# right and 6..9 below; a female socket's front is its mirror. Each one's solder side is
# the mirror of its own front.

FIRST_CORNER = {  # where pin 1 and pin 6 sit in each view
    ("male", "front"): "left",
    ("female", "front"): "right",
    ("male", "solder"): "right",
    ("female", "solder"): "left",
}


def assert_numbered(pins: dict[int, tuple[float, float]], corner: str) -> None:
    top, bottom = [pins[n] for n in range(1, 6)], [pins[n] for n in range(6, 10)]
    assert len({y for _, y in top}) == 1 and len({y for _, y in bottom}) == 1
    assert top[0][1] < bottom[0][1], "the wide row (pins 1..5) is on top"
    step = 1 if corner == "left" else -1
    for row in (top, bottom):
        xs = [x for x, _ in row]
        assert xs == sorted(xs, reverse=step < 0), f"pin 1 and 6 to the {corner}"
    # the narrow row sits between the wide row's pins
    assert min(x for x, _ in top) < min(x for x, _ in bottom)
    assert max(x for x, _ in bottom) < max(x for x, _ in top)


@pytest.mark.parametrize(("gender", "side"), list(FIRST_CORNER))
def test_the_de9_drawing_numbers_each_view_as_the_connector_is(gender, side):
    root = svg("de9.svg")
    pins = {n: centre(root, f"{gender}-{side}-{n}") for n in range(1, 10)}
    assert_numbered(pins, FIRST_CORNER[gender, side])
    for n in range(1, 10):
        assert texts(group(root, f"{gender}-{side}-{n}")) == [str(n)]


def test_the_pads_plug_is_drawn_from_its_solder_side():
    root = svg("pad.svg")
    cups = {n: centre(root, f"cup-{n}") for n in range(1, 10)}
    assert_numbered(cups, FIRST_CORNER["male", "solder"])


def test_the_de9_table_sends_each_pin_where_the_pin_map_says(maker):
    lines = texts(svg("de9.svg"))
    data, hub, header = pin_map(), hub_pins(), maker.wiring.header()
    physical = {int(name[4:]): n for n, name in header.items() if name.startswith("GPIO")}
    words = catalog("en")
    for k, (gpio, gp) in enumerate(zip(data["columns"], hub["columns"], strict=True), 1):
        want = f"{k}: card {k} {words.card(k)} → GPIO {gpio} ({physical[gpio]}) · GP{gp}"
        assert want in lines
    for seat, (gpio, gp) in enumerate(zip(data["rows"], hub["rows"], strict=True), 1):
        assert f"P{seat}: GPIO {gpio} ({physical[gpio]}) · GP{gp}" in lines
    assert any(line.startswith("9: the row") for line in lines)


# ---------------------------------------------------------------------------
# The pad.


def test_the_pad_has_the_eight_keys_in_card_order_with_their_names():
    root = svg("pad.svg")
    words = catalog("en")
    xs = []
    for k in range(1, 9):
        key = group(root, f"key-{k}")
        assert texts(key) == [str(k), words.card(k)]
        xs.append(float(key.find(f"{SVG}rect").get("x")))
    assert xs == sorted(xs), "card 1 on the left to card 8 on the right"


def test_each_keys_wire_ends_in_the_cup_of_its_card():
    root = svg("pad.svg")
    for k in range(1, 9):
        wire = points(root.find(f".//{SVG}polyline[@id='wire-{k}']"))
        key = group(root, f"key-{k}").find(f"{SVG}rect")
        assert wire[0] == (float(key.get("x")), float(key.get("y"))), "from the key's leg"
        assert wire[-1] == centre(root, f"cup-{k}")
    row = points(root.find(f".//{SVG}polyline[@id='wire-row']"))
    assert row[-1] == centre(root, "cup-9")


def test_each_diode_has_its_band_toward_the_row():
    root = svg("pad.svg")
    row_y = points(root.find(f".//{SVG}polyline[@id='wire-row']"))[0][1]
    for k in range(1, 9):
        diode = group(root, f"diode-{k}")
        body, band = diode.findall(f"{SVG}rect")
        assert band.get("class") == "band"
        key_bottom = float(group(root, f"key-{k}").find(f"{SVG}rect").get("y")) + 64
        body_mid = float(body.get("y")) + float(body.get("height")) / 2
        assert key_bottom < body_mid < float(band.get("y")) < row_y, f"diode {k}: band down"
        leads = diode.findall(f"{SVG}polyline")
        assert points(leads[-1])[-1][1] == row_y, f"diode {k}'s cathode reaches the row"


# ---------------------------------------------------------------------------
# The label sheets.


def sheet(lang: str) -> ET.Element:
    return svg(f"labels-{lang}.svg")


@pytest.mark.parametrize("lang", languages())
def test_a_label_sheet_per_language_with_the_catalogs_card_names(lang, maker):
    root = sheet(lang)
    assert (root.get("width"), root.get("height")) == ("210mm", "297mm")  # A4
    assert root.get("viewBox") == "0 0 210 297"  # one unit a millimetre
    facts = maker.data()
    sets = len(pin_map()["rows"]) + facts["labels"]["spare_sets"]
    words = catalog(lang)
    for row in range(1, sets + 1):
        for k in range(1, 9):
            number, *lines = texts(group(root, f"label-{row}-{k}"))
            assert number == str(k)
            assert joined(lines) == words.card(k)
    assert group(root, f"label-{sets}-8") is not None
    assert root.find(f".//{SVG}g[@id='label-{sets + 1}-1']") is None


@pytest.mark.parametrize("lang", languages())
def test_the_cut_lines_frame_labels_of_the_size_for_the_caps(lang, maker):
    facts = maker.data()
    size = facts["labels"]["size_mm"]
    assert size < facts["keys"]["cap_mm"], "a label fits on its cap"
    cuts = group(sheet(lang), "cut-lines").findall(f"{SVG}line")
    xs = sorted({float(c.get("x1")) for c in cuts if c.get("x1") == c.get("x2")})
    ys = sorted({float(c.get("y1")) for c in cuts if c.get("y1") == c.get("y2")})
    assert len(xs) == 9
    assert len(ys) == len(pin_map()["rows"]) + facts["labels"]["spare_sets"] + 1
    for lines in (xs, ys):
        assert {round(b - a, 6) for a, b in itertools.pairwise(lines)} == {size}


def joined(lines: list[str]) -> str:
    """A name printed on two lines, "Gouver-" and "neur", as one word again."""
    return "".join(line.removesuffix("-") if i < len(lines) - 1 else line
                   for i, line in enumerate(lines))  # fmt: skip


@pytest.mark.parametrize("lang", languages())
def test_every_name_fits_across_its_label_and_is_at_least_2_mm_high(lang, maker):
    labels = maker.data()["labels"]
    root = sheet(lang)
    for k in range(1, 9):
        names = [t for t in group(root, f"label-1-{k}").findall(f"{SVG}text")
                 if t.get("class") == "name"]  # fmt: skip
        assert 1 <= len(names) <= 2
        for name in names:
            font = float(name.get("font-size"))
            assert font >= 2.0, f"{name.text}: {font} mm"
            assert len(name.text) * labels["em_per_char"] * font <= labels["size_mm"] - 1 + 1e-9
        if len(names) == 2:  # two lines only where one would be under 2 mm
            word = joined([t.text for t in names])
            assert len(word) * labels["em_per_char"] * 2.0 > labels["size_mm"] - 1


def test_the_french_and_dutch_governor_breaks_onto_two_lines():
    for lang in ("fr", "nl"):
        lines = texts(group(sheet(lang), "label-1-3"))[1:]
        assert lines == ["Gouver-", "neur"]


def test_a_long_name_without_a_break_is_refused_naming_the_file(maker):
    labels = maker.data()["labels"]
    with pytest.raises(
        SystemExit, match=r"^maker\.toml: \[labels\] breaks: no break for 'Schatbewaarder'"
    ):
        maker.name_lines("Schatbewaarder", labels)


def test_the_label_notes_name_no_part_the_list_lacks():
    words = " ".join(texts(sheet("en")))
    assert "under a cap with a clear cover." not in words  # a two-part cap: not in the BOM
    assert "not name" in words


def test_a_renamed_card_reaches_the_labels(maker, monkeypatch):
    facts = maker.data()
    renamed = ["Captain", "Admiral", "Governor", "Frigate", "Galleon", "Customs", "Merchant",
               "Beggar"]  # fmt: skip
    monkeypatch.setattr(maker, "names", lambda lang="en": renamed)
    drawn = ET.fromstring(maker.label_svg("en", 6, facts))
    assert texts(group(drawn, "label-6-7")) == ["7", "Merchant"]


# ---------------------------------------------------------------------------
# The parts list.


def parts() -> dict[str, dict[str, str]]:
    with (ROOT / "hardware" / "bom.csv").open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    by_item = {row["item"]: row for row in rows}
    assert len(by_item) == len(rows), "one line an item"
    return by_item


def test_the_parts_quantities_follow_the_pin_map():
    data, bom = pin_map(), parts()
    seats, cards = len(data["rows"]), len(data["columns"])
    want = {
        "key": seats * cards,
        "keycap": seats * cards,
        "diode": seats * cards,
        "pullup": cards,
        "plug": seats,
        "socket": seats,
        "cable": seats,
        "pad_box": seats,
        "host_button": len(data["buttons"]),
        "pi": 1,
        "header": 1,
        "psu": 1,
        "microsd": 1,
        "oled": 1,
        "buzzer": 1,
        "transistor": 1,
        "base_resistor": 1,
        "pico": 1,
    }
    assert {item: int(bom[item]["qty"]) for item in want} == want
    assert (seats, cards) == (6, 8) and int(bom["diode"]["qty"]) == 48


def test_every_parts_line_costs_its_quantity_times_its_price():
    for item, row in parts().items():
        assert float(row["unit_eur"]) > 0, item
        assert round(int(row["qty"]) * float(row["unit_eur"]), 2) == float(row["line_eur"]), item
        assert row["group"] in ("base", "hub", "instead"), item


def test_the_supplies_are_rated_for_their_pi():
    bom = parts()
    assert "5.1 V 2.5 A, micro-USB" in bom["psu"]["part"]  # Zero 2 W (and Pi 3)
    assert "5.1 V 3 A, USB-C" in bom["psu_pi4"]["part"]
    assert "5.1 V 5 A, USB-C" in bom["psu_pi5"]["part"]
    assert "ships without" in bom["header"]["notes"]  # the Zero 2 W's 40-pin header


def test_a_quantity_off_the_pin_map_is_refused_naming_its_line(maker):
    text = (ROOT / "hardware" / "bom.csv").read_text("utf-8")
    wrong = text.replace(",8,seat,48,0.03,1.44,", ",8,seat,47,0.03,1.41,", 1)
    assert wrong != text
    with pytest.raises(SystemExit, match=r"^bom\.csv:\d+: diode: qty 47 is not 8 a seat$"):
        maker.bom(wrong, maker.shipped_pins())


def test_a_line_cost_off_its_quantity_is_refused(maker):
    text = (ROOT / "hardware" / "bom.csv").read_text("utf-8")
    wrong = text.replace(",1,column,8,0.05,0.40,", ",1,column,8,0.05,0.45,", 1)
    assert wrong != text
    with pytest.raises(SystemExit, match=r"pullup: line_eur is not qty × unit_eur"):
        maker.bom(wrong, maker.shipped_pins())


# ---------------------------------------------------------------------------
# The cable table.


def cable_rows() -> dict[int, list[str]]:
    text = (ROOT / "hardware" / "README.md").read_text("utf-8")
    block = re.search(r"<!-- maker\.py: cable -->\n(.*?)\n<!-- /maker\.py -->", text, re.S)
    assert block, "hardware/README.md has no cable table"
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in block[1].splitlines()[2:]]
    return {int(row[0].split()[0]): row for row in rows}


def test_the_recommended_cable_settles_within_the_hubs_wait(maker):
    """The hub's fixed settle time covers a 3 m cable a pad twice over, with the pull-ups
    or on the Pico's own alone (a hub built without them leaks no card): the table's own
    figures against the firmware's."""
    facts = maker.data()
    firmware = (ROOT / "firmware" / "board.py").read_text("utf-8")
    settle_us = int(re.search(r"^SETTLE_US = (\d+)", firmware, re.M)[1])
    row = cable_rows()[facts["cable"]["recommended_max_m"]]
    reads_high, alone = (int(row[i].removesuffix(" µs")) for i in (2, 4))
    assert 2 * reads_high <= settle_us, "twice the margin with the external pull-ups"
    assert 2 * alone <= settle_us, "and twice without them"


def test_the_pis_wait_is_five_time_constants_of_the_worst_column(maker):
    """Worked apart from the script: 3 m, 6 seats, every seat's column and row conductor
    at 100 pF/m, a diode each, the pin; 10 kΩ beside 73 kΩ. The matrix waits the same."""
    farads = 2 * 6 * 3 * 100e-12 + 6 * 4e-12 + 5e-12
    ohms = 1 / (1 / 10000 + 1 / 73000)
    row = cable_rows()[3]
    assert row[1] == f"{farads * 1e9:.2f} nF"
    assert row[3] == f"{math.ceil(5 * ohms * farads * 1e6)} µs" == "160 µs"
    assert row[5] == f"{math.ceil(5 * 73000 * farads * 1e6)} µs" == "1325 µs"


def test_the_cable_table_grows_with_the_cable(maker):
    rows = cable_rows()
    assert sorted(rows) == maker.data()["cable"]["lengths_m"]
    times = [int(rows[m][2].removesuffix(" µs")) for m in sorted(rows)]
    assert times == sorted(times) and times[0] < times[-1]
    assert all(rows[m][0].endswith("too long") == (m > 3) for m in rows)


# ---------------------------------------------------------------------------
# The host box: every socket on the column bus, a row each, one pull-up a column.


def y_of(root: ET.Element, ident: str) -> float:
    """The height of a horizontal line drawn as a polyline ``ident``."""
    ys = {y for _, y in points(root.find(f".//{SVG}polyline[@id='{ident}']"))}
    assert len(ys) == 1, f"{ident} is horizontal"
    return ys.pop()


def joints(root: ET.Element) -> set[tuple[float, float]]:
    return {
        (float(c.get("cx")), float(c.get("cy")))
        for c in root.iter(f"{SVG}circle")
        if c.get("class") == "joint"
    }


def test_cup_n_of_every_socket_joins_column_bus_n_and_cup_9_its_own_row():
    root = svg("host-box.svg")
    seats, columns = len(pin_map()["rows"]), len(pin_map()["columns"])
    dots = joints(root)
    for seat in range(1, seats + 1):
        for n in range(1, 10):
            cup = root.find(f".//{SVG}circle[@id='cup-{seat}-{n}']")
            drop = points(root.find(f".//{SVG}polyline[@id='drop-{seat}-{n}']"))
            assert drop[0] == (float(cup.get("cx")), float(cup.get("cy")))
            line = f"bus-{n}" if n <= columns else f"row-{seat}"
            assert drop[-1][1] == y_of(root, line), f"P{seat} cup {n} to {line}"
            assert drop[-1] in dots, f"P{seat} cup {n} joined, not crossing"
    # no row line is shared: each seat's cup 9 meets its own only
    rows = [y_of(root, f"row-{s}") for s in range(1, seats + 1)]
    assert len(set(rows)) == seats
    assert {y for _, y in dots} & set(rows) == set(rows)


def test_one_pullup_a_column_from_the_33_v_rail_to_its_bus(maker):
    root = svg("host-box.svg")
    rail = y_of(root, "rail")
    dots = joints(root)
    columns = len(pin_map()["columns"])
    for k in range(1, columns + 1):
        pullup = group(root, f"pullup-{k}")
        lead = points(pullup.find(f"{SVG}polyline"))
        assert {lead[0][1], lead[-1][1]} == {rail, y_of(root, f"bus-{k}")}
        assert lead[0] in dots and lead[-1] in dots
        assert pullup.find(f"{SVG}rect") is not None, "a resistor on the lead"
    assert root.find(f".//{SVG}g[@id='pullup-{columns + 1}']") is None
    ohms = maker.data()["column"]["external_pullup_ohm"]
    assert f"{columns} × {ohms // 1000} kΩ, one a column" in texts(root)


def test_the_host_box_sends_each_line_to_its_header_pin(maker):
    lines = texts(svg("host-box.svg"))
    data, hub, header = pin_map(), hub_pins(), maker.wiring.header()
    physical = {int(name[4:]): n for n, name in header.items() if name.startswith("GPIO")}
    for gpio, gp in zip(data["columns"] + data["rows"], hub["columns"] + hub["rows"], strict=True):
        pico = maker.wiring.PICO.index(f"GP{gp}") + 1
        want = f"→ Pi GPIO {gpio} (header pin {physical[gpio]}) · or hub GP{gp} (pin {pico})"
        assert want in lines
    rail = next(line for line in lines if line.startswith("3.3 V → Pi header pin "))
    pin = int(rail.split("header pin ")[1].split()[0])
    assert header[pin] == "3V3" and "3V3(OUT) (pin 36)" in rail  # the Pico's 3V3(OUT) is 36
    assert any("NOT RS-232" in line for line in lines)


# ---------------------------------------------------------------------------
# The buzzer. The pinouts are the datasheets' (onsemi 2N3904, onsemi/Fairchild BC547): a
# TO-92 with its flat face toward you, legs down, left to right.

PINOUTS = {"2N3904": ["E", "B", "C"], "BC547": ["C", "B", "E"]}


@pytest.mark.parametrize(("part", "legs"), PINOUTS.items())
def test_the_transistors_legs_are_the_datasheets(part, legs):
    root = svg("buzzer.svg")
    drawn = [texts(group(root, f"to92-{part}-{i}")) for i in (1, 2, 3)]
    assert drawn == [[leg] for leg in legs]
    assert "flat face toward you," in texts(group(root, f"to92-{part}"))


def test_the_buzzer_diode_has_its_band_at_plus():
    root = svg("buzzer.svg")
    box = group(root, "buzzer").find(f"{SVG}rect")
    top, bottom = float(box.get("y")), float(box.get("y")) + float(box.get("height"))
    assert texts(group(root, "buzzer"))[1] == "+", "+ marked at the top"
    band = next(r for r in group(root, "flyback").iter(f"{SVG}rect") if r.get("class") == "band")
    assert abs(float(band.get("y")) - top) < abs(float(band.get("y")) - bottom)


def test_the_buzzer_circuit_names_the_pins_it_goes_to(maker):
    lines = texts(svg("buzzer.svg"))
    header, gpio = maker.wiring.header(), pin_map()["buzzer"]["pin"]
    assert f"GPIO {gpio}" in lines
    assert f"header pin {maker.wiring.physical(gpio)}" in lines
    supply = next(line for line in lines if line.startswith("+5 V: header pin "))
    assert [header[int(n)] for n in supply.removeprefix("+5 V: header pin ").split(" or ")] == [
        "5V",
        "5V",
    ]
    ground = next(line for line in lines if line.startswith("ground: header pin "))
    assert header[int(ground.split()[-1])] == "GND"
    assert f"{maker.data()['buzzer']['base_resistor_ohm'] // 1000} kΩ" in lines


# ---------------------------------------------------------------------------
# The pad seen from the back: mirrored.


def test_the_pads_back_view_runs_mirrored():
    root = svg("pad.svg")
    xs, sides = [], []
    for k in range(1, 9):
        back = group(root, f"back-key-{k}")
        body = back.find(f"{SVG}rect")
        leg = next(c for c in back.iter(f"{SVG}circle") if c.get("class") == "column-leg")
        xs.append(float(body.get("x")))
        sides.append(float(leg.get("cx")) > float(body.get("x")) + float(body.get("width")) / 2)
        assert f"pin {k}" in texts(back)
    assert xs == sorted(xs, reverse=True), "card 1 on the right, seen from the back"
    assert all(sides), "the column leg, top left from the front, is top right from the back"


# ---------------------------------------------------------------------------
# The parts that hold and join it all.


def test_the_header_leads_cover_every_header_wire_and_the_jumpers_every_oled_pin():
    data, bom = pin_map(), parts()
    # each column and row, the buttons and one ground, the buzzer's base, emitter and 5 V,
    # the pull-ups' 3.3 V
    wires = len(data["columns"]) + len(data["rows"]) + len(data["buttons"]) + 1 + 3 + 1
    assert wires == 22
    assert int(bom["header_leads"]["qty"]) >= wires
    oled = ["GND", "VCC", "SCL", "SDA", "RES", "DC", "CS"]
    assert int(bom["jumpers"]["qty"]) == len(oled)
    assert all(pin in bom["jumpers"]["notes"] for pin in oled)


def test_the_d_subs_are_held_by_4_40_jackposts_two_a_connector():
    bom, seats = parts(), len(pin_map()["rows"])
    for item in ("jackpost_plug", "jackpost_socket"):
        assert "4-40 UNC" in bom[item]["part"]
        assert int(bom[item]["qty"]) == 2 * seats
    assert "M3" not in bom["plug"]["notes"] + bom["socket"]["notes"]


def test_the_ribbon_follows_the_resistor_colour_code():
    # IEC 60062: black 0, brown 1, red 2, orange 3, yellow 4, green 5, blue 6, violet 7,
    # grey 8, white 9
    code = ["black", "brown", "red", "orange", "yellow", "green", "blue", "violet", "grey"]
    code.append("white")
    notes = parts()["ribbon"]["notes"]
    said = dict(re.findall(r"(\w+) (\d)", notes.split(": ", 1)[1]))
    assert {colour: int(n) for colour, n in said.items()} == {code[n]: n for n in range(1, 10)}, (
        "pin n is the colour of digit n"
    )
    assert "white 9 (the row)" in notes and "black spare" in notes
