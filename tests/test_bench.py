"""``companion bench``: its figures are computed right from its clock's readings.

The clock is fake and the work small: the readings are the test's, so every rate,
percentile and projection is known exactly. (The real bench runs the real work on the
real clock for seconds: `make bench`.)"""

import io
import itertools
import json
import random

import pytest

from companion.cli import bench, main
from companion.game.bots import StrongBot
from companion.game.randgame import random_game

GAMES, SEED, DECISIONS, PRESSES = 2, 3, 2, 40
POSITIONS, PLAYOUTS = 1, 4
BUDGET_MS = 120  # the strong bot's, on a clock of its own that a reading moves 1 ms on


class Readings:
    """A fake clock: the given readings, in turn. Read once more than that, it fails."""

    def __init__(self, *readings: float):
        self.left = list(readings)

    def __call__(self) -> float:
        assert self.left, "the clock was read more often than the bench should"
        return self.left.pop(0)


def ms_clock():
    return itertools.count(0, 0.001).__next__


# The readings, in the order the bench takes them. The real clock: the replay of the
# games, then each decision. The CPU clock: the playouts, REPEAT runs; then for each
# decision the bot's set-up and the decision itself.
ENGINE = (100.0, 100.5)  # GAMES games in 0.5 s: 4 a second
TOOK = (0.126, 0.122)  # on the real clock: 6 ms and 2 ms over the budget
DECIDING = (300.0, 300.126, 302.0, 302.122)
RUNS = (200.0, 200.005, 201.0, 201.0025, 202.0, 202.003)  # the best: 4 playouts in 2.5 ms
SETUPS = (0.005, 0.0025)  # CPU time
CPU = tuple(  # a decision a second: its set-up, then the decision itself (100 and 80 ms)
    reading
    for second, setup, used in zip((10.0, 12.0), SETUPS, (0.1, 0.08), strict=True)
    for reading in (second, second + setup, second + 1, second + 1 + used)
)
TABLE = {"key_to_frame_ms_p50": 1.5, "key_to_frame_ms_p99": 2.5, "session_presses": PRESSES}


def run(
    as_json: bool, told: list[str] | None = None, deciding: tuple[float, ...] = DECIDING
) -> tuple[str, list[int]]:
    """The bench on the fake clock, with the table's figures given: its output, and the
    sessions it asked the table for (``told``: the parts, as they start)."""
    clock, asked, out = Readings(*ENGINE, *deciding), [], io.StringIO()
    cpu = Readings(*RUNS, *CPU)
    told = [] if told is None else told

    def table(presses: int) -> dict:
        asked.append(presses)
        return TABLE

    code = bench.bench_command(
        games=GAMES,
        seed=SEED,
        as_json=as_json,
        out=out,
        presses=PRESSES,
        decisions=DECISIONS,
        clock=clock,
        positions=POSITIONS,
        playouts=PLAYOUTS,
        budget_ms=BUDGET_MS,
        bot_clock=ms_clock(),
        cpu_clock=cpu,
        table=table,
        progress=told.append,
    )
    assert code == 0 and clock.left == cpu.left == []  # every reading taken, none more
    return out.getvalue(), asked


def test_the_figures_are_computed_from_the_clock_s_readings():
    text, asked = run(as_json=True)
    assert asked == [PRESSES]
    figures = json.loads(text)

    rng = random.Random(SEED)
    rounds = sum(len(random_game(rng).rounds) for _ in range(GAMES))
    per_playout = 0.0025 / (POSITIONS * PLAYOUTS)  # the best of the runs
    factor = bench.PI_ZERO_FACTOR
    left = [BUDGET_MS / 1000 - setup * factor for setup in SETUPS]
    iterations = []
    for i, view in enumerate(bench.mid_game_views(SEED, DECISIONS)):
        bot = StrongBot(i, BUDGET_MS, ms_clock())
        bot.cards(view)
        iterations.append(bot.last.iterations)
    assert iterations[0] > 0  # the budget leaves the bot time to search
    assert figures == {
        "engine_games_per_s": 4.0,
        "engine_rounds_per_s": round(4.0 * rounds / GAMES, 1),
        "engine_playouts_per_s": 1600,
        "games": GAMES,
        "seed": SEED,
        "strong_budget_ms": BUDGET_MS,
        "strong_decision_ms_mean": 124.0,
        "strong_decision_ms_max": 126.0,
        "strong_decision_cpu_ms_mean": 90.0,
        "strong_playouts_per_decision": round(sum(iterations) / DECISIONS),
        "pi_zero_2w_factor": factor,
        # from CPU time: the budget (or the set-up there, if longer), and the last
        # playout there, which ends past the deadline
        "pi_zero_2w_decision_ms_projected": round(
            1000 * (max(BUDGET_MS / 1000, max(SETUPS) * factor) + per_playout * factor), 1
        ),
        "pi_zero_2w_playouts_per_decision_projected": round(
            sum(max(0.0, x / (per_playout * factor)) for x in left) / DECISIONS
        ),
        **TABLE,
    }
    assert figures["pi_zero_2w_playouts_per_decision_projected"] > 0

    lines, asked = run(as_json=False)
    assert asked == [PRESSES]
    assert lines.splitlines() == [f"{key:>42}  {value}" for key, value in figures.items()] + [
        f"  {note}" for note in bench.NOTES
    ]


def test_each_part_is_told_as_it_starts_and_games_is_the_engines():
    told: list[str] = []
    text, _ = run(as_json=True, told=told)
    assert told == [
        f"1/4 the engine: {GAMES} random games replayed",  # --games: this part's work
        f"2/4 the strong bot's playouts, from {POSITIONS} positions",
        f"3/4 the strong bot's decisions: {DECISIONS} at {BUDGET_MS} ms each",
        f"4/4 the simulated table: {PRESSES} presses, then through the pad hub",
    ]
    assert json.loads(text)["games"] == GAMES  # and the output is the figures alone


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_goes_to_a_terminal_only():
    for stream, shown in ((io.StringIO(), ""), (Terminal(), "companion bench: 1/4 part\n")):
        bench.progress_on(stream)("1/4 part")
        assert stream.getvalue() == shown


def test_the_tournament_tells_each_pairing_and_its_games():
    told: list[str] = []
    out, err = io.StringIO(), io.StringIO()
    assert (
        bench.bots_command(
            games=7, seed=1, budget_ms=1, as_json=True, out=out, err=err, progress=told.append
        )
        == 2
    )  # not a multiple of 6: refused before anything is played
    assert told == [] and out.getvalue() == "" and err.getvalue().count("\n") == 1
    assert (
        bench.bots_command(
            games=6, seed=1, budget_ms=1, as_json=True, out=out, err=err, progress=told.append
        )
        == 0
    )
    assert told == [
        "1/3 strong vs normal: 6 games",
        "2/3 normal vs easy: 6 games",
        "3/3 strong vs easy: 6 games",
    ]
    assert len(json.loads(out.getvalue())["pairings"]) == 3  # the output: the figures alone


def test_games_without_bots_is_said_to_be_the_engines_part(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    assert "random games the engine's part replays (default 2000; the other parts" in helped


class FakeTable:
    """What ``key_to_frame`` presses on: a frame handed at once for every press, stamped
    ``latency`` after the press on the clock; a lock (even presses) sends few bytes."""

    def __init__(self, latencies: list[float]):
        self.now = 0.0
        self.latencies = iter(latencies)
        self.handed: list[float] = []
        self.panel = self.wiring = self
        self.bytes_sent = 0
        self.presses = 0

    def clock(self) -> float:
        return self.now

    def press(self, seat: int, card: int) -> None:
        assert (seat, card) == (0, 1)  # P1's Captain
        self.handed.append(self.now + next(self.latencies))
        self.bytes_sent += (16 + self.presses) if self.presses % 2 == 0 else 1000
        self.presses += 1

    def release(self, seat: int, card: int) -> None:
        self.now += 1.0

    def settle(self, inputs: int) -> None:
        assert inputs == 2


@pytest.mark.parametrize("presses", [1, 4, 200])
def test_key_to_frame_reports_the_median_and_the_99th_percentile(presses):
    shuffled = random.Random(presses).sample(range(1, presses + 1), presses)
    table = FakeTable([ms / 1000 for ms in shuffled])  # 1 ms .. presses ms
    figures = bench.key_to_frame(table, table.handed, presses, table.clock)
    assert table.presses == presses
    # sorted, the latencies are 1, 2, ... presses ms: the value at index i is i + 1
    p50, p99 = presses // 2 + 1, max(int(presses * 0.99), 1)
    assert figures == {
        "key_to_frame_ms_p50": p50,
        "key_to_frame_ms_p99": p99,
        "lock_update_bytes": 16 + (presses - 1) // 2 * 2,  # the last even press's
    }


@pytest.mark.slow
def test_the_tables_figures_from_a_real_run_hold_what_they_count():
    """The simulated table's counts, which are structural (no time is asserted): an idle
    table reads no pin, a lock sends a fraction of a frame, a session of 40 presses plays
    whole rounds; through the hub when the firmware can run here."""
    figures = bench.table_figures(presses=8, session=40)
    assert figures["idle_pin_reads_per_s"] == 0
    assert 0 < figures["lock_update_bytes"] < figures["full_frame_bytes"] // 8
    assert figures["session_presses"] == 40 and figures["session_rounds"] >= 10
    assert 0 < figures["key_to_frame_ms_p50"] <= figures["key_to_frame_ms_p99"]
    hub = figures["hub_key_to_frame_ms_p50"], figures["hub_key_to_frame_ms_p99"]
    assert hub == (None, None) or 0 < hub[0] <= hub[1]


def test_a_busy_machine_stretches_the_real_clock_never_the_pi_zero_projection():
    """A decision that took 1 s on the real clock (a loaded machine) and the same CPU
    time: the figures here say so, the projection for the Pi Zero does not move."""
    quiet = json.loads(run(as_json=True)[0])
    busy = json.loads(run(as_json=True, deciding=(300.0, 301.0, 302.0, 303.0))[0])
    assert busy["strong_decision_ms_max"] == 1000.0 > quiet["strong_decision_ms_max"]
    for key in ("pi_zero_2w_decision_ms_projected", "pi_zero_2w_playouts_per_decision_projected"):
        assert busy[key] == quiet[key]
