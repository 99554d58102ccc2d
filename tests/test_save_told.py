"""The device's names and settings share one way to tell a failed save: once while it
fails, once when it works again; a bug in a save is not taken for a full card."""

from __future__ import annotations

import pytest

from companion.app.sinks import save_told_once
from companion.storage import StorageError


def test_a_failing_save_is_told_once_and_its_recovery_once():
    said: list[str] = []
    works = [False, False, False, True, True]

    def save() -> None:
        if not works.pop(0):
            raise StorageError("cannot save the names: read-only file system")

    failing, failed = False, []
    for _ in range(5):
        failing = save_told_once(save, "names", failing, said.append)
        failed.append(failing)
    assert failed == [True, True, True, False, False]
    assert said == [
        "cannot save the names: read-only file system; the names apply until the device is "
        "switched off",
        "the names are saved again",
    ]


def test_a_bug_in_a_save_is_not_taken_for_a_failed_save():
    def save() -> None:
        raise KeyError("a bug")

    with pytest.raises(KeyError):
        save_told_once(save, "settings", False, print)
