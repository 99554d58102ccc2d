"""The settings chosen on the device, kept in the state folder as ``settings.json``.

The file holds the settings a person changed on the device, in ``DeviceSettings``' JSON
form; a key it lacks keeps following the config file. It is written as the game is: a
temporary file flushed to the disk, renamed over the old one, the folder flushed; a
pulled plug leaves the old settings or the new, never half a file.

Loading never raises: a file that cannot be used is moved aside (``settings.bad.json``,
then ``settings.bad-2.json``: never overwritten), said in one line, and the layers below
apply. A folder in the way, or a folder that cannot be read, is only said.

``names.json`` beside it holds the pads' names (``NamesFile``), kept the same way.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

from ..errors import CompanionError, where
from ..game.jsontext import parse_json
from ..game.names import NO_NAMES, Names, SeatNameError, check_names
from ..game.settings import KEYS, DeviceSettings
from .errors import REASON_LIMIT, StorageError, one_line, os_reason
from .files import FileOps, discard, read_head, write_synced

SETTINGS_FILE = "settings.json"
NAMES_FILE = "names.json"
MAX_BYTES = 64 * 1024  # a few hundred bytes of settings; far more is not a settings file
DEFAULTS_APPLY = "the settings of the config file apply"

Report = Callable[[str], None]


class _Unusable(Exception):
    """Why the file's bytes are not settings."""


class SettingsFile:
    """``settings.json`` in the state folder ``folder``. ``ops``: the file operations
    (tests make them fail as a full or read-only card does)."""

    what = "settings"  # in messages: "cannot save the settings"
    fallback = DEFAULTS_APPLY

    def __init__(self, folder: Path, name: str = SETTINGS_FILE, *, ops: FileOps | None = None):
        self.folder = folder
        self.path = folder / name
        self.temp = folder / f"{name}.tmp"
        self.ops = ops or FileOps()

    def load(
        self, report: Report, languages: Collection[str] | None = None, *, set_aside: bool = True
    ) -> dict[str, object] | None:
        """The saved settings in their JSON form (checked; only the keys known here), or
        None: no file, or one that cannot be used (said through ``report``, and moved
        aside unless ``set_aside`` is false: a look that must change nothing)."""
        try:
            data = self._read()
        except FileNotFoundError:
            return None
        except OSError as e:
            report(
                f"cannot read the {self.what} {where(self.path)} ({os_reason(e)}); {self.fallback}"
            )
            return None
        if data is None:
            report(f"{where(self.path)} is a folder, not a {self.what} file; {self.fallback}")
            return None
        try:
            return self._checked(data, languages)
        except _Unusable as e:
            if set_aside:
                report(self._set_aside(str(e)))
            else:
                report(f"{where(self.path)} is not usable {self.what} ({e}); {self.fallback}")
            return None

    def save(self, values: Mapping[str, object]) -> None:
        """Write ``values`` (the JSON form) as the whole file; a one-line StorageError if
        the disk says no, the old file then as it was."""
        doing = f"cannot save the {self.what}"
        data = (json.dumps(dict(values), indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            self.ops.make_dirs(self.folder)
            write_synced(self.ops, self.temp, data)
        except OSError as e:
            raise StorageError(f"{doing}: {self.temp}: {os_reason(e)}") from None
        try:
            self.ops.replace(self.temp, self.path)
        except OSError as e:
            discard(self.ops, self.temp)
            raise StorageError(f"{doing}: {where(self.path)}: {os_reason(e)}") from None
        try:
            self.ops.fsync_dir(self.folder)
        except OSError as e:
            raise StorageError(f"{doing}: folder {where(self.folder)}: {os_reason(e)}") from None

    def _checked(self, data: bytes, languages: Collection[str] | None) -> dict[str, object]:
        return _checked(data, languages)

    def _read(self) -> bytes | None:
        """The file's bytes, or None when it is not a file (opening a pipe would wait)."""
        mode = self.path.stat().st_mode
        if not stat.S_ISREG(mode):
            return None
        return read_head(self.ops, self.path, MAX_BYTES)

    def _set_aside(self, why: str) -> str:
        aside = _free_name(self.path)
        problem = f"{where(self.path)} is not usable {self.what} ({why})"
        try:
            self.ops.replace(self.path, aside)
            self.ops.fsync_dir(self.folder)
        except OSError as e:
            return f"{problem}, and cannot be moved aside ({os_reason(e)}); {self.fallback}"
        return f"{problem}; kept as {aside.name}; {self.fallback}"


def _checked(data: bytes, languages: Collection[str] | None) -> dict[str, object]:
    if len(data) > MAX_BYTES:
        raise _Unusable(f"larger than {MAX_BYTES // 1024} KB")
    try:
        values = parse_json(data)
        DeviceSettings.from_dict(values, languages=languages)
    except (CompanionError, RecursionError) as e:
        raise _Unusable(one_line(str(e), REASON_LIMIT)) from None
    assert isinstance(values, dict)  # from_dict refuses anything else
    return {k: v for k, v in values.items() if k in KEYS}


class NamesFile(SettingsFile):
    """``names.json`` beside the settings: the name of each pad, set on the device
    (``{"names": [null, "ANNA", ...]}``), written and set aside as the settings are."""

    what = "names"
    fallback = "the pads have no names"

    def __init__(self, folder: Path, *, ops: FileOps | None = None):
        super().__init__(folder, NAMES_FILE, ops=ops)

    def names(self, report: Report) -> Names:
        """The pads' names saved, or none: a file that cannot be used is said and set
        aside, and the pads have no names."""
        values = self.load(report)
        return NO_NAMES if values is None else check_names(values["names"])

    def save_names(self, names: Names) -> None:
        self.save({"names": list(names)})

    def _checked(self, data: bytes, languages: Collection[str] | None) -> dict[str, object]:
        try:
            values = parse_json(data)
            if not isinstance(values, dict) or "names" not in values:
                raise SeatNameError('names are a JSON object {"names": [...]}')
            check_names(values["names"])
        except (CompanionError, RecursionError) as e:
            raise _Unusable(one_line(str(e), REASON_LIMIT)) from None
        return {"names": values["names"]}


def _free_name(path: Path) -> Path:
    """``settings.bad.json``, else ``settings.bad-2.json``, ...: the first name not taken."""
    n = 1
    while True:
        aside = path.with_name(f"{path.stem}.bad{'' if n == 1 else f'-{n}'}{path.suffix}")
        if not os.path.lexists(aside):
            return aside
        n += 1
