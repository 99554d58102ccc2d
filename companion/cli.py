"""The ``companion`` command. Sub-commands import what they need, so each starts fast."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

PROG = "companion"


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
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


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = argparse.ArgumentParser(
        prog=PROG, description="Santo Domingo Companion: the card game's bookkeeping, exact."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    replay = sub.add_parser(
        "replay",
        help="replay a game record (or JSON Lines of them) and narrate it or print its state",
        description="Replay a game record: one JSON game, or JSON Lines with one game per line.",
    )
    replay.add_argument("file", metavar="FILE", help="the record, or - for standard input")
    replay.add_argument("--json", action="store_true", help="print the state as JSON (design §3.1)")
    replay.add_argument(
        "--jobs",
        type=count,
        default=0,
        metavar="N",
        help="processes for a large JSON Lines batch (default: every usable CPU)",
    )
    replay.set_defaults(run=_run_replay)

    bench = sub.add_parser("bench", help="measure the engine (random legal games per second)")
    bench.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    bench.add_argument("--games", type=int, default=2000, help="games to resolve (default 2000)")
    bench.add_argument("--seed", type=int, default=1, help="seed of the random games")
    bench.set_defaults(run=_run_bench)
    return parser


def count(text: str) -> int:
    """A whole number, 0 or more (argparse turns the ValueError into a usage message)."""
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def _run_replay(args: argparse.Namespace) -> int:
    from .replay import replay_command

    return replay_command(
        args.file, as_json=args.json, out=sys.stdout, err=sys.stderr, jobs=args.jobs
    )


def _run_bench(args: argparse.Namespace) -> int:
    from .bench import bench_command

    return bench_command(games=args.games, seed=args.seed, as_json=args.json, out=sys.stdout)
