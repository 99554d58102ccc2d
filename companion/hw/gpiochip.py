"""Which GPIO chip is the 40-pin header's: ``[gpio] chip = "auto"`` finds it by its label.

A Pi has several GPIO chips (``/dev/gpiochip*``), and the header's is not always the same
number: a Pi 5's RP1 chip was gpiochip4 on its first kernels, gpiochip0 from 6.6.45
(raspberrypi/linux pull request 6144), and other numbers since. Its label does not move:
``pinctrl-rp1`` on a Pi 5, ``pinctrl-bcm2711`` on a Pi 4, ``pinctrl-bcm2835`` on a Zero 2 W
or a Pi 3 (what ``gpiodetect`` prints in brackets).

A chip's label is read where the kernel shows it, the first that answers:
1. sysfs's per-chip folder ``/sys/class/gpio/chipN/label`` (kernels from 6.17 or so);
2. sysfs's legacy ``/sys/class/gpio/gpiochipBASE/label``, found beside the chip's own
   device folder (``/sys/bus/gpio/devices/gpiochipN`` and it share a parent);
3. the chip itself: the GPIO_GET_CHIPINFO ioctl on ``/dev/gpiochipN``, as gpiodetect asks.
The first two take a folder (a fake one in the tests); the ioctl needs a real chip.
"""

from __future__ import annotations

import errno
import fcntl
import os
import struct
from dataclasses import dataclass
from pathlib import Path

from ..errors import CompanionError, clip, where

SYS = Path("/sys")
DEV = Path("/dev")
# The header's chip on each Pi, as the pinctrl drivers label it.
HEADER_LABELS = ("pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835")
PREFIX = "gpiochip"
# linux/gpio.h: struct gpiochip_info { char name[32]; char label[32]; __u32 lines; } and
# GPIO_GET_CHIPINFO_IOCTL = _IOR(0xB4, 0x01, struct gpiochip_info).
_INFO = struct.Struct("32s32sI")
_GET_CHIPINFO = (2 << 30) | (_INFO.size << 16) | (0xB4 << 8) | 0x01


class ChipNotFound(CompanionError):
    """No chip, or no single chip, is labelled as a header's."""


@dataclass(frozen=True)
class Chip:
    number: int  # N of /dev/gpiochipN
    label: str  # "" when none could be read

    def __str__(self) -> str:
        return f"{PREFIX}{self.number} [{self.label or '?'}]"


def chips(sys: Path = SYS, dev: Path = DEV) -> list[Chip]:
    """Every GPIO chip here, by number, with its label."""
    return [Chip(n, label(n, sys, dev)) for n in _numbers(sys, dev)]


def header_chip(sys: Path = SYS, dev: Path = DEV) -> int:
    """The number N of ``/dev/gpiochipN`` that is the header's; ``ChipNotFound`` saying
    which chips there are when none (or more than one) is."""
    found = chips(sys, dev)
    header = [chip for chip in found if chip.label in HEADER_LABELS]
    if len(header) == 1:
        return header[0].number
    if not found:
        raise ChipNotFound("no GPIO chips here (not a Raspberry Pi?)")
    seen = ", ".join(map(str, found))
    if header:
        raise ChipNotFound(f"more than one chip is labelled as the header's: {seen}")
    raise ChipNotFound(f"no chip is labelled {', '.join(HEADER_LABELS)} (found {seen})")


def label(number: int, sys: Path = SYS, dev: Path = DEV) -> str:
    """Chip ``number``'s label, from sysfs or from the chip itself; "" if none says."""
    return (
        _read(sys / "class/gpio" / f"chip{number}" / "label")
        or _legacy_label(number, sys)
        or _ioctl_label(dev / f"{PREFIX}{number}")
    )


def _numbers(sys: Path, dev: Path) -> list[int]:
    """The chips' numbers: the gpio bus's devices, else the character devices in /dev
    (a link, such as a Pi 5's gpiochip4 -> gpiochip0, is not a chip of its own)."""
    bus = sys / "bus/gpio/devices"
    names = [p.name for p in _list(bus)]
    if not names:
        names = [p.name for p in _list(dev) if not p.is_symlink()]
    return sorted({n for n in map(_number, names) if n is not None})


def _legacy_label(number: int, sys: Path) -> str:
    """The label of the legacy class folder gpiochipBASE that shares chip ``number``'s
    parent device; none if that parent holds more than one chip (no telling which)."""
    try:
        parent = (sys / "bus/gpio/devices" / f"{PREFIX}{number}").resolve(strict=True).parent
    except (OSError, RuntimeError):
        return ""
    own = [p for p in _list(parent) if _number(p.name) is not None]
    legacy = [p for p in _list(parent / "gpio") if _number(p.name) is not None]
    if len(own) != 1 or len(legacy) != 1:
        return ""
    return _read(legacy[0] / "label")


def _ioctl_label(path: Path) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except PermissionError:
        raise ChipNotFound(f"{where(path)}: permission denied (not in the gpio group?)") from None
    except OSError:
        return ""
    try:
        info = fcntl.ioctl(fd, _GET_CHIPINFO, bytes(_INFO.size))
    except OSError as e:
        if e.errno not in (errno.ENOTTY, errno.EINVAL, errno.ENODEV):
            raise ChipNotFound(f"{where(path)}: {e.strerror}") from None
        return ""  # not a GPIO chip
    finally:
        os.close(fd)
    raw: bytes = _INFO.unpack(info)[1]
    return clip(raw.split(b"\0", 1)[0].decode("ascii", "replace"), 40)


def _number(name: str) -> int | None:
    digits = name.removeprefix(PREFIX)
    return int(digits) if digits != name and digits.isdigit() else None


def _list(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def _read(path: Path) -> str:
    try:
        return clip(path.read_text("ascii", "replace").strip(), 40)
    except OSError:
        return ""
