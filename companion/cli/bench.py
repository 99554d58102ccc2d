"""``companion bench``: how fast the engine resolves random legal games, on one core."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from PIL import Image

from ..game.randgame import random_game

# The bench's clock, in seconds: every figure it times is a difference of two readings.
# A test gives a fake one whose readings it knows.
Clock = Callable[[], float]
# Told a line before each part of the bench starts, for a person waiting at a terminal.
Progress = Callable[[str], None]


def progress_on(err: TextIO, command: str = "companion bench") -> Progress:
    """A line on ``err`` before each part, flushed at once, when ``err`` is a terminal:
    the bench takes most of a minute (minutes on a Pi). Nothing into a file or a pipe,
    and never on standard output, where the figures go."""
    if not err.isatty():
        return lambda _line: None

    def say(line: str) -> None:
        err.write(f"{command}: {line}\n")
        err.flush()

    return say


def engine_games_per_s(
    games: int, seed: int, clock: Clock = time.perf_counter
) -> tuple[float, int]:
    """Random legal games fully replayed per second, and the rounds they held.

    The games are drawn first; only their replay is timed.
    """
    rng = random.Random(seed)
    records = [random_game(rng) for _ in range(games)]
    rounds = sum(len(r.rounds) for r in records)
    start = clock()
    for record in records:
        record.replay()
    elapsed = clock() - start
    return games / elapsed, rounds


# How many times slower a Raspberry Pi Zero 2 W (Cortex-A53, 1 GHz) runs CPython than
# one core of this kind of machine (x86-64, ~3 GHz). A projection, not a measurement:
# a Pi 4 (A72, 1.5 GHz) runs pure-Python benchmarks about 4-5x slower than such a core,
# and an A53 at 1 GHz does about 2.5x less per second than an A72 at 1.5 GHz.
PI_ZERO_FACTOR = 12
REPEAT = 3
POSITIONS = 40  # mid-game positions the playout and decision figures are taken from


def mid_game_views(seed: int, count: int = POSITIONS) -> list:
    """3-seat positions halfway through random legal games, a seat to decide at each."""
    from ..game.bots import View

    rng = random.Random(seed)
    views = []
    for i in range(count):
        record = random_game(rng, players=3)
        before = record.rounds[: len(record.rounds) // 2]
        state = type(record)(record.players, record.board, record.target, before).replay()
        views.append(View(state, i % 3))
    return views


def engine_playouts_per_s(
    seed: int, playouts: int = 100, clock: Clock = time.perf_counter, positions: int = POSITIONS
) -> float:
    """The strong bot's playouts per second on one core (``clock``: the bench gives its CPU
    clock, so a busy machine does not lower the rate).

    A playout is what its search repeats: from a mid-game position, the round being
    decided with one candidate for the seat and the others' selections drawn from their
    models (one draw a sweep of the candidates), then one more round of random legal
    play, and the score of the position reached. The searches are set up first; only
    the playouts are timed: ``playouts`` from each of ``positions`` positions, the best
    of ``REPEAT`` runs.
    """
    from ..game.bots import StrongBot

    searches = []
    for i, view in enumerate(mid_game_views(seed, positions)):
        search, candidates = StrongBot(i).prepare(view, random.Random(i), math.inf)
        searches.append((search, candidates))
    best = math.inf
    for _ in range(REPEAT):  # the best of a few runs: a shared machine only slows it
        start = clock()
        for search, candidates in searches:
            for n in range(playouts):
                if n % len(candidates) == 0:  # a sweep: every candidate, the same draw
                    draw = search.draw()
                search.playout(candidates[n % len(candidates)], draw)
        best = min(best, clock() - start)
    return len(searches) * playouts / best


def decision_figures(
    seed: int,
    decisions: int,
    playouts_per_s: float,
    clock: Clock = time.perf_counter,
    budget_ms: int | None = None,
    bot_clock: Clock | None = None,
    cpu_clock: Clock = time.process_time,
) -> dict:
    """The strong bot at its default budget on the real clock, here, and projected to a
    Pi Zero 2 W from CPU time, never from the real clock (a busy machine stretches that,
    not this): there the set-up (scoring every seat's selections) and each playout cost
    ``PI_ZERO_FACTOR`` times their CPU time here; a decision is the budget (or the set-up,
    if longer) plus the last playout, which ends past the deadline; its playouts are what
    the budget leaves after the set-up. ``playouts_per_s`` is per second of CPU time.

    ``budget_ms`` (the bot's default if None) and ``bot_clock`` (the bench's ``clock`` if
    None) are the bot's own: a test gives it a small budget on a clock of its own, so
    that the bench's readings are only those a decision takes. ``cpu_clock`` is this
    process's CPU time: what a decision cost one core, whatever else the machine ran."""
    from ..game.bots import BUDGET_MS, StrongBot

    budget_ms = BUDGET_MS if budget_ms is None else budget_ms
    bot_clock = clock if bot_clock is None else bot_clock
    budget, per_playout = budget_ms / 1000, 1 / playouts_per_s
    took, projected, playouts, zero_playouts, cpu = [], [], [], [], []
    for i, view in enumerate(mid_game_views(seed, decisions)):
        start = cpu_clock()
        StrongBot(i, budget_ms, bot_clock).prepare(view, random.Random(i), math.inf)
        setup = (cpu_clock() - start) * PI_ZERO_FACTOR  # there
        bot = StrongBot(i, budget_ms, bot_clock)
        cpu_start, start = cpu_clock(), clock()
        bot.cards(view)
        took.append(clock() - start)
        cpu.append(cpu_clock() - cpu_start)
        playouts.append(bot.last.iterations if bot.last else 0)
        projected.append(max(budget, setup) + per_playout * PI_ZERO_FACTOR)
        zero_playouts.append(max(0.0, budget - setup) / (per_playout * PI_ZERO_FACTOR))
    return {
        "strong_budget_ms": budget_ms,
        "strong_decision_ms_mean": round(1000 * sum(took) / len(took), 1),
        "strong_decision_ms_max": round(1000 * max(took), 1),
        "strong_decision_cpu_ms_mean": round(1000 * sum(cpu) / len(cpu), 1),
        "strong_playouts_per_decision": round(sum(playouts) / len(playouts)),
        "pi_zero_2w_factor": PI_ZERO_FACTOR,
        "pi_zero_2w_decision_ms_projected": round(1000 * max(projected), 1),
        "pi_zero_2w_playouts_per_decision_projected": round(
            sum(zero_playouts) / len(zero_playouts)
        ),
    }


def table_figures(
    presses: int = 200,
    session: int = 2400,
    clock: Clock = time.perf_counter,
    sleep: Callable[[float], None] = time.sleep,
) -> dict:
    """The simulated table: latency, idle cost, display traffic and peak memory.

    Four seats; P1 presses its Captain again and again, so every press locks or unlocks
    it and changes one mark on the screen. Latency runs from the key going down on the
    pin to the frame being handed to the display driver, debounce included. Then a long
    session: whole rounds played through the pins until ``session`` presses, to show
    that memory stays flat.
    """
    import resource

    from ..app.simulator import Simulator

    handed: list[float] = []
    sim = Simulator(players=4, fast=True, on_frame=lambda _: handed.append(clock()))
    try:
        figures = _idle(sim, sleep)
        figures.update(key_to_frame(sim, handed, presses, clock))
        before = sim.panel.bytes_sent
        sim.oled.invalidate()  # the next frame goes out whole
        sim.oled.show(Image.new("1", sim.oled.size, 1))
        figures["full_frame_bytes"] = sim.panel.bytes_sent - before
        figures["rss_mb"] = _rss_mb(resource)
        figures["session_presses"] = session
        figures["session_rounds"] = _long_session(sim, session)
        figures["session_rss_mb"] = _rss_mb(resource)
    finally:
        sim.close()
    figures.update(_hub_figures(presses, clock))
    return figures


def _hub_figures(presses: int, clock: Clock) -> dict:
    """Key-to-frame latency through the Pico pad hub: the real firmware under the
    MicroPython unix port, scanning and debouncing, its lines read from a pty. Absent
    (None) where the unix port or the firmware is not installed."""
    from ..app.simulator import Simulator
    from ..sim.hub import HubMissing, firmware_command

    try:
        command = firmware_command()
    except HubMissing:
        return {"hub_key_to_frame_ms_p50": None, "hub_key_to_frame_ms_p99": None}
    handed: list[float] = []
    sim = Simulator(players=4, fast=True, hub=command, on_frame=lambda _: handed.append(clock()))
    try:
        for _ in range(2):  # in step with the firmware: each press waits for its events
            sim.press(0, 1)
        latency = key_to_frame(sim, handed, min(presses, 200), clock)
    finally:
        sim.close()
    return {f"hub_{k}": v for k, v in latency.items() if k.startswith("key_to_frame")}


def _idle(sim, sleep: Callable[[float], None]) -> dict:
    """Pins read and thread wake-ups over one idle second."""
    sim.settle(0)
    sleep(0.2)  # let the first frame's work finish: then the table is idle
    reads, threads, wakes = sim.wiring.reads, threading.active_count(), _thread_wakes()
    sleep(1.0)
    return {
        "idle_pin_reads_per_s": sim.wiring.reads - reads,
        "idle_threads": threads,
        "idle_thread_wakes_per_s": _thread_wakes() - wakes if wakes >= 0 else -1,
    }


def key_to_frame(sim, handed: list[float], presses: int, clock: Clock = time.perf_counter) -> dict:
    """Key-to-frame latency, and the bytes a seat locking in sends: P1's Captain pressed
    ``presses`` times on ``sim`` (a ``Simulator``), each from a reading of ``clock`` to the
    reading its frame appends to ``handed`` (the simulator's ``on_frame`` does)."""
    latencies, lock_bytes = [], []
    for i in range(presses):
        frames, sent = len(handed), sim.panel.bytes_sent
        start = clock()
        sim.wiring.press(0, 1)
        while len(handed) == frames:
            time.sleep(0.0002)
        latencies.append((handed[-1] - start) * 1000)
        if i % 2 == 0:  # this press locked P1 in
            lock_bytes.append(sim.panel.bytes_sent - sent)
        sim.wiring.release(0, 1)
        sim.settle(2)
    return {**percentiles("key_to_frame_ms", latencies), "lock_update_bytes": max(lock_bytes)}


def percentiles(name: str, values: list[float]) -> dict:
    """``name``'s median and 99th percentile, as the bench reports them: the values sorted,
    the one at half their count, and the one at 99% of it (rounding down, 1-based)."""
    ordered = sorted(values)
    return {
        f"{name}_p50": round(ordered[len(ordered) // 2], 2),
        f"{name}_p99": round(ordered[int(len(ordered) * 0.99) - 1], 2),
    }


def _thread_wakes() -> int:
    """Times the threads other than this one went to sleep and woke (Linux's count of
    voluntary context switches), or -1 where /proc cannot tell."""
    me = threading.get_native_id()
    total = 0
    try:
        for task in Path("/proc/self/task").iterdir():
            if int(task.name) == me:
                continue
            for line in (task / "status").read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    total += int(line.split()[1])
    except OSError:
        return -1
    return total


def _rss_mb(resource) -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _long_session(sim, presses: int) -> int:
    """Whole rounds through the pins (a card from each hand; the hands are public)
    until ``presses`` presses; the game restarts whenever it ends. Rounds played."""
    from ..table import Phase
    from ..table.events import HostKey

    rng = random.Random(7)
    rounds = 0
    sim.settle(0)
    while presses > 0:
        flow = sim.flow
        if flow.phase is Phase.OVER:  # a new game with the same seats
            for _ in range(4):
                sim.button(HostKey.OK)
            continue
        for seat, hand in enumerate(flow.game.state.hands):
            sim.press(seat, rng.choice(sorted(hand)))
            presses -= 1
        while sim.flow.phase is Phase.TRADE:
            sim.button(HostKey.OK)
        rounds += 1
    return rounds


NOTES = (
    "engine: one core; a game is a random legal game replayed from its record, checked;",
    "a playout is the strong bot's: from a mid-game 3-seat position, the round decided",
    "with the others' plays drawn from their models, then the next round (the others at",
    "random, the seat's best of 4 replies), scored.",
    "strong: decisions at the default budget on the real clock here; pi_zero_2w_* are a",
    f"projection from CPU time here (CPython {PI_ZERO_FACTOR}x slower there than one core here),",
    "not measured, never from the real clock (a busy machine stretches that): the factor is",
    "the project's estimate from a Pi 4's pure-Python speed and the A53's clock and core",
    "against the A72's (docs/bot-protocol.md). playouts and decision_cpu: CPU time.",
    "hub_*: through the real firmware under the MicroPython unix port; None where that",
    "port is not installed (make test installs it).",
)


def table_in_a_process(presses: int) -> dict:
    """``table_figures`` with a session of ``presses``, in a process of its own (``companion
    bench --part table``), so that its peak memory is its own."""
    table = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "--part", "table", "--presses", str(presses)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(table.stdout)


def bench_command(
    *,
    games: int,
    seed: int,
    as_json: bool,
    out: TextIO,
    part: str = "all",
    presses: int = 2400,
    decisions: int = 10,
    clock: Clock = time.perf_counter,
    positions: int = POSITIONS,
    playouts: int = 100,
    budget_ms: int | None = None,
    bot_clock: Clock | None = None,
    cpu_clock: Clock = time.process_time,
    table: Callable[[int], dict] = table_in_a_process,
    progress: Progress = lambda _line: None,
) -> int:
    """The figures, as JSON or as text lines and notes on ``out``; ``progress`` is told
    each part as it starts. ``games`` is the engine's part only: the random games it
    replays. What the command line does not set is a test's: the ``clock`` every figure
    is timed on, the work timed (``positions`` and ``playouts`` for the playout rate, the
    strong bot's ``budget_ms``, ``bot_clock`` and ``cpu_clock`` as in ``decision_figures``)
    and where the simulated table's figures come from (``table``, given the session's
    presses)."""
    from ..game.bots import BUDGET_MS

    if part == "table":  # run in a process of its own, so its peak memory is its own
        out.write(json.dumps(table_figures(session=presses, clock=clock)) + "\n")
        return 0
    progress(f"1/4 the engine: {games} random {_games(games)} replayed")
    per_s, rounds = engine_games_per_s(games, seed, clock)
    progress(f"2/4 the strong bot's playouts, from {positions} positions")
    playouts_per_s = engine_playouts_per_s(seed, playouts, cpu_clock, positions)  # per CPU s
    figures = {
        "engine_games_per_s": round(per_s, 1),
        "engine_rounds_per_s": round(per_s * rounds / games, 1),
        "engine_playouts_per_s": round(playouts_per_s),
        "games": games,
        "seed": seed,
    }
    budget = BUDGET_MS if budget_ms is None else budget_ms
    progress(f"3/4 the strong bot's decisions: {decisions} at {budget} ms each")
    figures.update(
        decision_figures(seed, decisions, playouts_per_s, clock, budget_ms, bot_clock, cpu_clock)
    )
    progress(f"4/4 the simulated table: {presses} presses, then through the pad hub")
    figures.update(table(presses))
    if as_json:
        out.write(json.dumps(figures) + "\n")
    else:
        for key, value in figures.items():
            out.write(f"{key:>42}  {value}\n")
        out.write("".join(f"  {line}\n" for line in NOTES))
    return 0


def _games(n: int) -> str:
    return "game" if n == 1 else "games"


def bots_command(
    *,
    games: int,
    seed: int,
    budget_ms: int,
    as_json: bool,
    out: TextIO,
    err: TextIO,
    progress: Progress = lambda _line: None,
) -> int:
    """``companion bench --bots``: every pairing of strengths, as a table or JSON on
    ``out``; ``progress`` is told each pairing as it starts. A bad ``games`` is one line
    on ``err`` and status 2."""
    from ..game.tournament import ORDERS, PAIRINGS, SEATS, play_pairing

    if games % len(ORDERS):
        err.write(
            f"companion bench --bots: --games {games}: give a multiple of {len(ORDERS)}, "
            f"so that each side holds every seat equally often\n"
        )
        return 2
    pairings = []
    for n, (first, second) in enumerate(PAIRINGS, 1):
        progress(f"{n}/{len(PAIRINGS)} {first} vs {second}: {games} {_games(games)}")
        pairings.append(play_pairing(first, second, games, seed, budget_ms))
    if as_json:
        doc = {
            "seats": SEATS,
            "games": games,
            "seed": seed,
            "budget_ms": budget_ms,
            "pairings": [p.as_dict() for p in pairings],
        }
        out.write(json.dumps(doc) + "\n")
        return 0
    out.write(
        f"{SEATS}-seat games, {games} a pairing, seed {seed}, strong bot {budget_ms} ms a "
        f"decision.\nEach side holds one seat or two, in all {len(ORDERS)} seat orders in "
        "turn: equal bots would win 50%.\nA win shared between the sides counts 1/2 to "
        "each; the interval is Wilson's, 95%.\n\n"
    )
    out.write(f"{'pairing':<18}{'games':>6}{'wins':>7}{'shared':>7}{'win rate':>10}  95% CI\n")
    for p in pairings:
        low, high = p.interval
        out.write(
            f"{p.first + ' vs ' + p.second:<18}{p.games:>6}{p.wins:>7g}{p.shared:>7}"
            f"{p.rate:>10.1%}  {low:.1%} .. {high:.1%}\n"
        )
    return 0
