"""Bots at the simulated table: through the pins, the app's bot sink, the saved game, the
history; on the device's worker thread the loop keeps answering while a bot thinks."""

from __future__ import annotations

import json
import threading
from dataclasses import replace

import pytest
from helpers import simulate
from test_history_cli import history

from companion.app.bots import BotSeats
from companion.app.script import parse_script
from companion.app.simulator import Simulator
from companion.game.boards import profile
from companion.game.bots import View
from companion.game.record import GameRecord
from companion.rules import new_game
from companion.storage import StateDir
from companion.table import public_view
from companion.table.bots import AskBot, BotChose
from companion.table.state import Phase
from companion.ui.screens import draw


def play_out(sim: Simulator, rounds: int = 200) -> None:
    """The person at pad 1 plays the two lowest cards in hand and accepts every trade."""
    for _ in range(rounds):
        flow = sim.flow
        if flow.game.over or flow.game.state.round >= rounds:
            return
        if flow.phase in (Phase.SUPPLY, Phase.SELECT) and not flow.mode.chosen[0]:
            low = sorted(flow.game.state.hands[0])[:2]
            sim.run(parse_script("".join(f"press P1 {card}\n" for card in low)))
        else:
            sim.run(parse_script("press OK"))


def whole_game() -> GameRecord:
    sim = Simulator(players=1, bots=("normal", "strong"), fast=True)
    try:
        play_out(sim)
        assert sim.flow.game.over and sim.errors == []
        return sim.flow.game.record
    finally:
        sim.close()


@pytest.mark.slow
def test_one_person_and_two_bots_play_a_whole_game_the_same_on_every_run():
    record = whole_game()
    assert record.bots == (None, "normal", "strong")
    again = GameRecord.from_json(record.to_json())
    assert again.replay().finished  # every bot's play and trade legal, to the target
    again = whole_game()  # inline, on a counting clock: the same game, a game of its own
    assert replace(again, game_id=None) == replace(record, game_id=None)
    assert None is not again.game_id != record.game_id


def test_simulate_bots_plays_them_after_the_people(tmp_path):
    (tmp_path / "round.txt").write_text("press P1 1\npress P1 2\n")
    code, out, err = simulate(
        *("--players", "1", "--bots", "easy,strong", "--fast", "--json"),
        *("--script", str(tmp_path / "round.txt"), "--state-dir", str(tmp_path / "s")),
    )
    assert code == 0, err
    state = json.loads(out)
    assert state["round"] == 1 and state["players"][0]["discard"] == [1, 2]
    saved = StateDir(tmp_path / "s").load().record
    assert saved.bots == (None, "easy", "strong") and len(saved.rounds) == 1
    # Resumed without --players: the same bots, asked again, and the game goes on.
    (tmp_path / "resume.txt").write_text("press OK\npress P1 3\npress P1 4\n")
    resume = ("--script", str(tmp_path / "resume.txt"), "--state-dir", str(tmp_path / "s"))
    code, out, err = simulate("--fast", "--json", *resume)
    assert code == 0, err
    assert json.loads(out)["round"] == 2
    saved = StateDir(tmp_path / "s").load().record
    assert saved.bots == (None, "easy", "strong") and len(saved.rounds) == 2


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("--players", "1"), "with 0 bots makes 1 seat: a game has 2 to 6 (add --bots"),
        (("--players", "0", "--bots", "easy"), "with 1 bot makes 1 seat: a game has 2 to 6 (add"),
        (
            ("--players", "6", "--bots", "easy"),
            "--players 6 with 1 bot makes 7 seats: a game has 2 to 6\n",
        ),
        (("--players", "2", "--bots", "easy,easy,easy,easy,easy"), "with 5 bots makes 7 seats"),
        (("--new",), "--new starts a game of --players N: give it, or leave out --new"),
    ],
)
def test_too_few_or_too_many_seats_is_one_line(argv, says):
    code, out, err = simulate(*argv, "--fast", "--json", "--script", "/dev/null")
    assert code == 2 and out == "" and says in err and err.count("\n") == 1


def test_a_bot_strength_not_known_is_refused(capsys):
    with pytest.raises(SystemExit) as stopped:
        simulate("--bots", "normal,clever")
    assert stopped.value.code == 2
    assert "bots are 1 to 6 of easy, normal, strong" in capsys.readouterr().err


def test_a_bots_cards_are_in_no_frame_save_or_log_before_the_reveal(tmp_path):
    frames = []
    sim = Simulator(players=2, bots=("normal",), fast=True, store=StateDir(tmp_path))
    sim.app.display = Frames(sim.app.display, frames)
    try:
        sim.run(parse_script("press P1 1\npress P1 2\n"))  # the bot has locked in; P2 chooses
        chosen = sim.flow.mode.chosen[2]
        assert len(chosen) == 2 and sim.flow.phase is Phase.SELECT
        saved = json.loads((tmp_path / "game.json").read_text())
        assert saved["rounds"] == [] and saved["bots"] == [None, None, "normal"]
        assert sim.errors == []
        # What is drawn is the same for any two cards of the bot's hand.
        other = (7, 8) if chosen != (7, 8) else (5, 6)
        assert frames[-1] == frame(sim, chosen) == frame(sim, other)
    finally:
        sim.close()


class Frames:
    """The app's display, keeping the bytes of every image it is handed."""

    def __init__(self, display, frames: list) -> None:
        self._display, self.frames = display, frames
        self.size = display.size

    def show(self, image) -> None:
        self.frames.append(image.tobytes())
        self._display.show(image)

    @property
    def dirty(self) -> bool:
        return self._display.dirty

    def retry(self) -> None:
        self._display.retry()


def frame(sim: Simulator, cards: tuple[int, ...]) -> bytes:
    """The frame the table would draw with ``cards`` chosen at the bot's seat."""
    mode = replace(sim.flow.mode, chosen=(*sim.flow.mode.chosen[:2], cards))
    view = public_view(replace(sim.flow, mode=mode), 0.0)
    return draw(view, sim.app.words, sim.oled.size).tobytes()


def test_the_history_names_a_bot_by_its_strength(tmp_path):
    store = StateDir(tmp_path)
    sim = Simulator(players=1, bots=("strong",), fast=True, store=store, target=6)
    try:
        play_out(sim)
        assert sim.flow.game.over
    finally:
        sim.close()
    code, out, err = history("stats", "--state-dir", str(tmp_path), "--json")
    assert code == 0, err
    stats = json.loads(out)
    bot, seat = sorted(stats)  # the person at P1 is unnamed: the P1 of this game
    assert bot == "Bot (strong)" and stats[bot]["kind"] == "bot"
    assert seat.startswith("P1 (") and stats[seat]["kind"] == "seat"


def test_on_the_device_a_bot_thinks_on_a_thread_of_its_own():
    """The sink returns at once while the bot's clock is held; the answer comes after."""
    release, looked = threading.Event(), threading.Event()
    answers: list = []

    def held_clock():
        looks = iter([0.0])

        def clock() -> float:
            looked.set()
            release.wait(60)  # the test's own hand, never a sleep: set just below
            return next(looks, 1e9)  # the deadline is set, then passed at the first look

        return clock

    seats = BotSeats(answers.append, answers.append, threaded=True, clock=held_clock)
    view = View(new_game(3, profile("standard"), 30), 2)
    seats(AskBot(view, "strong"))
    assert looked.wait(60) and answers == []  # thinking, and the caller went on
    release.set()
    seats.close()
    (chose,) = answers
    assert isinstance(chose, BotChose) and chose.seat == 2 and len(chose.cards) == 2


# --- a game of bots alone, and its seed -------------------------------------------------

ALONE = ("--players", "0", "--bots", "strong,normal,easy", "--fast", "--json")


def test_a_game_of_bots_alone_plays_to_its_end_the_same_for_the_same_seed():
    code, out, err = simulate(*ALONE, "--seed", "11")
    assert code == 0, err
    first = json.loads(out)
    assert first["finished"] is True and len(first["players"]) == 3
    assert simulate(*ALONE, "--seed", "11")[1] == out  # the same seed: the same game
    others = {simulate(*ALONE, "--seed", str(seed))[1] for seed in (12, 13)}
    assert out not in others  # another seed: another game


def test_the_seed_reaches_the_bots_trades_too():
    """The table decides a bot's trade itself: with the table's seed, not a fixed one."""
    sim = Simulator(players=0, bots=("easy", "easy"), fast=True, seed=5)
    try:
        assert sim.flow.settings.seed == 5
        sim.play_out()
        assert sim.flow.game.over and sim.ranked
    finally:
        sim.close()


def test_the_narration_names_bots_as_the_table_does(tmp_path, capsys):
    """The replayed game and the simulator's summary call a bot B2, as the screens do."""
    from companion.cli import main

    record = whole_game()
    (tmp_path / "game.json").write_text(record.to_json())
    assert main(["replay", str(tmp_path / "game.json")]) == 0
    out = capsys.readouterr().out
    assert "B2 " in out and "B3 " in out and "P2 " not in out and "P1 " in out
    code, out, err = simulate("--players", "0", "--bots", "easy,easy", "--fast")
    assert code == 0, err
    assert "Winner: B" in out and "Winner: P" not in out
