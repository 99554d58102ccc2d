"""Build the screens' pixel fonts (companion/ui/fonts/) from Debian's font packages.

    apt-get download fonts-spleen xfonts-base
    .venv/bin/python scripts/make_fonts.py fonts-spleen_*.deb xfonts-base_*.deb

The output is committed, so installing the companion never needs these packages; run
this only to change the fonts. It unpacks the packages with ``dpkg-deb``, takes each
glyph from the first source that has it with ink, and fails, naming the glyph, when no
source has one. It writes per font a PIL font (``NAME.pil`` metrics and ``NAME.png``
bitmap, read by ``PIL.ImageFont.load``), ``fonts.json`` (cells, the symbol slots and
where every glyph came from: package, version, file and its SHA-256), and the licences.

Sources: Spleen (BSD-2-Clause) is the face: a slashed 0, a tailed l, a real descender
on g. Its 5x8 has ASCII only, and no size has the arrows and triangles: for ``small``
and ``body`` those come from the public-domain misc-fixed font of the same cell, set on
the same baseline; for ``large`` and ``huge`` they are drawn below, as is Å where both
sources draw it exactly as Â. A few of the face's letters and digits are changed below
(``CHANGED``, each with its reason) so that no two differ by a pixel or two.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import struct
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import FontFile, Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "companion" / "ui" / "fonts"

CONSOLE = "usr/share/consolefonts"
MISC = "usr/share/fonts/X11/misc"

# Latin-1's printable characters, each drawn at its own code point.
LATIN1 = [chr(c) for c in [*range(0x20, 0x7F), *range(0xA0, 0x100)]]
# Beyond Latin-1: the symbols the screens and catalogs use, drawn in the slots Latin-1
# leaves to C1 control codes (0x80..0x9F). font.py maps them there before drawing.
SYMBOLS = "→←◀▶…—–‘’“”•"
FIRST_SLOT = 0x80
# Blank by design; every other glyph must have ink.
BLANK = {" ", "\xa0"}
# Drawn as another glyph where no source has its own.
ALIASES = {"\xad": "-"}


@dataclass(frozen=True)
class Spec:
    """One shipped font: a cell size and its sources, the first one the face."""

    name: str
    width: int
    height: int
    sources: tuple[tuple[str, str, int], ...]  # (package, path, pixel size)


SPECS = (
    Spec(
        "small",
        5,
        8,
        (
            ("fonts-spleen", f"{CONSOLE}/spleen-5x8.psfu.gz", 8),
            ("xfonts-base", f"{MISC}/5x8.pcf.gz", 8),
        ),
    ),
    Spec(
        "body",
        6,
        12,
        (
            ("fonts-spleen", f"{CONSOLE}/spleen-6x12.psfu.gz", 12),
            ("xfonts-base", f"{MISC}/6x12.pcf.gz", 12),
        ),
    ),
    Spec(
        "large",
        8,
        16,
        (("fonts-spleen", f"{CONSOLE}/spleen-8x16.psfu.gz", 16),),
    ),
    Spec(
        "huge",
        12,
        24,
        (("fonts-spleen", f"{CONSOLE}/spleen-12x24.psfu.gz", 24),),
    ),
)


# Drawn here where misc-fixed's arrows look thin beside Spleen's strokes: → and ▶; ← and
# ◀ are their mirror images. And Å, which both sources draw exactly as Â. The row marked
# ``-`` goes on the row of the face's hyphen, the row marked ``_`` just above the baseline.
ART = {
    "small": {
        "Å": """
            .#...
            #.#..
            .#...
            .##..
            #..#.
            ####.
          _ #..#.
        """,
    },
    "body": {
        "Å": """
            ..#...
            .#.#..
            ..#...
            .#.#..
            #...#.
            #####.
            #...#.
            #...#.
          _ #...#.
        """,
    },
    "large": {
        "→": """
            ....##..
            .....##.
          - #######.
            .....##.
            ....##..
        """,
        "▶": """
            .#......
            .##.....
            .###....
            .####...
          - .#####..
            .####...
            .###....
            .##.....
            .#......
        """,
    },
    "huge": {
        "→": """
            ......##....
            .......##...
            ........##..
            .........##.
          - ###########.
            .........##.
            ........##..
            .......##...
            ......##....
        """,
        "▶": """
            ..#.........
            ..##........
            ..###.......
            ..####......
            ..#####.....
            ..######....
            ..#######...
          - ..########..
            ..#######...
            ..######....
            ..#####.....
            ..####......
            ..###.......
            ..##........
            ..#.........
        """,
    },
}
MIRRORED = {"←": "→", "◀": "▶"}

# Glyphs of the face changed so that no two letters or digits are told apart by a pixel or
# two at arm's length (tests/test_legible.py says the rule and why): each with what was
# wrong, which fonts.json keeps beside it. Rows as in ``ART``; ``_`` marks the baseline's
# row. The small font's M, W, m and w take the whole cell, as misc-fixed's do: three
# strokes need five columns; beside a letter with a stem in its first column they touch it.
CHANGED: dict[str, dict[str, tuple[str, str]]] = {
    "small": {
        "K": (
            "Spleen's K was H with one pixel gone: 'OK' read 'OH'",
            """
            #..#.
            #.#..
            ##...
            #.#..
            #..#.
          _ #..#.
        """,
        ),
        "M": (
            "Spleen's M was H with a thicker bar: 'Menu' read 'Henu'; five wide, as misc-fixed",
            """
            #...#
            ##.##
            #.#.#
            #...#
            #...#
          _ #...#
        """,
        ),
        "W": (
            "the M's mirror, for the same reason",
            """
            #...#
            #...#
            #...#
            #.#.#
            ##.##
          _ #...#
        """,
        ),
        "m": (
            "Spleen's m was its M a row shorter, a small capital",
            """
            ##.#.
            #.#.#
            #.#.#
            #.#.#
          _ #.#.#
        """,
        ),
        "w": (
            "Spleen's w was its W a row shorter, a small capital",
            """
            #...#
            #...#
            #.#.#
            #.#.#
          _ .#.#.
        """,
        ),
        "V": (
            "Spleen's V had U's flat bottom: 'VP' read 'UP'; now it comes to a point",
            """
            #..#.
            #..#.
            #..#.
            .#.#.
            .#.#.
          _ ..#..
        """,
        ),
        "v": (
            "Spleen's v had u's flat bottom; now it comes to a point",
            """
            #..#.
            #..#.
            .#.#.
            .#.#.
          _ ..#..
        """,
        ),
        "0": (
            "narrow, as misc-fixed's: Spleen's slashed 0 was O and two pixels",
            """
            .#...
            #.#..
            #.#..
            #.#..
            #.#..
          _ .#...
        """,
        ),
        "5": (
            "a round foot, as misc-fixed's: Spleen's 5 was S and two pixels",
            """
            ####.
            #....
            ###..
            ...#.
            #..#.
          _ .##..
        """,
        ),
        "3": (
            "a flat top, as misc-fixed's: Spleen's 3 was 8 and two pixels",
            """
            ####.
            ..#..
            .##..
            ...#.
            #..#.
          _ .##..
        """,
        ),
        "6": (
            "a sloping top: Spleen's 6 was 8 and two pixels",
            """
            ..##.
            .#...
            ###..
            #..#.
            #..#.
          _ .##..
        """,
        ),
        "R": (
            "a slanting leg, as misc-fixed's: Spleen's R was A and two pixels",
            """
            ###..
            #..#.
            #..#.
            ###..
            #.#..
          _ #..#.
        """,
        ),
        "P": (
            "a shorter bowl: P was R and two pixels",
            """
            ###..
            #..#.
            ###..
            #....
            #....
          _ #....
        """,
        ),
        "E": (
            "square, so the bar is not all that tells it from C",
            """
            ####.
            #....
            ###..
            #....
            #....
          _ ####.
        """,
        ),
        "D": (
            "a rounder right side: Spleen's D was O and two corners",
            """
            ##...
            #.#..
            #..#.
            #..#.
            #.#..
          _ ##...
        """,
        ),
        "Q": (
            "a longer tail: Spleen's Q was O and two pixels",
            """
            .##..
            #..#.
            #..#.
            #..#.
            #.##.
          _ .##..
            ..##.
        """,
        ),
        "l": (
            "a flag at the top: l was t and two pixels",
            """
            ##...
            .#...
            .#...
            .#...
            .#...
            .#...
          _ ..##.
        """,
        ),
        "Ù": (
            "misc-fixed's, with Spleen's tail on the U: it was O and two pixels",
            """
            .#...
            ..#..
            #..#.
            #..#.
            #..#.
            #..#.
          _ .###.
        """,
        ),
        "Ú": (
            "misc-fixed's, with Spleen's tail on the U: it was O and two pixels",
            """
            ..#..
            .#...
            #..#.
            #..#.
            #..#.
            #..#.
          _ .###.
        """,
        ),
        "Û": (
            "misc-fixed's, with Spleen's tail on the U: it was O and two pixels",
            """
            .##..
            #..#.
            #..#.
            #..#.
            #..#.
            #..#.
          _ .###.
        """,
        ),
        "Ü": (
            "misc-fixed's, with Spleen's tail on the U: it was O and two pixels",
            """
            #..#.
            .....
            #..#.
            #..#.
            #..#.
            #..#.
          _ .###.
        """,
        ),
        "h": (
            "a shoulder: h was n and its two pixels of ascender",
            """
            #....
            #....
            #.#..
            ##.#.
            #..#.
            #..#.
          _ #..#.
        """,
        ),
    },
    "body": {
        "V": (
            "Spleen's V had U's round bottom: 'VP' read 'UP'; now it comes to a point",
            """
            #...#.
            #...#.
            #...#.
            #...#.
            #...#.
            .#.#..
            .#.#..
          _ ..#...
        """,
        ),
        "w": (
            "Spleen's w was its W with a bar; three strokes, as a w",
            """
            #...#.
            #...#.
            #.#.#.
            #.#.#.
            #.#.#.
          _ .#.#..
        """,
        ),
        "5": (
            "a round foot: Spleen's 5 was S and two pixels",
            """
            #####.
            #.....
            #.....
            ####..
            ....#.
            ....#.
            #...#.
          _ .###..
        """,
        ),
        "R": (
            "a slanting leg: Spleen's R was A and two pixels",
            """
            ####..
            #...#.
            #...#.
            #...#.
            ####..
            #.#...
            #..#..
          _ #...#.
        """,
        ),
        "D": (
            "a rounder right side: Spleen's D was O and two corners",
            """
            ###...
            #..#..
            #...#.
            #...#.
            #...#.
            #...#.
            #..#..
          _ ###...
        """,
        ),
        "Q": (
            "a longer tail: Spleen's Q was O and two pixels",
            """
            .###..
            #...#.
            #...#.
            #...#.
            #...#.
            #...#.
            #.#.#.
          _ .###..
            ...##.
        """,
        ),
        "l": (
            "a flag at the top: l was t and two pixels",
            """
            ##....
            .#....
            .#....
            .#....
            .#....
            .#....
            .#....
          _ ..##..
        """,
        ),
        "h": (
            "a shoulder: h was n and its two pixels of ascender",
            """
            #.....
            #.....
            #.##..
            ##..#.
            #...#.
            #...#.
            #...#.
          _ #...#.
        """,
        ),
    },
    "large": {
        "R": (
            "a slanting leg: Spleen's R was A and two pixels",
            """
            ######..
            ##...##.
            ##...##.
            ##...##.
            ######..
            ##.##...
            ##..##..
            ##...##.
            ##...##.
          _ ##...##.
        """,
        ),
        "D": (
            "a rounder right side: Spleen's D was O and two corners",
            """
            #####...
            ##..##..
            ##...##.
            ##...##.
            ##...##.
            ##...##.
            ##...##.
            ##...##.
            ##..##..
          _ #####...
        """,
        ),
    },
}


class BuildError(Exception):
    """A source is missing or lacks a glyph; the message says which."""


@dataclass
class Glyphs:
    """One source: glyph images by character, all on one baseline."""

    label: dict[str, str]
    ascent: int
    images: dict[str, Image.Image]


def read_psf(path: Path) -> tuple[int, int, dict[str, bytes]]:
    """A Linux console font (PSF1 or PSF2, gzipped): width, height, bitmap rows by char."""
    data = gzip.decompress(path.read_bytes())
    if data[:2] == b"\x36\x04":
        mode, height, width = data[2], data[3], 8
        count, size, start = (512 if mode & 1 else 256), height, 4
        table, unicode_ = data[start + count * size :], bool(mode & 2)
        entries = psf1_entries(table, count) if unicode_ else None
    else:
        _, _, start, flags, count, size, height, width = struct.unpack("<8I", data[:32])
        table = data[start + count * size :]
        entries = psf2_entries(table, count) if flags & 1 else None
    if entries is None:
        raise BuildError(f"{path.name}: no Unicode table")
    glyphs = [data[start + i * size : start + (i + 1) * size] for i in range(count)]
    chars: dict[str, bytes] = {}
    for index, text in enumerate(entries):
        for ch in text:
            chars.setdefault(ch, glyphs[index])
    return width, height, chars


def psf1_entries(table: bytes, count: int) -> list[str]:
    entries, codes = [], []
    for (code,) in struct.iter_unpack("<H", table[: len(table) // 2 * 2]):
        if code == 0xFFFF:
            entries.append("".join(codes))
            codes = []
        elif code != 0xFFFE:  # sequences (combining forms) are not used here
            codes.append(chr(code))
    return entries[:count]


def psf2_entries(table: bytes, count: int) -> list[str]:
    return [entry.split(b"\xfe")[0].decode("utf-8") for entry in table.split(b"\xff")[:count]]


def psf_glyphs(path: Path, label: dict[str, str]) -> Glyphs:
    width, height, chars = read_psf(path)
    images = {ch: psf_image(rows, width, height) for ch, rows in chars.items()}
    bottom = images["H"].getbbox()
    if bottom is None:
        raise BuildError(f"{path.name}: H has no ink, cannot find the baseline")
    return Glyphs(label, bottom[3], images)


def psf_image(rows: bytes, width: int, height: int) -> Image.Image:
    stride = (width + 7) // 8
    image = Image.new("1", (width, height))
    for y in range(height):
        bits = int.from_bytes(rows[y * stride : (y + 1) * stride], "big")
        for x in range(width):
            if bits >> (stride * 8 - 1 - x) & 1:
                image.putpixel((x, y), 1)
    return image


def pcf_glyphs(path: Path, size: int, label: dict[str, str]) -> Glyphs:
    """An X11 bitmap font, through the FreeType that Pillow ships."""
    face = ImageFont.truetype(str(path), size)
    ascent, descent = face.getmetrics()
    images = {}
    for ch in LATIN1 + list(SYMBOLS):
        advance = int(face.getlength(ch))
        if advance == 0:  # not in the font (the soft hyphen): left to the next source
            continue
        image = Image.new("1", (advance, ascent + descent))
        draw = ImageDraw.Draw(image)
        draw.fontmode = "1"
        draw.text((0, 0), ch, font=face, fill=1)
        images[ch] = image
    return Glyphs(label, ascent, images)


def in_cell(glyph: Image.Image, ascent: int, spec: Spec, cell_ascent: int) -> Image.Image:
    """The glyph centred in the cell on the cell's baseline; all of its ink must fit."""
    cell = Image.new("1", (spec.width, spec.height))
    x, y = (spec.width - glyph.width) // 2, cell_ascent - ascent
    cell.paste(glyph, (x, y))
    if ink_count(cell) != ink_count(glyph):
        raise BuildError("does not fit the cell")
    return cell


def ink_count(image: Image.Image) -> int:
    return sum(image.histogram()[1:])  # a "1" image may hold its ink as 1 or as 255


def compose(spec: Spec, sources: list[Glyphs]) -> tuple[dict[str, Image.Image], dict]:
    """Every character's cell and the source it came from."""
    face_ascent = sources[0].ascent
    cells, origin = {}, {}
    for ch in LATIN1 + list(SYMBOLS):
        found = find(ch, sources)
        if found is None:
            raise BuildError(f"{spec.name}: no source draws U+{ord(ch):04X} {ch!r}")
        order, image = found
        try:
            cells[ch] = in_cell(image, sources[order].ascent, spec, face_ascent)
        except BuildError as err:
            raise BuildError(f"{spec.name}: U+{ord(ch):04X} {ch!r} {err}") from None
        origin[ch] = order
    taken = ["".join(ch for ch in cells if origin[ch] == order) for order in range(len(sources))]
    return cells, {"ascent": face_ascent, "taken": taken}


def find(ch: str, sources: list[Glyphs]) -> tuple[int, Image.Image] | None:
    """The first source's glyph with ink for ``ch``, else for its alias."""
    for wanted in (ch, ALIASES.get(ch)):
        for order, source in enumerate(sources):
            image = source.images.get(wanted) if wanted else None
            if image is not None and (ch in BLANK or image.getbbox() is not None):
                return order, image
    return None


def write_pil(spec: Spec, cells: dict[str, Image.Image], ascent: int) -> None:
    """Every glyph as its whole cell, so text drawn at y has its cell's top at y."""
    font = FontFile.FontFile()
    box = (0, -ascent, spec.width, spec.height - ascent)
    for ch, cell in cells.items():
        slot = ord(ch) if ord(ch) < 0x100 else FIRST_SLOT + SYMBOLS.index(ch)
        font.glyph[slot] = ((spec.width, 0), box, (0, 0, spec.width, spec.height), cell)
    font.save(str(OUT / f"{spec.name}.pil"))
    # FontFile writes PNG data under a .pbm name; ImageFont.load looks for .png first.
    (OUT / f"{spec.name}.pbm").replace(OUT / f"{spec.name}.png")


def unpack(debs: list[Path], into: Path) -> dict[str, dict[str, str]]:
    """Each package's files under ``into``; its name, version and .deb checksum."""
    packages = {}
    for deb in debs:
        fields = {}
        for field in ("Package", "Version"):
            out = dpkg_deb("-f", str(deb), field)
            if out.returncode:
                raise BuildError(f"{deb}: not a Debian package")
            fields[field] = out.stdout.decode().strip()
        if dpkg_deb("-x", str(deb), str(into)).returncode:
            raise BuildError(f"{deb}: cannot unpack it")
        digest = hashlib.sha256(deb.read_bytes()).hexdigest()
        packages[fields["Package"]] = {"version": fields["Version"], "deb_sha256": digest}
    return packages


def dpkg_deb(*args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["dpkg-deb", *args], capture_output=True)
    except FileNotFoundError:
        raise BuildError("dpkg-deb is not installed: build the fonts on Debian") from None


def art_glyphs(spec: Spec, face: Glyphs) -> Glyphs:
    """The glyphs drawn above, and the em dash: the face's en dash across the whole cell."""
    hyphen = face.images["-"].getbbox()
    dash = face.images["–"].getbbox()
    if hyphen is None or dash is None:
        raise BuildError(f"{spec.name}: the face has no hyphen or en dash to align to")
    images = {"—": Image.new("1", (spec.width, spec.height))}
    ImageDraw.Draw(images["—"]).rectangle((0, dash[1], spec.width - 1, dash[3] - 1), fill=1)
    for ch, text in ART.get(spec.name, {}).items():
        images[ch] = art_image(text, spec, {"-": hyphen[1], "_": face.ascent - 1})
    for ch, of in MIRRORED.items():
        if of in images:
            images[ch] = images[of].transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    return Glyphs({"drawn": "scripts/make_fonts.py"}, face.ascent, images)


def art_image(text: str, spec: Spec, anchors: dict[str, int]) -> Image.Image:
    """A drawn glyph, its marked row put on the row its mark names in ``anchors``."""
    rows = [line.strip() for line in text.splitlines() if line.strip()]
    marked = next(i for i, row in enumerate(rows) if row[0] in anchors)
    top = anchors[rows[marked][0]] - marked
    rows = [row.lstrip("-_ ") for row in rows]
    image = Image.new("1", (spec.width, spec.height))
    for y, row in enumerate(rows, start=top):
        if len(row) != spec.width:
            raise BuildError(f"{spec.name}: drawn row {row!r} is not {spec.width} wide")
        for x, pixel in enumerate(row):
            if pixel == "#":
                image.putpixel((x, y), 1)
    return image


def load_sources(spec: Spec, root: Path, packages: dict) -> tuple[list[Glyphs], list[dict]]:
    sources, labels = [], []
    for package, rel, size in spec.sources:
        path = root / rel
        if package not in packages or not path.is_file():
            raise BuildError(f"{spec.name}: needs {rel} from the package {package}")
        label = {
            "package": package,
            "version": packages[package]["version"],
            "deb_sha256": packages[package]["deb_sha256"],
            "file": rel,
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        }
        if rel.endswith(".psfu.gz"):
            sources.append(psf_glyphs(path, label))
        else:
            sources.append(pcf_glyphs(path, size, label))
        labels.append(label)
    drawn = art_glyphs(spec, sources[0])
    # What is drawn here comes first: it stands in for a source's glyph too (Å).
    ahead = [drawn]
    if spec.name in CHANGED:
        ahead.insert(0, changed_glyphs(spec, sources[0]))
    return [*ahead, *sources], [g.label for g in ahead] + labels


def changed_glyphs(spec: Spec, face: Glyphs) -> Glyphs:
    """The face's glyphs changed here (``CHANGED``), each with the reason in its label."""
    edits = CHANGED[spec.name]
    anchors = {"_": face.ascent - 1}
    images = {ch: art_image(art, spec, anchors) for ch, (_, art) in edits.items()}
    label = {"changed": "scripts/make_fonts.py", "why": {ch: why for ch, (why, _) in edits.items()}}
    return Glyphs(label, face.ascent, images)


LICENCES = {
    # package: (shipped file, the paragraph of its Debian copyright file to copy)
    "fonts-spleen": ("LICENSE-spleen.txt", "Files: *"),
    "xfonts-base": ("LICENSE-misc-fixed.txt", "font-misc-misc/COPYING:"),
}


def read_licences(root: Path) -> dict[str, str]:
    """Each shipped licence file's text, from its package's Debian copyright file."""
    texts = {}
    for package, (name, start) in LICENCES.items():
        text = (root / f"usr/share/doc/{package}/copyright").read_text("utf-8")
        if start not in text:
            raise BuildError(f"{package}: its copyright file has no {start!r}")
        para = text[text.index(start) :].split("\n\n")[0]
        header = f"From the Debian package {package}, usr/share/doc/{package}/copyright:\n\n"
        texts[name] = header + unfold(para) + "\n"
    return texts


def unfold(para: str) -> str:
    """A Debian copyright paragraph as plain text: its continuation lines unindented."""
    lines = []
    for line in para.rstrip().splitlines():
        body = line[1:] if line.startswith(" ") else line
        lines.append("" if body == "." else body)
    return "\n".join(lines)


def build(debs: list[Path]) -> dict:
    """Read every source and compose every font first: a failure writes nothing."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        packages = unpack(debs, root)
        built, fonts = [], {}
        for spec in SPECS:
            sources, labels = load_sources(spec, root, packages)
            cells, facts = compose(spec, sources)
            built.append((spec, cells, facts["ascent"]))
            for label, taken in zip(labels, facts["taken"], strict=True):
                label["glyphs"] = taken
            fonts[spec.name] = {
                "file": f"{spec.name}.pil",
                "cell": [spec.width, spec.height],
                "ascent": facts["ascent"],
                "sources": labels,
            }
        licences = read_licences(root)
    OUT.mkdir(parents=True, exist_ok=True)
    for spec, cells, ascent in built:
        write_pil(spec, cells, ascent)
    for name, text in licences.items():
        (OUT / name).write_text(text, "utf-8")
    manifest = {
        "symbols": {ch: FIRST_SLOT + i for i, ch in enumerate(SYMBOLS)},
        "fonts": fonts,
        "licences": {package: name for package, (name, _) in LICENCES.items()},
    }
    text = json.dumps(manifest, ensure_ascii=False, indent=1) + "\n"
    (OUT / "fonts.json").write_text(text, "utf-8")
    return manifest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("debs", nargs="+", type=Path, help="fonts-spleen and xfonts-base .deb")
    args = parser.parse_args()
    try:
        manifest = build(args.debs)
    except BuildError as err:
        print(f"make_fonts: {err}", file=sys.stderr)
        return 2
    for name, font in manifest["fonts"].items():
        print(name, "x".join(map(str, font["cell"])), "ascent", font["ascent"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
