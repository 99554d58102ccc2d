"""Whatever a record holds, ``replay`` answers 0 or 2 with one line, never a traceback."""

from __future__ import annotations

import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli.replay import replay_command

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
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
records = st.fixed_dictionaries(
    {},
    optional={
        "players": st.integers(1, 7) | json_values,
        "board": st.sampled_from(["standard", "winter", "nope"]) | json_values,
        "target": st.sampled_from([30, 45, 0]) | json_values,
        "rounds": rounds,
    },
)


def replay(tmp_path, text: str) -> tuple[int, str]:
    path = tmp_path / "fuzz.json"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    code = replay_command(str(path), as_json=True, out=out, err=err, jobs=1)
    return code, err.getvalue()


@settings(max_examples=300, deadline=None)
@given(record=records)
def test_any_record_gets_an_answer(tmp_path_factory, record):
    code, err = replay(tmp_path_factory.mktemp("f"), json.dumps(record))
    assert code in (0, 2)
    assert (code == 0) == (err == "") and err.count("\n") <= 1


@settings(max_examples=200, deadline=None)
@given(raw=st.binary(max_size=40) | st.text(max_size=40).map(str.encode))
def test_any_bytes_get_an_answer(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("b") / "raw.json"
    path.write_bytes(raw)
    out, err = io.StringIO(), io.StringIO()
    assert replay_command(str(path), as_json=True, out=out, err=err, jobs=1) in (0, 2)


def test_deeply_nested_json(tmp_path):
    code, err = replay(tmp_path, "[" * 100_000 + "]" * 100_000)
    assert code == 2 and "nested too deeply" in err
