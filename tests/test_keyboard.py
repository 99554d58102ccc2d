"""The simulator played from the keyboard: bytes to keys, keys to presses through the
pins, and a terminal left as it was found."""

from __future__ import annotations

import contextlib
import json
import os
import random
import termios

import pytest
from helpers import model_script, simulate

from companion.app.keymap import (
    KeyMapError,
    legend,
    parse_keymap,
    play,
    shipped_keymap,
)
from companion.app.script import Line, parse_script
from companion.cli import build_parser
from companion.cli.simulate import simulate_command
from companion.game.boards import profile
from companion.sim.keyboard import NAMES, KeyDecoder, raw_terminal, read_keys
from companion.table.events import HostKey
from companion.ui.catalog import catalog, languages

# --- bytes to keys ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "keys"),
    [
        (b"1qA<", ["1", "q", "A", "<"]),
        (b"\x1b[C\x1b[D\x1b[A\x1b[B", ["right", "left", "up", "down"]),
        (b"\x1bOC\x1bOD", ["right", "left"]),  # the terminal's application cursor mode
        (b"\x1b[1;2C", ["right"]),  # Shift+→: still →
        (b"\r\n \t\x7f", ["enter", "enter", "space", "tab", "backspace"]),
        (b"\x03\x04", ["ctrl-c", "ctrl-d"]),
        (b"\x1b\x1b[C", ["esc", "right"]),  # Esc pressed, then →
        (b"\x1b[15~x", ["x"]),  # F5: no key of ours, and the next key is intact
        (b"\x1b[3~", ["delete"]),
        (b"\x1bq", ["alt-q"]),  # Alt+q is not q
        ("é&è".encode(), ["é", "&", "è"]),
    ],
)
def test_decoder(data, keys):
    decoder = KeyDecoder()
    assert decoder.feed(data) == keys and not decoder.pending


def test_a_sequence_split_across_reads():
    decoder = KeyDecoder()
    assert decoder.feed(b"1\x1b") == ["1"] and decoder.pending
    assert decoder.feed(b"[") == [] and decoder.pending
    assert decoder.feed(b"C2") == ["right", "2"] and not decoder.pending
    assert decoder.feed("é".encode()[:1]) == [] and decoder.feed("é".encode()[1:]) == ["é"]


def test_esc_alone_is_esc_only_once_nothing_follows():
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b") == []
    assert decoder.flush() == ["esc"] and not decoder.pending
    assert decoder.feed(b"\x1b[") == [] and decoder.flush() == []  # half a sequence: dropped
    assert decoder.feed(b"C") == ["C"]


@pytest.fixture
def pty_pair():
    master, slave = os.openpty()
    yield master, slave
    for fd in (master, slave):
        with contextlib.suppress(OSError):
            os.close(fd)


def test_read_keys_from_a_terminal_waits_for_the_rest_of_a_sequence(pty_pair):
    master, slave = pty_pair
    with raw_terminal(slave):
        os.write(master, b"1\x1b[Cq\x1b")
        keys = read_keys(slave, wait=0.01)
        assert [next(keys) for _ in range(4)] == ["1", "right", "q", "esc"]
        os.close(master)  # the terminal hangs up: the keys end
        assert list(keys) == []


# --- the terminal is left as it was -------------------------------------------------------


def test_raw_mode_and_back(pty_pair):
    _, slave = pty_pair
    before = termios.tcgetattr(slave)
    assert before[3] & termios.ECHO and before[3] & termios.ICANON
    with raw_terminal(slave):
        during = termios.tcgetattr(slave)
        assert not during[3] & (termios.ECHO | termios.ICANON | termios.ISIG)
        assert during[1] & termios.OPOST  # a newline still starts a line
    assert termios.tcgetattr(slave) == before


@pytest.mark.parametrize("error", [KeyboardInterrupt, RuntimeError])
def test_raw_mode_is_undone_on_ctrl_c_and_on_errors(pty_pair, error):
    _, slave = pty_pair
    before = termios.tcgetattr(slave)
    with pytest.raises(error), raw_terminal(slave):
        raise error()
    assert termios.tcgetattr(slave) == before


# --- the key map --------------------------------------------------------------------------


def test_every_seat_and_card_has_a_key_and_no_key_does_two_things():
    keymap = shipped_keymap()
    pads = {(a.seat, a.card) for a in keymap.actions.values() if a.action == "pad"}
    assert pads == {(seat, card) for seat in range(6) for card in range(1, 9)}
    for seat, keys in enumerate(keymap.pads):  # the legend's keys do what it says
        assert [keymap.actions[k] for k in keys] == [
            Line(0, "pad", seat, card) for card in range(1, 9)
        ]
    host = {(a.action, a.key) for a in keymap.actions.values() if a.action != "pad"}
    assert host == {("button", k) for k in HostKey} | {("hold", HostKey.OK)}
    assert keymap.quit and not keymap.quit & set(keymap.actions)
    assert all(len(k) == 1 or k in NAMES for k in [*keymap.actions, *keymap.quit])


def test_a_key_used_twice_is_refused_with_both_uses():
    data = {
        "pads": {f"P{n}": [row] for n, row in enumerate(["12345678", "qwertyui", "asdfghjk",
                                                          "zxcvbnm,", "ASDFGHJK", "ZXCVBNM<"], 1)},
        "host": {"left": ["left"], "ok": ["enter"], "right": ["right"], "menu": ["tab"],
                 "quit": ["esc"]},
    }  # fmt: skip
    assert len(parse_keymap(data, "x.toml").actions) == 48 + 4
    data["host"]["menu"] = ["w"]
    with pytest.raises(KeyMapError, match=r"x\.toml: the key 'w' is both P2 card 2 and menu"):
        parse_keymap(data, "x.toml")
    data["host"]["menu"] = ["tab"]
    data["pads"]["P3"] = ["asdfghj"]
    with pytest.raises(KeyMapError, match=r"\[pads\] P3: 'asdfghj' is not 8 printable"):
        parse_keymap(data, "x.toml")


@pytest.mark.parametrize("lang", languages())
def test_the_legend_fits_80_columns_in_every_language(lang):
    words = catalog(lang)
    lines = legend(shipped_keymap(), words)
    assert len(lines) == 2 and all(len(line) <= 80 for line in lines)
    assert lines[0].startswith(f"{words.seat(0)} 12345678  {words.seat(1)} qwertyui")
    named = [k for keys in shipped_keymap().host.values() for k in keys if k in NAMES]
    assert all(f"key.{k}" in words.messages for k in named)  # every name from the catalog


def test_keys_act_in_order_until_a_quit_key():
    acted: list[Line] = []
    play(acted.append, ["1", "o", "up", "right", "tab", "Q", "2"], shipped_keymap())
    assert acted == [
        Line(0, "pad", 0, 1),
        Line(0, "button", key=HostKey.RIGHT),
        Line(0, "hold", key=HostKey.OK),
    ]


# --- keys through the pins: a whole game ---------------------------------------------------


def keys_for(script: str) -> bytes:
    """The keys that type ``script``'s presses, as a terminal sends them."""
    keymap = shipped_keymap()
    wanted = {line: key for key, line in keymap.actions.items()}
    sent = {"enter": "\r", "space": " ", "left": "\x1b[D", "right": "\x1b[C", "tab": "\t"}
    out = []
    for line in parse_script(script):
        key = wanted[Line(0, line.action, line.seat, line.card, line.key)]
        out.append(sent.get(key, key))
    return "".join(out).encode()


@pytest.mark.slow
def test_a_whole_game_from_the_keyboard_equals_the_same_game_from_a_script(
    tmp_path, pty_pair, monkeypatch
):
    script, expected = model_script(random.Random(7), 2, profile("standard").to_rates(), 30)
    (tmp_path / "game.txt").write_text(script)
    path = str(tmp_path / "game.txt")
    code, scripted, err = simulate("--players", "2", "--fast", "--script", path, "--json")
    assert code == 0, err
    assert json.loads(scripted) == expected

    master, slave = pty_pair
    before = termios.tcgetattr(slave)
    typed_once_raw(monkeypatch, master, keys_for(script) + b"Q")  # Q quits
    monkeypatch.setattr("sys.stdin", open(slave, closefd=False))  # noqa: SIM115
    code, typed, err = simulate("--players", "2", "--fast", "--json")
    assert code == 0, err
    assert typed == scripted
    assert termios.tcgetattr(slave) == before


class Screen:
    """What a program writes to the terminal, read from the pty's other end as it comes
    (a full pty would block the writer)."""

    def __init__(self, master: int):
        import threading

        self.data = bytearray()
        self._master = master
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self._master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.data += chunk

    def text(self) -> str:
        self._thread.join(timeout=10)
        return self.data.decode("utf-8", "replace")


def typed_once_raw(monkeypatch, master: int, keys: bytes) -> None:
    """Type ``keys`` once the simulator reads the keyboard: the terminal is raw by then,
    so anything echoed would be the program's fault."""
    import companion.cli.simulate as module

    real = module.read_keys

    def reading(fd: int):
        os.write(master, keys)
        return real(fd)

    monkeypatch.setattr(module, "read_keys", reading)


def test_the_terminal_while_playing_and_after(pty_pair, monkeypatch):
    master, slave = pty_pair
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    before = termios.tcgetattr(slave)
    typed_once_raw(monkeypatch, master, b"12qw\x1b")  # both seats lock in; Esc alone quits
    terminal = open(slave, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    monkeypatch.setattr("sys.stdin", terminal)
    screen = Screen(master)
    code = simulate_command(
        build_parser().parse_args(["simulate", "--players", "2", "--fast"]),
        out=terminal,
        err=terminal,
    )
    terminal.flush()
    assert termios.tcgetattr(slave) == before
    os.close(slave)
    text = screen.text()
    assert code == 0
    assert text.startswith("\x1b[?25l\x1b[?7l")  # cursor hidden, long lines cut
    assert "P1 12345678  P2 qwertyui" in text and "quit Esc Q" in text  # the legend
    frames = text.split("\x1b[H")[1:]
    assert len(frames) >= 5 and all(f.count("\n") == 23 for f in frames[:-1])
    assert "12qw" not in text  # the keys typed are never echoed
    assert text.index("\x1b[?25h") > text.rindex("\x1b[H")  # the cursor back, at the end
    assert "\x1b[?7h\x1b[?25hGame in progress after round 1 (target 30 VP)\r\n" in text
    said = "companion simulate: nothing was kept: give --state-dir DIR to keep games"
    assert text.endswith("\r\n") and said in text.rsplit("Game in progress", 1)[1]


def played_in(monkeypatch, pty_pair, keys: bytes, size: tuple[int, int], *argv: str):
    """``companion simulate ARGV`` in a terminal of ``size`` (columns, rows), ``keys``
    typed: (exit status, what the terminal showed, split into frames)."""
    master, slave = pty_pair
    monkeypatch.setenv("COLUMNS", str(size[0]))
    monkeypatch.setenv("LINES", str(size[1]))
    typed_once_raw(monkeypatch, master, keys)
    terminal = open(slave, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    monkeypatch.setattr("sys.stdin", terminal)
    screen = Screen(master)
    args = build_parser().parse_args(["simulate", "--fast", *argv])
    code = simulate_command(args, out=terminal, err=terminal)
    terminal.flush()
    os.close(slave)
    return code, screen.text().split("\x1b[H")[1:]


def test_the_legend_follows_the_language_set_on_the_settings_screen(pty_pair, monkeypatch):
    # Tab holds OK: the settings, from the Join screen; → turns English into French.
    code, frames = played_in(monkeypatch, pty_pair, b"\t\x1b[C\x1b", (80, 24))
    assert code == 0
    english, french = (
        legend(shipped_keymap(), catalog("en")),
        legend(shipped_keymap(), catalog("fr")),
    )
    assert english != french and english[1] in frames[0]
    assert french[1] in frames[-1] and english[1] not in frames[-1]
    first = next(i for i, frame in enumerate(frames) if french[1] in frame)
    assert all(english[1] in frame for frame in frames[:first])  # until the change


def test_in_a_game_the_legend_shows_only_the_seated_pads_by_their_seats():
    keymap, words = shipped_keymap(), catalog("en")
    seated = legend(keymap, words, (0, 2))  # the first and third pads sat down
    assert seated[0] == f"P1 {keymap.pads[0]}  P2 {keymap.pads[2]}"
    assert seated[1] == legend(keymap, words)[1]  # the host buttons, as ever


def test_a_two_seat_game_at_the_keyboard_shows_two_pads(pty_pair, monkeypatch):
    code, frames = played_in(monkeypatch, pty_pair, b"\x1b", (100, 30), "--players", "2")
    keymap = shipped_keymap()
    assert code == 0 and frames
    assert keymap.pads[1] in frames[-1] and keymap.pads[2] not in frames[-1]


def test_a_terminal_too_small_is_told_the_size_it_needs(pty_pair, monkeypatch):
    code, frames = played_in(monkeypatch, pty_pair, b"\x1b", (60, 12), "--players", "2")
    assert code == 0 and frames
    assert all(
        # two pads in the legend: its host line (66 columns) is the widest
        frame.startswith("terminal too small: needs 66×18, has 60×12\x1b[K")
        for frame in frames
    )


def test_ctrl_c_from_outside_still_restores_the_terminal(pty_pair, monkeypatch):
    """A SIGINT (not the Ctrl-C key: raw mode reads that as a key) while a key acts."""
    import threading

    import companion.cli.simulate as module

    _, slave = pty_pair
    before = termios.tcgetattr(slave)
    keys = iter(["1", "2"])

    def interrupted(act, _keys, keymap):
        act(keymap.actions[next(keys)])
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "play", interrupted)
    monkeypatch.setattr("sys.stdin", open(slave, closefd=False))  # noqa: SIM115
    code, out, err = simulate("--players", "2", "--fast", "--json")
    assert code == 0 and json.loads(out)["round"] == 0, err
    assert termios.tcgetattr(slave) == before
    assert not [t for t in threading.enumerate() if t.name == "app"]


def test_sigterm_leaves_through_the_cleanup(pty_pair, monkeypatch):
    import signal

    import companion.cli.simulate as module

    master, slave = pty_pair
    before = termios.tcgetattr(slave)

    def killed(act, _keys, keymap):
        act(keymap.actions["1"])
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(module, "play", killed)
    terminal = open(slave, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    monkeypatch.setattr("sys.stdin", terminal)
    screen = Screen(master)
    code = simulate_command(
        build_parser().parse_args(["simulate", "--players", "2", "--fast"]),
        out=terminal,
        err=terminal,
    )
    assert code == 128 + signal.SIGTERM
    assert termios.tcgetattr(slave) == before
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    os.close(slave)
    assert screen.text().endswith("\x1b[?7h\x1b[?25h")
