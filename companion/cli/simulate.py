"""``companion simulate``: the table on simulated parts; options, script, output.

Every option is checked before anything opens: a bad board, script, state directory or
output path is one line and exit status 2, and nothing is changed.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from PIL import Image

from ..app.compose import WatcherSource
from ..app.device import PageUnavailable, page
from ..app.effective import Effective
from ..app.keymap import legend, play, shipped_keymap
from ..app.loop import Watcher
from ..app.script import Line, parse_script
from ..app.simulator import Simulator, simulator_settings
from ..errors import CompanionError, clip, where
from ..game.boards import named_board
from ..game.narrate import ending
from ..game.record import GameRecord, state_to_dict
from ..game.settings import DeviceSettings
from ..rules import Board
from ..sim.hub import HubMissing, firmware_command
from ..sim.keyboard import raw_terminal, read_keys
from ..sim.window import Window
from ..storage import FileOps, StateDir
from ..storage.found import behind, examine
from ..table.view import View
from ..ui.catalog import Catalog, catalog
from .frames import Recorder, Terminal, to_text
from .lines import TOO_LONG_MESSAGE, ReadError, open_input, read_lines, reason
from .status import EXIT_BAD_INPUT


class Refused(CompanionError):
    """What the options ask would lose something (a saved game)."""


def simulate_command(args: argparse.Namespace, *, out: TextIO, err: TextIO) -> int:
    with ExitStack() as held:  # the state folder's lock, let go when the command ends
        return _simulate(args, held, out=out, err=err)


def _simulate(args: argparse.Namespace, held: ExitStack, *, out: TextIO, err: TextIO) -> int:
    found: list[str] = []  # what the settings' layers had to say (a damaged file)
    try:
        _check_seats(args.players, args.bots, args.new)
        board = named_board(args.board) if args.board is not None else None
        lines = _script(args.script)
        store = _store(args, held)
        resume = _resumed(args.resume, store, args.players) if args.resume else None
        look = _settings(args, board, store, lambda _: None, set_aside=False)  # only a look
        if store is not None and args.players is not None:
            _make_room(store, args, err)
        if store is not None and resume is not None:
            resume = _resume_in(store, resume, err)
        recorder = Recorder(_path(args.frames), _path(args.gif))
        words = catalog(look.settings.language)
        window = Window(words.t("window.title")) if args.window else None
        hub = firmware_command() if args.pads == "hub" else None
        address = getattr(args, "web", None)
        listen = web_address(address) if address is not None else None  # '' too: refused
    except CompanionError as e:
        err.write(f"companion simulate: {e}\n")
        return EXIT_BAD_INPUT
    alone = args.players == 0  # bots alone: nobody's keys to read, the game plays itself
    keys = lines is None and window is None and not alone and sys.stdin.isatty()
    seated = tuple(range(args.players)) if args.players else ()  # --players: seated at once
    shown = _legend(lines, keys, window, words, seated)
    draw = None
    try:
        if out.isatty() and not args.json:
            draw = Terminal(out, args.pace, shown, too_small=words.messages["terminal.too_small"])
        elif shown:
            err.write("".join(line + "\n" for line in shown))
        # Everything checked: a damaged settings.json may be set aside now, and said.
        settings = _settings(args, board, store, found.append, set_aside=True)
        sim = _simulator(
            err,
            listen,
            legend_watcher(_relabel(draw, err), seated) if shown else None,
            players=args.players,
            fast=args.fast,
            speed=args.speed,
            controller=args.display,
            on_frame=_fan_out(recorder, draw, window),
            store=store,
            hub=hub,
            bots=args.bots,
            seed=args.seed,
            resume=resume,
            settings=settings,
        )
        if sim is None:
            return EXIT_BAD_INPUT
        sim.errors[:0] = found
        signalled = None
        try:
            with _signals(draw):
                left = _play(sim, lines, keys, window, err, alone=alone, then_new=args.then_new)
            if left:
                err.write(f"companion simulate: {_stopped(left)}\n")
        except KeyboardInterrupt:
            pass
        except Signalled as e:
            signalled = e
        finally:
            sim.close()
    finally:
        if draw is not None:
            draw.close()
        if window is not None:
            window.close()
    if signalled is not None:  # asked to stop: say only what the state folder lacks
        _said_lost(sim, store, err)
        return signalled.status
    try:
        recorder.save_gif()
    except CompanionError as e:
        err.write(f"companion simulate: {e}\n")
        return EXIT_BAD_INPUT
    return _report(sim, recorder, args, draw is not None, out, err, store)


def _settings(
    args: argparse.Namespace,
    board: Board | None,
    store: StateDir | None,
    report: Callable[[str], None],
    *,
    set_aside: bool,
) -> Effective:
    """The one resolver, as every command has it: the packaged defaults < the config file
    < the settings saved in ``--state-dir`` < ``--board``, ``--target``, ``--lang``."""
    return simulator_settings(
        _path(args.config),
        store,
        board=board,
        target=args.target,
        lang=args.lang,
        report=report,
        search=True,
        set_aside=set_aside,
    )


def _check_seats(people: int | None, bots: tuple[str, ...], new: bool) -> None:
    """Two to six seats in all: the people at the pads (``--players``), then the bots;
    ``--new`` only with ``--players`` (without it, the saved game is resumed)."""
    if people is None:
        if new:
            raise CompanionError("--new starts a game of --players N: give it, or leave out --new")
        return
    seats = people + len(bots)
    if not 2 <= seats <= 6:
        hint = " (add --bots, e.g. --bots normal, to play against the table)" if seats < 2 else ""
        raise CompanionError(
            f"--players {people} with {count(len(bots), 'bot')} makes "
            f"{count(seats, 'seat')}: a game has 2 to 6{hint}"
        )


def count(n: int, noun: str) -> str:
    """``1 seat``, ``2 seats``: for the English one-line errors (words a user reads
    elsewhere take their forms from the catalog)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _simulator(
    err: TextIO,
    listen: tuple[str, int] | None,
    legend: WatcherSource | None,
    **options: Any,
) -> Simulator | None:
    """The simulated table, with the page for phones on ``listen`` if given and the
    ``legend``'s watcher; None when the hub's firmware never answered or the page's
    address cannot be had (said on ``err``: one line, as any bad input)."""

    def say(message: str) -> None:
        err.write(f"companion simulate: {message}\n")
        err.flush()

    watchers: tuple[WatcherSource, ...] = () if legend is None else (legend,)
    where: list[str] = []  # the page's address, said once the table runs
    if listen is not None:
        store = options["store"]
        folder = store.path if store is not None else None
        volume = options["settings"].config.pins.has_volume  # the simulated buzzer's
        watchers += (
            page(
                *listen, folder, say=where.append, clock=time.monotonic, strict=True, volume=volume
            ),
        )
    try:
        sim = Simulator(watchers=watchers, **options)
    except (HubMissing, PageUnavailable) as e:
        say(str(e))
        return None
    if where:  # the page's first answer is the table as people see it
        sim.caught_up()
    for line in where:
        say(line)
    return sim


def web_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` for IPv6) as a host and a port 0..65535."""
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise CompanionError(f"--web: give HOST:PORT, e.g. 127.0.0.1:8080 (got {text[:60]!r})")
    return host, int(port)


def _legend(
    lines: list[Line] | None,
    keys: bool,
    window: Window | None,
    words: Catalog,
    seated: tuple[int, ...],
) -> list[str]:
    """What to show under the picture: the keys, when they are read (``seated``: the
    pads of a game begun at once). Script lines are typed only through a pipe or a file
    (a terminal gives keys), so no help for them."""
    if keys or (window is not None and lines is None):
        return legend(shipped_keymap(), words, seated)
    return []


def _relabel(draw: Terminal | None, err: TextIO) -> Callable[[list[str], str], None]:
    """How a legend in another language is shown: drawn under the picture on a
    terminal, else written again where the first one was (beside a window)."""
    if draw is not None:
        return draw.relabel

    def written(lines: list[str], _too_small: str) -> None:
        err.write("".join(line + "\n" for line in lines))

    return written


def legend_watcher(
    relabel: Callable[[list[str], str], None], seated: tuple[int, ...] = ()
) -> WatcherSource:
    """A watcher of the table that gives ``relabel`` the keys' legend (and the terminal's
    too-small notice) in the table's language each time the language changes (on the
    settings screen, or from the page), and the seated pads' alone while a game is on
    (``seated``: those the legend shows already)."""

    def source(_stack, _put, prefs: DeviceSettings, _report) -> Watcher:
        shown: list[tuple[str, tuple[int, ...]]] = [(prefs.language, seated)]

        def watch(view: View, prefs: DeviceSettings) -> None:
            if (prefs.language, view.pads) != shown[0]:
                shown[0] = prefs.language, view.pads
                words = catalog(prefs.language)
                keys = legend(shipped_keymap(), words, view.pads)
                relabel(keys, words.messages["terminal.too_small"])

        return watch

    return source


def _play(
    sim: Simulator,
    lines: list[Line] | None,
    keys: bool,
    window: Window | None,
    err: TextIO,
    *,
    alone: bool,
    then_new: bool,
) -> list[Line]:
    """The script, or keys from the window or the terminal, or typed script lines; a
    game of bots ``alone`` then plays to its end. The script's lines not played (it
    stopped at the ranking) are returned."""
    left: list[Line] = []
    if window is not None:
        _windowed(sim, window, lines)
    elif lines is not None:
        left = sim.run(lines, then_new=then_new)
    elif alone:
        pass
    elif keys:
        fd = sys.stdin.fileno()
        with raw_terminal(fd):
            play(sim.act, read_keys(fd), shipped_keymap())
    else:
        _interactive(sim, err)
    if alone and not left:
        sim.play_out()
    return left


def _stopped(left: list[Line]) -> str:
    """Why the script's last lines were not played."""
    lines = count(len(left), "line")
    return (
        f"the script stopped at the final ranking, before line {left[0].number}: "
        f"{lines} not played (add --then-new to play on into a new game)"
    )


@contextmanager
def _signals(draw: Terminal | None) -> Iterator[None]:
    """While playing: redraw the picture when the terminal changes size, even while the
    table is idle; on SIGTERM or SIGHUP, leave through the ``finally`` blocks that put the
    terminal back, instead of dying with it raw and the cursor hidden."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; signals go there anyway
        return
    handlers = {signal.SIGTERM: _leave, signal.SIGHUP: _leave}
    if draw is not None:
        handlers[signal.SIGWINCH] = lambda *_: draw.redraw()
    before = {number: signal.signal(number, handler) for number, handler in handlers.items()}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


class Signalled(Exception):
    """SIGTERM or SIGHUP arrived while playing; ``status`` the exit status it asks for."""

    def __init__(self, number: int) -> None:
        super().__init__(signal.Signals(number).name)
        self.status = 128 + number


def _leave(number: int, _frame) -> None:
    raise Signalled(number)


def _windowed(sim: Simulator, window: Window, lines: list[Line] | None) -> None:
    """Keys typed into the window; with a script, the script runs on a thread of its own
    while the window draws, and a quit key or closing the window ends it."""
    keymap = shipped_keymap()
    if lines is None:
        play(sim.act, window.typed(), keymap)
        return
    failed: list[BaseException] = []
    finished = threading.Event()

    def run() -> None:
        try:
            sim.run(lines)
        except BaseException as e:  # told on the main thread, unless the window quit first
            failed.append(e)
        finally:
            finished.set()
            window.stop()

    script = threading.Thread(target=run, name="script", daemon=True)
    script.start()
    for key in window.typed():
        if key in keymap.quit:
            break
    quit_early = not finished.is_set()
    sim.close()  # a script still waiting for the table stops waiting
    script.join()
    if failed and not quit_early:
        raise failed[0]


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def _store(args: argparse.Namespace, held: ExitStack) -> StateDir | None:
    """The state directory, ``--state-dir DIR``, held for this command until ``held``
    closes (one writer per folder)."""
    if not args.state_dir:
        return None
    store = StateDir(Path(args.state_dir).expanduser())
    store.claim("companion simulate")
    held.callback(store.release)
    return store


def _make_room(store: StateDir, args: argparse.Namespace, err: TextIO) -> None:
    """``--players`` starts a new game: never over an unfinished one unless ``--new``
    says so, and then the old game is kept beside the new one."""
    loaded = store.load()
    if loaded.record is None or not loaded.unfinished:
        return
    if not args.new:
        raise Refused(
            f"{where(store.path)} holds an unfinished game ({loaded.record.players} seats, "
            f"{count(len(loaded.record.rounds), 'round')}): leave out --players to resume it, "
            "or add --new to keep it and start another"
        )
    kept = store.set_aside()
    err.write(f"companion simulate: the unfinished game is kept as {kept}\n")


def _resumed(name: str, store: StateDir | None, players: int | None) -> GameRecord:
    """The game set aside in ``name`` (in ``--state-dir`` if it is not found as given),
    which must be one to go on with: a usable game, neither finished nor ended."""
    if players is not None:
        raise CompanionError("--resume goes on with a game: leave out --players")
    path = Path(name).expanduser()
    if store is not None and not path.exists() and (store.path / name).exists():
        path = store.path / name
    found = examine(FileOps(), path)
    if found.record is None:
        raise CompanionError(f"--resume {where(path)}: {found.problem()}")
    if found.finished or found.record.ended:
        raise CompanionError(f"--resume {where(path)}: that game has ended; nothing to go on with")
    return found.record


def _resume_in(store: StateDir, record: GameRecord, err: TextIO) -> GameRecord:
    """Make room in ``store`` for the game to resume, and return the moment of it to go
    on from: another unfinished game there is set aside first (kept, as with --new); the
    same game (by its id) is not, and the later of the two moments goes on. The table
    then resumes it as the device resumes a game set aside: it becomes the game in
    progress, its kept files (if they are the folder's) no longer set aside."""
    loaded = store.load()
    if loaded.record is None or not loaded.unfinished:
        return record
    playing, resumed = loaded.record.identified(), record.identified()
    if playing.game_id == resumed.game_id:
        return playing if behind(resumed, playing) else record
    kept = store.set_aside()
    err.write(f"companion simulate: the unfinished game is kept as {where(kept)}\n")
    return record


def _fan_out(
    recorder: Recorder, draw: Terminal | None, window: Window | None
) -> Callable[[Image.Image], None]:
    """Every frame to the recorder, and to the terminal and the window if there are any."""

    def on_frame(image: Image.Image) -> None:
        recorder(image)
        if draw is not None:
            draw(image)
        if window is not None:
            window.show(image)

    return on_frame


def unsaved(sim: Simulator, store: StateDir | None) -> str | None:
    """What the state folder lacks of the game, when its last save failed (a read-only
    card, a full disk): said once the table has stopped. None when nothing is lost."""
    reason = sim.save_failed
    game = sim.flow.game
    if reason is None or store is None or game is None:
        return None
    now, saved = game.record, store.load().record
    folder, played = where(store.path), len(now.rounds)
    kept = len(saved.rounds) if saved is not None else 0
    if saved is None:
        return f"the game in {folder} was not saved ({reason})"
    if kept > played or replace(now, rounds=now.rounds[:kept]) != saved:
        if saved == replace(now, ended=False):  # all but that it was ended
            return f"the game in {folder} is saved, but not that it was ended ({reason})"
        return (
            f"the game in {folder} is saved as it was after round {kept}, not as it is "
            f"after round {played} ({reason})"
        )
    if kept == played:
        return None
    upto = "as it began" if kept == 0 else f"up to round {kept}"
    missing = f"round {played} was" if kept + 1 == played else f"rounds {kept + 1} to {played} were"
    return f"the game in {folder} is saved {upto}; {missing} not saved ({reason})"


def _said_lost(sim: Simulator, store: StateDir | None, err: TextIO) -> None:
    """On stderr: what went wrong on the way, and what the state folder lacks of the game."""
    for message in sim.errors:
        err.write(f"companion simulate: {message}\n")
    lost = unsaved(sim, store)
    if lost is not None:
        err.write(f"companion simulate: {lost}\n")


def _report(
    sim: Simulator,
    recorder: Recorder,
    args: argparse.Namespace,
    drawn: bool,
    out,
    err,
    store: StateDir | None = None,
) -> int:
    """What the run leaves: the final state as JSON, or the last frame and the ranking;
    and on stderr, what the state folder lacks of the game."""
    _said_lost(sim, store, err)
    game = sim.flow.game
    if args.json:
        if game is None:
            err.write("companion simulate: no game was started (setup not finished)\n")
            return EXIT_BAD_INPUT
        out.write(json.dumps(state_to_dict(game.state, game.record.ended)) + "\n")
        return 0
    if not drawn and recorder.last is not None:
        out.write(to_text(recorder.last) + "\n")
    if game is not None:
        bots = tuple(map(bool, game.record.bots))  # B2, as on the table
        words = catalog(sim.flow.prefs.language).with_bots(bots)  # as the table last spoke
        out.write("".join(line + "\n" for line in ending(game.state, words, game.record.ended)))
        if store is None:  # "in progress" must not read as kept: it ends with this run
            err.write(f"companion simulate: {words.t('simulate.not_kept')}\n")
    return 0


def _script(path: str | None) -> list[Line] | None:
    if path is None:
        return None
    name = "<stdin>" if path == "-" else clip(path)
    lines = []
    try:
        stream = open_input(path)
        try:  # a line is at most 1 MB: a longer one is refused, never read whole
            for number, line in enumerate(read_lines(stream), 1):
                if not isinstance(line, bytes):
                    raise CompanionError(f"{name}:{number}: {TOO_LONG_MESSAGE}")
                lines.append(line)
        finally:
            if path != "-":
                stream.close()
    except OSError as e:
        raise CompanionError(f"{name}: cannot read: {reason(e)}") from None
    except ReadError as e:
        raise CompanionError(f"{name}: cannot read: {reason(e.error)}") from None
    except ValueError as e:  # a NUL in the path
        raise CompanionError(f"{name}: cannot read: {clip(str(e))}") from None
    data = b"\n".join(lines)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise CompanionError(f"{name}: not UTF-8 text at byte {e.start}") from None
    return parse_script(text, name)


def _interactive(sim: Simulator, err: TextIO) -> None:
    """Script lines typed at the prompt, one at a time."""
    for number, text in enumerate(sys.stdin, 1):
        try:
            sim.run(parse_script(text, "<stdin>", number))
        except CompanionError as e:
            err.write(f"{e}\n")
