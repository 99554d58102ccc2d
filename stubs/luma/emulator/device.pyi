import pygame as _pygame
from luma.core.device import device
from PIL import Image

class emulator(device):
    scale: int
    def __init__(
        self, width: int, height: int, rotate: int, mode: str, transform: str, scale: int
    ) -> None: ...
    def to_surface(self, image: Image.Image, alpha: float = 1.0) -> _pygame.Surface: ...

class pygame(emulator):
    # Its display() draws in a window of its own, and ends the process on Esc or a close.
    def __init__(
        self,
        width: int = 128,
        height: int = 64,
        rotate: int = 0,
        mode: str = "RGB",
        transform: str = "scale2x",
        scale: int = 2,
        frame_rate: int = 60,
    ) -> None: ...
