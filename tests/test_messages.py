"""Messages stay one short line, whatever size of value they echo."""

from __future__ import annotations

import io
import json

import pytest

from companion.cli import main
from companion.cli.replay import replay_command
from companion.errors import clip, shown, where
from companion.game.boards import named_board, profile
from companion.rules import BoardError, SetupError, new_game

HUGE = "x" * 10_000_000  # 10 MB


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (3, "3"),
        ("3", "'3'"),
        (None, "None"),
        (True, "True"),
        ([1, [2, [3, [4, [5]]]]], "[1, [2, [3, [...]]]]"),
        (10**4000, "<a number of about 4001 digits>"),
        (-(10**100), "<a negative number of about 101 digits>"),
        (list(range(100)), "[0, 1, 2, 3, 4, 5, 6, 7, ...]"),
    ],
)
def test_shown_values(value, expected):
    assert shown(value) == expected


def test_shown_cuts_to_80_characters_with_a_marker():
    text = shown(HUGE)
    assert len(text) == 80 and text.startswith("'xxx") and "..." in text
    assert len(shown([HUGE] * 3)) == 80 and shown([HUGE] * 3).endswith("...")


def test_clip_keeps_one_line():
    assert clip("a\nb\x00c") == r"a\nb\x00c"
    assert clip("caf\udcff") == r"caf\udcff"  # an undecodable byte of a file name
    assert clip("é→ ok") == "é→ ok"
    assert clip("\n" * 500) == "\\n" * 38 + "\\..."
    assert len(clip("\n" * 500)) == 80


def one_line(text: str) -> str:
    """The single message line of ``text`` (asserting there is exactly one)."""
    assert text.count("\n") == 1 and text.endswith("\n"), text[:300]
    assert len(text) < 200, text[:300]
    return text


def replay_text(doc: object) -> tuple[int, str, str]:
    """Replay ``doc`` from ``g.json`` in the current folder (a short name in messages)."""
    with open("g.json", "w") as f:
        json.dump(doc, f)
    out, err = io.StringIO(), io.StringIO()
    code = replay_command("g.json", as_json=True, out=out, err=err, jobs=1)
    return code, out.getvalue(), err.getvalue()


RECORD = {"players": 3, "rounds": [{"plays": [[1, 2], [3, 4], [5, 6]], "trades": [0, 0, 0]}]}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"board": HUGE}, "unknown board 'xxx"),
        ({"board": {"trader_rates": HUGE}}, "trader_rates must be a list of 16 entries"),
        ({"board": {HUGE: 1}}, "needs 'trader_rates', got keys ['xxx"),
        ({"players": HUGE}, "'players' must be a whole number 2..6, got 'xxx"),
        ({"target": HUGE}, "'target' must be a whole number 1..999, got 'xxx"),
        ({"rounds": [{"plays": [[1, HUGE], [3, 4], [5, 6]]}]}, "seat P1: card 'xxx"),
        ({"rounds": [{"plays": [[7, 2], [3, 4], [5, 6]], "trades": [HUGE]}]}, "trade offer 'x"),
        ({"rounds": [{"plays": [[7, 2], [3, 4], [5, 6]], "trades": [[HUGE]]}]}, "offer ['x"),
        ({"rounds": [{"plays": [[1, 10**4000], [3, 4], [5, 6]]}]}, "card <a number of about"),
        ({"rounds": [HUGE]}, "round 1: expected an object with 'plays', got a string"),
    ],
)
def test_huge_values_give_one_short_line(tmp_path, monkeypatch, changes, words):
    monkeypatch.chdir(tmp_path)
    code, out, err = replay_text({**RECORD, **changes})
    assert code == 2 and out == ""
    assert one_line(err).startswith("g.json: ") and words in err


def test_setup_bounds_the_target():
    assert new_game(3, profile("standard"), 999).setup.target == 999
    with pytest.raises(SetupError, match=r"^the target is a number of VP 1..999, got 1000$"):
        new_game(3, profile("standard"), 1000)
    with pytest.raises(SetupError, match=r"got <a number of about 4001 digits>$"):
        new_game(10**4000, profile("standard"))


@pytest.fixture
def board_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # short relative names: messages cut paths at 80 characters
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00{")
    (tmp_path / "deep.json").write_text('{"trader_rates": ' + "[" * 10_000)
    (tmp_path / "digits.json").write_text('{"trader_rates": [' + "7" * 5000 + "]}")
    (tmp_path / "big.json").write_text(" " * 100_000 + "{}")
    (tmp_path / "folder").mkdir()
    return tmp_path


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("binary.json", "binary.json: not UTF-8 text: invalid start byte at byte 0"),
        ("deep.json", "deep.json: JSON nested too deeply"),
        ("digits.json", "digits.json: a number in the JSON is longer than 4300 digits"),
        ("big.json", "big.json: larger than 64 KB, not a board file"),
        ("folder", "folder: not a board name (standard, winter) and cannot read it as a file: Is"),
        ("missing.json", "missing.json: not a board name (standard, winter) and cannot read it"),
        ("bad\x00name", r"bad\x00name: not a board name, nor a file path: embedded null byte"),
    ],
)
def test_board_files_give_one_line(board_files, name, words):
    with pytest.raises(BoardError) as e:
        named_board(name)
    message = str(e.value)
    assert message.startswith(f"--board {words}")
    assert "\n" not in message and len(message) < 200


def test_a_board_file_too_large_is_refused_unread(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (64 * 1024 + 1))  # as /dev/zero would be, but finite
    with pytest.raises(BoardError, match=r"larger than 64 KB"):
        named_board(str(big))


def test_huge_board_argument(capsys):
    assert main(["simulate", "--board", HUGE, "--fast"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert one_line(captured.err).startswith("companion simulate: --board xxxx")


def test_where_escapes_a_path_and_cuts_it_at_its_start():
    assert where("/var/lib/santo-domingo/game.json") == "/var/lib/santo-domingo/game.json"
    assert where("/tmp/a\x1b[2Jb") == "/tmp/a\\x1b[2Jb"
    long = where("/" + "a" * 5000 + "/game.json")
    assert len(long) == 80 and long.startswith("...") and long.endswith("a/game.json")


ESC = "\x1b[2J"


@pytest.mark.parametrize(
    "argv",
    [
        ["config", "show", "--config", f"/nonexistent/{ESC}x.toml"],
        ["config", "show", "--config", "/" + "a" * 5000],
        ["history", "--state-dir", f"/tmp/nope{ESC}" + "q" * 300],
        ["config", "show", "--config", "/dev/zero"],  # never read: not a file
    ],
)
def test_a_path_in_a_message_is_escaped_and_cut(capsys, argv):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and "\x1b" not in err and err.endswith("\n")
    assert all(len(line) < 200 for line in err.splitlines()), err


def test_a_config_path_with_a_nul_or_a_config_file_too_large_is_one_line(tmp_path, capsys):
    (tmp_path / "n.toml").write_text('[paths]\nstate_dir = "/tmp/a\\u0000b"\n')
    assert main(["config", "show", "--config", str(tmp_path / "n.toml")]) == 2
    assert "[paths] state_dir: a NUL character in it" in capsys.readouterr().err
    (tmp_path / "big.toml").write_bytes(b"#" * (2 << 20))
    assert main(["config", "show", "--config", str(tmp_path / "big.toml")]) == 2
    assert capsys.readouterr().err.endswith("larger than 1 MB: not a config file\n")
