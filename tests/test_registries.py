"""One registry per extension point, read by the command line, the config and the docs:
a name added to a registry is offered everywhere, and a doc that forgets one fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import config
from companion.app.inputs import PADS
from companion.cli import main
from companion.game.bots import STRENGTHS
from companion.hw.display import DRIVERS
from companion.hw.panels import PANELS, SPI_ONLY
from companion.ui.catalog import languages

DOCS = Path(__file__).parent.parent / "docs"
README = Path(__file__).parent.parent / "README.md"


def refused(capsys, *argv: str) -> str:
    """What the command line offers when ``argv`` gives it a value it does not know."""
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == 2
    return capsys.readouterr().err


def test_the_panels_are_the_registrys_everywhere(capsys):
    assert set(DRIVERS) == set(PANELS) and tuple(PANELS) == config.CONTROLLERS
    assert config.SPI_ONLY == SPI_ONLY == ("ssd1322",)
    offered = refused(capsys, "simulate", "--display", "oled9000")
    text = (DOCS / "config.md").read_text("utf-8")
    for name in PANELS:
        assert repr(name) in offered and f'"{name}"' in text


def test_the_pad_sources_are_the_registrys_everywhere(capsys):
    assert tuple(PADS) == config.PAD_SOURCES
    offered = refused(capsys, "simulate", "--pads", "usb")
    text = (DOCS / "config.md").read_text("utf-8")
    for name in PADS:
        assert repr(name) in offered and f'"{name}"' in text


def test_the_bot_strengths_are_the_registrys_everywhere(capsys):
    offered = refused(capsys, "bot", "--strength", "expert")
    protocol, readme = (DOCS / "bot-protocol.md").read_text("utf-8"), README.read_text("utf-8")
    for name in STRENGTHS:
        assert repr(name) in offered and name in protocol and name in readme


def test_the_languages_are_the_catalogs_everywhere(capsys):
    offered = refused(capsys, "simulate", "--lang", "xx")
    assert offered.count("\n") == 1 and "no language 'xx'" in offered
    text = (DOCS / "config.md").read_text("utf-8")
    for code in languages():
        assert code in offered and f'"{code}"' in text


@pytest.mark.parametrize("command", ["simulate", "replay"])
def test_lang_help_lists_the_catalogs_languages(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    helped = " ".join(capsys.readouterr().out.split())  # the help's lines joined again
    *most, last = languages()
    assert f"{', '.join(most)} or {last}" in helped.split("--lang LANG", 1)[1]


def test_building_the_command_line_loads_no_registry():
    """Every command starts fast: the registries' names are read when a value is checked
    or the help printed, never to build the parser."""
    import subprocess
    import sys

    code = (
        "import sys, companion.cli as cli; cli.build_parser(); "
        "print(' '.join(m for m in sys.modules if m.startswith('companion')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    heavy = ("companion.table", "companion.game", "companion.app", "companion.rules")
    heavy += ("companion.ui",)  # the languages: read from the catalogs when needed
    assert [m for m in loaded if m.startswith(heavy)] == []
