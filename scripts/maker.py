"""Draw the maker's pack from data: the pad, the DE-9 pinouts, the key labels, the cable table.

    .venv/bin/python scripts/maker.py           # or: make hardware/pad.svg
    .venv/bin/python scripts/maker.py --check   # exit 1 naming each file out of date

It reads ``hardware/maker.toml`` (the cable, the pull-ups, the caps and labels), the pin map
the code reads (``companion/data/pins.toml`` through ``companion.app.config``), the card
names of every catalog (``companion/ui/locale``) and the parts list ``hardware/bom.csv``,
and writes

- ``hardware/pad.svg``: inside a pad, the 8 keys in card order, a 1N4148 per key turned
  the right way, the 9 wires to the DE-9 plug's solder cups;
- ``hardware/de9.svg``: the pad's male plug and the host's female socket, each from the
  front and from the solder side, every pin's line, and the host's GPIO for each;
- ``hardware/labels-<lang>.svg``: an A4 sheet of key labels per language, cut lines drawn;
- the blocks between ``<!-- maker.py: NAME -->`` and ``<!-- /maker.py -->`` in
  ``hardware/README.md``: the cable table and the parts list with its totals.

The drawing helpers and the header's pin numbers are ``scripts/wiring.py``'s. The output
depends on those inputs alone (no dates), so ``tests/test_maker.py`` can compare the
committed files with what the script makes now.
"""

from __future__ import annotations

import csv
import io
import math
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script it is; loaded by a test it may not be
    sys.path.insert(0, str(HERE))

import wiring  # noqa: E402  (scripts/wiring.py: its drawing helpers and the header's pins)
from wiring import DE9_ROW, FONT, GREY, _heading, _notes, _svg, _text  # noqa: E402

from companion.app.config import Pins, hub_pins, shipped_pins  # noqa: E402
from companion.ui.catalog import catalog, languages  # noqa: E402

ROOT = HERE.parent
DATA = ROOT / "hardware" / "maker.toml"
BOM = ROOT / "hardware" / "bom.csv"
README = ROOT / "hardware" / "README.md"
PAD_SVG = ROOT / "hardware" / "pad.svg"
DE9_SVG = ROOT / "hardware" / "de9.svg"
HOST_SVG = ROOT / "hardware" / "host-box.svg"
BUZZER_SVG = ROOT / "hardware" / "buzzer.svg"
KEYS = 8  # cards 1..8: a pad's keys, a plug's column pins 1..8

# One colour a wire, only to tell them apart in the drawing (cables have their own colours).
WIRES = ("#c92a2a", "#e8590c", "#b08900", "#2b8a3e", "#0c8599", "#1864ab", "#7048b6", "#a61e4d")
ROW_INK = "#212529"
DIODE_GLASS, DIODE_BAND = "#ffc9a8", "#212529"


def data() -> dict:
    return tomllib.loads(DATA.read_text("utf-8"))


def names(lang: str = "en") -> list[str]:
    """The card names 1..8 in ``lang``, as the device shows them."""
    words = catalog(lang)
    return [words.card(k) for k in range(1, KEYS + 1)]


def _f(value: float) -> str:
    """A coordinate in a drawing: at most two decimals, no trailing zeros, no "-0"."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _line(points: list[tuple[float, float]], colour: str, width: float, ident: str = "") -> str:
    ids = f' id="{ident}"' if ident else ""
    coords = " ".join(f"{_f(x)},{_f(y)}" for x, y in points)
    return (
        f'<polyline{ids} points="{coords}" fill="none" stroke="{colour}" '
        f'stroke-width="{_f(width)}" stroke-linejoin="round"/>'
    )


# ---------------------------------------------------------------------------
# The DE-9 connector: where each pin is, seen from one side.


def de9_pins(
    cx: float, cy: float, pitch: float, gap: float, flip: bool
) -> dict[int, tuple[float, float]]:
    """Pin number -> its centre, for a DE-9 with its wide row (pins 1..5) on top.

    Seen as a male plug's front (its pins toward you), pin 1 is top left and the numbers
    run left to right: 1..5 on top, 6..9 below. Its solder side is the mirror of that (pin
    1 top right), and so is a female socket's front; the socket's solder side mirrors its
    front back again (pin 1 top left). ``flip`` draws the mirror image."""
    side = -1 if flip else 1
    pins = {n: (cx + side * (n - 3) * pitch, cy - gap / 2) for n in range(1, 6)}
    pins |= {n: (cx + side * (n - 7.5) * pitch, cy + gap / 2) for n in range(6, 10)}
    return pins


def mirrored(gender: str, side: str) -> bool:
    """A male plug's front is the unmirrored view; its back and a socket's front mirror it."""
    return (gender == "male") != (side == "front")


def _shell(cx: float, cy: float, pitch: float, gap: float, ink: str, width: float) -> str:
    """The D-shaped shell: wide on top, where pins 1..5 are."""
    top, bottom = cy - gap / 2 - 0.75 * pitch, cy + gap / 2 + 0.75 * pitch
    wide, narrow = 2.85 * pitch, 2.3 * pitch
    points = [(cx - wide, top), (cx + wide, top), (cx + narrow, bottom), (cx - narrow, bottom)]
    coords = " ".join(f"{_f(x)},{_f(y)}" for x, y in points)
    return (
        f'<polygon points="{coords}" fill="#f1f3f5" stroke="{ink}" stroke-width="{_f(width)}" '
        'stroke-linejoin="round"/>'
    )


def _pin_colour(n: int) -> str:
    return ROW_INK if n == DE9_ROW else WIRES[n - 1]


def de9(
    cx: float, cy: float, pitch: float, gap: float, gender: str, side: str, ident: str
) -> tuple[list[str], dict[int, tuple[float, float]]]:
    """One DE-9 drawn from ``side`` ("front" or "solder"): its shell and its 9 pins, each
    in a group ``{ident}-{n}``, and each pin's centre."""
    pins = de9_pins(cx, cy, pitch, gap, mirrored(gender, side))
    solder = side == "solder"
    out = [_shell(cx, cy, pitch, gap, GREY if not solder else "#c92a2a", 3 if solder else 1.5)]
    r = 0.3 * pitch
    for n, (x, y) in pins.items():
        colour = _pin_colour(n)
        if solder:  # a cup: a ring in its wire's colour, open to the solder
            shape = (
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="#ffffff" '
                f'stroke="{colour}" stroke-width="4"/>'
            )
            ink = colour
        elif gender == "male":  # a pin
            shape = f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="{colour}"/>'
            ink = "#ffffff"
        else:  # a socket's hole: dark, ringed in its line's colour
            shape = (
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="{GREY}" '
                f'stroke="{colour}" stroke-width="4"/>'
            )
            ink = "#ffffff"
        number = _text(
            round(x), round(y + 5), str(n), text_anchor="middle", font_size="14",
            font_weight="bold", fill=ink,
        )  # fmt: skip
        out += [f'<g id="{ident}-{n}">', shape, number, "</g>"]
    return out, pins


# ---------------------------------------------------------------------------
# The pad: keys, diodes, and the wires to the plug's cups.


@dataclass(frozen=True)
class PadLayout:
    """Where the pad drawing puts things, in pixels."""

    key_x0: int = 100  # card 1's key centre
    key_pitch: int = 110
    key_top: int = 380
    key: int = 64  # a key's body, square
    track_top: int = 130  # the top wire (card 1)
    track_step: int = 16
    plug_x: int = 1090
    plug_pitch: int = 62
    diode_top: int = 480
    diode_len: int = 40
    row_y: int = 560


def pad_svg(cards: list[str]) -> str:
    """Inside a pad, as an SVG document."""
    at = PadLayout()
    top_row = DE9_ROW - 4  # pins 1..5 are the wide row, 6..9 the narrow one
    # Wires to the top row's cups run above it, card 1 highest: each drops to its cup
    # without crossing the others. Those to the bottom row run between the two rows.
    track = {k: at.track_top + (k - 1) * at.track_step for k in range(1, top_row + 1)}
    plug_top = track[top_row] + 48
    track |= {k: plug_top + 30 + (k - top_row - 1) * at.track_step for k in range(6, KEYS + 1)}
    plug_bottom = track[KEYS] + 34
    gap = plug_bottom - plug_top
    plug, cups = de9(
        at.plug_x, (plug_top + plug_bottom) / 2, at.plug_pitch, gap, "male", "solder", "cup"
    )
    body = _heading(
        "Santo Domingo Companion: inside a pad",
        "Seen from the players' side through the lid: card 1 on the left. From the back, "
        "while you solder, all runs the other way: the view at the bottom.",
    )
    # The shell under the wires, the cups over them: each wire ends inside its cup.
    body += plug[:1] + _wires(at, track, cups) + plug[1:]
    body += _plug_caption(cups[DE9_ROW][0] + 14, plug_bottom + round(0.75 * at.plug_pitch))
    for k, name in enumerate(cards, 1):
        body += _key(at, k, name)
        body += _diode(at, k)
    notes = _pad_notes()
    body += _notes(40, at.row_y + 60, notes)
    back_y = at.row_y + 60 + len(notes) * 20 + 40
    body += _back_view(at, back_y)
    return _svg(1300, back_y + 200, body, "Inside a pad")


def _back_view(at: PadLayout, y: int) -> list[str]:
    """The perfboard turned over left to right (about its vertical axis), as
    you see it while you solder: card 1 on the right, each key's column leg top RIGHT and
    its diode's leg bottom LEFT, the row along the bottom."""
    size, half = 44, 22
    out = [
        _text(
            40,
            y,
            "BACK of the perfboard, the side you solder (turned over left to right): "
            "card 1 on the RIGHT, each key's legs mirrored too",
            font_weight="bold",
            fill="#c92a2a",
        ),
    ]
    top = y + 40
    row_y = top + size + 70
    xs = {k: _key_x(at, 1) + _key_x(at, KEYS) - _key_x(at, k) for k in range(1, KEYS + 1)}
    out.append(_line([(min(xs.values()) - half, row_y), (max(xs.values()) + half, row_y)],
                     ROW_INK, 3))  # fmt: skip
    out.append(_text(max(xs.values()) + half + 10, row_y + 5, f"the row: to pin {DE9_ROW}",
                     font_size="13", font_weight="bold"))  # fmt: skip
    for k, x in xs.items():
        left, right, bottom = x - half, x + half, top + size
        diode_top = bottom + 12
        out += [
            f'<g id="back-key-{k}">',
            f'<rect x="{left}" y="{top}" width="{size}" height="{size}" rx="3" fill="#ffffff" '
            f'stroke="{GREY}" stroke-width="1.5" stroke-dasharray="4 3"/>',
            _text(
                x, top + half + 7, str(k), text_anchor="middle", font_size="18", font_weight="bold"
            ),
            f'<circle class="column-leg" cx="{right}" cy="{top}" r="6" fill="{WIRES[k - 1]}"/>',
            f'<circle class="diode-leg" cx="{left}" cy="{bottom}" r="4" fill="{GREY}"/>',
            _line([(left, bottom), (left, diode_top)], GREY, 2),
            f'<rect x="{left - 5}" y="{diode_top}" width="10" height="30" rx="4" '
            f'fill="{DIODE_GLASS}" stroke="{GREY}"/>',
            f'<rect class="band" x="{left - 5}" y="{diode_top + 24}" width="10" height="5" '
            f'fill="{DIODE_BAND}"/>',
            _line([(left, diode_top + 30), (left, row_y)], GREY, 2),
            _text(
                right, top - 10, f"pin {k}", text_anchor="middle", font_size="12", fill=WIRES[k - 1]
            ),
            "</g>",
        ]
    return out


def _key_x(at: PadLayout, k: int) -> int:
    return at.key_x0 + (k - 1) * at.key_pitch


def _wires(at: PadLayout, track: dict[int, int], cups: dict[int, tuple[float, float]]) -> list[str]:
    """The 8 column wires, key to cup, and the row wire, every diode to cup 9."""
    out = []
    half = at.key // 2
    for k in range(1, KEYS + 1):
        leg = (_key_x(at, k) - half, at.key_top)  # the key's top left leg
        cup = cups[k]
        points = [leg, (leg[0], track[k]), (cup[0], track[k]), cup]
        out.append(_line(points, WIRES[k - 1], 3, f"wire-{k}"))
        out.append(
            _text(leg[0] + 6, at.key_top - 8, f"to pin {k}", font_size="12", fill=WIRES[k - 1])
        )
    first, last = _key_x(at, 1) + half, cups[DE9_ROW]
    row = [(first, at.row_y), (last[0], at.row_y), last]
    out.append(_line(row, ROW_INK, 4, "wire-row"))
    out.append(
        _text(
            round(last[0]) + 10,
            at.row_y - 8,
            f"the row: all 8 cathodes to pin {DE9_ROW}",
            font_size="13",
            font_weight="bold",
        )
    )
    return out


def _key(at: PadLayout, k: int, name: str) -> list[str]:
    """A 12×12 mm tactile switch seen from above: 4 legs, the card's number and name."""
    x, top, size = _key_x(at, k), at.key_top, at.key
    left, right, bottom = x - size // 2, x + size // 2, top + size
    out = [f'<g id="key-{k}">']
    out.append(
        f'<rect x="{left}" y="{top}" width="{size}" height="{size}" rx="4" fill="#e9ecef" '
        f'stroke="{GREY}" stroke-width="1.5"/>'
    )
    out.append(f'<circle cx="{x}" cy="{top + size // 2}" r="20" fill="#ffffff" stroke="{GREY}"/>')
    for lx, ly in ((left, top), (right, top), (left, bottom), (right, bottom)):
        out.append(f'<circle cx="{lx}" cy="{ly}" r="4" fill="{GREY}"/>')
    out.append(
        _text(
            x, top + size // 2 + 7, str(k), text_anchor="middle", font_size="20", font_weight="bold"
        )
    )
    out.append(_text(x, bottom + 24, name, text_anchor="middle", font_size="13", fill=GREY))
    out.append("</g>")
    return out


def _diode(at: PadLayout, k: int) -> list[str]:
    """A 1N4148 from the key's bottom right leg, its band (the cathode) toward the row."""
    x = _key_x(at, k) + at.key // 2
    top, end = at.diode_top, at.diode_top + at.diode_len
    band = end - 8
    return [
        f'<g id="diode-{k}">',
        _line([(x, at.key_top + at.key), (x, top)], GREY, 2),
        f'<rect x="{x - 7}" y="{top}" width="14" height="{at.diode_len}" rx="5" '
        f'fill="{DIODE_GLASS}" stroke="{GREY}"/>',
        f'<rect class="band" x="{x - 7}" y="{band}" width="14" height="6" fill="{DIODE_BAND}"/>',
        _line([(x, end), (x, at.row_y)], GREY, 2),
        *(_diode_words(x, top, end) if k == 1 else []),
        "</g>",
    ]


def _diode_words(x: int, top: int, end: int) -> list[str]:
    """The first diode says which end is which; the others are drawn the same way."""
    return [
        _text(x - 12, top + 10, "anode", font_size="11", fill=GREY, text_anchor="end"),
        _text(x - 12, end, "band: cathode", font_size="11", font_weight="bold", text_anchor="end"),
    ]


def _plug_caption(x: float, y: int) -> list[str]:
    """Under the plug's shell (its bottom edge at ``y``), beside the row wire's rise to cup 9."""
    left = round(x)
    return [
        _text(left, y + 22, "DE-9 male plug,", font_weight="bold", fill="#c92a2a"),
        _text(left, y + 42, "seen from its SOLDER side:", font_weight="bold", fill="#c92a2a"),
        _text(left, y + 62, "pin 1 top RIGHT, mirrored", font_size="13", fill=GREY),
        _text(left, y + 80, "from the front (de9.svg)", font_size="13", fill=GREY),
    ]


def _pad_notes() -> list[str]:
    return [
        "Each key: any two DIAGONALLY opposite legs (a 4-leg switch joins its legs in pairs; "
        "a multimeter shows which: open at rest, closed when pressed).",
        "Each key and its 1N4148 are in series, either order, between pin n and the row: the "
        f"band (cathode) toward pin {DE9_ROW}. A diode turned the wrong way: that key never reads.",
        "A 10-way rainbow ribbon numbers its wires as resistors do: brown 1, red 2 ... grey 8, "
        "white 9 (the row), black spare; the drawing's colours are its own.",
        f"Pins 1..{KEYS}: the card columns, card n to pin n. Pin {DE9_ROW}: the row. "
        "Nothing else in a pad: no resistor, no power, no ground.",
        "Check each key before closing the box: hardware/README.md, 'Building a pad'.",
        "Drawn by scripts/maker.py from the pin map and the catalog (make hardware/pad.svg).",
    ]


# ---------------------------------------------------------------------------
# The DE-9 pinouts: plug and socket, front and solder side, with what each pin carries.


def de9_svg(pins: Pins, hub: dict[str, list[int]], cards: list[str]) -> str:
    """The pad's plug and the host's socket from both sides, as an SVG document."""
    pitch, gap = 46, 52
    body = _heading(
        "Santo Domingo Companion: the DE-9 plugs and sockets",
        "Wide row on top in every view. Solder from the back, where the numbers run "
        "mirrored: solder-side views framed in red.",
    )
    views = (
        ("male", "front", 230, 200, "PAD: male plug", "front: its pins"),
        ("male", "solder", 600, 200, "PAD: male plug", "SOLDER side: its cups"),
        ("female", "front", 230, 480, "HOST BOX: female socket", "front: its holes"),
        ("female", "solder", 600, 480, "HOST BOX: female socket", "SOLDER side: its cups"),
    )
    for gender, side, cx, cy, what, seen in views:
        drawn, _ = de9(cx, cy, pitch, gap, gender, side, f"{gender}-{side}")
        ink = "#c92a2a" if side == "solder" else GREY
        body += drawn
        body += [
            _text(cx, cy - 110, what, text_anchor="middle", font_weight="bold", fill=ink),
            _text(cx, cy - 88, seen, text_anchor="middle", font_weight="bold", fill=ink),
            _text(cx, cy + 100, _where(gender, side), text_anchor="middle", font_size="13",
                  fill=GREY),
        ]  # fmt: skip
    body += _pin_table(880, 140, pins, hub, cards)
    body += _pin_legend(60, 640)
    body += _notes(40, 700, _de9_notes())
    return _svg(1300, 810, body, "The DE-9 plugs and sockets")


def _pin_legend(x: int, y: int) -> list[str]:
    words = (
        (WIRES[0], f"pins 1..{KEYS}: card 1..{KEYS}'s column, coloured as its wire in pad.svg"),
        (ROW_INK, f"pin {DE9_ROW}: the seat's row"),
    )
    out = []
    for i, (colour, text) in enumerate(words):
        cy = y + i * 24
        out.append(f'<circle cx="{x}" cy="{cy}" r="8" fill="{colour}"/>')
        out.append(_text(x + 16, cy + 5, text, font_size="13"))
    return out


def _where(gender: str, side: str) -> str:
    corner = "left" if not mirrored(gender, side) else "right"
    return f"pin 1 top {corner}, pin 6 bottom {corner}"


def _pin_table(
    x: int, y: int, pins: Pins, hub: dict[str, list[int]], cards: list[str]
) -> list[str]:
    """What each pin carries, and where the host's socket pin goes: Pi GPIO or hub GP."""
    out = [_text(x, y, "socket pin: line → Pi GPIO (header pin) · or hub GP", font_weight="bold")]
    for k in range(1, KEYS + 1):
        gpio, gp = pins.columns[k - 1], hub["columns"][k - 1]
        line = f"{k}: card {k} {cards[k - 1]} → GPIO {gpio} ({wiring.physical(gpio)}) · GP{gp}"
        out.append(_text(x, y + 26 * k, line, font_size="14", fill=WIRES[k - 1]))
    row_y = y + 26 * (KEYS + 1)
    out.append(_text(x, row_y, f"{DE9_ROW}: the row of the seat's socket:", font_size="14"))
    for seat, (gpio, gp) in enumerate(zip(pins.rows, hub["rows"], strict=True), 1):
        line = f"P{seat}: GPIO {gpio} ({wiring.physical(gpio)}) · GP{gp}"
        out.append(_text(x + 24, row_y + 22 * seat, line, font_size="14", fill=ROW_INK))
    return out


def _de9_notes() -> list[str]:
    return [
        "In the host box, pins 1..8 of every socket are joined (pin 1 to pin 1 ...) and go to "
        "that card's GPIO; pin 9 of each socket is that seat's row alone.",
        f"Each card column also goes to 3.3 V through one {_ohms(data())} resistor: 8 resistors "
        "in all, one a column, not one a socket (host-box.svg draws it all).",
        "The pad's cable is straight through: plug pin n to socket pin n, all 9 (never a "
        "null-modem cable). Most connectors print tiny numbers on both sides: trust them.",
        "Drawn by scripts/maker.py from companion/data/pins.toml (make hardware/pad.svg).",
    ]


# ---------------------------------------------------------------------------
# The host box: the six sockets, the column bus, the pull-ups, the wires to the header.


@dataclass(frozen=True)
class HostLayout:
    """Where the host box drawing puts things, in pixels."""

    socket_x0: int = 50  # the first socket's left edge
    socket_pitch: int = 160
    socket_top: int = 170
    socket_h: int = 56
    cup_pitch: int = 15
    rail_y: int = 130
    bus_y0: int = 270  # column 1's bus line
    bus_step: int = 20
    row_gap: int = 30  # between the last bus line and the first row line
    pullup_x0: int = 1010
    pullup_step: int = 26
    label_x: int = 1230


def host_svg(pins: Pins, hub: dict[str, list[int]], cards: list[str], facts: dict) -> str:
    """Inside the host box (or the hub's), as a schematic SVG document."""
    at = HostLayout()
    seats, columns = len(pins.rows), len(pins.columns)
    bus = {k: at.bus_y0 + (k - 1) * at.bus_step for k in range(1, columns + 1)}
    rows_y0 = bus[columns] + at.row_gap
    rows = {s: rows_y0 + (s - 1) * at.bus_step for s in range(1, seats + 1)}
    right = at.label_x - 10
    body = _heading(
        "Santo Domingo Companion: inside the host box",
        "Each seat's DE-9 female socket, its cups drawn in a line: cup n of every socket joins "
        "the column bus n; cup 9 is the seat's own row. A dot joins wires; a crossing does not.",
    )
    for k, y in bus.items():
        x0 = _cup_x(at, 1, k)
        body.append(_line([(x0, y), (right, y)], WIRES[k - 1], 3, f"bus-{k}"))
        body += _host_label(y, f"card {k} {cards[k - 1]}", pins.columns[k - 1],
                            hub["columns"][k - 1], WIRES[k - 1])  # fmt: skip
    for s, y in rows.items():
        x0 = _cup_x(at, s, DE9_ROW)
        body.append(_line([(x0, y), (right, y)], ROW_INK, 3, f"row-{s}"))
        body += _host_label(y, f"P{s} row", pins.rows[s - 1], hub["rows"][s - 1], ROW_INK)
    for s in range(1, seats + 1):
        body += _socket(at, s, bus, rows[s])
    body += _host_pullups(at, bus, facts)
    body += _notes(40, rows[seats] + 50, _host_notes(facts))
    return _svg(1760, rows[seats] + 50 + 5 * 20, body, "Inside the host box")


def _cup_x(at: HostLayout, seat: int, n: int) -> int:
    return at.socket_x0 + (seat - 1) * at.socket_pitch + 12 + (n - 1) * at.cup_pitch


def _socket(at: HostLayout, seat: int, bus: dict[int, int], row_y: int) -> list[str]:
    """One socket: a box, its 9 cups along the bottom, each cup's drop to its bus or row."""
    left = at.socket_x0 + (seat - 1) * at.socket_pitch
    width = 24 + (DE9_ROW - 1) * at.cup_pitch
    bottom = at.socket_top + at.socket_h
    out = [
        f'<g id="socket-{seat}">',
        f'<rect x="{left}" y="{at.socket_top}" width="{width}" height="{at.socket_h}" rx="6" '
        f'fill="#f1f3f5" stroke="{GREY}" stroke-width="1.5"/>',
        _text(
            left + width // 2,
            at.socket_top + 20,
            f"P{seat} socket",
            text_anchor="middle",
            font_weight="bold",
        ),
        _text(
            left + width // 2,
            at.socket_top + 36,
            "female DE-9",
            text_anchor="middle",
            font_size="11",
            fill=GREY,
        ),
        "</g>",
    ]
    for n in range(1, DE9_ROW + 1):
        x, colour = _cup_x(at, seat, n), _pin_colour(n)
        end = bus[n] if n < DE9_ROW else row_y
        out += [
            _line([(x, bottom), (x, end)], colour, 2, f"drop-{seat}-{n}"),
            wiring.joint(x, end),
            f'<circle id="cup-{seat}-{n}" cx="{x}" cy="{bottom}" r="5" fill="#ffffff" '
            f'stroke="{colour}" stroke-width="2"/>',
            _text(x, bottom - 9, str(n), text_anchor="middle", font_size="10", fill=GREY),
        ]
    return out


def _host_label(y: int, line: str, gpio: int, gp: int, colour: str) -> list[str]:
    at = HostLayout()
    where = (
        f"→ Pi GPIO {gpio} (header pin {wiring.physical(gpio)}) · or hub GP{gp} (pin "
        f"{wiring.pico_pin(gp)})"
    )
    return [
        _text(at.label_x, y + 5, line, font_size="13", font_weight="bold", fill=colour),
        _text(at.label_x + 130, y + 5, where, font_size="13", fill=colour),
    ]


def _host_pullups(at: HostLayout, bus: dict[int, int], facts: dict) -> list[str]:
    """One resistor a column, from the 3.3 V rail down to its bus line."""
    first = at.pullup_x0
    supply = next(n for n, name in wiring.header().items() if name == "3V3" and n != 1)
    pico = wiring.PICO.index("3V3(OUT)") + 1
    ink = wiring.COLOURS["power"][1]
    out = [
        _line([(first - 20, at.rail_y), (at.label_x - 10, at.rail_y)], ink, 3, "rail"),
        _text(
            at.label_x,
            at.rail_y + 5,
            f"3.3 V → Pi header pin {supply} · or hub 3V3(OUT) (pin {pico})",
            font_size="13",
            font_weight="bold",
            fill=ink,
        ),
        _text(
            first - 20,
            at.rail_y - 12,
            f"{len(bus)} × {_ohms(facts)}, one a column",
            font_size="13",
            font_weight="bold",
            fill=ink,
        ),
    ]
    for k, y in bus.items():
        x = first + (k - 1) * at.pullup_step
        out += [
            f'<g id="pullup-{k}">',
            _line([(x, at.rail_y), (x, y)], WIRES[k - 1], 2),
            wiring.resistor(x, at.rail_y + 22, 50, WIRES[k - 1]),
            wiring.joint(x, at.rail_y),
            wiring.joint(x, y),
            "</g>",
        ]
    return out


def _host_notes(facts: dict) -> list[str]:
    return [
        "Each socket's cups in a line for clarity: where each cup really is, see de9.svg "
        "(female socket, solder side). Test it with the Pi unplugged: hardware/README.md.",
        f"{len(WIRES)} resistors of {_ohms(facts)} in all, one a column (not one a socket), on "
        "a strip of perfboard in the box; the Pi's own pull-ups stay on as well.",
        "The hub's box is wired the same, to the Pico's pins (after the ·) and its 3V3(OUT).",
        "NOT RS-232: never plug a computer's serial cable into these sockets (its ±12 V would "
        "reach the GPIOs).",
        "Drawn by scripts/maker.py from companion/data/pins.toml and hardware/maker.toml "
        "(make hardware/pad.svg).",
    ]


# ---------------------------------------------------------------------------
# The buzzer: its driver's schematic and the transistors' pinouts.


def buzzer_svg(pins: Pins, facts: dict) -> str:
    """The buzzer, its NPN transistor, base resistor and diode, as an SVG document."""
    uses = wiring.pi_uses(pins, wiring.defaults().display, names())
    five = [n for n, name in wiring.header().items() if name == "5V"]
    ground = next(n for n, u in uses.items() if "transistor emitter" in u.label)
    gpio = pins.buzzer
    body = _heading(
        "Santo Domingo Companion: the buzzer",
        "The GPIO switches an NPN transistor; the buzzer draws its current from 5 V, not from "
        "the GPIO. Left: the circuit. Right: the transistor's legs.",
    )
    if gpio is not None:
        body += _buzzer_circuit(gpio, five, ground, facts)
    x = 760
    for part, legs in facts["buzzer"]["pinouts"].items():
        body += _to92(x, 170, part, legs)
        x += 230
    body += _notes(40, 520, _buzzer_notes(facts))
    return _svg(1200, 520 + 5 * 20, body, "The buzzer")


def _buzzer_circuit(gpio: int, five: list[int], ground: int, facts: dict) -> list[str]:
    """GPIO → resistor → base; emitter to ground; collector to the buzzer's −; its + to 5 V;
    the diode across the buzzer, band (cathode) at +."""
    ink, power = GREY, wiring.COLOURS["power"][1]
    bx, top, plus, minus, collector = 380, 110, 170, 250, 300  # the buzzer's column
    ohms = facts["buzzer"]["base_resistor_ohm"]
    supply = " or ".join(str(n) for n in five)
    diode_x = bx + 110
    out = [
        _line([(bx, top), (bx, plus)], power, 3, "supply"),
        _text(bx - 10, top - 10, f"+5 V: header pin {supply}", font_weight="bold", fill=power),
        wiring.joint(bx, top + 20),
        wiring.joint(bx, minus + 20),
        # the buzzer: a box, + on top
        '<g id="buzzer">',
        f'<rect x="{bx - 30}" y="{plus}" width="60" height="{minus - plus}" rx="8" '
        f'fill="#f3f0ff" stroke="{ink}" stroke-width="2"/>',
        _text(bx, plus + 46, "BZ", text_anchor="middle", font_weight="bold"),
        _text(bx - 16, plus + 18, "+", text_anchor="middle", font_size="18", font_weight="bold"),
        _text(bx - 16, minus - 6, "−", text_anchor="middle", font_size="18", font_weight="bold"),
        "</g>",
        _text(bx - 40, plus + 36, "buzzer", text_anchor="end", font_weight="bold"),
        _text(bx - 40, plus + 54, "(active, 5 V)", text_anchor="end", font_size="13", fill=ink),
        _line([(bx, minus), (bx, collector)], ink, 2, "collector"),
        # the diode across the buzzer: anode at −, cathode (band) at +
        '<g id="flyback">',
        _line([(bx, top + 20), (diode_x, top + 20), (diode_x, plus)], ink, 2),
        f'<rect x="{diode_x - 7}" y="{plus}" width="14" height="{minus - plus}" rx="5" '
        f'fill="{DIODE_GLASS}" stroke="{ink}"/>',
        f'<rect class="band" x="{diode_x - 7}" y="{plus + 6}" width="14" height="8" '
        f'fill="{DIODE_BAND}"/>',
        _line([(diode_x, minus), (diode_x, minus + 20), (bx, minus + 20)], ink, 2),
        "</g>",
        _text(diode_x + 16, plus + 14, "1N4148: band at +", font_size="13", font_weight="bold"),
        _text(diode_x + 16, plus + 32, "always fit it", font_size="13", fill=ink),
    ]
    out += _npn(bx, collector, ink)
    base_y, emitter = collector + 30, collector + 60
    out += [
        '<g id="base">',
        _line([(170, base_y), (bx - 35, base_y)], wiring.COLOURS["buzzer"][0], 2),
        f'<rect x="220" y="{base_y - 7}" width="56" height="14" fill="#ffffff" stroke="{ink}" '
        'stroke-width="2"/>',
        "</g>",
        _text(
            248,
            base_y - 14,
            f"{ohms / 1000:g} kΩ",
            text_anchor="middle",
            font_size="13",
            font_weight="bold",
        ),
        _text(
            160,
            base_y - 4,
            f"GPIO {gpio}",
            text_anchor="end",
            font_weight="bold",
            fill=wiring.COLOURS["buzzer"][0],
        ),
        _text(
            160,
            base_y + 14,
            f"header pin {wiring.physical(gpio)}",
            text_anchor="end",
            font_size="13",
            fill=ink,
        ),
        _line([(bx, emitter), (bx, emitter + 40)], ink, 2, "emitter"),
        _line([(bx - 18, emitter + 40), (bx + 18, emitter + 40)], ink, 3),
        _line([(bx - 11, emitter + 47), (bx + 11, emitter + 47)], ink, 3),
        _line([(bx - 4, emitter + 54), (bx + 4, emitter + 54)], ink, 3),
        _text(bx + 30, emitter + 46, f"ground: header pin {ground}", font_weight="bold"),
    ]
    return out


def _npn(x: int, collector: int, ink: str) -> list[str]:
    """An NPN transistor's symbol, its collector lead ending at (x, collector), its emitter
    60 px below, its base to the left."""
    bar = x - 35
    mid = collector + 30
    return [
        '<g id="npn">',
        f'<circle cx="{x - 18}" cy="{mid}" r="26" fill="none" stroke="{ink}" stroke-width="1.5"/>',
        _line([(bar, mid - 14), (bar, mid + 14)], ink, 4),
        _line([(bar, mid - 6), (x, collector + 8), (x, collector)], ink, 2),
        _line([(bar, mid + 6), (x, collector + 52), (x, collector + 60)], ink, 2),
        f'<polygon points="{x},{collector + 52} {x - 12},{collector + 50} {x - 6},{collector + 42}"'
        f' fill="{ink}"/>',
        _text(x + 10, collector + 14, "C", font_size="13", font_weight="bold"),
        _text(bar - 14, mid - 8, "B", font_size="13", font_weight="bold"),
        _text(x + 10, collector + 56, "E", font_size="13", font_weight="bold"),
        _text(x + 36, mid + 5, "NPN: 2N3904 or BC547", font_size="13", fill=ink),
        "</g>",
    ]


def _to92(cx: int, top: int, part: str, legs: str) -> list[str]:
    """A TO-92 seen with its flat face toward you, legs down: which leg is which."""
    out = [
        f'<g id="to92-{part}">',
        _text(cx, top - 20, part, text_anchor="middle", font_size="18", font_weight="bold"),
        f'<rect x="{cx - 50}" y="{top}" width="100" height="90" rx="8" fill="{GREY}"/>',
        _text(cx, top + 56, "flat face", text_anchor="middle", font_size="12", fill="#ffffff"),
    ]
    names = {"E": "emitter", "B": "base", "C": "collector"}
    for i, leg in enumerate(legs):
        x = cx + (i - 1) * 40
        out += [
            _line([(x, top + 90), (x, top + 170)], "#868e96", 4),
            f'<g id="to92-{part}-{i + 1}">',
            _text(x, top + 192, leg, text_anchor="middle", font_size="18", font_weight="bold"),
            "</g>",
            _text(x, top + 210, names[leg], text_anchor="middle", font_size="10", fill=GREY),
        ]
    out += [
        _text(cx, top + 240, "flat face toward you,", text_anchor="middle", font_size="13"),
        _text(cx, top + 258, "legs down", text_anchor="middle", font_size="13"),
        "</g>",
    ]
    return out


def _buzzer_notes(facts: dict) -> list[str]:
    sources = "; ".join(f"{part}: {src}" for part, src in facts["buzzer"]["sources"].items())
    return [
        "Always fit the diode, band (cathode) to +: many active buzzers are magnetic inside, "
        "and a coil's kick at switch-off would hit the transistor.",
        "The other kind (passive) is wired the same. A buzzer sold for 3.3 V: its + to a 3.3 V "
        "pin instead.",
        f"Pinouts from the datasheets ({sources}); another make: check with a multimeter.",
        "On the diode range, red probe on the base: base to emitter and base to collector "
        "each read about 0.6–0.7 V.",
        "Drawn by scripts/maker.py from companion/data/pins.toml and hardware/maker.toml "
        "(make hardware/pad.svg).",
    ]


# ---------------------------------------------------------------------------
# The key labels: one A4 sheet per language.


def label_svg(lang: str, sets: int, facts: dict) -> str:
    """An A4 sheet of ``sets`` rows of the 8 card labels in ``lang``, with cut lines, to
    print at actual size: the page and every length on it are in millimetres."""
    labels = facts["labels"]
    size, cards = labels["size_mm"], names(lang)
    page_w, page_h = 210, 297
    x0, y0 = (page_w - KEYS * size) / 2, 45
    language = catalog(lang).t("language")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{page_w}mm" height="{page_h}mm" '
        f'viewBox="0 0 {page_w} {page_h}" font-family="{FONT}">',
        f"<title>{escape(f'Key labels: {language}')}</title>",
        f'<rect width="{page_w}" height="{page_h}" fill="#ffffff"/>',
        _text(20, 20, f"Santo Domingo Companion: key labels ({language})", font_size="6",
              font_weight="bold"),
    ]  # fmt: skip
    for row in range(sets):
        y = y0 + row * size
        tag = f"P{row + 1}" if row < sets - labels["spare_sets"] else "spare"
        out.append(_text(_f(x0 - 4), _f(y + size / 2 + 1.2), tag, font_size="3.2",
                         text_anchor="end", fill=GREY))  # fmt: skip
        for k, name in enumerate(cards, 1):
            out += _label(x0 + (k - 1) * size, y, size, k, name, labels, row)
    out += _cut_lines(x0, y0, size, sets)
    bottom = y0 + sets * size
    out += _scale_bar(x0, bottom + 22)
    notes = _label_notes(lang, size, facts["keys"]["cap_mm"])
    out += [
        _text(20, _f(bottom + 40 + 6 * i), line, font_size="3.4", fill=GREY)
        for i, line in enumerate(notes)
    ]
    out += ["</svg>", ""]
    return "\n".join(out)


def name_lines(name: str, labels: dict) -> tuple[list[str], float]:
    """A card's name as its label prints it: one line, or two where one line would be
    under ``name_min_mm``, and the font size in mm (to 0.01 mm) at which the lines fit."""

    def fits(lines: list[str]) -> float:
        widest = max(len(line) for line in lines)
        size = (labels["size_mm"] - 1) / (labels["em_per_char"] * widest)
        return min(labels["name_max_mm"], math.floor(size * 100) / 100)

    if fits([name]) >= labels["name_min_mm"]:
        return [name], fits([name])
    broken = labels["breaks"].get(name)
    if broken is None or broken.replace("-", "", 1) != name:
        raise SystemExit(f"{DATA.name}: [labels] breaks: no break for {name!r}, too long for "
                         f"one line at {labels['name_min_mm']} mm")  # fmt: skip
    head, tail = broken.split("-", 1)
    lines = [head + "-", tail]
    return lines, fits(lines)


def _label(x: float, y: float, size: float, k: int, name: str, labels: dict, row: int) -> list[str]:
    """One label: the card's number, bold, and its name under it on one or two lines."""
    cx = x + size / 2
    lines, name_mm = name_lines(name, labels)
    two = len(lines) == 2
    number = _text(_f(cx), _f(y + size * (0.45 if two else 0.56)), str(k),
                   font_size=_f(labels["number_mm"]), font_weight="bold",
                   text_anchor="middle")  # fmt: skip
    first = y + size * (0.7 if two else 0.86)
    named = [
        _text(_f(cx), _f(first + i * name_mm), line, font_size=_f(name_mm),
              text_anchor="middle", class_="name")
        for i, line in enumerate(lines)
    ]  # fmt: skip
    return [f'<g id="label-{row + 1}-{k}">', number, *named, "</g>"]


def _cut_lines(x0: float, y0: float, size: float, sets: int) -> list[str]:
    """The grid the labels sit in, each line running 4 mm past it: one cut serves two labels."""
    over, x1, y1 = 4, x0 + KEYS * size, y0 + sets * size
    lines = [((x0 - over, y0 + r * size), (x1 + over, y0 + r * size)) for r in range(sets + 1)]
    lines += [((x0 + c * size, y0 - over), (x0 + c * size, y1 + over)) for c in range(KEYS + 1)]
    out = ['<g id="cut-lines" stroke="#868e96" stroke-width="0.15">']
    for (ax, ay), (bx, by) in lines:
        out.append(f'<line x1="{_f(ax)}" y1="{_f(ay)}" x2="{_f(bx)}" y2="{_f(by)}"/>')
    out.append("</g>")
    return out


def _scale_bar(x: float, y: float) -> list[str]:
    """50 mm, to check the print's scale with a ruler."""
    ticks = "".join(
        f'<line x1="{_f(x + t)}" y1="{_f(y - 1.5)}" x2="{_f(x + t)}" y2="{_f(y + 1.5)}"/>'
        for t in range(0, 51, 10)
    )
    return [
        f'<g id="scale" stroke="{GREY}" stroke-width="0.3">'
        f'<line x1="{_f(x)}" y1="{_f(y)}" x2="{_f(x + 50)}" y2="{_f(y)}"/>{ticks}</g>',
        _text(_f(x + 54), _f(y + 1.2), "50 mm: measure it after printing", font_size="3.2",
              fill=GREY),
    ]  # fmt: skip


def _label_notes(lang: str, size: float, cap: float) -> list[str]:
    return [
        "Print at 100 % (actual size, no fit to page): the bar above is then 50 mm long.",
        f"Each label is {_f(size)} × {_f(size)} mm, for a {_f(cap)} × {_f(cap)} mm key cap. "
        "Cut along the grey lines; one cut serves two labels.",
        "Sticker paper on top of a flat cap (or plain paper under a clear two-part cap, "
        "which the parts list does not name).",
        "A pad's keys run card 1 to card 8 from the left, as in pad.svg.",
        f"Drawn by scripts/maker.py from companion/ui/locale/{lang}.json (make hardware/pad.svg).",
    ]


# ---------------------------------------------------------------------------
# The README's blocks: the cable table and the parts list.


def _ohms(facts: dict) -> str:
    """The external pull-up's value as a parts list writes it: "10 kΩ", "4.7 kΩ"."""
    return f"{facts['column']['external_pullup_ohm'] / 1000:g} kΩ"


def cable_table(facts: dict, seats: int) -> str:
    """How long after a row change a column, released by the last row's held key, takes
    to read high, and how long the Pi should wait, by cable length.

    The column line is every seat's (the host joins pin n of every socket), so it carries
    ``seats`` cables' conductors, a diode a pad and the input. At worst every other seat
    holds that card too, and each held key's diode drags its released row's wire along:
    one more conductor a seat."""
    col, cable = facts["column"], facts["cable"]
    vdd, vih = col["supply_mv"] / 1000, col["vih_mv"] / 1000
    to_vih = math.log(vdd / (vdd - vih))  # time constants from 0 V to V_IH
    waits = col["settle_time_constants"]
    external = 1 / (1 / col["external_pullup_ohm"] + 1 / col["internal_pullup_ohm"])
    out = [
        "| cable, each pad | a column's load, at worst "
        f"| {_ohms(facts)} pull-ups: reads high after | and the Pi waits "
        "| the SoC's pull-ups alone: reads high after | and the Pi waits |",
        "|---|---|---|---|---|---|",
    ]
    for metres in cable["lengths_m"]:
        wire_pf = metres * cable["pf_per_metre"]
        load_pf = 2 * seats * wire_pf + seats * col["diode_pf"] + col["input_pf"]
        cells = [f"{metres} m" + ("" if metres <= cable["recommended_max_m"] else ", too long")]
        cells.append(f"{load_pf / 1000:.2f} nF")
        for ohms in (external, col["internal_pullup_ohm"]):
            tau_us = ohms * load_pf * 1e-6
            # whole microseconds, rounded up, as the software rounds its settle time
            cells += [f"{tau_us * to_vih:.0f} µs", f"{math.ceil(tau_us * waits - 1e-9)} µs"]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


GROUPS = {
    "base": "the companion, 6 seats, on a Zero 2 W",
    "hub": "the optional Pico pad hub adds",
    "instead": "another Pi's supply, instead of the Zero 2 W's",
}


@dataclass(frozen=True)
class Part:
    item: str
    part: str
    manufacturer_pn: str
    distributor_pn: str
    each: int
    per: str
    qty: int
    unit_eur: float
    line_eur: float
    group: str
    notes: str


def counts(pins: Pins) -> dict[str, int]:
    """What a BOM line's quantity is counted by, from the pin map."""
    seats = len(pins.rows)
    return {
        "build": 1,
        "seat": seats,
        "key": seats * len(pins.columns),
        "column": len(pins.columns),
        "button": len(pins.buttons),
    }


def bom(text: str, pins: Pins) -> list[Part]:
    """The parts list, every line checked: a quantity that does not follow the pin map, a
    line cost that is not quantity × unit, an unknown group is refused, naming the line."""
    parts = []
    per = counts(pins)
    for number, row in enumerate(csv.DictReader(io.StringIO(text)), 2):
        where = f"{BOM.name}:{number}"
        try:
            part = Part(
                **{**row, "each": int(row["each"]), "qty": int(row["qty"]),
                   "unit_eur": float(row["unit_eur"]), "line_eur": float(row["line_eur"])}
            )  # fmt: skip
        except (TypeError, ValueError) as error:
            raise SystemExit(f"{where}: not a parts line: {error}") from None
        if part.per not in per or part.qty != part.each * per[part.per]:
            raise SystemExit(
                f"{where}: {part.item}: qty {part.qty} is not {part.each} a {part.per}"
            )
        if round(part.qty * part.unit_eur, 2) != part.line_eur:
            raise SystemExit(f"{where}: {part.item}: line_eur is not qty × unit_eur")
        if part.group not in GROUPS:
            raise SystemExit(f"{where}: {part.item}: no group {part.group!r}")
        parts.append(part)
    return parts


def bom_table(parts: list[Part]) -> str:
    """The README's parts list: every line, then the total of each group."""
    out = ["| qty | part | part number | ≈ EUR each | ≈ EUR | notes |", "|---|---|---|---|---|---|"]
    for group, title in GROUPS.items():
        lines = [p for p in parts if p.group == group]
        out.append(f"| | **{title}** | | | | |")
        for p in lines:
            number = p.manufacturer_pn or "generic"
            out.append(
                f"| {p.qty} | {p.part} | {number} | {p.unit_eur:.2f} | {p.line_eur:.2f} "
                f"| {p.notes} |"
            )
        total = sum(p.line_eur for p in lines)
        out.append(f"| | total: {title} | | | **{total:.2f}** | |")
    return "\n".join(out)


# A generated block: its opening comment, the text, its closing comment.
BLOCK = re.compile(r"(<!-- maker\.py: (?P<name>[\w-]+) -->\n)(.*?)(\n<!-- /maker\.py -->)", re.S)


def readme(text: str, blocks: dict[str, str]) -> str:
    """``text`` with each generated block replaced; every block must exist, and no other."""
    found = {m["name"] for m in BLOCK.finditer(text)}
    if found != set(blocks):
        name = sorted(set(blocks) ^ found)[0]
        raise SystemExit(f"{README}: block <!-- maker.py: {name} --> missing or unknown")
    return BLOCK.sub(lambda m: m[1] + blocks[m["name"]] + m[4], text)


# ---------------------------------------------------------------------------


def label_path(lang: str) -> Path:
    return ROOT / "hardware" / f"labels-{lang}.svg"


def outputs() -> dict[Path, str]:
    """Every file this script writes, with the text it should hold now."""
    facts, pins, hub = data(), shipped_pins(), hub_pins()
    sets = len(pins.rows) + facts["labels"]["spare_sets"]
    files = {PAD_SVG: pad_svg(names()), DE9_SVG: de9_svg(pins, hub, names())}
    files[HOST_SVG] = host_svg(pins, hub, names(), facts)
    files[BUZZER_SVG] = buzzer_svg(pins, facts)
    files |= {label_path(lang): label_svg(lang, sets, facts) for lang in languages()}
    blocks = {
        "cable": cable_table(facts, len(pins.rows)),
        "bom": bom_table(bom(BOM.read_text("utf-8"), pins)),
    }
    files[README] = readme(README.read_text("utf-8"), blocks)
    return files


def main(argv: list[str] | None = None) -> int:
    return wiring.write(outputs, ROOT, __doc__ or "", argv)


if __name__ == "__main__":
    sys.exit(main())
