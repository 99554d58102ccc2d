"""``companion bot``: JSON Lines in, one answer line per request line out (docs/bot-protocol.md)."""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import random
import selectors
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.cli.bot import bot_command
from companion.game.bots import STRENGTHS
from companion.game.randgame import random_game
from companion.game.record import GameRecord
from companion.rules import check_selection, trade_choices

REPLY_TIMEOUT = 60  # seconds: a guard so a bot that never answers fails instead of hanging


def _requests(seed: int, players: int) -> list[tuple[dict, GameRecord, list]]:
    """A cards and a trade request for every seat at every round of a random game."""
    record = random_game(random.Random(seed), players=players)
    out = []
    for n, rnd in enumerate(record.rounds):
        before = dataclasses.replace(record, rounds=record.rounds[:n])
        game = before.to_dict()
        plays = [list(p) for p in rnd.plays]
        for seat in range(players):
            out.append(({"ask": "cards", "game": game, "seat": seat}, before, plays))
            trade = {"ask": "trade", "game": game, "seat": seat, "plays": plays}
            out.append((trade, before, plays))
    return out


def _check_legal(request: dict, before: GameRecord, plays: list, reply: dict) -> None:
    state, seat = before.replay(), request["seat"]
    if request["ask"] == "cards":
        assert list(check_selection(state, seat, reply["cards"])) == reply["cards"]
    else:
        choice = [c for c in trade_choices(state, plays) if c.seat == seat]
        held = choice[0].held if choice else 0
        assert type(reply["offer"]) is int and 0 <= reply["offer"] <= held


def _run(lines: list[bytes], strength: str = "normal", seed: int = 0) -> list[dict]:
    out = io.StringIO()
    # A fake clock 1 ms further on at every call: the strong bot's search makes the same
    # number of playouts on any machine, so its answers are deterministic.
    clock = itertools.count(0, 0.001).__next__
    assert bot_command(strength, seed, 30, io.BytesIO(b"".join(lines)), out, clock) == 0
    text = out.getvalue()
    assert text.endswith("\n") or not text
    return [json.loads(line) for line in text.splitlines()]


def _line(request: object) -> bytes:
    return json.dumps(request).encode() + b"\n"


@pytest.mark.slow
@pytest.mark.parametrize("strength", STRENGTHS)
def test_in_process_every_answer_is_legal_across_whole_games(strength: str) -> None:
    for seed, players in ((1, 2), (2, 3), (3, 5)):
        asked = _requests(seed, players)
        replies = _run([_line(r) for r, _, _ in asked], strength, seed)
        assert len(replies) == len(asked)
        for (request, before, plays), reply in zip(asked, replies, strict=True):
            _check_legal(request, before, plays, reply)


def test_as_a_subprocess_each_answer_comes_before_the_next_request() -> None:
    # A GUI writes one line and waits for its answer: the bot must flush every line.
    asked = _requests(4, 3)
    bot = subprocess.Popen(
        [sys.executable, "-m", "companion", "bot", "--strength", "normal", "--seed", "3"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert bot.stdin is not None and bot.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(bot.stdout, selectors.EVENT_READ)
        for request, before, plays in [*asked[:12], *asked[-6:]]:
            bot.stdin.write(_line(request))
            bot.stdin.flush()
            assert sel.select(REPLY_TIMEOUT), "no answer"
            _check_legal(request, before, plays, json.loads(bot.stdout.readline()))
        bot.stdin.write(b"garbage\n")
        bot.stdin.flush()
        assert sel.select(REPLY_TIMEOUT), "no answer"
        assert "error" in json.loads(bot.stdout.readline())
    out, err = bot.communicate(b"", timeout=REPLY_TIMEOUT)
    assert (bot.returncode, out, err) == (0, b"", b"")


BAD = {
    b"not json": "not valid JSON",
    b"": "is blank: a request is a JSON object",
    b" \t ": "is blank: a request is a JSON object",
    b"\xff\xfe": "not UTF-8",
    b"[" * 100_000: "nested too deeply",
    b"NaN": "NaN is not a number",
    b"[1, 2]": "a request is a JSON object",
    b'{"game": {"players": 3}, "seat": 0}': "'ask' must be",
    b'{"ask": "move", "game": {"players": 3}, "seat": 0}': "'ask' must be",
    b'{"ask": "cards", "seat": 0}': "'game': a game record is a JSON object, got null",
    b'{"ask": "cards", "game": {"players": 7}, "seat": 0}': "2 to 6 players",
    b'{"ask": "cards", "game": {"players": 3, "board": "moon"}, "seat": 0}': "moon",
    b'{"ask": "cards", "game": {"players": 3}}': "'seat' must be a seat 0..2, got None",
    b'{"ask": "cards", "game": {"players": 3}, "seat": 3}': "'seat' must be a seat 0..2",
    b'{"ask": "cards", "game": {"players": 3}, "seat": true}': "'seat' must be a seat",
    b'{"ask": "cards", "game": {"players": 3}, "seat": '
    + b"9" * 4000
    + b"}": "got <a number of about 4001 digits>",
    b'{"ask": "cards", "game": {"players": 2, "rounds": [{"plays": [[1, 1], [2, 3]]}]},'
    b' "seat": 0}': "round 1, seat P1",
    b'{"ask": "cards", "game": {"players": 2, "target": 1,'
    b' "rounds": [{"plays": [[1, 2], [3, 4]]}]}, "seat": 0}': "the game is over",
    b'{"ask": "trade", "game": {"players": 2}, "seat": 0}': "'plays' must be a list",
    b'{"ask": "trade", "game": {"players": 2}, "seat": 0, "plays": [[7, 1], 3]}': "'plays'",
    b'{"ask": "trade", "game": {"players": 2}, "seat": 0, "plays": [[7, 1]]}': "1 seat(s)",
    b'{"ask": "trade", "game": {"players": 2}, "seat": 0, "plays": [[7], [1, 2]]}': "seat P1",
    b'{"ask": "trade", "game": {"players": 2}, "seat": 0, "plays": [[7, "1"], [1, 2]]}': "P1",
}


@pytest.mark.parametrize("strength", STRENGTHS)
def test_a_bad_request_is_answered_on_its_line_and_the_bot_reads_on(strength: str) -> None:
    good = _line({"ask": "cards", "game": {"players": 3}, "seat": 1})
    lines = [good]
    for bad in BAD:
        lines += [bad + b"\n", good]
    replies = _run(lines, strength)
    assert len(replies) == len(lines)
    for reply, wanted in zip(replies[1::2], BAD.values(), strict=True):
        assert list(reply) == ["error"]
        assert wanted in reply["error"] and "internal" not in reply["error"]
        assert len(reply["error"]) < 300  # one clear line, never a whole 100 KB echo
    assert all(set(r) == {"cards"} for r in replies[::2])


def test_a_request_carrying_the_others_selections_gets_the_same_answer() -> None:
    # Whatever else a request holds (a GUI leaking this round's choices, say), the bot
    # reads only the record of the completed rounds and its seat.
    game = random_game(random.Random(9), players=3)
    game = dataclasses.replace(game, rounds=game.rounds[:3]).to_dict()
    plain = {"ask": "cards", "game": game, "seat": 2}
    leaks = [{**plain, "plays": [[1, 2], [3, 4], []]}, {**plain, "selected": {"0": [7, 8]}}]
    for strength in STRENGTHS:
        replies = _run([_line(r) for r in (plain, *leaks)], strength, seed=4)
        assert replies[0] == replies[1] == replies[2]


def test_a_seat_that_played_no_trader_offers_nothing() -> None:
    request = {"ask": "trade", "game": {"players": 2}, "seat": 1, "plays": [[7, 1], [2, 3]]}
    assert _run([_line(request)], "easy") == [{"offer": 0}]


def test_empty_input_ends_at_once() -> None:
    assert _run([]) == []


def test_the_strengths_offered_are_the_bots_there_are(capsys) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["bot", "--strength", "expert"])
    offered = capsys.readouterr().err.split("choose from ", 1)[1]
    assert refused.value.code == 2
    assert offered.startswith(", ".join(repr(name) for name in STRENGTHS) + ")")


@pytest.mark.parametrize(
    "argv, wanted",
    [
        (["--budget-ms", "0"], "the budget is a whole number 1..60000, got '0'"),
        (["--strength", "godlike"], "invalid choice: 'godlike'"),
        (["--seed", "-1"], "the seed is a whole number 0 or more"),
    ],
)
def test_a_bad_option_is_one_line_and_status_2(argv, wanted, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["bot", *argv])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and wanted in err and err.count("\n") == 1


def test_help_names_the_budget_as_for_a_searching_bot(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["bot", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--budget-ms N" in out and "easy and normal answer at once" in out


def _doc_exchanges() -> list[tuple[str, str]]:
    """The ``→`` request (continued on indented lines) and ``←`` answer pairs of the doc."""
    text = (Path(__file__).parent.parent / "docs" / "bot-protocol.md").read_text()
    pairs, request = [], None
    for line in text.splitlines():
        if line.startswith("→ "):
            request = line[2:]
        elif line.startswith("   ") and request is not None:
            request += line
        elif line.startswith("← "):
            pairs.append((request, line[2:]))
            request = None
    return pairs


def test_the_protocol_doc_shows_what_the_bot_answers() -> None:
    pairs = _doc_exchanges()
    assert len(pairs) >= 3
    replies = _run([request.encode() + b"\n" for request, _ in pairs], "normal", seed=0)
    assert [json.dumps(r, separators=(",", ":")) for r in replies] == [a for _, a in pairs]


def test_an_error_names_the_line_of_the_input_blank_lines_counted() -> None:
    good = _line({"ask": "cards", "game": {"players": 3}, "seat": 1})
    replies = _run([b"\n", good, b"\n", b'{"ask": "cards", "seat": }\n', b"\r\n"])
    assert replies[0] == {"error": "line 1 is blank: a request is a JSON object on one line"}
    assert set(replies[1]) == {"cards"}
    assert replies[2]["error"].startswith("line 3 is blank")
    assert replies[3] == {"error": "not valid JSON: Expecting value at line 4 column 26"}
    assert replies[4]["error"].startswith("line 5 is blank") and len(replies) == 5


def test_a_line_longer_than_the_cap_is_one_error_and_the_bot_reads_on() -> None:
    good = _line({"ask": "cards", "game": {"players": 3}, "seat": 1})
    long = b'{"ask": "cards", "note": "' + b"x" * (3 * 1024 * 1024) + b'"}\n'
    replies = _run([good, long, good, long[:-1]], "easy")
    error = {"error": "the request line is longer than 1 MB (1048576 bytes), not read"}
    assert replies[1] == error and replies[3] == error
    assert set(replies[0]) == set(replies[2]) == {"cards"} and len(replies) == 4


@pytest.mark.slow
def test_a_50_mb_line_is_answered_within_a_memory_limit(tmp_path) -> None:
    import resource

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (256 * 1024 * 1024,) * 2)

    good = _line({"ask": "cards", "game": {"players": 3}, "seat": 1})
    (tmp_path / "in.jsonl").write_bytes(b"[" * (50 * 1024 * 1024) + b"\n" + good)
    with open(tmp_path / "in.jsonl", "rb") as requests:
        done = subprocess.run(
            [sys.executable, "-m", "companion", "bot", "--strength", "easy"],
            stdin=requests,
            capture_output=True,
            preexec_fn=limited,
            cwd=tmp_path,
            timeout=60,
        )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and done.stderr == b""
    assert replies[0] == {"error": "the request line is longer than 1 MB (1048576 bytes), not read"}
    assert set(replies[1]) == {"cards"} and len(replies) == 2
