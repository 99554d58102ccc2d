"""A whole game on the emulated Pi, its every screen compared with a twin's.

The twin is the simulator (``companion.app.simulator.Simulator``) on the host: the same
app on simulated parts, from the guest's own config, with no pauses (``fast``). It gets
the same presses in the same order. After each one it settles at once where the table
waits for people, and its panel is the frame the guest must come to show: the guest's
(rebuilt from the I²C trace) is waited for until it is the same, byte for byte. That
equality is also how the host knows the table took the press. Only those moments are
compared: the countdown, the reveal, each resolution step, the scores and any notice
run on the guest's clock, and are passed through on the way to the next moment.

Seats (2 to 6) and every card are chosen at random from what the independent model
(tests/model.py) says each hand holds; each Trader's offer on its own pad, as in the
amd64 appliance test (appliance/life.py).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from oled_trace import pages, picture

from companion.app.simulator import Simulator
from companion.table.events import HostKey
from companion.table.view import ChoosingView, OverView, TradeView, public_view

EQUAL_LIMIT = 180.0  # seconds the guest may take to show a moment (TCG, a loaded host)
TAKEN_LIMIT = 120.0  # seconds a held key may take to change the guest's screen
STATE = "/var/lib/santo-domingo/game.json"


class Failed(Exception):
    """A step's failure: the line said."""


class Table(Protocol):
    """The guest's side, as the game needs it (run.Pi)."""

    def key(self, seat: int, card: int, down: bool) -> None: ...
    def ok(self) -> None: ...
    def frame(self, test: Callable[[bytes], bool], limit: float) -> bytes | None: ...
    def saved(self, rounds: int) -> dict[str, Any]: ...


class Game:
    def __init__(
        self,
        table: Table,
        twin: Simulator,
        rng: random.Random,
        state_of: Callable[[dict[str, Any]], dict[str, Any]],
        evidence: Path,
    ) -> None:
        self.table, self.twin, self.rng, self.state_of = table, twin, rng, state_of
        self.evidence = evidence  # where a mismatch's two pictures go
        self.moments = 0  # moments whose frames were compared, all equal
        self.setup: dict[str, Any] = {}
        self.rounds: list[dict[str, Any]] = []  # completed rounds, as the guest saved them
        self.pressed: list[list[list[int]]] = []  # each round's plays, as pressed

    # --- what is compared -----------------------------------------------------------------

    def view(self) -> Any:
        return public_view(self.twin.flow, time.monotonic()).body

    def expect(self, what: str) -> bytes:
        """Waits until the guest shows the twin's frame; on a timeout keeps both."""
        self.twin.caught_up()
        want = pages(self.twin.panel.image())
        got = self.table.frame(lambda mem: mem == want, EQUAL_LIMIT)
        if got is None:
            shown = self.table.frame(lambda mem: True, 0) or bytes(len(want))
            picture(shown).save(self.evidence / "mismatch-guest.png")
            picture(want).save(self.evidence / "mismatch-twin.png")
            raise Failed(
                f"the guest's screen never became the simulator's for {what} within "
                f"{EQUAL_LIMIT:.0f} s (mismatch-guest.png, mismatch-twin.png in {self.evidence})"
            )
        self.moments += 1
        return got

    # --- the inputs -------------------------------------------------------------------------

    def tap(self, seat: int, card: int, what: str) -> None:
        """``card`` on the pad of ``seat`` (1-based), held until the guest's screen changes
        (the table took it), then let go: the next moment is then compared."""
        before = self.table.frame(lambda mem: True, 0)
        self.table.key(seat, card, down=True)
        taken = self.table.frame(lambda mem: mem != before, TAKEN_LIMIT)
        self.table.key(seat, card, down=False)  # returns once the hub has said it up
        if taken is None:
            raise Failed(f"{what}: P{seat}'s key {card} changed nothing in {TAKEN_LIMIT:.0f} s")
        self.twin.press(seat - 1, card)
        self.expect(what)

    def ok(self, what: str) -> None:
        self.table.ok()
        self.twin.button(HostKey.OK)
        self.expect(what)

    # --- the game ---------------------------------------------------------------------------

    def play(self, seats: int) -> None:
        self.expect("the seats' screen")
        for seat in range(1, seats + 1):
            self.tap(seat, self.rng.randint(1, 8), f"P{seat} seated")
        self.ok("the options")
        while (body := self.view()).items[body.cursor] != "start":
            self.ok(f"the option after {body.items[body.cursor]}")
        self.ok("round 1")
        saved = self.table.saved(0)
        if saved["players"] != seats or saved.get("rounds"):
            raise Failed(f"the new game saved is not the one set up: {json.dumps(saved)[:200]}")
        self.setup = {key: saved[key] for key in ("players", "board", "target")}
        while not self.round():
            pass
        if not isinstance(self.view(), OverView):
            raise Failed(f"the model says the game is over; the simulator shows {self.view()}")

    def doc(self) -> dict[str, Any]:
        return {**self.setup, "rounds": self.rounds}

    def round(self) -> bool:
        """One round: every seat's cards, each Trader's offer; True once the game is over."""
        number = len(self.rounds) + 1
        view = self.view()
        if not isinstance(view, ChoosingView) or view.round != number or any(view.placed):
            raise Failed(f"round {number}: the simulator shows {view}")
        hands = [p["hand"] for p in self.state_of(self.doc())["players"]]
        plays = [sorted(self.rng.sample(hand, view.need)) for hand in hands]
        for seat, cards in enumerate(plays, 1):
            for i, card in enumerate(cards, 1):
                self.tap(seat, card, f"round {number}: P{seat}'s card {i} ({card})")
        while isinstance(body := self.view(), TradeView):
            self.trade(body, number)
        saved = self.table.saved(number)["rounds"]
        if saved[:-1] != self.rounds or [sorted(p) for p in saved[-1]["plays"]] != plays:
            raise Failed(f"round {number} saved is not the one pressed: {plays}")
        self.rounds.append(saved[-1])
        self.pressed.append(plays)
        return bool(self.state_of(self.doc())["finished"])

    def trade(self, body: TradeView, number: int) -> None:
        """A random offer on the Trader's own pad: 1 offers fewer goods, 7 accepts."""
        seat = body.seat + 1
        for _ in range(self.rng.choice((0, 0, 1, 2))):
            if body.spent <= 0:
                break
            self.tap(seat, 1, f"round {number}: P{seat} offers fewer goods")
            if not isinstance(after := self.view(), TradeView) or after.seat != body.seat:
                return
            body = after
        self.tap(seat, 7, f"round {number}: P{seat} accepts the trade")
