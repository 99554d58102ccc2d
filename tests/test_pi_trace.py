"""The emulated Pi's pure parts (`make pi-test` runs the rest, docs/pi-test.md): the
display rebuilt from QEMU's I²C trace, the host's wires' line formats, and its shell
scripts. No QEMU here."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PI = REPO / "appliance/pi"
sys.path.insert(0, str(PI))

from channels import Irq, Marker, parse_irq, parse_marker  # noqa: E402
from oled_trace import WIDTH, Ssd1306, Transfers, pages, picture, rebuild  # noqa: E402

from companion.app.simulator import Simulator, simulator_settings  # noqa: E402

# The start of a real run's trace (make pi-test, seed 2): luma's SSD1306 set-up and the
# companion's first frames, up to the seats' screen, as QEMU 10's raspi3b logged them.
JOIN = REPO / "tests/pi/join-screen.trace.gz"


def trace(*transfers: list[int], address: int = 0x3C) -> list[str]:
    """Trace lines, as QEMU's log backend writes them, for write transfers to address."""
    lines = []
    for payload in transfers:
        lines.append(f"i2c_event start(addr:0x{address:02x})")
        lines += [f"i2c_send send(addr:0x{address:02x}) data:0x{b:02x}" for b in payload]
        lines.append(f"i2c_event finish(addr:0x{address:02x})")
    return lines


def join_screen() -> bytes:
    """The simulator's seats' screen, on the emulated Pi's own config."""
    errors: list[str] = []
    settings = simulator_settings(
        PI / "guest/companion.toml", None, board=None, target=None, lang=None, report=errors.append
    )
    assert errors == []
    with Simulator(fast=True, controller="ssd1306", settings=settings) as twin:
        twin.caught_up()
        return pages(twin.panel.image())


def test_a_real_trace_rebuilds_the_simulators_seats_screen_byte_for_byte():
    lines = gzip.decompress(JOIN.read_bytes()).decode().splitlines()
    panel = rebuild(lines)
    assert bytes(panel.mem) == join_screen()
    assert panel.transfers > 1 and panel.mem.count(0) < len(panel.mem)


def test_the_trace_is_followed_in_pieces_cut_anywhere():
    text = gzip.decompress(JOIN.read_bytes()).decode()
    whole = rebuild(text.splitlines())
    panel, parse = Ssd1306(), Transfers()
    for start in range(0, len(text), 997):  # mid-line, as a read of a growing file ends
        for payload in parse.feed(text[start : start + 997]):
            panel.transfer(payload)
    assert panel.mem == whole.mem and panel.transfers == whole.transfers


def test_horizontal_addressing_wraps_inside_the_windows():
    # horizontal mode, columns 126..127, pages 6..7: four bytes fill the window, and the
    # fifth lands on its start again
    lines = trace([0x00, 0x20, 0x00, 0x21, 126, 127, 0x22, 6, 7], [0x40, 1, 2, 3, 4, 5])
    panel = rebuild(lines)
    corner = [panel.mem[page * WIDTH + x] for page in (6, 7) for x in (126, 127)]
    assert corner == [5, 2, 3, 4]
    assert panel.data_bytes == 5 and sum(panel.mem) == 5 + 2 + 3 + 4


def test_page_addressing_stays_on_its_page_and_other_addresses_are_ignored():
    lines = trace([0x00, 0x20, 0x02, 0xB3, 0x02, 0x11], [0x40, 0xAA, 0xBB])
    lines += trace([0x40, 0xFF], address=0x3D)
    mem = rebuild(lines).mem
    assert mem[3 * WIDTH + 0x12 : 3 * WIDTH + 0x14] == bytes([0xAA, 0xBB])
    assert sum(mem) == 0xAA + 0xBB


def test_vertical_addressing_goes_down_the_pages_first():
    lines = trace([0x00, 0x20, 0x01, 0x21, 10, 11, 0x22, 0, 1], [0x40, 1, 2, 3])
    mem = rebuild(lines).mem
    assert (mem[10], mem[WIDTH + 10], mem[11]) == (1, 2, 3)


def test_a_control_byte_with_co_set_takes_one_byte_then_another_control_byte():
    # Co=1: one command (page 5), then a data control byte and its data
    mem = rebuild(trace([0x80, 0xB5, 0x40, 0x7E])).mem
    assert mem[5 * WIDTH] == 0x7E


def test_pages_and_picture_are_each_others_inverse():
    mem = bytes((i * 37) & 0xFF for i in range(WIDTH * 8))
    assert pages(picture(mem)) == mem


def test_markers_and_irqs_are_read_as_the_guest_and_qtest_write_them():
    assert parse_marker("PI> ok id=3 z64=eJw= label=pinctrl-bcm2835", 1.5) == Marker(
        1.5, "ok", {"id": "3", "z64": "eJw=", "label": "pinctrl-bcm2835"}
    )
    assert parse_marker("[   13.3] raspberrypi-exp-gpio: Failed") is None
    assert parse_marker("PI> ") is None
    assert parse_irq(["IRQ", "lower", "7"], 2.0) == Irq(2.0, 7, 0)
    assert parse_irq(["IRQ", "raise", "18"]) == Irq(0.0, 18, 1)
    assert parse_irq(["OK"]) is None


@pytest.mark.slow
def test_its_shell_scripts_are_shellcheck_clean():
    shellcheck = Path(sys.executable).parent / "shellcheck"
    scripts = ("host-tools.sh", "guest/init")
    done = subprocess.run(
        [str(shellcheck), "--severity=style", *scripts],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=PI,
    )
    assert done.returncode == 0, done.stdout
    assert all(os.access(PI / name, os.X_OK) for name in scripts)
