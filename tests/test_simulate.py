"""The whole table on simulated pins: scripts in, states and frames out."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers import model_script, simulate

from companion.app.script import ScriptError, parse_script
from companion.app.simulator import Simulator
from companion.cli import main
from companion.cli.replay import replay_command
from companion.game.boards import profile
from companion.table import Phase, public_view
from companion.table.events import Tick
from companion.ui.catalog import catalog
from companion.ui.screens import draw


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_whole_games_through_the_pins_equal_the_model(tmp_path, players):
    rng = random.Random(100 + players)
    board = profile("standard")
    rounds: list = []
    script, expected = model_script(rng, players, board.to_rates(), 30, rounds)
    path = tmp_path / "game.txt"
    path.write_text(script)
    code, out, err = simulate("--players", str(players), "--fast", "--script", str(path), "--json")
    assert code == 0, err
    assert json.loads(out) == expected
    # ... and equal to `companion replay` of the same plays.
    record = {"players": players, "board": "standard", "target": 30, "rounds": rounds}
    (tmp_path / "game.json").write_text(json.dumps(record))
    replayed = io.StringIO()
    assert (
        replay_command(str(tmp_path / "game.json"), as_json=True, out=replayed, err=io.StringIO())
        == 0
    )
    assert replayed.getvalue() == out


@pytest.mark.slow
def test_custom_board_file_and_target_45(tmp_path):
    rates = [None] + [[2, 1]] * 5 + [[3, 2]] * 10
    (tmp_path / "board.json").write_text(json.dumps({"trader_rates": rates}))
    script, expected = model_script(random.Random(9), 3, rates, 45)
    (tmp_path / "game.txt").write_text(script)
    code, out, err = simulate(
        *("--players", "3", "--board", str(tmp_path / "board.json"), "--target", "45"),
        *("--fast", "--script", str(tmp_path / "game.txt"), "--json"),
    )
    assert code == 0, err
    assert json.loads(out) == expected


def frames_until_reveal(tmp_path, name: str, script: str) -> list[bytes]:
    directory = tmp_path / name
    (tmp_path / f"{name}.txt").write_text(script)
    code, _, err = simulate(
        *("--players", "3", "--fast", "--script", str(tmp_path / f"{name}.txt")),
        *("--frames", str(directory)),
    )
    assert code == 0, err
    frames = [p.read_bytes() for p in sorted(directory.glob("frame-*.png"))]
    return frames


def test_secrecy_frames_before_the_reveal_do_not_depend_on_the_cards(tmp_path):
    """Two tables lock in at the same moments with different cards: same frames."""
    a = "press P1 1\npress P1 2\npress P2 3\npress P2 4\npress P3 5\n"
    b = "press P1 8\npress P1 6\npress P2 7\npress P2 1\npress P3 2\n"
    frames_a = frames_until_reveal(tmp_path, "a", a)
    frames_b = frames_until_reveal(tmp_path, "b", b)
    assert len(frames_a) == len(frames_b) > 3
    assert frames_a == frames_b
    # Only the lock marks move: the last frame differs from the first.
    assert frames_a[0] != frames_a[-1]


def test_refused_card_changes_nothing_but_the_notice(tmp_path):
    sim = Simulator(players=3, fast=True)
    try:
        for seat, cards in enumerate([(1, 2), (3, 4), (5, 6)]):
            for card in cards:
                sim.press(seat, card)
        before = public_view(sim.flow, 0).body
        sim.press(0, 1)  # discarded in round 1
        after = public_view(sim.flow, 0)
        assert after.body == before and after.phase is Phase.SELECT
        assert sim.beeper.count >= 4  # three locks and a refusal
    finally:
        sim.close()


def test_script_errors_are_named(tmp_path):
    with pytest.raises(ScriptError, match=r"game.txt:3: cannot read 'press P7 1'"):
        parse_script("press P1 1\n# fine\npress P7 1\n", "game.txt")
    (tmp_path / "bad.txt").write_text("press P1 9\n")
    code, out, err = simulate("--players", "3", "--script", str(tmp_path / "bad.txt"))
    assert code == 2 and out == "" and "bad.txt:1: cannot read 'press P1 9'" in err


def test_a_long_bad_line_is_cut_and_the_cut_is_marked():
    with pytest.raises(ScriptError) as caught:
        parse_script("press P1 1\n" + "press " + "x" * 500 + "\tEND\n", "long.txt")
    message = str(caught.value)
    said = message.split("cannot read ", 1)[1].split(" (lines are", 1)[0]
    assert message.startswith("long.txt:2: ") and len(said) <= 80
    assert said.startswith("'press xxx") and "x..." in said and said.endswith("\\tEND'")


def test_typed_lines(tmp_path, monkeypatch):
    typed = "press P1 1\npress P1 3\nbogus\npress P2 2\npress P2 5\npress P3 4\npress P3 8\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code, out, err = simulate("--players", "3", "--fast", "--json")
    assert code == 0 and json.loads(out)["round"] == 1
    assert "<stdin>:3: cannot read 'bogus'" in err


def test_unknown_board(tmp_path):
    code, _, err = simulate("--players", "3", "--board", "summer", "--script", "x")
    assert code == 2 and "--board summer: not a board name" in err


def test_setup_through_the_pins(tmp_path):
    seats = ["press P2 1", "press P4 8", "press OK"]
    script = "\n".join([*seats, "press RIGHT", "press OK", "press OK", "press OK", "press OK"])
    (tmp_path / "setup.txt").write_text(script + "\n")
    code, out, err = simulate("--fast", "--script", str(tmp_path / "setup.txt"), "--json")
    assert code == 0, err
    state = json.loads(out)
    assert len(state["players"]) == 2 and state["round"] == 0


def test_hold_ok_opens_the_menu_through_the_pins():
    sim = Simulator(players=4, fast=True)
    try:
        sim.run(parse_script("press P1 1\nhold OK\npress RIGHT\n"))
        assert sim.flow.phase is Phase.MENU and public_view(sim.flow, 0).body.cursor == 1
        sim.run(parse_script("press OK\n"))  # "scores", then OK: back to choosing
        assert sim.flow.phase is Phase.SCORES
        sim.run(parse_script("press OK\n"))
        assert sim.flow.phase is Phase.SELECT
        assert public_view(sim.flow, 0).body.placed == (1, 0, 0, 0)
    finally:
        sim.close()


def test_a_dead_app_is_reported_with_its_cause():
    frames = []

    def broken(image):
        frames.append(image)
        if len(frames) > 2:
            raise OSError("the window closed")

    sim = Simulator(players=4, fast=True, on_frame=broken)
    try:
        with pytest.raises(RuntimeError, match=r"the app stopped: OSError\('the window closed'\)"):
            sim.run(parse_script("press P1 1\npress P1 1\npress P1 1\n"))
    finally:
        sim.close()


def test_board_and_target_are_the_setup_defaults_without_players():
    sim = Simulator(board=profile("winter"), target=45, fast=True)
    try:
        assert sim.flow.board == profile("winter") and sim.flow.choice.target == 45
    finally:
        sim.close()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--speed", "1e-10"], "the speed is a number 0.01..1000"),
        (["--pace", "-1"], "the pace is a number 0..10"),
        (["--pace", "nan"], "the pace is a number 0..10"),
        (["--gif", "x" * 300 + ".gif"], "cannot write there: File name too long"),
        (["--gif", "no/such/folder/a.gif"], "the folder no/such/folder does not exist"),
    ],
)
def test_output_and_pace_options_are_checked_first(tmp_path, capsys, monkeypatch, argv, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty.txt").write_text("")
    try:
        code = main(["simulate", "--players", "3", "--fast", "--script", "empty.txt", *argv])
    except SystemExit as e:  # a usage error: argparse exits
        code = e.code
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and words in err and err.count("\n") == 1


def test_frames_of_an_earlier_run_are_not_mixed_with_new_ones(tmp_path):
    (tmp_path / "frame-00007.png").write_bytes(b"")
    code, _, err = simulate("--players", "3", "--fast", "--frames", str(tmp_path))
    assert code == 2 and "holds frames of an earlier run" in err


# --- the window: luma.emulator's pygame window, headless on SDL's dummy driver ----------


@pytest.fixture
def headless(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    return pygame


def key_event(pg, key: int, text: str = "", mod: int = 0):
    return pg.event.Event(pg.KEYDOWN, key=key, unicode=text, mod=mod, scancode=0)


def test_the_window_is_scaled_titled_and_takes_the_keys(headless):
    from companion.app.keymap import play, shipped_keymap
    from companion.sim.window import Window

    pg = headless
    window = Window("Santo Domingo Companion")
    sim = Simulator(players=2, fast=True, on_frame=window.show)
    try:
        for key, text in [(pg.K_1, "1"), (pg.K_3, "3"), (pg.K_q, "q")]:
            pg.event.post(key_event(pg, key, text))
        pg.event.post(key_event(pg, pg.K_c, "\x03", pg.KMOD_LCTRL))  # Ctrl-C quits
        pg.event.post(key_event(pg, pg.K_w, "w"))  # never read
        play(sim.act, window.typed(), shipped_keymap())
        assert public_view(sim.flow, 0).body.placed == (2, 1)
        assert pg.display.get_caption()[0] == "Santo Domingo Companion"
        width, height = pg.display.get_surface().get_size()
        assert (width, height) == (128 * window.scale, 64 * window.scale) and window.scale >= 4
        assert window.drawn >= 1
    finally:
        sim.close()
        window.close()


def test_the_window_closes_on_its_close_button_and_on_esc(headless, tmp_path, monkeypatch):
    """Through ``simulate --window``: no traceback, exit 0, the app's thread gone."""
    import threading

    from companion.app.keymap import legend, shipped_keymap
    from companion.sim.window import Window
    from companion.ui.catalog import catalog

    pg = headless
    typed = Window.typed
    for last in (pg.event.Event(pg.QUIT), key_event(pg, pg.K_ESCAPE)):

        def typing(self, last=last):
            for key, text in [(pg.K_1, "1"), (pg.K_2, "2"), (pg.K_a, "a")]:
                pg.event.post(key_event(pg, key, text))  # P1: 1, 2; P3 is not playing
            pg.event.post(last)
            return typed(self)

        monkeypatch.setattr(Window, "typed", typing)
        code, out, err = simulate("--players", "2", "--fast", "--window", "--json")
        seated = legend(shipped_keymap(), catalog("en"), (0, 1))  # two seats: two pads
        assert code == 0 and err.splitlines() == seated
        assert json.loads(out)["round"] == 0
        assert not [t for t in threading.enumerate() if t.name == "app"]


@pytest.mark.slow
def test_a_script_in_the_window_ends_when_the_script_does(headless, tmp_path):
    script, expected = model_script(random.Random(3), 2, profile("standard").to_rates(), 30)
    (tmp_path / "game.txt").write_text(script)
    code, out, err = simulate(
        "--players", "2", "--fast", "--window", "--script", str(tmp_path / "game.txt"), "--json"
    )
    assert code == 0, err
    assert json.loads(out) == expected


def test_no_display_for_the_window_is_one_line(monkeypatch):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    code, out, err = simulate("--players", "2", "--fast", "--window")
    assert (code, out) == (2, "")
    assert err == "companion simulate: --window: no display to open a window on (is DISPLAY set?)\n"


def test_a_folder_as_the_script_is_one_line(tmp_path):
    (tmp_path / "scripts").mkdir()
    code, out, err = simulate("--players", "3", "--script", str(tmp_path / "scripts"))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.endswith("scripts: cannot read: a folder, not a file\n")


# --- a script that outlasts its game ----------------------------------------------------

DEMO = Path(__file__).parent.parent / "companion" / "examples" / "demo-script.txt"
MORE = "press OK\npress OK\npress P1 1\n"  # past the ranking: a new game's keys


def test_a_script_that_outlasts_its_game_stops_at_the_ranking(tmp_path):
    script = tmp_path / "long.txt"
    script.write_text(DEMO.read_text() + MORE)
    code, out, err = simulate("--players", "3", "--fast", "--json", "--script", str(script))
    assert code == 0
    game, _ = simulate("--players", "3", "--fast", "--json", "--script", str(DEMO))[1:]
    assert out == game and json.loads(out)["finished"] is True  # the game it played
    last = len(DEMO.read_text().splitlines())
    assert err == (
        f"companion simulate: the script stopped at the final ranking, before line {last + 1}: "
        "3 lines not played (add --then-new to play on into a new game)\n"
    )


def test_then_new_plays_on_past_the_ranking():
    lines = parse_script(DEMO.read_text() + MORE)
    last = len(DEMO.read_text().splitlines())
    for then_new, ranked in ((False, True), (True, False)):
        sim = Simulator(players=3, fast=True)
        try:
            left = sim.run(lines, then_new=then_new)
            assert sim.ranked is ranked
            assert [line.number - last for line in left] == ([] if then_new else [1, 2, 3])
        finally:
            sim.close()


def test_the_legend_beside_a_window_is_written_again_in_a_new_language():
    """Beside a window (no terminal to draw it under the picture), the keys' legend is
    written once at the start, then again each time the table's language changes."""
    from dataclasses import replace

    from companion.cli.simulate import _relabel, legend_watcher
    from companion.game.settings import DeviceSettings

    err = io.StringIO()
    prefs = DeviceSettings()
    watch = legend_watcher(_relabel(None, err))(None, None, prefs, None)
    joining = SimpleNamespace(pads=())  # no game yet: every pad may sit down
    watch(joining, prefs)
    assert err.getvalue() == ""  # the same language: the legend shown already stands
    watch(joining, replace(prefs, language="fr"))
    written = err.getvalue()
    assert "quitter" in written.lower() and written.endswith("\n"), written
    watch(SimpleNamespace(pads=(0, 1)), replace(prefs, language="fr"))  # a game of two
    again = err.getvalue()[len(written) :]
    assert again.startswith("J1 12345678  J2 qwertyui\n"), again


def test_fast_frames_keep_every_screen_the_round_passes_through():
    """--fast has no pauses, yet the reveal, each step and the scores each get a frame
    (they were skipped: a 10-round game kept 21 frames)."""
    frames: list = []
    phases: list[Phase] = []

    def watcher(_stack, _put, _prefs, _report):
        return lambda view, _prefs: phases.append(view.phase)

    sim = Simulator(players=4, fast=True, on_frame=frames.append, watchers=(watcher,))
    try:
        for seat, card in enumerate([1, 3, 6, 8]):  # a Captain, a Governor, Customs, a Beggar
            sim.press(seat, card)
        sim.caught_up()
    finally:
        sim.close()
    assert Phase.REVEAL in phases and Phase.SCORES in phases
    assert phases.count(Phase.STEP) >= 4, phases
    assert len(frames) == len(phases) - 1  # one frame a screen (watchers hear the first twice)


def test_a_game_simulated_without_a_state_folder_is_said_not_kept(tmp_path):
    """ "Game in progress after round 1" must not read as kept: without --state-dir the
    run says nothing was kept, and how to keep games; with it, nothing of the kind."""
    (tmp_path / "game.txt").write_text("press P1 1\n")
    script = ("--players", "2", "--fast", "--script", str(tmp_path / "game.txt"))
    code, out, err = simulate(*script)
    assert code == 0 and "Game in progress, no round played yet" in out
    assert "nothing was kept: give --state-dir DIR" in err
    code, _, err = simulate(*script, "--state-dir", str(tmp_path / "s"))
    assert code == 0 and "nothing was kept" not in err


def test_the_simulated_panel_cut_from_its_power_mid_game_comes_back_with_the_game():
    """As a loose supply wire: the panel goes dark mid-round, the game goes on, and once
    powered again the table sets it up again and it shows the game as it is now."""
    frames: list = []
    sim = Simulator(players=3, fast=True, on_frame=frames.append)
    try:
        sim.press(0, 1)
        sim.panel.power_off()
        sim.press(1, 2)  # drawn while the panel is dark
        sim.panel.power_on()
        assert sim.panel.image().getbbox() is None  # blank: its set-up is gone
        sim.app.put(Tick())  # the loop's next look at a dirty panel (it wakes for it)
        sim.caught_up()
        shown = sim.panel.image()
        view = public_view(sim.flow, 0.0)  # --fast: nothing in it moves with time
    finally:
        sim.close()
    table = draw(view, catalog("en"), (128, 64))  # the game as it is now
    assert shown.getbbox() is not None and shown.tobytes() == table.tobytes()
    said = " ".join(sim.errors)
    assert "the display does not answer" in said and "the display answers again" in said
