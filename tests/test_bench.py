"""``companion bench``: every figure is there. Times and memory are measured, never asserted;
counts (pin reads, bytes) are structural and are checked."""

import json

from companion.cli import main
from companion.sim import hub as simhub

TABLE = {
    "key_to_frame_ms_p50", "key_to_frame_ms_p99", "idle_pin_reads_per_s",
    "lock_update_bytes", "full_frame_bytes", "rss_mb", "idle_threads", "idle_thread_wakes_per_s",
    "session_presses", "session_rounds", "session_rss_mb",
    "hub_key_to_frame_ms_p50", "hub_key_to_frame_ms_p99",
}  # fmt: skip


def test_bench_json(capsys):
    argv = ["bench", "--json", "--games", "20", "--seed", "3", "--presses", "40"]
    assert main([*argv, "--decisions", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 20 and figures["seed"] == 3
    assert figures["engine_games_per_s"] > 0 and figures["engine_rounds_per_s"] > 0
    assert figures["engine_playouts_per_s"] > 0 and figures["strong_playouts_per_decision"] > 0
    budget = figures["strong_budget_ms"]
    assert budget <= figures["strong_decision_ms_mean"] <= figures["strong_decision_ms_max"]
    assert budget <= figures["pi_zero_2w_decision_ms_projected"]  # the budget plus a piece
    assert set(figures) >= TABLE
    assert figures["idle_pin_reads_per_s"] == 0  # an idle table reads no pin
    assert 0 < figures["lock_update_bytes"] < figures["full_frame_bytes"] // 8
    assert 0 < figures["key_to_frame_ms_p50"] <= figures["key_to_frame_ms_p99"]
    assert figures["session_presses"] == 40 and figures["session_rounds"] >= 10
    if has_micropython():  # presses go through the hub's firmware under the unix port
        assert 0 < figures["hub_key_to_frame_ms_p50"] <= figures["hub_key_to_frame_ms_p99"]
    else:
        assert figures["hub_key_to_frame_ms_p50"] is figures["hub_key_to_frame_ms_p99"] is None


def has_micropython() -> bool:
    try:
        simhub.firmware_command()
    except simhub.HubMissing:
        return False
    return True


def test_bench_text(capsys):
    assert main(["bench", "--games", "5", "--presses", "8", "--decisions", "1"]) == 0
    text = capsys.readouterr().out
    assert "engine_playouts_per_s" in text and "a playout is the strong bot's" in text
