"""Draw the page's icon, companion/web/static/favicon.ico, from the display's own star.

    .venv/bin/python scripts/make_icon.py

The star is the VP row's 7×7 icon (``companion/ui/icons.py``), each pixel a square, in
the page's gold on its dark blue (``style.css``), at 16, 32 and 48 pixels. The output
is committed, so serving the page draws nothing; run this only to change the icon.
``tests/test_web_page.py`` checks that the committed file is what this draws.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

from companion.ui.icons import SIZE, icon

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "companion" / "web" / "static" / "favicon.ico"
SIZES = (16, 32, 48)
PAPER = (20, 32, 43, 255)  # --paper
GOLD = (242, 182, 50, 255)  # --gold


def draw(size: int) -> Image.Image:
    """The icon at ``size``×``size``: the star as large as whole pixels allow, centred on
    a rounded square."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle((0, 0, size - 1, size - 1), size // 5, fill=PAPER)
    scale = size // (SIZE + 1)
    star = icon("vp").convert("L").resize((SIZE * scale,) * 2, Image.Resampling.NEAREST)
    at = (size - SIZE * scale) // 2
    image.paste(Image.new("RGBA", star.size, GOLD), (at, at), star)
    return image


def main() -> int:
    largest = draw(max(SIZES))
    extra = [draw(size) for size in SIZES[:-1]]
    largest.save(OUT, format="ICO", sizes=[(s, s) for s in SIZES], append_images=extra)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
