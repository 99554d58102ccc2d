"""The few file operations the state directory uses, in one replaceable place.

Tests swap one of them for a function that fails the way a full disk, a read-only
card or a denied permission fails: chmod cannot make those happen for root, and CI
runs as root.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any


def _make_dirs(path: Path) -> None:
    path.mkdir(parents=True, exist_ok=True)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)  # the renames themselves survive a power cut
    finally:
        os.close(fd)


def _no_follow(path: str, flags: int) -> int:
    # With O_EXCL a link is refused already; O_NOFOLLOW says so where it is read.
    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0), 0o666)


@dataclass(frozen=True, slots=True)
class FileOps:
    """Every call the state directory makes that reads or changes the disk."""

    open_file: Callable[..., IO[Any]] = open
    replace: Callable[[Path, Path], None] = os.replace
    fsync: Callable[[int], None] = os.fsync
    fsync_dir: Callable[[Path], None] = _fsync_dir
    make_dirs: Callable[[Path], None] = _make_dirs
    remove: Callable[[Path], None] = os.unlink


def read_head(ops: FileOps, path: Path, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of ``path``: enough to tell a game from a huge file."""
    with ops.open_file(path, "rb") as f:
        head: bytes = f.read(limit + 1)
    return head


def write_synced(ops: FileOps, path: Path, data: bytes) -> None:
    """``data`` as the whole of a new file ``path``, on the disk before this returns. What
    was at ``path`` is removed first and the file is made anew (``x``: it must not exist,
    nor be a link): a link left there is never written through, whatever it points to.
    On failure the partial file is removed again (unless something that is not a file is
    in the way)."""
    discard(ops, path)
    try:
        with ops.open_file(path, "xb", opener=_no_follow) as f:
            f.write(data)
            f.flush()
            ops.fsync(f.fileno())
    except OSError:
        discard(ops, path)
        raise


def discard(ops: FileOps, path: Path) -> None:
    """Remove a temporary file if it is there; a failure here changes nothing that matters."""
    with contextlib.suppress(OSError):
        ops.remove(path)
