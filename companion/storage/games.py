"""The game in progress on disk: its record, written whole after every finished round.

A save writes a temporary file, flushes it to the disk, and renames it over the old
one. A pulled plug therefore leaves either the previous record or the new one, never
half of either: no finished round is lost or applied twice. Selections in progress
are never written: a hidden choice never leaves the table before the reveal.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..game.record import GameRecord
from ..rules import CompanionError


class GameStore:
    def __init__(self, path: Path):
        self.path = path

    def save(self, record: GameRecord) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_name(self.path.name + ".tmp")
        with open(temp, "w", encoding="utf-8") as f:
            f.write(record.to_json() + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, self.path)
        directory = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)  # the rename itself survives a power cut
        finally:
            os.close(directory)

    def load(self) -> tuple[GameRecord | None, str | None]:
        """The saved game and None, or None and why it cannot be used (the file is kept
        aside as ``*.bad`` so nothing is lost)."""
        try:
            text = self.path.read_text("utf-8")
        except FileNotFoundError:
            return None, None
        except OSError as e:
            return None, f"{self.path}: cannot read: {e.strerror}"
        try:
            record = GameRecord.from_json(text)
            record.replay()
        except CompanionError as e:
            aside = self.path.with_name(self.path.name + ".bad")
            os.replace(self.path, aside)
            return None, f"{self.path}: not a usable game ({e}); kept as {aside.name}"
        return record, None

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)
