"""One writer per state folder: a lock on ``companion.lock`` in it.

The table (``companion run``, ``companion simulate --state-dir``) and every command that
writes the folder (``companion history import``) take it before they touch the folder and
hold it while they run; the kernel lets it go when the process ends, however it ends. A
second writer is refused in one line naming the process that holds it, and changes
nothing. Commands that only read never take it.

The lock is ``flock()`` on the file, which holds the holder's process id and command for
that line. A folder where the file cannot be made (a read-only card) has no lock: nothing
can be written there by anyone, and the table still plays.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path

from ..errors import Closing, where
from .errors import StorageError, one_line, os_reason

LOCK_FILE = "companion.lock"


class FolderBusy(StorageError):
    """Another process writes the state folder."""


class FolderLock(Closing):
    """The lock of the state folder ``folder``, for ``who`` (a command's name)."""

    def __init__(self, folder: Path, who: str):
        self.path = folder / LOCK_FILE
        self.who = who
        self._fd: int | None = None

    def take(self) -> bool:
        """Hold the folder (made if it is missing), or raise FolderBusy naming the holder.
        False: the lock file cannot be made, so the folder has no lock (it is read-only)."""
        if self._fd is not None:
            return True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return False  # no folder, and none can be made: nothing can be written there
        fd = self._open()
        if fd is None:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            holder = _holder(fd)
            os.close(fd)
            if e.errno not in (errno.EWOULDBLOCK, errno.EACCES):
                return False  # a file system without locks: as good as none
            raise FolderBusy(
                f"state folder {where(self.path.parent)} is in use by {holder}: one program "
                "writes it at a time; stop that one first, or use another --state-dir"
            ) from None
        with contextlib.suppress(OSError):  # read-only: another user's file, locked all the same
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()} {self.who}\n".encode())
        self._fd = fd
        return True

    def _open(self) -> int | None:
        """The lock file, made if it is missing; opened read-only if it is another user's
        (a lock holds on it all the same). None: the folder is read-only, or closed to
        this user, so nothing can be written there. Anything else in its place is said."""
        flags = os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT | flags, 0o644)
        except OSError as e:
            if e.errno == errno.EROFS:
                return None
            if e.errno not in (errno.EACCES, errno.EPERM):
                raise self._unusable(e) from None
        try:
            return os.open(self.path, os.O_RDONLY | flags)
        except FileNotFoundError:
            return None  # a folder this user cannot write in
        except OSError as e:
            raise self._unusable(e) from None

    def _unusable(self, e: OSError) -> StorageError:
        return StorageError(
            f"state folder {where(self.path.parent)}: {LOCK_FILE} cannot be its lock "
            f"({os_reason(e)}): remove what is there by that name"
        )

    def release(self) -> None:
        """Let the folder go. Safe to call more than once."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def close(self) -> None:
        self.release()


def _holder(fd: int) -> str:
    """Who holds the lock, as its file says: ``process 1234 (companion run)``."""
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    pid, _, command = text.partition(" ")
    if not pid.isdigit():
        return "another process"
    return f"process {pid} ({one_line(command)})" if command else f"process {pid}"
