"""The simulator's window: luma.emulator's pygame device, scaled up and titled, and the
keys typed into it.

SDL wants its window drawn and its events read on the thread that opened it, while the
frames come from the app's thread: ``show`` only keeps the newest frame and wakes the
window's thread, which draws it between keys. Closing the window, like a quit key, ends
``typed``; luma's own ``display`` is not used, as it ends the whole process on Esc.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING

from PIL import Image

from ..errors import Closing, CompanionError

if TYPE_CHECKING:  # imported when a window opens: both are optional ([window])
    import pygame
    from luma.emulator.device import pygame as Emulator

SCALE_MAX = 6
HEADLESS = ("offscreen", "dummy")  # SDL's drivers without a screen: only when asked for
POLL = 250  # ms: how long the window waits for an event before looking again (Ctrl-C)


class WindowError(CompanionError, RuntimeError):
    """No window can be opened (pygame missing, or no display to open it on)."""


class Window(Closing):
    """A window showing the panel ``scale`` times (None: as large as fits the screen).
    It opens at the first frame, at that frame's size (a 128×64 or a 256×64 panel)."""

    def __init__(self, title: str, scale: int | None = None) -> None:
        # pygame's greeting would mix with --json
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            import pygame
            from luma.emulator.device import pygame as emulator
        except ImportError:
            raise WindowError("--window needs luma.emulator: pip install '.[window]'") from None
        self._emulator = emulator
        if _no_screen():
            raise WindowError("--window: no display to open a window on (is DISPLAY set?)")
        self._pg = pygame
        try:
            pygame.display.init()
        except pygame.error as e:
            raise WindowError(f"--window: cannot open a window: {e}") from None
        if pygame.display.get_driver() in HEADLESS and "SDL_VIDEODRIVER" not in os.environ:
            pygame.quit()  # SDL fell back to a window nobody can see, or close
            raise WindowError("--window: no display to open a window on (is DISPLAY set?)")
        self._title = title
        self._scale = scale
        self.scale = 0  # the scale drawn at, once open
        self._luma: Emulator | None = None  # luma.emulator's device, made at the first frame
        self._wake = pygame.event.custom_type()
        self._stop = pygame.event.custom_type()
        self._lock = threading.Lock()
        self._frame: Image.Image | None = None
        self.drawn = 0  # frames drawn so far

    def _open(self, size: tuple[int, int]) -> Emulator:
        width, height = size
        scale = self._scale or _fit(self._pg.display.Info().current_w, width)
        self.scale = scale
        luma = self._emulator(
            width=width, height=height, mode="1", transform="identity", scale=scale
        )
        luma.persist = True  # its exit hook would draw into a window already gone
        self._luma = luma
        self._pg.display.set_caption(self._title)
        self.screen = self._pg.display.set_mode((width * scale, height * scale))
        return luma

    def show(self, image: Image.Image) -> None:
        """Hand over a frame (from any thread); the window's thread draws it."""
        with self._lock:
            self._frame = image
        self._pg.event.post(self._pg.event.Event(self._wake))

    def stop(self) -> None:
        """End ``typed`` (from any thread)."""
        self._pg.event.post(self._pg.event.Event(self._stop))

    def typed(self) -> Iterator[str]:
        """Keys typed into the window, drawing frames as they come, until the window is
        closed or ``stop`` is called."""
        pg = self._pg
        while True:
            event = pg.event.wait(POLL)
            self._draw()  # whatever woke us: a frame may be waiting behind the keys
            if event.type in (pg.QUIT, self._stop):
                return
            if event.type == pg.KEYDOWN:
                key = window_key(pg, event)
                if key is not None:
                    yield key

    def _draw(self) -> None:
        with self._lock:
            image, self._frame = self._frame, None
        if image is None:  # drawn already, with an earlier wake
            return
        luma = self._luma
        if luma is None or luma.size != image.size:
            luma = self._open(image.size)
        surface = luma.to_surface(luma.preprocess(image.convert("1")))
        self.screen.blit(surface, (0, 0))
        self._pg.display.flip()
        self.drawn += 1

    def close(self) -> None:
        """Close the window (pygame's whole display). Safe to call more than once."""
        self._pg.quit()


def _no_screen() -> bool:
    """On Linux, no X or Wayland display to ask SDL for, nor a driver asked for by name:
    SDL would only complain while probing, then open a window nobody sees."""
    names = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    return sys.platform.startswith("linux") and not any(os.environ.get(n) for n in names)


def _fit(screen_width: int, width: int) -> int:
    """The largest scale that leaves a quarter of the screen's width free (4 unknown)."""
    if screen_width <= 0:
        return 4
    return max(1, min(SCALE_MAX, screen_width * 3 // 4 // width))


def window_key(pg: ModuleType, event: pygame.event.Event) -> str | None:
    """The key (as ``sim.keyboard`` names them) of a pygame KEYDOWN event, or None."""
    named = {
        pg.K_LEFT: "left",
        pg.K_RIGHT: "right",
        pg.K_UP: "up",
        pg.K_DOWN: "down",
        pg.K_RETURN: "enter",
        pg.K_KP_ENTER: "enter",
        pg.K_SPACE: "space",
        pg.K_TAB: "tab",
        pg.K_BACKSPACE: "backspace",
        pg.K_ESCAPE: "esc",
    }
    if event.key in named:
        return named[event.key]
    if event.mod & pg.KMOD_CTRL and pg.K_a <= event.key <= pg.K_z:
        return f"ctrl-{chr(event.key)}"
    text = getattr(event, "unicode", "")
    return text if len(text) == 1 and text.isprintable() and text != " " else None
