"""What the table remembers at power-on from the state folder: the saved game (offered
to resume when it is unfinished), the pads' names and what the history screen shows."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from ..errors import CompanionError
from ..game.names import NO_HISTORY
from ..game.record import new_id
from ..storage import Source, StateDir
from ..storage.history import History, skipped
from ..storage.settings import NamesFile
from ..table import Flow, offer_resume
from ..table.state import KEPT_SHOWN, KeptGame
from .sinks import Report


def power_on(
    flow: Flow,
    store: StateDir | None,
    report: Report,
    entropy: Callable[[int], bytes] = os.urandom,
) -> Flow:
    """The table at power-on: offering the saved game if one is unfinished, and knowing
    the games set aside that can be resumed. A save that cannot be used is told, and
    kept (the store never overwrites it). The games started here take their ids from
    one drawn now (``entropy``: a seam for tests)."""
    if not flow.next_id:
        flow = replace(flow, next_id=new_id(entropy(16)))
    if store is None:
        return flow
    # A record saved before games had ids is offered as the game its contents make: the
    # id the history and the folder's look know it by.
    kept = tuple(
        KeptGame(record.identified(), _when(path))
        for path, record in store.unfinished_kept(KEPT_SHOWN)
    )
    flow = replace(flow, kept=kept)  # the games set aside, to resume from the seats' screen
    loaded = store.load()
    for message in loaded.messages:
        report(message)
    if loaded.record is not None and loaded.unfinished:
        saved = loaded.record.identified()
        return offer_resume(flow, saved, backup=loaded.source is Source.BACKUP)
    return flow


def remembered(flow: Flow, names: NamesFile, history: History, report: Report) -> Flow:
    """``flow`` with the pads' names saved in the state folder and what the history
    screen shows (a history that cannot be read is said, and the screen stays empty)."""
    try:
        past = history.summary()
    except (CompanionError, sqlite3.Error, OSError) as e:
        report(f"{e}; the history screen stays empty")
        past = NO_HISTORY
    if history.skipped:
        report(skipped(history))
    return replace(flow, names=names.names(report), past=past)


def _when(path: Path) -> str:
    """When a kept file was last written, in local time (ISO 8601, to the minute): the
    list says it as its language writes a moment."""
    try:
        return datetime.fromtimestamp(path.stat().st_mtime).isoformat(timespec="minutes")
    except (OSError, ValueError, OverflowError):
        return ""
