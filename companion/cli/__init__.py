"""The ``companion`` command. Sub-commands import what they need, so each starts fast."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import shown
from ..hw.panels import CONTROLLERS

PROG = "companion"
MESSAGE_MAX = 160  # a usage error echoes the value; a 10 MB argument is not echoed whole


class Parser(argparse.ArgumentParser):
    """Usage errors as one line and exit status 2, like every other bad input. Options
    are spelt out whole: a shortened one could be taken for another (``--state`` for
    ``--state-dir``)."""

    def __init__(self, *args: Any, examples: Sequence[str] = (), **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self.examples = tuple(examples)

    def format_help(self) -> str:
        """The help, then ``examples:``, one command line a line, as given (argparse
        would re-wrap an epilog into one paragraph)."""
        text = super().format_help()
        if not self.examples:
            return text
        return text + "\nexamples:\n" + "".join(f"  {line}\n" for line in self.examples)

    def error(self, message: str):
        if len(message) > MESSAGE_MAX:
            message = message[: MESSAGE_MAX - 3] + "..."
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except BrokenPipeError:  # `companion replay big.jsonl | head` is not an error
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: ``companion`` and its sub-commands."""
    from .. import __version__

    parser = Parser(
        prog=PROG,
        description="Santo Domingo Companion: the card game's bookkeeping, exact.",
        examples=(
            "companion simulate --players 3",
            "companion replay game.json",
            "companion history stats",
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    for add in (_add_run, _add_pads, _add_simulate, _add_replay, _add_bench, _add_config, _add_bot):
        add(sub)
    _add_history(sub)  # its own line: other commands join the tuple above
    return parser


def _add_run(sub) -> None:
    run = sub.add_parser(
        "run",
        help="the device service: real pins and display",
        examples=(
            "companion run",
            "companion run --config /etc/santo-domingo/companion.toml",
        ),
    )
    run.add_argument("--config", metavar="FILE", help="a TOML configuration file")
    run.set_defaults(run=_run_device)


def _add_pads(sub) -> None:
    pads = sub.add_parser(
        "pads",
        help="try the pads, the host buttons and the buzzer: print every key event",
        description="Open the pads and the host buttons on the config's pins, as `companion "
        "run` does, and print each key event as it happens; each press beeps. Ctrl-C ends.",
        examples=("companion pads", "companion pads --count 20 --config my-config.toml"),
    )
    pads.add_argument("--config", metavar="FILE", help="a TOML configuration file")
    pads.add_argument("--count", type=events, metavar="N", help="end after N key events")
    pads.set_defaults(run=_run_pads)


def events(text: str) -> int:
    return _whole(text, 1, 1_000_000, "the count")


def _run_pads(args: argparse.Namespace) -> int:
    from .pads import pads_command

    return pads_command(args.config, count=args.count, out=sys.stdout, err=sys.stderr)


def _add_simulate(sub) -> None:
    sim = sub.add_parser(
        "simulate",
        help="the table on simulated pins, the OLED drawn in the terminal",
        description="Run the companion on mock pins and a simulated OLED.",
        examples=(
            "companion simulate --players 3",
            "companion simulate --players 2 --bots normal --lang fr",
            "companion simulate --players 0 --bots strong,normal,easy --seed 7 --fast",
            "companion simulate --players 3 --fast --json --script game.txt",
            "companion simulate --state-dir ~/santo-domingo --display ssd1322",
        ),
    )
    sim.add_argument(
        "--players",
        type=people,
        metavar="N",
        help="skip setup: N people at pads 1..N, 0 to 6 (0: a game of bots alone)",
    )
    bots = sim.add_argument(
        "--bots",
        type=bot_list,
        default=(),
        metavar="S,S..",
        help="bots seated after the people: %(strengths)s each (comma-separated)",
    )
    bots.strengths = STRENGTHS  # read by the help, as %(strengths)s, when it is printed
    sim.add_argument(
        "--seed",
        type=seed,
        default=0,
        metavar="N",
        help="the bots' seed: the same seed and keys, the same game (default 0)",
    )
    # --board, --target and --lang win over the settings saved in --state-dir; not given,
    # those (else standard, 30 and en) apply.
    sim.add_argument("--board", help="board name or trader-rates JSON file")
    sim.add_argument("--target", type=target, help="VP that end the game (30, 45, ..)")
    sim.add_argument("--script", metavar="FILE", help="key presses to play, one per line")
    sim.add_argument(
        "--fast",
        action="store_true",
        help="no pauses: the table waits only for the seats (each screen still drawn once "
        "where frames are kept)",
    )
    sim.add_argument("--speed", type=speed, default=1.0, help="divide every pause by this")
    sim.add_argument("--json", action="store_true", help="print the final state as JSON")
    sim.add_argument("--frames", metavar="DIR", help="write every frame as a numbered PNG")
    sim.add_argument("--gif", metavar="FILE", help="write the frames as an animated GIF")
    sim.add_argument(
        "--display",
        choices=CONTROLLERS,
        help="the simulated panel: 128x64 (ssd1306, ssd1309, sh1106) or 256x64 (ssd1322); "
        "default: the config's [display] controller (ssd1309)",
    )
    sim.add_argument("--pace", type=pace, default=0.0, help="seconds to show each frame (0..10)")
    sim.add_argument("--window", action="store_true", help="draw in a pygame window too")
    sim.add_argument(
        "--state-dir", metavar="DIR", help="keep the game here, as the device does; offer to resume"
    )
    sim.add_argument(
        "--new",
        action="store_true",
        help="with --players: keep the unfinished game in --state-dir aside, start another",
    )
    sim.add_argument(
        "--resume",
        metavar="FILE",
        help="go on with a game set aside (game-<time>.json; in --state-dir it becomes the "
        "game in progress again)",
    )
    sim.add_argument(
        "--then-new",
        action="store_true",
        help="a script goes on past the ranking into a new game (else it stops there)",
    )
    lang = sim.add_argument("--lang", type=language, help="language of the screens: %(languages)s")
    # Read by the help, as %(languages)s, when it is printed: a parser of its own reads
    # them anew (a catalog file added is a language at once).
    lang.languages = Later(_languages)
    sim.add_argument(
        "--config", metavar="FILE", help="a TOML configuration file (default: the device's)"
    )
    sim.add_argument(
        "--pads",
        choices=PAD_SOURCES,
        metavar="SOURCE",
        default="matrix",
        help="%(choices)s: the pads on mock pins (matrix), or through the pad hub's firmware (hub)",
    )
    sim.add_argument(
        "--web", metavar="HOST:PORT", help="serve the page for phones here (port 0: any free one)"
    )
    sim.set_defaults(run=_run_simulate)


def _add_replay(sub) -> None:
    replay = sub.add_parser(
        "replay",
        help="replay a game record (or JSON Lines of them) and narrate it or print its state",
        description="Replay a game record: one JSON game, or JSON Lines with one game per line. "
        "The format, the output and the errors are in docs/record-format.md.",
        epilog="Exit status: 0 when every game replayed, 2 when anything was refused.",
        examples=(
            "companion replay game.json",
            "companion replay games.jsonl --json > states.jsonl",
            "companion history export | companion replay - --lang nl",
        ),
    )
    replay.add_argument("file", metavar="FILE", help="the record, or - for standard input")
    replay.add_argument(
        "--json", action="store_true", help="print the state as JSON, one line per game"
    )
    replay.add_argument(
        "--jobs",
        type=jobs,
        default=0,
        metavar="N",
        help="processes for a large JSON Lines batch, up to 64 (0, the default: every CPU)",
    )
    lang = replay.add_argument(
        "--lang",
        type=language,
        default="en",
        help="language of the narration, %(languages)s (default en; not of --json)",
    )
    lang.languages = Later(_languages)
    replay.set_defaults(run=_run_replay)


def _add_bench(sub) -> None:
    bench = sub.add_parser(
        "bench",
        help="measure the engine and the simulated table",
        description="Measure the engine (games and the strong bot's playouts a second, one "
        "core), the strong bot's decisions (on the real clock and in CPU time) with a "
        "projection for a Raspberry Pi Zero 2 W made from CPU time (CPython 12x slower there "
        "than one core of a ~3 GHz x86-64 machine: an estimate, the notes say where it comes "
        "from), and the simulated table (key-to-frame latency, memory). --bots plays a "
        "tournament instead.",
        examples=("companion bench", "companion bench --json", "companion bench --bots --games 60"),
    )
    bench.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    bench.add_argument(
        "--games",
        type=games,
        help="random games the engine's part replays (default 2000; the other parts are "
        "as long as ever); with --bots, games per pairing (default 30)",
    )
    bench.add_argument("--seed", type=seed, default=1, help="seed of the random games")
    bench.add_argument(
        "--presses", type=presses, default=2400, help="key presses in the long session (2400)"
    )
    bench.add_argument(
        "--decisions", type=games, default=10, help="strong bot decisions timed (default 10)"
    )
    bench.add_argument(
        "--bots",
        action="store_true",
        help="a bot tournament instead: strong, normal and easy in 3-seat games, "
        "win rates with 95%% confidence intervals",
    )
    bench.add_argument(
        "--budget-ms",
        type=budget,
        default=100,
        metavar="N",
        help="with --bots, the strong bot's time per decision (default 100)",
    )
    bench.add_argument("--part", choices=["all", "table"], default="all", help=argparse.SUPPRESS)
    bench.set_defaults(run=_run_bench)


def _add_history(sub) -> None:
    def where(parser, default) -> None:
        # On the verbs too (`history export --state-dir D`); there SUPPRESS keeps a value
        # given before the verb.
        parser.add_argument("--config", metavar="FILE", default=default, help="a config file")
        parser.add_argument(
            "--state-dir", metavar="DIR", default=default, help="the state folder ([paths])"
        )

    history = sub.add_parser(
        "history",
        help="the games played: list, export, import, stats",
        description="The games kept in the state folder's history.sqlite, newest first.",
        examples=(
            "companion history",
            "companion history --state-dir ~/santo-domingo --json",
            "companion history stats",
            "companion history export > games.jsonl",
        ),
    )
    where(history, None)
    history.add_argument("--json", action="store_true", help="a JSON list of the games")
    history.set_defaults(run=_run_history, verb="list", file=None)
    verbs = history.add_subparsers(title="commands", metavar="COMMAND")
    export = verbs.add_parser(
        "export",
        help="the records as JSON Lines that replay takes",
        examples=(
            "companion history export > games.jsonl",
            "companion history export --state-dir ~/santo-domingo | companion replay -",
        ),
    )
    imports = verbs.add_parser(
        "import",
        help="add the records of a JSON Lines file",
        examples=(
            "companion history import games.jsonl",
            "companion history import games.jsonl --state-dir ~/santo-domingo",
        ),
    )
    imports.add_argument("file", metavar="FILE", help="one game record a line")
    stats = verbs.add_parser(
        "stats",
        help="wins, VP, rounds and cards played, per name",
        examples=("companion history stats", "companion history stats --json"),
    )
    stats.add_argument("--json", action="store_true", help="one JSON object: name -> figures")
    for verb, parser in (("export", export), ("import", imports), ("stats", stats)):
        where(parser, argparse.SUPPRESS)
        parser.set_defaults(verb=verb)


def _run_history(args: argparse.Namespace) -> int:
    from .history import history_command

    return history_command(
        args.verb,
        args.config,
        args.state_dir,
        as_json=args.json,
        file=args.file,
        out=sys.stdout,
        err=sys.stderr,
    )


def _add_config(sub) -> None:
    config = sub.add_parser(
        "config",
        help="the device's settings and where each comes from",
        examples=("companion config show", "companion config show --state-dir ~/santo-domingo"),
    )
    config.set_defaults(run=lambda args: config.print_help() or 2)
    verbs = config.add_subparsers(title="commands", metavar="COMMAND")
    show = verbs.add_parser(
        "show",
        help="print every effective value and where it came from",
        description="Every value the device uses, one a line, with where it came from: the "
        "packaged defaults < the config file < settings saved on the device < options.",
        examples=(
            "companion config show",
            "companion config show --config my-config.toml --json",
        ),
    )
    show.add_argument("--config", metavar="FILE", help="a TOML configuration file")
    show.add_argument("--state-dir", metavar="DIR", help="the state folder (settings.json)")
    show.add_argument("--json", action="store_true", help="one JSON object: key -> value, from")
    show.set_defaults(run=_run_config_show)


class Later(Sequence[str]):
    """The names of a registry, read when first needed (a value checked, the help
    printed): building the parser imports no registry, so every command starts fast."""

    def __init__(self, load: Callable[[], Sequence[str]]):
        self._load = load
        self._names: tuple[str, ...] | None = None

    def _all(self) -> tuple[str, ...]:
        if self._names is None:
            self._names = tuple(self._load())
        return self._names

    def __getitem__(self, index: int) -> str:  # type: ignore[override]  # no slices here
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __contains__(self, name: object) -> bool:
        return name in self._all()

    def __str__(self) -> str:
        """``easy, normal or strong``."""
        *most, last = self._all()
        return f"{', '.join(most)} or {last}" if most else last


def _strengths() -> Sequence[str]:
    from ..game.bots import STRENGTHS  # the one registry: ``game.bots.BOTS``

    return STRENGTHS


def _pad_sources() -> Sequence[str]:
    from ..app.inputs import PADS  # the one registry of where the pads are read

    return tuple(PADS)


def _languages() -> Sequence[str]:
    from ..ui.catalog import languages  # the one registry: the catalogs in ui/locale

    return languages()


STRENGTHS = Later(_strengths)
PAD_SOURCES = Later(_pad_sources)


def _whole(text: str, low: int, high: int | None, what: str) -> int:
    try:
        value = int(text) if len(text) < 12 else None
    except ValueError:
        value = None
    if value is None or value < low or (high is not None and value > high):
        top = f"..{high}" if high is not None else " or more"
        raise argparse.ArgumentTypeError(f"{what} is a whole number {low}{top}, got {text[:40]!r}")
    return value


def jobs(text: str) -> int:
    """Worker processes: 0 (every usable CPU) to 64."""
    return _whole(text, 0, 64, "jobs")


def seed(text: str) -> int:
    return _whole(text, 0, None, "the seed")


def presses(text: str) -> int:
    return _whole(text, 1, 1_000_000, "presses")


def games(text: str) -> int:
    return _whole(text, 1, 1_000_000, "games")


def people(text: str) -> int:
    return _whole(text, 0, 6, "players")


def bot_list(text: str) -> tuple[str, ...]:
    """Bots' strengths, comma-separated: one to six (six seats at most in all)."""
    from ..game.bots import STRENGTHS

    bots = tuple(part.strip() for part in text.split(",")) if text.strip() else ()
    wrong = next((b for b in bots if b not in STRENGTHS), None)
    if wrong is not None or not 1 <= len(bots) <= 6:
        known = ", ".join(STRENGTHS)
        raise argparse.ArgumentTypeError(
            f"bots are 1 to 6 of {known}, comma-separated, got {text[:40]!r}"
        )
    return bots


def target(text: str) -> int:
    from ..game.settings import TARGET

    return _whole(text, *TARGET, "the target")


def _number(text: str, low: float, high: float, what: str) -> float:
    try:
        value = float(text) if len(text) < 40 else math.nan
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # NaN fails every comparison
        raise argparse.ArgumentTypeError(f"{what} is a number {low:g}..{high:g}, got {text[:40]!r}")
    return value


def speed(text: str) -> float:
    """A factor every pause is divided by: 0.01 (a hundred times slower) to 1000."""
    return _number(text, 0.01, 1000, "the speed")


def pace(text: str) -> float:
    """Seconds each frame stays in the terminal: 0 to 10."""
    return _number(text, 0, 10, "the pace")


def language(text: str) -> str:
    from ..ui.catalog import languages

    if text not in languages():
        known = ", ".join(languages())
        raise argparse.ArgumentTypeError(f"no language {shown(text)} (known: {known})")
    return text


def _run_replay(args: argparse.Namespace) -> int:
    from .replay import replay_command

    return replay_command(
        args.file,
        as_json=args.json,
        out=sys.stdout,
        err=sys.stderr,
        jobs=args.jobs,
        lang=args.lang,
    )


def _run_simulate(args: argparse.Namespace) -> int:
    from .simulate import simulate_command

    return simulate_command(args, out=sys.stdout, err=sys.stderr)


def _run_device(args: argparse.Namespace) -> int:
    from .run import run_command

    return run_command(args.config, err=sys.stderr)


def _run_config_show(args: argparse.Namespace) -> int:
    from .config import show_command

    return show_command(
        args.config, args.state_dir, as_json=args.json, out=sys.stdout, err=sys.stderr
    )


def _run_bench(args: argparse.Namespace) -> int:
    from .bench import bench_command, bots_command, progress_on

    if args.bots:
        return bots_command(
            games=args.games or 30,
            seed=args.seed,
            budget_ms=args.budget_ms,
            as_json=args.json,
            out=sys.stdout,
            err=sys.stderr,
            progress=progress_on(sys.stderr, "companion bench --bots"),
        )
    return bench_command(
        games=args.games or 2000,
        decisions=args.decisions,
        seed=args.seed,
        as_json=args.json,
        out=sys.stdout,
        part=args.part,
        presses=args.presses,
        progress=progress_on(sys.stderr) if args.part == "all" else lambda _line: None,
    )


def _add_bot(sub) -> None:
    bot = sub.add_parser(
        "bot",
        help="a bot for a seat, driven over JSON Lines on stdin/stdout",
        description='Answer one JSON line per request line: {"ask": "cards", "game": '
        'RECORD, "seat": S} gets {"cards": [...]}; {"ask": "trade", ..., "plays": '
        '[[...], ...]} gets {"offer": G}; a bad request gets {"error": "..."}. '
        "The protocol is in docs/bot-protocol.md.",
        epilog="End of input ends the bot with exit status 0.",
        examples=(
            "companion bot < requests.jsonl",
            "companion bot --strength strong --budget-ms 200 --seed 3",
        ),
    )
    bot.add_argument(
        "--strength",
        choices=STRENGTHS,
        metavar="STRENGTH",
        default="normal",
        help="%(choices)s (default normal)",
    )
    bot.add_argument("--seed", type=seed, default=0, help="seed of the bot's choices (default 0)")
    bot.add_argument(
        "--budget-ms",
        type=budget,
        default=400,
        metavar="N",
        help="time per decision for the strong bot's search, 1..60000 ms (default 400); "
        "easy and normal answer at once and ignore it",
    )
    bot.set_defaults(run=_run_bot)


def budget(text: str) -> int:
    return _whole(text, 1, 60_000, "the budget")


def _run_bot(args: argparse.Namespace) -> int:
    from .bot import bot_command

    return bot_command(args.strength, args.seed, args.budget_ms, sys.stdin.buffer, sys.stdout)
