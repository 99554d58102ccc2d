"""Draw the wiring from the pin map: two SVG diagrams and the pin tables of the hardware README.

    .venv/bin/python scripts/wiring.py           # or: make hardware/wiring.svg
    .venv/bin/python scripts/wiring.py --check   # exit 1 naming each file out of date

It reads the pin map the code reads (``companion/data/pins.toml``, through
``companion.app.config``: ``shipped_pins()`` for the Pi, ``hub_pins()`` for the Pico hub)
and the display's default lines (``defaults().display``), and writes

- ``hardware/wiring.svg``: the Pi's 40-pin header, each pin with its physical number and
  BCM name, every used pin labelled (seat rows, card columns, ◀ OK ▶, buzzer, the OLED),
  the SPI pins marked as kept free;
- ``hardware/hub-wiring.svg``: the Pico's pins to the same rows and columns, USB to the Pi;
- the tables between ``<!-- wiring.py: NAME -->`` and ``<!-- /wiring.py -->`` in
  ``hardware/README.md``.

The output depends on the pin map alone (no dates, no floats), so the committed files can
be compared with what the script makes now (``tests/test_wiring.py``).
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from gpiozero import pi_info

from companion.app.config import BUS_PINS, Display, Pins, defaults, hub_pins, shipped_pins
from companion.ui.catalog import catalog

ROOT = Path(__file__).resolve().parent.parent
MAKER = ROOT / "hardware" / "maker.toml"  # the column pull-ups' value
PI_SVG = ROOT / "hardware" / "wiring.svg"
HUB_SVG = ROOT / "hardware" / "hub-wiring.svg"
README = ROOT / "hardware" / "README.md"

# Every Pi with a 40-pin header has the same J8 pinout; gpiozero's board data for the Zero 2 W
# (revision 902120) stands for all of them.
REVISION = "902120"
# The Pico's pins by physical number, 1..40: 1..20 down the left edge (USB at the top),
# 21..40 up the right edge. Not in gpiozero, which knows only the Pi.
PICO = (
    *("GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7"),
    *("GP8", "GP9", "GND", "GP10", "GP11", "GP12", "GP13", "GND", "GP14", "GP15"),
    *("GP16", "GP17", "GND", "GP18", "GP19", "GP20", "GP21", "GND", "GP22", "RUN"),
    *("GP26", "GP27", "AGND", "GP28", "ADC_VREF", "3V3(OUT)", "3V3_EN", "GND", "VSYS", "VBUS"),
)
BUTTONS = {"left": "◀", "ok": "OK", "right": "▶"}
# GPIOs the pin map leaves free on purpose, and why (the SPI bus itself is BUS_PINS).
KEPT_FREE = {
    0: "HAT ID EEPROM",
    1: "HAT ID EEPROM",
    14: "UART TXD: serial console off",
}
DE9_ROW = 9  # on each pad's 9-pin plug, pins 1..8 carry cards 1..8 and pin 9 the seat's row

COLOURS = {  # kind of line: (fill, text)
    "row": ("#1f63b4", "#ffffff"),
    "column": ("#2b8a3e", "#ffffff"),
    "button": ("#c92a2a", "#ffffff"),
    "buzzer": ("#7048b6", "#ffffff"),
    "display": ("#e8590c", "#ffffff"),
    "usb": ("#495057", "#ffffff"),
    "free": ("#ffffff", "#868e96"),
    "power": ("#fff3bf", "#5c4400"),
    "ground": ("#343a40", "#ffffff"),
    "unused": ("#e9ecef", "#868e96"),
}
LEGEND = (
    ("row", "seat rows P1..P6: outputs, driven low (one wire to that seat's pad)"),
    ("column", "card columns 1..8: inputs with pull-ups (to every pad)"),
    ("button", "host buttons: the other leg to ground"),
    ("buzzer", "buzzer: to an NPN transistor's base through 1 kΩ (buzzer.svg)"),
    ("display", "the OLED on I²C"),
    ("ground", "ground"),
    ("power", "power"),
    ("free", "kept free"),
)
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
GREY = "#343a40"


@dataclass(frozen=True)
class Use:
    kind: str  # a key of COLOURS
    label: str  # what the pin is wired to, as the drawing and the tables say it


def pullup_ohms() -> str:
    """The column pull-ups' value, "10 kΩ", from hardware/maker.toml as the parts list has it."""
    ohms = tomllib.loads(MAKER.read_text("utf-8"))["column"]["external_pullup_ohm"]
    return f"{ohms / 1000:g} kΩ"


def pullups() -> str:
    """The column pull-ups as the drawings label their supply pin."""
    return f"the 8 column pull-ups ({pullup_ohms()})"


def cards() -> list[str]:
    """The card names, 1..8, as the English catalog has them."""
    words = catalog("en")
    return [words.card(k) for k in range(1, 9)]


# ---------------------------------------------------------------------------
# What each pin is for.


def header() -> dict[int, str]:
    """The Pi's 40-pin header: physical pin -> its name ("GPIO4", "3V3", "5V", "GND")."""
    pins = pi_info(REVISION).headers["J8"].pins
    return {number: pins[number].name for number in sorted(pins)}


def pi_lines(pins: Pins, display: Display, names: list[str]) -> dict[int, Use]:
    """What each GPIO (BCM) is wired to: the pin map's lines, the display's, the free ones."""
    lines = {pin: Use("row", f"P{i} row") for i, pin in enumerate(pins.rows, 1)}
    for k, pin in enumerate(pins.columns, 1):
        lines[pin] = Use("column", f"card {k} {names[k - 1]}")
    lines |= {pin: Use("button", f"{BUTTONS[b]} button") for b, pin in pins.buttons.items()}
    if pins.buzzer is not None:
        lines[pins.buzzer] = Use("buzzer", "buzzer (transistor base)")
    if pins.display_reset is not None:
        lines[pins.display_reset] = Use("display", "OLED RES (reset)")
    spi_lines = {display.dc: "D/C", display.reset: "RES"}
    for pin, line in BUS_PINS["i2c"].items():
        also = f" · SPI display {spi_lines[pin]}" if pin in spi_lines else ""
        lines[pin] = Use("display", f"OLED {line}{also}")
    for pin, line in BUS_PINS["spi"].items():
        lines.setdefault(pin, Use("free", f"free: SPI {line}"))
    for pin, why in KEPT_FREE.items():
        lines.setdefault(pin, Use("free", f"free: {why}"))
    return lines


def pi_uses(pins: Pins, display: Display, names: list[str]) -> dict[int, Use]:
    """What each physical header pin is wired to, power and ground included."""
    layout = header()
    lines = pi_lines(pins, display, names)
    uses = {}
    for number, name in layout.items():
        if name.startswith("GPIO"):
            uses[number] = lines.get(int(name[4:]), Use("unused", ""))
        elif name == "3V3":
            uses[number] = Use(
                "power", "OLED VCC (3.3 V only)" if number == 1 else f"3.3 V: {pullups()}"
            )
        elif name == "5V":
            # the buzzer's supply may come from either 5 V pin; nothing else of the build's
            uses[number] = Use("power", "5 V: the buzzer's + only (never a GPIO)")
        else:
            uses[number] = Use("ground", "")
    for number, label in _grounds(layout, uses).items():
        uses[number] = Use("ground", label)
    return uses


def _grounds(layout: dict[int, str], uses: dict[int, Use]) -> dict[int, str]:
    """Each part that needs ground gets the ground pin nearest its signal pin."""
    grounds = [n for n, name in layout.items() if name == "GND"]
    needs = [(n, u) for n, u in uses.items() if u.kind in ("button", "buzzer")]
    sda = next(n for n, u in uses.items() if u.label.startswith("OLED SDA"))
    needs.append((sda, Use("display", "OLED GND, DC, CS")))
    parts: dict[int, list[str]] = {}
    for number, use in needs:
        nearest = min(grounds, key=lambda g: (abs(g - number), g))
        parts.setdefault(nearest, []).append(_ground_part(use))
    return {g: "ground: " + ", ".join(dict.fromkeys(p)) for g, p in parts.items()}


def _ground_part(use: Use) -> str:
    if use.kind == "button":
        return use.label.replace(" button", "") + " button"
    return {"buzzer": "buzzer's transistor emitter"}.get(use.kind, use.label)


def hub_uses(hub: dict[str, list[int]], names: list[str]) -> dict[int, Use]:
    """What each of the Pico's physical pins is wired to."""
    lines = {f"GP{pin}": Use("row", f"P{i} row") for i, pin in enumerate(hub["rows"], 1)}
    for k, pin in enumerate(hub["columns"], 1):
        lines[f"GP{pin}"] = Use("column", f"card {k} {names[k - 1]}")
    uses = {}
    for number, name in enumerate(PICO, 1):
        if name in lines:
            uses[number] = lines[name]
        elif name.endswith("GND"):
            uses[number] = Use("ground", "")
        elif name == "3V3(OUT)":
            uses[number] = Use("power", f"3.3 V: {pullups()}")
        elif name.startswith("GP"):
            uses[number] = Use("unused", "")
        else:
            uses[number] = Use("power", "")
    return uses


# ---------------------------------------------------------------------------
# Drawing. Coordinates are whole pixels, so the same pin map gives the same bytes.

ROW_H = 30  # one header row of two pins
R = 12  # a pin's radius


def _svg(width: int, height: int, body: list[str], title: str) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="14">',
            f"<title>{escape(title)}</title>",
            f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
            *body,
            "</svg>",
            "",
        ]
    )


def _text(x: int, y: int, words: str, **attrs: str) -> str:
    extra = "".join(f' {k.rstrip("_").replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<text x="{x}" y="{y}"{extra}>{escape(words)}</text>'


def _pin(number: int, name: str, use: Use, cx: int, cy: int, side: int, ids: str) -> list[str]:
    """One pin: its circle and physical number, its name, and what it is wired to.
    ``side`` is -1 for a label to the left of the board, 1 to the right."""
    fill, ink = COLOURS[use.kind]
    anchor = "end" if side < 0 else "start"
    out = [f'<g id="{ids}{number}" class="{use.kind}">']
    out.append(f'<circle cx="{cx}" cy="{cy}" r="{R}" fill="{fill}" stroke="{GREY}"/>')
    out.append(_text(cx, cy + 4, str(number), text_anchor="middle", font_size="11", fill=ink))
    # Away from the board: the pin's name, then a line in the colour of its use, then the use.
    name_x = cx + side * (R + 8)
    out.append(_text(name_x, cy + 5, name, text_anchor=anchor, font_size="13", fill=GREY))
    if use.label:
        colour = COLOURS[use.kind][0] if use.kind not in ("free", "power") else ink
        line_from, line_to = cx + side * (R + 66), cx + side * (R + 120)
        dash = ' stroke-dasharray="4 3"' if use.kind == "free" else ""
        out.append(
            f'<line x1="{line_from}" y1="{cy}" x2="{line_to}" y2="{cy}" '
            f'stroke="{colour}" stroke-width="3"{dash}/>'
        )
        weight = "normal" if use.kind in ("free", "ground", "power") else "bold"
        style = {"text_anchor": anchor, "fill": colour, "font_weight": weight}
        out.append(_text(line_to + side * 6, cy + 5, use.label, **style))
    out.append("</g>")
    return out


def _legend(x: int, y: int, kinds: tuple[tuple[str, str], ...]) -> list[str]:
    out = []
    for i, (kind, words) in enumerate(kinds):
        fill, _ = COLOURS[kind]
        cy = y + i * 24
        out.append(f'<circle cx="{x}" cy="{cy}" r="8" fill="{fill}" stroke="{GREY}"/>')
        out.append(_text(x + 16, cy + 5, words, font_size="13"))
    return out


def _notes(x: int, y: int, lines: list[str]) -> list[str]:
    return [_text(x, y + i * 20, line, font_size="13", fill=GREY) for i, line in enumerate(lines)]


def _heading(title: str, subtitle: str) -> list[str]:
    return [
        _text(40, 40, title, font_size="20", font_weight="bold"),
        _text(40, 66, subtitle, font_size="13", fill=GREY),
    ]


def _usb(cx: int, cy: int, line_to: int) -> list[str]:
    """The Pico's USB socket centred on (cx, cy), and a line from it to its label."""
    colour = COLOURS["usb"][0]
    return [
        f'<rect x="{cx - 22}" y="{cy - 15}" width="44" height="30" rx="4" fill="{colour}"/>',
        _text(cx, cy + 5, "USB", text_anchor="middle", font_size="12", fill="#ffffff"),
        f'<line x1="{cx + 22}" y1="{cy}" x2="{line_to}" y2="{cy}" stroke="{colour}" '
        'stroke-width="3"/>',
        _text(
            line_to + 6,
            cy - 4,
            "USB cable to the Pi: power and the serial line",
            font_weight="bold",
            fill=colour,
        ),
        _text(
            line_to + 6,
            cy + 14,
            "(a Zero 2 W: its USB port, through an OTG adapter)",
            font_size="13",
            fill=colour,
        ),
    ]


def pi_svg(pins: Pins, display: Display, names: list[str]) -> str:
    """The Pi's header drawn with every pin's use, as an SVG document."""
    layout, uses = header(), pi_uses(pins, display, names)
    width, top, left_x, right_x = 1100, 100, 525, 575
    body = [
        *_heading(
            "Santo Domingo Companion: wiring on the Raspberry Pi's 40-pin header",
            "The header seen from above, turned so that pin 1 (its square pad) is at the top "
            "left. Physical pin numbers in the circles, BCM GPIO names beside them.",
        ),
        f'<rect x="{left_x - 25}" y="{top - 25}" width="{right_x - left_x + 50}" '
        f'height="{20 * ROW_H + 20}" rx="6" fill="#d3f9d8" stroke="#2b8a3e"/>',
    ]
    for number, name in layout.items():
        odd = number % 2 == 1
        cy = top + (number - 1) // 2 * ROW_H
        cx, side = (left_x, -1) if odd else (right_x, 1)
        body += _pin(number, name, uses[number], cx, cy, side, "pin")
    legend_y = top + 20 * ROW_H + 30
    body += _legend(60, legend_y, LEGEND[:4])
    # The display's entry says its default address, from the config's defaults.
    oled = ("display", f"the OLED on I²C, address 0x{display.address:02X}, and its RES")
    body += _legend(620, legend_y, (oled, *LEGEND[5:]))
    notes = _pi_notes(pins, display)
    body += _notes(40, legend_y + 4 * 24 + 16, notes)
    height = legend_y + 4 * 24 + 16 + len(notes) * 20
    return _svg(width, height, body, "Wiring on the Raspberry Pi")


def _pi_notes(pins: Pins, display: Display) -> list[str]:
    spi = {line: pin for pin, line in BUS_PINS["spi"].items()}
    return [
        f"Each pad: {len(pins.columns) + 1} wires, its seat's row and the {len(pins.columns)} "
        "card columns. The six sockets, the column bus, the pull-ups: host-box.svg.",
        f"OLED on I²C: DC and CS to ground (address 0x{display.address:02X}), VCC on 3.3 V only "
        "(on 5 V its own I²C pull-ups would lift SDA and SCL above 3.3 V).",
        f"An SPI display instead: SCLK GPIO {spi['SCLK']}, MOSI GPIO {spi['MOSI']}, "
        f"CS GPIO {spi['CE0']} (CE0), D/C GPIO {display.dc}, RES GPIO {display.reset}; "
        "SPI on with dtoverlay=spi0-1cs.",
        "The ▶ button's GPIO is the UART's RXD: the serial console must be off "
        "(install.sh turns it off).",
        f"OLED RES: pulsed low, then held high, as the companion starts (GPIO {pins.display_reset}"
        "); a module whose RES has an RC network of its own: display_reset = false.",
        "Drawn by scripts/wiring.py from companion/data/pins.toml (make hardware/wiring.svg).",
    ]


def hub_svg(hub: dict[str, list[int]], names: list[str]) -> str:
    """The Pico hub drawn with every pin's use, as an SVG document."""
    uses = hub_uses(hub, names)
    width, top, left_x, right_x = 1100, 160, 445, 565
    body = [
        *_heading(
            "Santo Domingo Companion: the Pico pad hub",
            "Raspberry Pi Pico seen from above, USB at the top. Physical pin numbers in the "
            "circles, GP numbers beside them.",
        ),
        f'<rect x="{left_x - 25}" y="{top - 40}" width="{right_x - left_x + 50}" '
        f'height="{20 * ROW_H + 40}" rx="6" fill="#d3f9d8" stroke="#2b8a3e"/>',
        *_usb((left_x + right_x) // 2, top - 43, right_x + 60),
    ]
    for number, name in enumerate(PICO, 1):
        left = number <= 20
        row = number - 1 if left else 40 - number
        cx, side = (left_x, -1) if left else (right_x, 1)
        body += _pin(number, name, uses[number], cx, top + row * ROW_H, side, "pico")
    legend_y = top + 20 * ROW_H + 30
    body += _legend(60, legend_y, LEGEND[:2])
    notes = _hub_notes()
    body += _notes(40, legend_y + 2 * 24 + 16, notes)
    strip_y = legend_y + 2 * 24 + 16 + len(notes) * 20 + 40
    supply = PICO.index("3V3(OUT)") + 1
    body.append(
        _text(40, strip_y, f"In the hub's box, {pullups()}: from each column to 3V3(OUT), "
              f"pin {supply}", font_weight="bold")
    )  # fmt: skip
    ends = [(f"card {k}", f"GP{gp} · pin {pico_pin(gp)}") for k, gp in enumerate(hub["columns"], 1)]
    body += pullup_strip(80, strip_y + 40, f"3V3(OUT), pin {supply}", ends)
    return _svg(width, strip_y + 40 + 130, body, "Wiring on the Pico pad hub")


def resistor(x: int, y: int, length: int, ink: str) -> str:
    """A resistor's body, upright, its top at ``y``: a box, as IEC 60617 draws it."""
    return (
        f'<rect x="{x - 7}" y="{y}" width="14" height="{length}" fill="#ffffff" '
        f'stroke="{ink}" stroke-width="2"/>'
    )


def joint(x: float, y: float) -> str:
    """A junction: wires that meet at a dot are joined; wires that cross without one are not."""
    return f'<circle class="joint" cx="{x}" cy="{y}" r="4" fill="{GREY}"/>'


def pullup_strip(x: int, y: int, rail: str, ends: list[tuple[str, str]]) -> list[str]:
    """One pull-up a column: a supply rail at ``y`` and a resistor hanging from it for each
    of ``ends`` (what the resistor's lower end goes to, in two lines of words)."""
    step, colour = 110, COLOURS["column"][0]
    last = x + (len(ends) - 1) * step
    out = [
        f'<polyline id="rail" points="{x - 30},{y} {last + 30},{y}" fill="none" '
        f'stroke="{COLOURS["power"][1]}" stroke-width="3"/>',
        _text(last + 40, y + 5, rail, font_weight="bold", fill=COLOURS["power"][1]),
    ]
    for k, (what, where) in enumerate(ends, 1):
        rx = x + (k - 1) * step
        out += [
            f'<g id="pullup-{k}">',
            f'<polyline points="{rx},{y} {rx},{y + 80}" fill="none" stroke="{colour}" '
            'stroke-width="2"/>',
            resistor(rx, y + 14, 44, colour),
            joint(rx, y),
            _text(rx + 12, y + 40, pullup_ohms(), font_size="12", fill=GREY),
            _text(rx, y + 98, what, text_anchor="middle", font_weight="bold", fill=colour),
            _text(rx, y + 116, where, text_anchor="middle", font_size="13", fill=GREY),
            "</g>",
        ]
    return out


def _hub_notes() -> list[str]:
    return [
        "The pads' cables plug into the hub instead of the Pi: the same 9 wires, the same "
        "diodes. The firmware reads these pins (firmware/pins.json).",
        "With the hub, the Pi's row and column GPIOs stay unconnected; ◀ OK ▶, the buzzer "
        "and the OLED stay on the Pi as in wiring.svg.",
        "Drawn by scripts/wiring.py from [hub] in companion/data/pins.toml "
        "(make hardware/wiring.svg).",
    ]


# ---------------------------------------------------------------------------
# The README's tables.


def physical(bcm: int) -> int:
    """The header pin of GPIO ``bcm``."""
    return next(n for n, name in header().items() if name == f"GPIO{bcm}")


def pico_pin(gp: int) -> int:
    return PICO.index(f"GP{gp}") + 1


def pads_table(pins: Pins, hub: dict[str, list[int]], names: list[str]) -> str:
    """One line a matrix wire: where it goes on the Pi, or on the hub, and on a pad's plug."""
    out = [
        "| pad line | Pi: GPIO (BCM) | Pi: header pin | or hub: Pico GP | Pico pin "
        "| pad plug pin |",
        "|---|---|---|---|---|---|",
    ]
    for i, (pin, gp) in enumerate(zip(pins.rows, hub["rows"], strict=True), 1):
        line = f"P{i} row (that seat's pad only)"
        out.append(f"| {line} | {pin} | {physical(pin)} | GP{gp} | {pico_pin(gp)} | {DE9_ROW} |")
    for k, (pin, gp) in enumerate(zip(pins.columns, hub["columns"], strict=True), 1):
        line = f"card {k} column, {names[k - 1]} (every pad)"
        out.append(f"| {line} | {pin} | {physical(pin)} | GP{gp} | {pico_pin(gp)} | {k} |")
    return "\n".join(out)


def host_table(pins: Pins, display: Display, names: list[str]) -> str:
    """The host's parts on the Pi: buttons, buzzer, the I²C display, the pins kept free."""
    uses = pi_uses(pins, display, names)
    vcc = next(n for n, use in uses.items() if use.label.startswith("OLED VCC"))
    gnd = next(n for n, use in uses.items() if "OLED GND" in use.label)
    pull = next(n for n, use in uses.items() if use.label.startswith("3.3 V: "))
    volts5 = [n for n, use in uses.items() if use.label.startswith("5 V")]
    out = ["| part | Pi: GPIO (BCM) | Pi: header pin |", "|---|---|---|"]
    for name, pin in pins.buttons.items():
        out.append(f"| {BUTTONS[name]} button (other leg to ground) | {pin} | {physical(pin)} |")
    if pins.buzzer is not None:
        buzzer = pins.buzzer
        out.append(f"| buzzer, through a transistor | {buzzer} | {physical(buzzer)} |")
        five = " or ".join(str(n) for n in volts5)
        out.append(f"| buzzer + (its supply, 5 V) | — | {five} |")
    for pin, line in BUS_PINS["i2c"].items():
        out.append(f"| OLED {line} (I²C) | {pin} | {physical(pin)} |")
    if pins.display_reset is not None:
        reset = pins.display_reset
        out.append(f"| OLED RES (reset), if the module has one | {reset} | {physical(reset)} |")
    out.append(f"| OLED VCC (3.3 V only), GND | — | {vcc}, {gnd} (or any ground) |")
    out.append(f"| OLED DC and CS (I²C mode) | — | ground: {gnd} (or any ground) |")
    out.append(f"| the 8 column pull-ups (3.3 V) | — | {pull} |")
    for pin, line in sorted(BUS_PINS["spi"].items()):
        out.append(f"| kept free: SPI {line} | {pin} | {physical(pin)} |")
    return "\n".join(out)


# A generated block: its opening comment, the table, its closing comment.
BLOCK = re.compile(r"(<!-- wiring\.py: (?P<name>[\w-]+) -->\n)(.*?)(\n<!-- /wiring\.py -->)", re.S)


def readme(text: str, tables: dict[str, str]) -> str:
    """``text`` with each generated block replaced by its table; every block must exist."""
    missing = set(tables) - {m["name"] for m in BLOCK.finditer(text)}
    if missing:
        raise SystemExit(f"{README}: no block <!-- wiring.py: {sorted(missing)[0]} -->")
    return BLOCK.sub(lambda m: m[1] + tables[m["name"]] + m[4], text)


# ---------------------------------------------------------------------------


def outputs() -> dict[Path, str]:
    """Every file this script writes, with the text it should hold now."""
    pins, display, hub, names = shipped_pins(), defaults().display, hub_pins(), cards()
    tables = {"pads": pads_table(pins, hub, names), "host": host_table(pins, display, names)}
    return {
        PI_SVG: pi_svg(pins, display, names),
        HUB_SVG: hub_svg(hub, names),
        README: readme(README.read_text("utf-8"), tables),
    }


def write(
    outputs: Callable[[], dict[Path, str]], root: Path, doc: str, argv: list[str] | None
) -> int:
    """A drawing script's command line: write each of ``outputs()`` (even unchanged, so
    that make sees it newer than its inputs) and name the files that changed; with
    ``--check``, change nothing and exit 1 naming the stale ones."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    stale = []
    for path, text in outputs().items():
        current = path.read_text("utf-8") if path.exists() else None
        if current != text:
            stale.append(path)
        if not args.check:
            path.write_text(text, "utf-8")
    for path in stale:
        verb = "out of date" if args.check else "written"
        print(f"{path.relative_to(root)}: {verb}", file=sys.stderr if args.check else sys.stdout)
    return 1 if args.check and stale else 0


def main(argv: list[str] | None = None) -> int:
    return write(outputs, ROOT, __doc__ or "", argv)


if __name__ == "__main__":
    sys.exit(main())
