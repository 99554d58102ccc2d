"""Whatever a record holds, ``replay`` answers 0 or 2 with one line, never a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli.replay import replay_command
from companion.game.boards import named_board
from companion.rules import BoardError

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)
cards = st.lists(st.integers(0, 9) | json_values, max_size=3)
rounds = st.lists(
    st.fixed_dictionaries(
        {"plays": st.lists(cards, min_size=1, max_size=6) | json_values},
        optional={"trades": st.lists(st.integers(-2, 16) | st.none() | json_values, max_size=7)},
    )
    | json_values,
    max_size=4,
)
rates = st.lists(
    st.none() | st.tuples(st.integers(-1, 17), st.integers(-1, 100)).map(list) | json_values,
    min_size=15,
    max_size=17,
)
records = st.fixed_dictionaries(
    {},
    optional={
        "players": st.integers(1, 7) | json_values,
        "board": st.sampled_from(["standard", "winter", "nope"])
        | st.fixed_dictionaries({"trader_rates": rates})
        | json_values,
        "target": st.sampled_from([30, 45, 0, 999, 1000]) | json_values,
        "rounds": rounds,
    },
)

# JSON text json.dumps cannot write: numbers past Python's digit limit, huge strings,
# nesting past the recursion limit, lone surrogates, line separators inside strings.
NASTY = [
    "9" * 5000,
    "-" + "9" * 4400,
    "1" + "0" * 4000,
    "1e999",
    "-1e999",
    "1e-999",
    '"' + "x" * 200_000 + '"',
    '"\\ud800"',
    '"a\u2028b"',
    "[" * 5000 + "]" * 5000,
    "{" * 3000,
    '"standard"',
    '{"trader_rates": [[1, ' + "1" * 4200 + "]]}",
    "[[1, 1], [2, 1]]",
]
# By index: a strategy's repr would otherwise hold the 200 kB string.
fragments = st.sampled_from(range(len(NASTY))).map(NASTY.__getitem__) | json_values.map(json.dumps)
RECORD = (
    '{{"players": {players}, "board": {board}, "target": {target}, "rounds": '
    '[{{"plays": [[7, {card}], [3, 4], [5, 6]], "trades": [{offer}, 0, 0]}}]}}'
)
SLOTS = ("players", "board", "target", "card", "offer")
nasty_records = st.fixed_dictionaries({slot: fragments for slot in SLOTS}, optional={}).map(
    lambda slots: RECORD.format(**slots)
)


def fuzz(examples: int) -> settings:
    """Hypothesis settings for these tests: a fixed seed, so every run tries the same inputs."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )


def replay(tmp_path, data: bytes) -> tuple[int, str, str]:
    path = tmp_path / "fuzz.json"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    code = replay_command(str(path), as_json=True, out=out, err=err, jobs=1)
    return code, out.getvalue(), err.getvalue()


def assert_answered(code: int, out: str, err: str) -> None:
    """0 with nothing on stderr, or 2 with short lines there; nothing ever raised."""
    assert code in (0, 2)
    assert (code == 0) == (err == "")
    assert all(len(line) < 400 for line in err.split("\n"))


@pytest.mark.slow
@fuzz(300)
@given(record=records)
def test_any_record_gets_an_answer(tmp_path_factory, record):
    code, out, err = replay(tmp_path_factory.mktemp("f"), json.dumps(record).encode())
    assert_answered(code, out, err)
    assert err.count("\n") <= 1


@pytest.mark.slow
@fuzz(150)
@given(text=nasty_records)
def test_nasty_json_gets_one_line(tmp_path_factory, text):
    code, out, err = replay(tmp_path_factory.mktemp("n"), text.encode("utf-8", "surrogatepass"))
    assert_answered(code, out, err)
    assert err.count("\n") <= 1 and (code == 0 or out == "")


@pytest.mark.slow
@fuzz(100)
@given(
    first=records,
    rest=st.lists(records.map(json.dumps) | nasty_records | st.text(max_size=20), max_size=6),
)
def test_any_batch_gets_one_answer_per_line(tmp_path_factory, first, rest):
    lines = [json.dumps(first), *(line.replace("\n", " ") for line in rest), "{"]
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    code, out, err = replay(tmp_path_factory.mktemp("l"), data)
    assert_answered(code, out, err)
    assert code == 2 and out.count("\n") == len(lines)
    answers = [json.loads(line) for line in out.splitlines()]
    assert answers[-1]["error"].startswith(f"line {len(lines)}: not valid JSON")
    assert err.count("\n") == sum("error" in a for a in answers)


@pytest.mark.slow
@fuzz(300)
@given(raw=st.binary(max_size=200) | st.text(max_size=80).map(str.encode))
def test_any_bytes_get_an_answer(tmp_path_factory, raw):
    code, out, err = replay(tmp_path_factory.mktemp("b"), raw)
    assert_answered(code, out, err)


@pytest.mark.slow
@fuzz(100)
@given(
    raw=st.binary(max_size=100)
    | nasty_records.map(str.encode)
    | rates.map(json.dumps).map(str.encode)
)
def test_any_board_file_gets_one_line(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("board") / "board.json"
    path.write_bytes(raw if raw[:1] != b"[" else b'{"trader_rates": ' + raw + b"}")
    try:
        named_board(str(path))
    except BoardError as e:
        assert "\n" not in str(e) and len(str(e)) < 400


def test_deeply_nested_json(tmp_path):
    code, _, err = replay(tmp_path, b"[" * 100_000 + b"]" * 100_000)
    assert code == 2 and "nested too deeply" in err


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "data", "code", "lines"),
    [
        (["replay", "-"], b"\xff\xfe{", 2, 1),
        (["replay", "-", "--json"], b"[" * 200_000, 2, 1),
        (["replay", "-", "--json"], b'{"players": ' + b"9" * 5000 + b"}", 2, 1),
        (["replay", "-", "--json"], b'{"players": 3, "board": {"trader_rates": 7}}', 2, 1),
        (["replay", "-", "--json"], b'{"players": 3}\n\n[' + b"[" * 9000 + b"\n\xff\n", 2, 3),
        (["simulate", "--board", "/dev/zero", "--fast"], b"", 2, 1),
        (["simulate", "--board", "x" * 100_000, "--fast"], b"", 2, 1),
    ],
)
def test_real_process_never_shows_a_traceback(args, data, code, lines):
    proc = subprocess.run(
        [sys.executable, "-m", "companion", *args], input=data, capture_output=True, check=False
    )
    err = proc.stderr.decode()
    assert proc.returncode == code and "Traceback" not in err
    assert err.count("\n") == lines and all(len(line) < 200 for line in err.splitlines())
