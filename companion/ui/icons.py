"""Small pictures for what the board prints as pictures: its three rows, and a card.

Drawn as data (``#`` lights a pixel), so a row reads the same in every language.
"""

from __future__ import annotations

from functools import cache

from PIL import Image

_ART = {
    "vp": (  # a star: the victory points row
        "...#...",
        "..###..",
        "#######",
        ".#####.",
        "..###..",
        ".##.##.",
        ".#...#.",
    ),
    "goods": (  # a barrel: the goods row
        ".#####.",
        "#.....#",
        "#######",
        "#.....#",
        "#######",
        "#.....#",
        ".#####.",
    ),
    "trader": (  # goods going one way, points the other: the trader row
        ".....#.",
        "######.",
        ".....#.",
        ".......",
        ".#.....",
        ".######",
        ".#.....",
    ),
    "hand": (  # two cards: cards in hand
        "####...",
        "#..#...",
        "#.####.",
        "#.#..#.",
        "###..#.",
        "..#..#.",
        "..####.",
    ),
}
SIZE = 7  # every icon is 7×7


@cache
def icon(name: str) -> Image.Image:
    """The icon ``name`` as a 1-bit mask."""
    art = _ART[name]
    image = Image.new("1", (len(art[0]), len(art)))
    for y, line in enumerate(art):
        for x, ch in enumerate(line):
            if ch == "#":
                image.putpixel((x, y), 1)
    return image
