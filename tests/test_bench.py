"""``companion bench``: the figures are there and sane (speed is measured, never asserted)."""

import json

from companion.cli import main


def test_bench_json(capsys):
    assert main(["bench", "--json", "--games", "20", "--seed", "3"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 20 and figures["seed"] == 3
    assert figures["engine_games_per_s"] > 0 and figures["engine_rounds_per_s"] > 0


def test_bench_text(capsys):
    assert main(["bench", "--games", "5"]) == 0
    assert "engine_games_per_s" in capsys.readouterr().out
