"""docs/record-format.md: every example in it does what the text says.

Fenced blocks carry a kind after their language: ``json record`` replays, ``json
refused`` is refused, ``jsonl batch`` is a batch; the blocks after one of them show
what ``companion replay`` answers for it (``json output``, ``jsonl output``, ``text
narration``, ``text stderr``), read from a file named ``game.json``. ``json board``
is a board spec.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.cli.replay import replay_command
from companion.game.boards import board_from_spec, named_board

DOC = Path(__file__).parent.parent / "docs" / "record-format.md"
BLOCK = re.compile(r"^```(\w+) (\w+)\n(.*?)^```$", re.DOTALL | re.MULTILINE)
INPUTS = {"record", "refused", "batch"}


def blocks() -> list[tuple[str, str]]:
    """The doc's examples in order: (kind, text)."""
    return [(kind, text) for _, kind, text in BLOCK.findall(DOC.read_text("utf-8"))]


def replay(text: str, as_json: bool) -> tuple[int, str, str]:
    Path("game.json").write_text(text)
    out, err = io.StringIO(), io.StringIO()
    code = replay_command("game.json", as_json=as_json, out=out, err=err, jobs=1)
    return code, out.getvalue(), err.getvalue()


def test_the_doc_has_every_kind_of_example():
    kinds = [kind for kind, _ in blocks()]
    for kind, least in (("record", 2), ("output", 2), ("refused", 2), ("stderr", 3)):
        assert kinds.count(kind) >= least, kind
    assert {"board", "batch", "narration"} <= set(kinds)
    assert kinds[0] == "record"  # outputs always follow the example they answer


def test_every_example_answers_as_the_doc_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    current, kind_of_current = "", ""
    for kind, text in blocks():
        if kind in INPUTS:
            current, kind_of_current = text, kind
            code, _, _ = replay(current, as_json=True)
            assert code == (0 if kind == "record" else 2), text
        elif kind == "output" and kind_of_current == "batch":  # one answer per line
            code, out, _ = replay(current, as_json=True)
            answers = [json.loads(line) for line in out.splitlines()]
            assert answers == [json.loads(line) for line in text.splitlines()]
            assert len(answers) == len(current.splitlines())
        elif kind == "output":
            code, out, _ = replay(current, as_json=True)
            assert code == 0 and json.loads(out) == json.loads(text)
        elif kind == "narration":
            code, out, _ = replay(current, as_json=False)
            assert code == 0 and set(text.splitlines()) <= set(out.splitlines())
        elif kind == "stderr":
            code, out, err = replay(current, as_json=True)
            assert code == 2 and err == text
            if kind_of_current == "refused":
                assert out == ""
        elif kind == "board":
            spec = json.loads(text)
            Path("board.json").write_text(text)
            assert board_from_spec(spec) == named_board("board.json")
        else:
            pytest.fail(f"an example of unknown kind {kind!r}")


def test_json_examples_are_json():
    for kind, text in blocks():
        if kind in {"record", "refused", "board"}:
            assert isinstance(json.loads(text), dict)


def test_the_doc_stands_alone():
    text = DOC.read_text("utf-8")
    assert "../" not in text and "design" not in text.lower()
    for path in re.findall(r"`((?:companion|tests|docs)/[\w./-]+)`", text):
        assert (DOC.parent.parent / path).exists(), path


def test_replay_help_points_to_the_doc(capsys):
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    assert "docs/record-format.md" in capsys.readouterr().out
