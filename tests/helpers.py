"""What the tests share, imported as a module (``from helpers import table``): exact
table situations as the rulebook examples state them, the table driven by events alone,
the simulator, the pads on simulated pins, random games chosen by the model and power
cuts. The fixtures are in conftest.py."""

from __future__ import annotations

import copy
import dataclasses
import io
import itertools
import queue
import random
import socket

import model

from companion.cli import build_parser
from companion.cli.simulate import simulate_command
from companion.game.boards import profile
from companion.game.record import GameRecord, RoundRecord
from companion.rules import Board, GameState, Rows, new_game
from companion.storage import FileOps
from companion.table import FAST, Flow, Phase, new_flow, public_view, settle, start, step
from companion.table.events import HostKey, HostPress, PadDown, PadUp, Tick

# A test board: 2:1 on spaces 1..3, 3:2 from space 4, 1:1 from space 10 (docs/rules.md:
# "3 goods : 2 VP, and a worse 2 : 1 exists below it").
TEST_RATES = [None] + [[2, 1]] * 3 + [[3, 2]] * 6 + [[1, 1]] * 6


def table(
    players: int,
    board: Board,
    *,
    rows: tuple[int, int, int] = (1, 1, 1),
    vp: list[int] | None = None,
    goods: list[int] | None = None,
    hands: list[set[int]] | None = None,
    target: int = 30,
) -> GameState:
    """A state between rounds with the given rows (before the supply phase) and seats."""
    state = new_game(players, board, target)
    changes: dict = {"rows": Rows(*rows)}
    if vp is not None:
        changes["vp"] = tuple(vp)
    if goods is not None:
        changes["goods"] = tuple(goods)
    if hands is not None:
        changes["hands"] = tuple(frozenset(h) for h in hands)
        changes["discards"] = tuple(frozenset(range(1, 9)) - frozenset(h) for h in hands)
    return dataclasses.replace(state, **changes)


def before_supply(players: int, wanted: int) -> int:
    """The row space that the supply phase turns into ``wanted`` (for wanted < 15)."""
    from companion.rules.tables import SUPPLY

    return wanted - SUPPLY[players]


# --- the table, driven by events alone ------------------------------------------------


BOARDS = (profile("standard"), profile("winter"))


class Driver:
    """Feeds events to the flow the way the loop does: ticks whenever a deadline is due.
    Every effect is kept, in order."""

    def __init__(self, flow: Flow, effects=()):
        self.flow = flow
        self.now = 0.0
        self.effects: list = list(effects)
        self.settle()

    @property
    def view(self):
        return public_view(self.flow, self.now)

    @property
    def beeps(self) -> list:
        return [e.sound for e in self.effects if type(e).__name__ == "Beep"]

    def send(self, event) -> None:
        self.flow, effects = step(self.flow, event, self.now)
        self.effects += effects
        self.settle()

    def settle(self) -> None:
        self.flow, effects = settle(self.flow, self.now)
        self.effects += effects

    def press(self, seat: int, card: int) -> None:
        self.send(PadDown(seat, card))
        self.send(PadUp(seat, card))

    def ok(self) -> None:
        self.send(HostPress(HostKey.OK))

    def key(self, key: HostKey, long: bool = False) -> None:
        self.send(HostPress(key, long))

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.send(Tick())

    def menu(self, item: str) -> None:
        """Hold OK for the menu and move (▶) to ``item``, without choosing it."""
        from companion.table.state import MENU_ITEMS

        self.key(HostKey.OK, long=True)
        for _ in range(MENU_ITEMS.index(item)):
            self.key(HostKey.RIGHT)

    @property
    def saves(self) -> list:
        """The effects that are not sounds."""
        return [e for e in self.effects if type(e).__name__ != "Beep"]

    def play(self, plays) -> None:
        for seat, cards in enumerate(plays):
            for card in cards:
                self.press(seat, card)


def fast_game(players: int, board=BOARDS[0], target: int = 30) -> Driver:
    flow, effects = start(new_flow(BOARDS, FAST), players, board, target, 0.0)
    return Driver(flow, effects)


def until(driver: Driver, phase: Phase, step_type: str | None = None) -> None:
    """OK until the table shows ``phase`` (and a step of that type), at most 50 times."""
    for _ in range(50):
        view = driver.view
        if view.phase is phase and (
            step_type is None or type(view.body.step).__name__ == step_type
        ):
            return
        driver.ok()
    raise AssertionError(f"never reached {phase} {step_type}")


# --- the simulator ---------------------------------------------------------------------


def model_script(
    rng: random.Random, players: int, rates, target: int, rounds: list | None = None
) -> tuple[str, dict]:
    """A random legal game as a script (Trader dialogs accepted as offered), and its end.
    ``rounds`` collects each round's plays and offers, for a record of the same game."""
    game = model.new_game(players, rates, target)
    need = 2 if players <= 3 else 1
    lines = []
    while not model.finished(game):
        plays = [rng.sample(sorted(s["hand"]), need) for s in game["seats"]]
        lines.append(f"# round {game['round'] + 1}")
        lines += [f"press P{seat + 1} {card}" for seat, cards in enumerate(plays) for card in cards]
        # One OK per Trader: it accepts a dialog, or does nothing while seats choose.
        lines += ["press OK"] * sum(7 in p for p in plays)
        model.play(game, plays, [16] * players)  # accepted as offered: all its goods
        if rounds is not None:
            rounds.append({"plays": plays, "trades": [15] * players})
    return "\n".join(lines) + "\n", model.output(game)


def simulate(*argv: str) -> tuple[int, str, str]:
    """``companion simulate ARGV``: (exit status, stdout, stderr)."""
    args = build_parser().parse_args(["simulate", *argv])
    out, err = io.StringIO(), io.StringIO()
    code = simulate_command(args, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


# --- hardware: the pads on simulated pins -----------------------------------------------

PAD_ROWS = (5, 6, 13, 19, 26, 16)  # the shipped pin map's rows (seats) and columns (cards)
PAD_COLUMNS = (4, 17, 27, 22, 23, 24, 25, 12)


class Pads:
    """A started ``PadMatrix`` on a ``SimulatedMatrix`` of ``SimFactory`` pins. Its clock
    steps once a reading, so the debounce (5 steps) counts scans, whatever the load; its
    columns settle at once (``settle`` 0), unless ``wiring`` (the ``SimulatedMatrix``'s
    options) makes them slow."""

    def __init__(self, wiring=None, **options):
        import itertools
        import queue

        from companion.hw.matrix import PadMatrix
        from companion.sim.matrix import SimulatedMatrix
        from companion.sim.pins import SimFactory

        # A key counts as stuck only when a test says after how many scans.
        options = {
            "debounce": 5,
            "stuck": None,
            "clock": itertools.count().__next__,
            "settle": 0,
            **options,
        }
        self.factory = SimFactory()
        self.sim = SimulatedMatrix(self.factory, PAD_ROWS, PAD_COLUMNS, **(wiring or {}))
        self.matrix = PadMatrix(PAD_ROWS, PAD_COLUMNS, pin_factory=self.factory, **options)
        self.events: queue.SimpleQueue = queue.SimpleQueue()
        self.matrix.start(self.events.put)

    def take(self, n: int) -> list:
        """The next ``n`` events; the timeout only catches a hang."""
        return [self.events.get(timeout=10) for _ in range(n)]

    def rest(self) -> list:
        """Every event still to come, once the scanner has gone idle."""
        assert self.matrix.wait_idle(timeout=10), "the scanner never went idle"
        left = []
        while not self.events.empty():
            left.append(self.events.get())
        return left

    def close(self) -> None:
        self.matrix.close()
        self.factory.reset()


# --- random games chosen by the model ---------------------------------------------------


def model_game(rng: random.Random, players: int, board: Board, target: int, max_rounds=400):
    """A random legal game chosen by the model: (record, the model's output after each round)."""
    game = model.new_game(players, board.to_rates(), target)
    rounds, outputs = [], []
    need = 2 if players <= 3 else 1
    while not model.finished(game) and len(rounds) < max_rounds:
        plays = [rng.sample(sorted(s["hand"]), need) for s in game["seats"]]
        trades = [rng.randint(0, 16) if 7 in p else rng.choice([0, 0, 3]) for p in plays]
        model.play(game, plays, trades)
        rounds.append(RoundRecord(tuple(map(tuple, plays)), tuple(trades)))
        outputs.append(copy.deepcopy(model.output(game)))
    return GameRecord(players, board, target, tuple(rounds)), outputs


# --- power cuts -----------------------------------------------------------------------


class PowerCut(BaseException):
    """The plug pulled: nothing after it runs, no clean-up either."""


def cut_at(call: int) -> FileOps:
    """The real file operations until the ``call``-th, which never happens."""
    count = itertools.count()

    def wrap(op):
        def cut_or_do(*args, **kwargs):
            if next(count) == call:
                raise PowerCut
            return op(*args, **kwargs)

        return cut_or_do

    real = FileOps()
    fields = dataclasses.fields(FileOps)
    return FileOps(**{f.name: wrap(getattr(real, f.name)) for f in fields})


# --- systemd's end of the notify socket --------------------------------------------------

NOTIFY_GUARD = 10.0  # seconds a receive may take before the test fails (never a sleep)


def received(sock: socket.socket) -> str:
    """The next datagram the service sent to the notify socket (``sock`` times out)."""
    return sock.recv(4096).decode()


def nothing_waiting(sock: socket.socket) -> bool:
    """No datagram is waiting on the notify socket ``sock``, now."""
    sock.setblocking(False)
    try:
        sock.recv(4096)
    except BlockingIOError:
        return True
    finally:
        sock.settimeout(NOTIFY_GUARD)
    return False


# --- the drawing scripts ------------------------------------------------------------------


def load_script(name: str):
    """``scripts/<name>.py`` as a module (scripts/ is no package; its own imports of each
    other work as they do when make runs them)."""
    import importlib.util
    import sys
    from pathlib import Path

    scripts = Path(__file__).parent.parent / "scripts"
    if str(scripts) not in sys.path:
        sys.path.insert(0, str(scripts))
    spec = importlib.util.spec_from_file_location(name, scripts / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module
