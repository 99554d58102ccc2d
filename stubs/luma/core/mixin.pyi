from PIL import Image

class capabilities:
    width: int  # as rotated
    height: int
    size: tuple[int, int]
    bounding_box: tuple[int, int, int, int]
    rotate: int  # 0..3, quarter turns clockwise
    mode: str  # "1", "RGB" or "RGBA"
    persist: bool  # True: cleanup() leaves the panel on, showing what it shows
    _w: int  # unrotated
    _h: int
    def capabilities(self, width: int, height: int, rotate: int, mode: str = "1") -> None: ...
    def clear(self) -> None: ...
    def preprocess(self, image: Image.Image) -> Image.Image: ...
    def display(self, image: Image.Image) -> None: ...
