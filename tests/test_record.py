"""The game record (docs/record-format.md) and ``companion replay``."""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import model_game

from companion.cli import main
from companion.cli.replay import replay_command
from companion.game.boards import board_from_spec, board_spec, profile
from companion.game.randgame import monotone
from companion.game.record import GameRecord, RoundRecord
from companion.rules import Board, BoardError, RecordError

DOC_EXAMPLE = {
    "players": 3,
    "board": "standard",
    "target": 30,
    "rounds": [
        {"plays": [[1, 3], [2, 5], [4, 8]], "trades": [0, 0, 0]},
        {"plays": [[7, 6], [7, 1], [3, 5]], "trades": [9, 4, 0]},
    ],
}


def run(tmp_path: Path, text: str, *args: str) -> tuple[int, str, str]:
    """Replay ``text`` as ``game.json``, named so (from inside ``tmp_path``): a message
    names the file as it was given, and a long temporary path would be cut short."""
    (tmp_path / "game.json").write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(tmp_path):
        code = replay_command("game.json", as_json="--json" in args, out=out, err=err, jobs=1)
    return code, out.getvalue(), err.getvalue()


def test_doc_example(tmp_path):
    code, out, err = run(tmp_path, json.dumps(DOC_EXAMPLE), "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["round"] == 2 and result["finished"] is False
    assert "result" not in result
    # Round 1: rows 6/6/6 after supply; Captain 2 (row 4), Admiral 4 (row 0); Frigate 3,
    # Galleon 3 (row 0). Round 2: rows 5/5/11; Captain 2; Galleon 5 (P3 caps at 15).
    assert result["rows"] == {"vp": 3, "goods": 0, "trader": 0}
    p1, _, p3 = result["players"]
    assert p1["hand"] == [2, 4, 5, 8] and p1["discard"] == [1, 3, 6, 7]
    assert p3 == {"vp": 0, "goods": 15, "hand": [1, 2, 4, 6, 7, 8], "discard": [3, 5]}


def test_finished_game_has_a_result(tmp_path):
    record, outputs = model_game(random.Random(7), 4, profile("standard"), 30)
    code, out, _ = run(tmp_path, record.to_json(), "--json")
    result = json.loads(out)
    assert code == 0 and result == outputs[-1]
    assert result["finished"] and set(result["result"]) == {"vp", "goods", "winners"}


def test_round_trip():
    record = GameRecord.from_json(json.dumps(DOC_EXAMPLE))
    assert GameRecord.from_json(record.to_json()) == record
    assert json.loads(record.to_json()) == DOC_EXAMPLE
    custom = GameRecord(2, Board.from_rates([[1, 1]] * 16), 45, (RoundRecord(((1, 2), (3, 4))),))
    assert GameRecord.from_json(custom.to_json()) == custom
    assert json.loads(custom.to_json())["board"] == {"trader_rates": [[1, 1]] * 16}


def test_defaults_and_nulls():
    record = GameRecord.from_json(
        '{"players": 4, "rounds": [{"plays": [[1],[2],[3],[7]], "trades": [null, 0, null, 5]}]}'
    )
    assert record.board == profile("standard") and record.target == 30
    assert record.rounds[0].trades == (0, 0, 0, 5)


def test_board_specs():
    assert board_spec(profile("winter")) == "winter"
    assert board_from_spec({"trader_rates": [None] * 16}).rates == (None,) * 16
    with pytest.raises(BoardError, match=r"unknown board 'summer' \(known: standard, winter\)"):
        board_from_spec("summer")
    named = board_from_spec({"trader_rates": [None] * 16, "name": "our copy"})
    assert named == board_from_spec({"trader_rates": [None] * 16})
    with pytest.raises(BoardError, match=r"needs 'trader_rates', got keys \['rates'\]"):
        board_from_spec({"rates": [None] * 16})
    assert not profile("standard").verified  # shipped rates are placeholders


def game(**changes) -> str:
    return json.dumps({**DOC_EXAMPLE, **changes})


def rounds(*plays, trades=None) -> list[dict]:
    return [{"plays": p, **({"trades": trades} if trades else {})} for p in plays]


BAD_RECORDS = [
    ("{", "not valid JSON: Expecting property name"),
    ("", "not valid JSON: Expecting value at line 1 column 1"),
    ("[1, 2]", "a game record is a JSON object, got a list"),
    ('{"players": NaN}', "NaN is not a number"),
    (game(players=7), "a game has 2 to 6 players, got 7"),
    (game(players="3"), "'players' must be a whole number 2..6, got '3'"),
    (game(target=0), "'target' must be a whole number 1..999, got 0"),
    (game(target=1000), "'target' must be a whole number 1..999, got 1000"),
    (game(players=10**4000), "a game has 2 to 6 players, got <a number of about 4001 digits>"),
    ('{"players": 3, "target": 1' + "0" * 4400 + "}", "a number in the JSON is longer than 4300"),
    (game(board="summer"), "unknown board 'summer'"),
    (game(board={"trader_rates": [[1, 1]] * 15}), "has 16 spaces (0..15), got 15"),
    (game(board={"trader_rates": [[1, 0]] * 16}), "trader space 0: expected null or [goods, vp]"),
    (game(board={"trader_rates": [[16, 1]] * 16}), "goods 1..15 and VP 1..99, got [16, 1]"),
    (game(board={"trader_rates": [[10**30, 1]] * 16}), "got [1000000000000000000000000000000, 1]"),
    (game(board={"trader_rates": [[1, 10**400]] * 16}), "got [1, <a number of about 401 digits>]"),
    (
        game(board={"trader_rates": [None] * 5 + [[1, 1]] + [None] * 3 + [[2, 1]] + [None] * 6}),
        "trader space 5: 1:1 gives more VP per good than 2:1 on space 9 above it",
    ),
    (game(rounds={"plays": []}), "'rounds' must be a list, got an object"),
    (game(rounds=[[1, 2]]), "round 1: expected an object with 'plays', got a list"),
    (game(rounds=[{"trades": []}]), "round 1: 'plays' must be a list"),
    (game(rounds=rounds([[1, 2], 3, [4, 5]])), "round 1, seat P2: expected a list of cards, got 3"),
    (game(rounds=rounds([[1, 2], [3, 4]])), "round 1: 2 seat(s) played; the game has 3"),
    (game(rounds=rounds([[1, 2], [3, 4], [5, 9]])), "round 1, seat P3: card 9 does not exist"),
    (game(rounds=rounds([[1, 2], [3, "x"], [5, 6]])), "round 1, seat P2: card 'x' is not a card"),
    (game(rounds=rounds([[1, 2], [3, 3], [5, 6]])), "round 1, seat P2: card 3 is chosen twice"),
    (game(rounds=rounds([[1], [3, 4], [5, 6]])), "round 1, seat P1: 1 card(s) chosen"),
    (
        game(rounds=rounds([[1, 2], [3, 4], [5, 6]], [[1, 3], [2, 5], [4, 8]])),
        "round 2, seat P1: card 1 (Captain) is not in hand",
    ),
    (
        game(rounds=rounds([[7, 2], [3, 4], [5, 6]], trades=[-1, 0, 0])),
        "round 1, seat P1: trade offer -1 is not a number of goods",
    ),
    (
        game(rounds=rounds([[7, 2], [3, 4], [5, 6]], trades=[0, 0, 0, 0])),
        "round 1: 4 trade offers for 3 seats",
    ),
]


@pytest.mark.parametrize(("text", "words"), BAD_RECORDS)
def test_bad_records_exit_2_with_one_line(tmp_path, text, words):
    for args in (("--json",), ()):
        code, out, err = run(tmp_path, text, *args)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and words in err, err
        assert err.startswith("game.json: ")


def test_round_after_the_end(tmp_path):
    record, _ = model_game(random.Random(3), 4, profile("standard"), 30)
    doc = json.loads(record.to_json())
    doc["rounds"].append({"plays": [[8], [8], [8], [8]]})
    n = len(doc["rounds"])
    code, _, err = run(tmp_path, json.dumps(doc), "--json")
    assert code == 2 and f"round {n}: the game already ended after round {n - 1}" in err


def test_unreadable_files(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "missing.json: cannot read: No such file or directory" in capsys.readouterr().err
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00garbage")
    assert main(["replay", str(tmp_path / "bin.json")]) == 2
    assert "not UTF-8 text" in capsys.readouterr().err


def test_json_lines_report_each_game(tmp_path):
    good = json.dumps(DOC_EXAMPLE)
    bad = game(rounds=rounds([[1, 2], [3, 4], [5, 9]]))
    code, out, err = run(tmp_path, "\n".join([good, bad, "", "{oops", good]) + "\n", "--json")
    assert code == 2
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 5  # one answer per line, the blank one included
    assert lines[0] == lines[4] and lines[0]["round"] == 2
    assert lines[1] == {"error": "line 2: round 1, seat P3: card 9 does not exist (cards are 1..8)"}
    assert lines[2] == {"error": "line 3: empty line"}
    assert lines[3]["error"].startswith("line 4: not valid JSON")
    assert err.count("\n") == 3 and ": line 2: round 1, seat P3" in err


@pytest.mark.slow
def test_parallel_batch_equals_model(tmp_path):
    """Hundreds of random games through the command, one process and several, vs the model."""
    rng = random.Random(11)
    games = [
        model_game(rng, rng.randint(2, 6), _random_board(rng), rng.choice([30, 45]))
        for _ in range(300)
    ]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(record.to_json() + "\n" for record, _ in games))
    outputs = {}
    for jobs in (1, 2):
        out, err = io.StringIO(), io.StringIO()
        assert replay_command(str(path), as_json=True, out=out, err=err, jobs=jobs) == 0
        outputs[jobs] = out.getvalue()
    assert outputs[1] == outputs[2]
    assert [json.loads(line) for line in outputs[1].splitlines()] == [o[-1] for _, o in games]


def _random_board(rng: random.Random) -> Board:
    if rng.random() < 0.3:
        return profile(rng.choice(["standard", "winter"]))
    return Board.from_rates(
        monotone(
            [
                None if rng.random() < 0.25 else [rng.randint(1, 6), rng.randint(1, 5)]
                for _ in range(16)
            ]
        )
    )


def test_narration(tmp_path):
    record, _ = model_game(random.Random(5), 3, profile("standard"), 30)
    code, out, _ = run(tmp_path, record.to_json())
    assert code == 0
    assert out.startswith("Santo Domingo: 3 players, Standard board (trader rates unverified)")
    assert "Round 1\n  Supply: VP row 1 → 6, goods row 1 → 6" in out and "\n  Reveal: P1 " in out
    assert "Game over after round" in out and "Ranking:" in out
    assert ("Winner: " in out) or ("Shared victory: " in out)


def test_pretty_printed_single_game(tmp_path):
    code, out, _ = run(tmp_path, json.dumps(DOC_EXAMPLE, indent=2), "--json")
    assert code == 0 and json.loads(out)["round"] == 2


def test_real_process_reads_stdin_and_never_shows_a_traceback():
    for text, code in ((json.dumps(DOC_EXAMPLE), 0), ('{"players": 3, "rounds": 5}', 2)):
        proc = subprocess.run(
            [sys.executable, "-m", "companion", "replay", "-", "--json"],
            input=text,
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == code
        assert "Traceback" not in proc.stderr
        if code:
            assert proc.stderr == "<stdin>: 'rounds' must be a list, got 5\n"


def test_record_errors_are_record_errors():
    with pytest.raises(RecordError):
        GameRecord.from_json("{")


def test_a_customs_that_counts_nothing_gains_no_vp_not_no_goods(tmp_path):
    record = {"players": 3, "rounds": [{"plays": [[6, 1], [2, 3], [4, 8]]}]}
    code, out, _ = run(tmp_path, json.dumps(record))
    assert code == 0 and "Customs: P1 +0 VP (Frigate ×1)" not in out
    record["rounds"][0]["plays"] = [[6, 1], [2, 3], [7, 8]]
    code, out, _ = run(tmp_path, json.dumps(record))
    assert code == 0 and "Customs: P1 +0 VP (nothing to count)" in out
