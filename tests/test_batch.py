"""JSON Lines batches: one answer per input line, in order, whatever a line holds."""

from __future__ import annotations

import io
import json
import os
import random

import pytest

from companion.cli import replay as replay_cli
from companion.cli.lines import LINE_MAX
from companion.cli.replay import PARALLEL_MIN_GAMES, is_batch, replay_command
from companion.game.randgame import random_game
from companion.game.record import GameRecord

GOOD = json.dumps({"players": 3, "rounds": [{"plays": [[1, 3], [2, 5], [4, 8]]}]})

# (line, what its answer says): every kind of line a batch may hold.
LINES = [
    (GOOD, None),
    ("", "empty line"),
    ("   \t", "empty line"),
    ("{oops", "not valid JSON: Expecting property name"),
    ("[1, 2]", "a game record is a JSON object, got a list"),
    ("[" * 50_000 + "]" * 50_000, "JSON nested too deeply"),
    ('{"players": ' + "9" * 5000 + "}", "a number in the JSON is longer than 4300 digits"),
    ('{"players": 3, "board": "' + "x" * 1_000_000 + '"}', "unknown board 'xxx"),
    ('{"players": 3, "board": "\u2028"}', r"unknown board '\u2028'"),  # not a line break
    ('{"players": 3, "board": {"trader_rates": [[1, 1], [2, 1]]}}', "has 16 spaces"),
    ('{"players": 3, "rounds": [{"plays": [[1, 2], [3, 4], [5, 9]]}]}', "card 9 does not exist"),
    ('{"players": 9}', "a game has 2 to 6 players, got 9"),
]


@pytest.fixture(autouse=True)
def in_tmp_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # "batch.jsonl" in messages, not a long temporary path


def batch(lines: list[str | bytes], end: bytes = b"\n") -> bytes:
    raw = [line.encode() if isinstance(line, str) else line for line in lines]
    return b"".join(line + end for line in raw)


def run(tmp_path, data: bytes, *, as_json: bool = True, jobs: int = 1) -> tuple[int, str, str]:
    (tmp_path / "batch.jsonl").write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    code = replay_command("batch.jsonl", as_json=as_json, out=out, err=err, jobs=jobs)
    return code, out.getvalue(), err.getvalue()


def check_answers(out: str, expected: list[str | None]) -> None:
    answers = [json.loads(line) for line in out.split("\n")[:-1]]
    assert len(answers) == len(expected) and out.endswith("\n")
    for n, (answer, words) in enumerate(zip(answers, expected, strict=True), 1):
        if words is None:
            assert answer["round"] == 1 and "error" not in answer
        else:
            assert answer["error"].startswith(f"line {n}: ") and words in answer["error"]
            assert len(answer["error"]) < 200


@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
def test_every_line_gets_one_answer_in_order(tmp_path, end):
    lines = [GOOD] + [line for line, _ in LINES] + [GOOD]
    expected = [None] + [words for _, words in LINES] + [None]
    code, out, err = run(tmp_path, batch(lines, end))
    assert code == 2
    check_answers(out, expected)
    assert err.count("\n") == sum(w is not None for w in expected)
    assert all(len(line) < 200 for line in err.splitlines())


def test_a_line_of_bytes_that_are_not_utf8_is_that_lines_error(tmp_path):
    code, out, _ = run(tmp_path, batch([GOOD, b'{"players": "\xff"}', GOOD]))
    assert code == 2
    check_answers(out, [None, "not UTF-8 text: invalid start byte at byte 13", None])


def test_a_bad_first_game_is_only_the_first_lines_error(tmp_path):
    code, out, _ = run(tmp_path, batch(['{"players": 3, "target": 1e999}', GOOD]))
    assert code == 2
    check_answers(out, ["'target' must be a whole number 1..999, got inf", None])


def test_the_last_newline_ends_the_last_line(tmp_path):
    _, with_end, _ = run(tmp_path, batch([GOOD, GOOD]))
    code, without_end, _ = run(tmp_path, batch([GOOD, GOOD])[:-1])
    assert code == 0 and with_end == without_end
    check_answers(with_end, [None, None])
    # A blank line after it is a line of its own, with its answer.
    code, out, _ = run(tmp_path, batch([GOOD, GOOD, ""]))
    assert code == 2
    check_answers(out, [None, None, "empty line"])


def test_narrated_batch_keeps_every_good_game(tmp_path):
    code, out, err = run(tmp_path, batch([GOOD, "{oops", "", GOOD]), as_json=False)
    assert code == 2
    assert out.count("=== ") == 2 and out.count("Santo Domingo: 3 players") == 2
    assert ": line 1\n" in out and ": line 4\n" in out
    assert err.count("\n") == 2
    assert ": line 2: not valid JSON" in err and ": line 3: empty line\n" in err


def test_a_broken_document_is_one_error(tmp_path):
    """A pretty-printed record with a mistake is one document, not a batch of lines."""
    text = json.dumps({"players": 3, "target": 30, "rounds": [{"plays": [[1, 2]] * 3}]}, indent=2)
    assert text.count("\n") > 15
    code, out, err = run(tmp_path, text.replace('"players": 3,', '"players": 3', 1).encode())
    assert code == 2 and out == ""
    assert err == "batch.jsonl: not valid JSON: Expecting ',' delimiter at line 3 column 3\n"
    # A line that is a whole object makes it a batch, whatever the first line holds.
    code, out, err = run(tmp_path, batch(["[1, 2]", GOOD, GOOD]))
    assert code == 2 and err.count("\n") == 1
    check_answers(out, ["a game record is a JSON object, got a list", None, None])


@pytest.mark.parametrize(
    "first",
    ["{oops", "garbage", "[1, 2]", '{"players": NaN}', "", '{"players": 3', "}" * 100],
)
def test_a_bad_first_line_does_not_void_the_batch(tmp_path, first):
    code, out, err = run(tmp_path, batch([first, GOOD, "{oops", GOOD]))
    assert code == 2 and err.count("\n") == 2
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == 4
    assert answers[0]["error"].startswith("line 1: ") and answers[2]["error"].startswith("line 3: ")
    assert answers[1]["round"] == 1 and answers[3]["round"] == 1


def test_batch_decision():
    """Only for text that is not one JSON document: whether it is lines."""
    assert is_batch(b"{}\n{oops\n") and is_batch(b"{oops\n{}\n")
    assert is_batch(b"\xef\xbb\xbf\n[]\r\n{}") and is_batch(b'[]\n{"\xff": 1}')
    # Only a line's shape counts, not what its values hold.
    for line in (b'{"players": NaN}', b'{"players": ' + b"9" * 5000 + b"}", b'{"\xff": 1}'):
        assert is_batch(b"[oops\n" + line)
    assert not is_batch(b"{\n}\n{")  # a broken document: no line is an object
    assert not is_batch(b"[]\n[oops")
    assert not is_batch(b"") and not is_batch(b"\n\n")
    assert not is_batch(b'\n{"players": NaN}\n\n')  # one line: one document


def test_a_line_too_long_is_one_answer_and_the_batch_goes_on(tmp_path):
    long = b'{"players": 3, "note": "' + b"x" * LINE_MAX + b'"}'
    for jobs in (1, 2):
        code, out, err = run(tmp_path, batch([GOOD, long, GOOD]), jobs=jobs)
        assert code == 2 and err.count("\n") == 1
        check_answers(out, [None, "longer than 1 MB (1048576 bytes), not read", None])
    # The last line too, without its newline; a line of exactly the cap is read.
    code, out, _ = run(tmp_path, batch([GOOD, long])[:-1])
    check_answers(out, [None, "longer than 1 MB"])
    exact = b'{"players": 3, "rounds": [{"plays": [[1, 3], [2, 5], [4, 8]]}]' + b" " * LINE_MAX
    code, out, _ = run(tmp_path, batch([GOOD, exact[:LINE_MAX] + b"}"]))
    check_answers(out, [None, "longer than 1 MB"])
    code, out, _ = run(tmp_path, batch([GOOD, exact[: LINE_MAX - 1] + b"}"]))
    check_answers(out, [None, None])


def test_a_folder_is_refused_in_one_line(tmp_path):
    (tmp_path / "games").mkdir()
    out, err = io.StringIO(), io.StringIO()
    assert replay_command("games", as_json=True, out=out, err=err) == 2
    assert out.getvalue() == "" and err.getvalue() == "games: cannot read: a folder, not a file\n"


def many_games(count: int, bad_every: int = 0) -> tuple[list[str], list[str | None]]:
    """``count`` lines of random whole games, every ``bad_every``-th one a bad line."""
    rng = random.Random(3)
    bad = LINES[1:]
    lines, expected = [], []
    for n in range(1, count + 1):
        if bad_every and n % bad_every == 0:
            line, words = bad[n // bad_every % len(bad)]
        else:
            line, words = random_game(rng).to_json(), None
        lines.append(line)
        expected.append(words)
    return lines, expected


@pytest.mark.slow
def test_parallel_workers_give_the_same_answers(tmp_path):
    lines, expected = many_games(PARALLEL_MIN_GAMES + 100, bad_every=7)
    data = batch(lines)
    answers = {jobs: run(tmp_path, data, jobs=jobs) for jobs in (1, 3)}
    assert answers[1] == answers[3]
    code, out, _ = answers[3]
    assert code == 2
    check_lines = [json.loads(line) for line in out.splitlines()]
    assert len(check_lines) == len(lines)
    for n, (answer, words, line) in enumerate(zip(check_lines, expected, lines, strict=True), 1):
        if words is None:
            assert answer["round"] == len(GameRecord.from_json(line).rounds)
        else:
            assert answer["error"].startswith(f"line {n}: ") and words in answer["error"]


FAILURES = [RuntimeError("surprise"), MemoryError(), RecursionError(), OverflowError("big")]


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_an_unexpected_failure_never_drops_later_games(tmp_path, monkeypatch, jobs):
    """Whatever goes wrong with one game, it is that line's answer and the batch goes on."""
    lines, _ = many_games(
        PARALLEL_MIN_GAMES + 10,
    )
    replay = replay_cli.replay_json  # what --json replays a parsed line with
    failing = {5: FAILURES[0], 6: FAILURES[1], 7: FAILURES[2], PARALLEL_MIN_GAMES + 3: FAILURES[3]}
    by_line = {lines[n - 1]: e for n, e in failing.items()}

    def replay_or_fail(doc: object) -> str:
        error = by_line.get(GameRecord.from_dict(doc).to_json())
        if error is not None:
            raise error
        return replay(doc)

    monkeypatch.setattr(replay_cli, "replay_json", replay_or_fail)
    code, out, err = run(tmp_path, batch(lines), jobs=jobs)
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and len(answers) == len(lines) and err.count("\n") == len(failing)
    assert [n for n, a in enumerate(answers, 1) if "error" in a] == sorted(failing)
    assert answers[4]["error"] == "line 5: cannot replay it (RuntimeError: surprise)"
    assert answers[5]["error"] == "line 6: too large to replay in the memory there is"
    assert answers[6]["error"] == "line 7: nested too deeply to replay"


@pytest.mark.slow
def test_a_worker_that_dies_leaves_no_game_unanswered(tmp_path, monkeypatch):
    lines, _ = many_games(
        PARALLEL_MIN_GAMES * 2,
    )
    expected = run(tmp_path, batch(lines), jobs=1)
    parent = os.getpid()
    replay = GameRecord.replay

    def die_in_a_worker(record: GameRecord):
        if os.getpid() != parent and record.to_json() == lines[300]:
            os._exit(9)  # as if killed for memory
        return replay(record)

    monkeypatch.setattr(GameRecord, "replay", die_in_a_worker)
    assert run(tmp_path, batch(lines), jobs=2) == expected


def test_module_keeps_its_public_names():
    assert replay_cli.EXIT_BAD_INPUT == 2


def test_jobs_are_bounded(capsys):
    from companion.cli import main

    with pytest.raises(SystemExit) as e:
        main(["replay", "--jobs", "100000", "-"])
    assert e.value.code == 2 and "jobs is a whole number 0..64" in capsys.readouterr().err


def test_an_input_that_fails_while_read_is_one_line():
    out, err = io.StringIO(), io.StringIO()
    assert replay_command("/proc/self/mem", as_json=True, out=out, err=err) == 2
    assert (
        out.getvalue() == ""
        and err.getvalue() == "/proc/self/mem: cannot read: Input/output error\n"
    )


def test_a_document_may_hold_a_line_that_is_a_whole_object(tmp_path):
    text = '{"players": 3, "rounds": [\n{"plays": [[1, 3], [2, 5], [4, 8]]}\n]}\n'
    code, out, err = run(tmp_path, text.encode())
    assert code == 0 and err == "" and json.loads(out)["round"] == 1


def test_past_the_document_size_a_bad_first_line_still_starts_a_batch(tmp_path, monkeypatch):
    monkeypatch.setattr(replay_cli, "DOCUMENT_MAX", 1000)
    lines = ["{oops"] + [GOOD] * 40
    for jobs in (1, 2):
        code, out, err = run(tmp_path, batch(lines), jobs=jobs)
        assert code == 2 and err.count("\n") == 1
        check_answers(out, ["not valid JSON"] + [None] * 40)
