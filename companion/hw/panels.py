"""The OLED panels the companion drives: one registry, read by the display adapter, the
config's schema, the simulator's ``--display`` and the docs. Data only (no driver is
imported here), so reading the config or the command line loads no display library."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Panel:
    size: tuple[int, int]  # pixels: the canvas the screens are drawn on
    interfaces: tuple[str, ...]  # the buses its modules offer, the usual one first


PANELS: dict[str, Panel] = {
    "ssd1306": Panel((128, 64), ("i2c", "spi")),
    "ssd1309": Panel((128, 64), ("i2c", "spi")),
    "sh1106": Panel((128, 64), ("i2c", "spi")),
    "ssd1322": Panel((256, 64), ("spi",)),
}
CONTROLLERS = tuple(PANELS)
SPI_ONLY = tuple(name for name, panel in PANELS.items() if "i2c" not in panel.interfaces)
