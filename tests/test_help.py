"""Every command's --help ends with examples: command lines a user can copy, each one
that the command line itself accepts."""

from __future__ import annotations

import shlex

import pytest

from companion.cli import build_parser, main


def helped(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--help"])
    assert stopped.value.code == 0
    return capsys.readouterr().out


def commands(text: str) -> list[str]:
    """The sub-commands a help lists under ``commands:``."""
    listed, inside = [], False
    for line in text.splitlines():
        if line == "commands:":
            inside = True
        elif inside and not line.strip():
            break
        elif inside and line.startswith("    ") and not line.startswith("     "):
            listed.append(line.split()[0])
    return listed


def every_command(capsys) -> list[tuple[str, ...]]:
    found, todo = [], [()]
    while todo:
        argv = todo.pop()
        found.append(argv)
        todo += [(*argv, name) for name in commands(helped(capsys, *argv))]
    return found


def examples(text: str) -> list[str]:
    _, sep, tail = text.partition("\nexamples:\n")
    assert sep, "no examples: section"
    lines = tail.splitlines()
    assert lines and all(line.startswith("  ") for line in lines)  # the help ends with them
    return [line.strip() for line in lines]


def test_every_command_is_found(capsys):
    found = {" ".join(argv) for argv in every_command(capsys)}
    assert {"simulate", "bench", "bot", "config show", "history stats", "replay"} <= found


def test_every_help_ends_with_examples_that_the_command_line_accepts(capsys):
    for argv in every_command(capsys):
        lines = examples(helped(capsys, *argv))
        assert len(lines) >= 2, argv
        for line in lines:
            assert line.startswith("companion "), (argv, line)
            # Each command of a pipe, without what a redirection adds: the shell's part.
            piped = [shlex.split(part.split(" > ")[0].split(" < ")[0]) for part in line.split("|")]
            assert all(words[0] == "companion" for words in piped), line
            assert any(words[1 : 1 + len(argv)] == list(argv) for words in piped), (argv, line)
            for words in piped:
                build_parser().parse_args(words[1:])  # a usage error exits with status 2
