"""install.sh and uninstall.sh: shellcheck-clean; ``--dry-run`` prints the plan and changes
nothing; ``--root DIR`` installs for real into a folder here, and again changes nothing."""

from __future__ import annotations

import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = ("install.sh", "uninstall.sh")
STEPS = 12  # install.sh's numbered steps
SYSTEM_PATHS = (  # what a real install writes, and a dry run must not
    "/opt/santo-domingo",
    "/etc/santo-domingo",
    "/etc/systemd/system/companion.service",
    "/etc/udev/rules.d/99-santo-domingo-hub.rules",
    "/etc/sysusers.d/companion.conf",
)
needs_systemd = pytest.mark.skipif(
    shutil.which("systemctl") is None or shutil.which("systemd-sysusers") is None,
    reason="systemctl and systemd-sysusers are not installed: --root needs them",
)


@pytest.fixture(autouse=True)
def on_raspberry_pi_os(tmp_path_factory, monkeypatch):
    """Every test runs the scripts as on Raspberry Pi OS on a Pi 4 (the files that say so,
    as pi-gen and the device tree write them), unless it says otherwise."""
    here = tmp_path_factory.mktemp("pi")
    (here / "rpi-issue").write_text("Raspberry Pi reference 2024-11-19\n")
    (here / "model").write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    monkeypatch.setenv("INSTALL_RPI_ISSUE", str(here / "rpi-issue"))
    monkeypatch.setenv("INSTALL_MODEL_FILE", str(here / "model"))


def script(
    name: str, *args: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """``name`` run with ``args``, nothing to ask at (no terminal on stdin)."""
    return subprocess.run(
        ["bash", str(REPO / name), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env=None if env is None else {**os.environ, **env},
    )


def at_a_terminal(name: str, *args: str | Path, answers: str) -> subprocess.CompletedProcess:
    """``name`` run with a terminal (a pty) on stdin, ``answers`` typed into it."""
    main, side = pty.openpty()
    try:
        os.write(main, answers.encode())
        return subprocess.run(
            ["bash", str(REPO / name), *map(str, args)],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=side,
        )
    finally:
        os.close(side)
        os.close(main)


def snapshot(root: Path) -> dict[str, bytes | str | None]:
    """Every path under ``root``: a file's bytes, a link's target, None for a folder."""
    found: dict[str, bytes | str | None] = {}
    for path in sorted(root.rglob("*")):
        key = str(path.relative_to(root))
        if path.is_symlink():
            found[key] = os.readlink(path)
        else:
            found[key] = path.read_bytes() if path.is_file() else None
    return found


def exists(paths) -> dict[str, bool]:
    return {p: os.path.lexists(p) for p in paths}


@pytest.mark.slow
@pytest.mark.parametrize("name", SCRIPTS)
def test_shellcheck_is_clean(name):
    shellcheck = Path(sys.executable).parent / "shellcheck"
    done = subprocess.run(  # -x: through the steps both scripts source, as they run
        [str(shellcheck), "-x", "--severity=style", name, "systemd/steps.sh"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stdout
    assert os.access(REPO / name, os.X_OK)  # ./install.sh, as the README says


@pytest.mark.parametrize("name", SCRIPTS)
def test_help_and_a_wrong_option(name):
    done = script(name, "--help")
    assert done.returncode == 0 and done.stdout.startswith(f"Usage: sudo ./{name}")
    done = script(name, "--frobnicate")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"{name}: unknown option '--frobnicate' (see --help)\n"


def test_the_dry_run_prints_the_numbered_plan_and_changes_nothing(tmp_path):
    before = exists(SYSTEM_PATHS)
    done = script("install.sh", "--dry-run")
    assert done.returncode == 0, done.stderr
    numbers = [int(m) for m in re.findall(r"^ ?(\d+)\. ", done.stdout, re.MULTILINE)]
    assert numbers == list(range(1, STEPS + 1))
    for what in ("I2C", "serial console", "python3-lgpio", "venv", "pip install", "'companion'"):
        assert what in done.stdout
    assert "enable --now companion" in done.stdout
    assert done.stdout.endswith("Nothing was changed (dry run).\n")
    assert exists(SYSTEM_PATHS) == before
    root = tmp_path / "root"
    assert script("install.sh", "--dry-run", "--root", root).returncode == 0
    assert not root.exists()  # not even a folder


@needs_systemd
def test_with_the_hub_the_new_config_reads_the_pads_from_it(tmp_path):
    done = script("install.sh", "--dry-run", "--hub")
    assert done.returncode == 0
    assert 'source = "hub"' in done.stdout
    # the ▶ button stays on GPIO 15, the UART's RXD, with or without the hub
    assert "the serial console off (GPIO 15" in done.stdout
    root = tmp_path / "root"
    assert script("install.sh", "--root", root, "--hub").returncode == 0
    config = tomllib.loads(_text(root / "etc/santo-domingo/companion.toml"))
    assert config["pads"]["source"] == "hub"


def test_the_uninstall_dry_run_changes_nothing(tmp_path):
    before = exists(SYSTEM_PATHS)
    done = script("uninstall.sh", "--dry-run", "--purge")
    assert done.returncode == 0 and done.stdout.endswith("Nothing was changed (dry run).\n")
    assert exists(SYSTEM_PATHS) == before


@needs_systemd
def test_install_into_a_root_twice_then_uninstall(tmp_path):
    root = tmp_path / "root"
    first = script("install.sh", "--root", root)
    assert first.returncode == 0, first.stderr
    etc = root / "etc"
    unit = etc / "systemd/system/companion.service"
    assert unit.read_bytes() == (REPO / "systemd/companion.service").read_bytes()
    assert not (etc / "systemd/system/companion.service.d").exists()  # the page is off
    assert (etc / "systemd/system/multi-user.target.wants/companion.service").is_symlink()
    assert _modules(root) == ["cdc_acm", "i2c-dev"]  # the hub's tty, the I2C display's bus
    rule = etc / "udev/rules.d/99-santo-domingo-hub.rules"
    assert rule.read_bytes() == (REPO / "systemd/99-santo-domingo-hub.rules").read_bytes()
    assert re.search(
        r"^companion:x:\d+:\d+:.*:/var/lib/santo-domingo:", _text(etc / "passwd"), re.M
    )
    for group in ("gpio", "i2c", "spi", "dialout"):
        assert re.search(rf"^{group}:x:\d+:companion$", _text(etc / "group"), re.M)
    config = _text(etc / "santo-domingo/companion.toml")
    assert 'state_dir = "/var/lib/santo-domingo"' in config  # the unit's StateDirectory=
    # no terminal to ask at: the example with the recommended display and buzzer
    assert "No terminal to ask at" in first.stdout
    example = tomllib.loads(_text(REPO / "docs/companion.example.toml"))
    example["paths"]["state_dir"] = "/var/lib/santo-domingo"
    example["display"]["controller"], example["sound"]["buzzer"] = "ssd1309", "active"
    assert tomllib.loads(config) == example

    installed = snapshot(root)
    again = script("install.sh", "--root", root)
    assert again.returncode == 0, again.stderr
    assert "running:" not in again.stdout and "Everything was in place already." in again.stdout
    assert snapshot(root) == installed

    state = root / "var/lib/santo-domingo"
    state.mkdir(parents=True)
    (state / "game.json").write_text("{}")
    gone = script("uninstall.sh", "--root", root)
    assert gone.returncode == 0, gone.stderr
    left = snapshot(root)
    assert left["var/lib/santo-domingo/game.json"] == b"{}"  # the saved games stay
    for path in ("companion.service", "multi-user.target.wants/companion.service"):
        assert f"etc/systemd/system/{path}" not in left
    for path in (
        "udev/rules.d/99-santo-domingo-hub.rules",
        "sysusers.d/companion.conf",
        "modules-load.d/santo-domingo.conf",
    ):
        assert f"etc/{path}" not in left
    assert "etc/santo-domingo/companion.toml" in left  # the config stays, as a conffile does
    assert script("uninstall.sh", "--root", root).stdout.endswith("Nothing more to remove.\n")
    assert snapshot(root) == left
    assert script("uninstall.sh", "--purge", "--yes", "--root", root).returncode == 0
    assert not state.exists() and not (etc / "santo-domingo").exists()


@pytest.mark.slow
@needs_systemd
@pytest.mark.parametrize("how", ["--web", "config"])
def test_the_page_s_drop_in_is_installed_when_asked_or_enabled_and_uninstalled(tmp_path, how):
    root = tmp_path / "root"
    drop_in = root / "etc/systemd/system/companion.service.d/web.conf"
    if how == "config":
        mine = root / "etc/santo-domingo/companion.toml"
        mine.parent.mkdir(parents=True)
        mine.write_text('[pads]\nsource = "matrix"\n\n[web]\nenabled = true  # for phones\n')
    done = script("install.sh", "--root", root, *(["--web"] if how == "--web" else []))
    assert done.returncode == 0, done.stderr
    assert drop_in.read_bytes() == (REPO / "systemd/companion-web.conf").read_bytes()
    again = script("install.sh", "--root", root)  # the drop-in stays, untouched
    assert again.returncode == 0 and "running:" not in again.stdout and drop_in.exists()
    gone = script("uninstall.sh", "--root", root)
    assert gone.returncode == 0, gone.stderr
    assert not drop_in.parent.exists()


def test_a_web_table_that_is_off_does_not_count(tmp_path):
    root = tmp_path / "root"
    mine = root / "etc/santo-domingo/companion.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text("[web]\nenabled = false\n\n[other]\nenabled = true\n")
    done = script("install.sh", "--dry-run", "--root", root)
    assert "not needed: the page is off in the config" in done.stdout
    assert "web.conf" in script("install.sh", "--dry-run", "--root", root, "--web").stdout


@needs_systemd
def test_a_makers_config_is_never_overwritten(tmp_path):
    root = tmp_path / "root"
    mine = root / "etc/santo-domingo/companion.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text('[display]\ncontroller = "ssd1309"\n')
    done = script("install.sh", "--root", root)
    assert done.returncode == 0, done.stderr
    assert "a config is never overwritten" in done.stdout
    assert mine.read_text() == '[display]\ncontroller = "ssd1309"\n'


def test_a_real_install_asks_for_root():
    if os.geteuid() == 0:
        # As nobody, where the tests run as root. nobody may not reach the checkout (a
        # clone in /root or in a mktemp -d folder): install.sh runs from a copy of what it
        # reads before it asks, in a folder anyone can read.
        with tempfile.TemporaryDirectory() as folder:
            here = Path(folder)
            for name in ("install.sh", "systemd/steps.sh"):
                (here / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(REPO / name, here / name)
                (here / name).chmod(0o644)  # bash reads it: nobody needs no more
            for path in (here, here / "systemd"):
                path.chmod(0o755)
            done = subprocess.run(
                [
                    "setpriv",
                    "--reuid=nobody",
                    "--regid=nogroup",
                    "--clear-groups",
                    "bash",
                    str(here / "install.sh"),
                ],
                capture_output=True,
                text=True,
                timeout=60,
                cwd=here,
            )
    else:
        done = script("install.sh")
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert "run it as root (sudo ./install.sh)" in done.stderr


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _modules(root: Path) -> list[str]:
    """The drivers install.sh has loaded at every boot (modules-load.d's format)."""
    text = _text(root / "etc/modules-load.d/santo-domingo.conf")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


@needs_systemd
def test_the_devices_drivers_load_at_boot_before_the_service_for_the_displays_bus(tmp_path):
    """systemd resolves the unit's DeviceAllow=char-ttyACM, char-i2c and char-spi from
    /proc/devices as it starts the service: a driver loaded later (cdc_acm when the hub is
    first plugged in) leaves that port refused to the service until it restarts."""
    unit = _text(REPO / "systemd/companion.service")
    for allowed in ("char-ttyACM", "char-i2c", "char-spi"):
        assert f"DeviceAllow={allowed} rw" in unit
    root = tmp_path / "root"
    mine = root / "etc/santo-domingo/companion.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text('[display]\ncontroller = "ssd1322"\ninterface = "spi"\n')
    done = script("install.sh", "--root", root)
    assert done.returncode == 0, done.stderr
    assert _modules(root) == ["cdc_acm", "spidev"]
    assert "writing: cdc_acm spidev" in done.stdout
    mine.write_text('[display]\ncontroller = "ssd1309"\ninterface = "i2c"\n')  # moved to I2C
    again = script("install.sh", "--root", root)
    assert again.returncode == 0 and _modules(root) == ["cdc_acm", "i2c-dev"]
    settled = script("install.sh", "--root", root)
    assert "already in place: " + str(root / "etc/modules-load.d") in settled.stdout
    assert "Everything was in place already." in settled.stdout
    gone = script("uninstall.sh", "--root", root)
    assert gone.returncode == 0, gone.stderr
    assert not (root / "etc/modules-load.d/santo-domingo.conf").exists()


def test_a_step_that_fails_stops_the_install_and_says_which(tmp_path):
    root = tmp_path / "a-file"
    root.write_text("not a folder")
    done = script("install.sh", "--root", root)
    assert done.returncode != 0
    assert done.stderr.endswith(
        "install.sh: step 6 failed; once that is fixed, run it again (safe)\n"
    )
    assert " 7. " not in done.stdout  # nothing after it ran


def test_an_spi_display_leaves_i2c_as_it_is(tmp_path):
    root = tmp_path / "root"
    mine = root / "etc/santo-domingo/companion.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text('[display]\ncontroller = "ssd1322"\ninterface = "spi"\n')
    done = script("install.sh", "--dry-run", "--root", root)
    assert done.returncode == 0, done.stderr
    assert "the config's display is on SPI" in done.stdout and "do_i2c" not in done.stdout
    mine.write_text('[display]\ncontroller = "ssd1309"\n')
    assert (
        "the config's display is on SPI"
        not in script("install.sh", "--dry-run", "--root", root).stdout
    )


# --- the parts a new config names ----------------------------------------------------------


def _config(root: Path) -> dict:
    return tomllib.loads(_text(root / "etc/santo-domingo/companion.toml"))


@needs_systemd
@pytest.mark.parametrize(
    ("args", "controller", "kind", "pin"),
    [
        (["--display", "ssd1306", "--buzzer", "active"], "ssd1306", "active", 18),
        (["--display=ssd1309", "--buzzer=none"], "ssd1309", None, False),
        (["--yes", "--buzzer", "active"], "ssd1309", "active", 18),  # the rest recommended
    ],
)
def test_the_display_and_buzzer_options_go_into_the_new_config(
    tmp_path, args, controller, kind, pin
):
    root = tmp_path / "root"
    done = script("install.sh", "--root", root, *args)
    assert done.returncode == 0, done.stderr
    assert "No terminal to ask at" not in done.stdout
    config = _config(root)
    assert config["display"]["controller"] == controller and config["pins"]["buzzer"] == pin
    if kind is not None:
        assert config["sound"]["buzzer"] == kind


@needs_systemd
def test_no_display_leaves_i2c_alone_and_the_default_driver(tmp_path):
    root = tmp_path / "root"
    done = script("install.sh", "--root", root, "--display", "none", "--yes")
    assert done.returncode == 0, done.stderr
    assert "left as it is: no display" in done.stdout and "no display, " in done.stdout
    example = tomllib.loads(_text(REPO / "docs/companion.example.toml"))
    assert _config(root)["display"] == example["display"]


@needs_systemd
def test_at_a_terminal_it_asks_which_display_and_buzzer(tmp_path):
    root = tmp_path / "root"
    done = at_a_terminal("install.sh", "--root", root, answers="9\n2\npassive\n")
    assert done.returncode == 0, done.stderr
    assert 'Which display is fitted?\n  1) ssd1309: the 2.42" module (recommended)' in done.stderr
    assert "a number from 1 to 3, please" in done.stderr  # the 9
    assert "Which buzzer is fitted?" in done.stderr
    config = _config(root)
    assert config["display"]["controller"] == "ssd1306" and config["sound"]["buzzer"] == "passive"
    # an empty answer is the recommended part
    other = tmp_path / "other"
    assert at_a_terminal("install.sh", "--root", other, answers="\n\n").returncode == 0
    assert _config(other)["display"]["controller"] == "ssd1309"
    assert _config(other)["sound"]["buzzer"] == "active"


def test_a_dry_run_at_a_terminal_asks_nothing_and_says_it_will():
    done = at_a_terminal("install.sh", "--dry-run", answers="")
    assert done.returncode == 0 and "Which display" not in done.stderr
    assert "the display it asks for, the buzzer it asks for" in done.stdout
    flagged = script("install.sh", "--dry-run", "--display", "none", "--buzzer", "none")
    assert "no display, no buzzer (buzzer = false)" in flagged.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--display", "oled"], "install.sh: --display: 'oled' is not one of ssd1309 ssd1306 none"),
        (["--buzzer=loud"], "install.sh: --buzzer: 'loud' is not one of active passive none"),
        (["--buzzer"], "install.sh: --buzzer needs a value (see --help)"),
    ],
)
def test_a_part_that_is_not_offered_is_one_line_and_exit_2(args, said):
    done = script("install.sh", "--dry-run", *args)
    assert done.returncode == 2 and done.stdout == "" and done.stderr == said + "\n"


def test_the_options_never_change_a_config_that_is_there(tmp_path):
    root = tmp_path / "root"
    mine = root / "etc/santo-domingo/companion.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text('[display]\ncontroller = "sh1106"\n')
    done = script("install.sh", "--dry-run", "--root", root, "--display", "ssd1309")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("The config is there already and stays as it is")
    assert mine.read_text() == '[display]\ncontroller = "sh1106"\n'


# --- raspi-config, old and new, and the Pi 5 -----------------------------------------------

RASPI_CONFIG = """#!/bin/bash
# Stands in for Raspberry Pi OS's raspi-config: `nonint NAME ARGS` calls its function NAME.
get_i2c() {{ echo 1; }}
do_i2c() {{ :; }}
get_serial() {{ echo 0; }}
do_serial() {{ :; }}
{since_2023}
case $1 in nonint) shift; "$@"; exit $? ;; esac
"""
SINCE_OCTOBER_2023 = "get_serial_cons() { echo 0; }\ndo_serial_cons() { :; }"


def with_raspi_config(tmp_path: Path, *, since_2023: bool, model: str) -> dict[str, str]:
    """The environment of a Pi whose raspi-config has do_serial_cons (since October
    2023) or not, and whose device tree names it ``model``."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    tool = bin_ / "raspi-config"
    tool.write_text(RASPI_CONFIG.format(since_2023=SINCE_OCTOBER_2023 if since_2023 else ""))
    tool.chmod(0o755)
    (tmp_path / "model").write_bytes(model.encode() + b"\0")  # as the device tree has it
    return {
        "PATH": f"{bin_}:{os.environ['PATH']}",
        "INSTALL_MODEL_FILE": str(tmp_path / "model"),
    }


@pytest.mark.parametrize(
    ("since_2023", "model", "command"),
    [
        (True, "Raspberry Pi 4 Model B Rev 1.5", "raspi-config nonint do_serial_cons 1"),
        (False, "Raspberry Pi Zero 2 W Rev 1.0", "raspi-config nonint do_serial 1"),
        (True, "Raspberry Pi 5 Model B Rev 1.0", None),
        (True, "Raspberry Pi Compute Module 5 Rev 1.0", None),
    ],
    ids=["new-raspi-config", "old-raspi-config", "pi5", "cm5"],
)
def test_the_serial_console_step_on_each_pi(tmp_path, since_2023, model, command):
    env = with_raspi_config(tmp_path, since_2023=since_2023, model=model)
    done = script("install.sh", "--dry-run", env=env)
    assert done.returncode == 0, done.stderr
    step = re.search(r"^ 2\. the serial console.*?\n(.*?)\n 3\. ", done.stdout, re.M | re.S)
    assert step is not None, done.stdout
    if command is None:
        assert step.group(1) == (
            "    left as it is: a Pi 5's serial console is on its debug connector, not GPIO 15"
        )
    else:
        assert step.group(1).endswith(f"would run: {command}")
    assert "would run: raspi-config nonint do_i2c 0" in done.stdout
    assert "command not found" not in done.stderr


# --- uninstall --purge asks ----------------------------------------------------------------


def _installed_state(root: Path) -> Path:
    state = root / "var/lib/santo-domingo"
    state.mkdir(parents=True)
    (state / "history.sqlite").write_text("every game")
    return state


def test_purge_without_a_terminal_needs_yes(tmp_path):
    root = tmp_path / "root"
    state = _installed_state(root)
    done = script("uninstall.sh", "--purge", "--root", root)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("uninstall.sh: --purge deletes the saved games and the history")
    assert done.stderr.endswith("no terminal to ask at, so add --yes to say so\n")
    assert (state / "history.sqlite").exists()
    assert "asked first" in script("uninstall.sh", "--dry-run", "--purge", "--root", root).stdout


@pytest.mark.parametrize(("answer", "kept"), [("\n", True), ("n\n", True), ("y\n", False)])
def test_purge_at_a_terminal_asks_first(tmp_path, answer, kept):
    root = tmp_path / "root"
    state = _installed_state(root)
    done = at_a_terminal("uninstall.sh", "--purge", "--root", root, answers=answer)
    assert "Delete the saved games, the history" in done.stderr
    assert (state / "history.sqlite").exists() == kept
    if kept:
        assert done.returncode == 1
        assert done.stdout == "Nothing was changed. (Without --purge, uninstall.sh keeps them.)\n"
    else:
        assert done.returncode == 0, done.stderr


# --- another system than Raspberry Pi OS, another machine than a Pi, prepared wheels -------


def elsewhere(tmp_path: Path, model: str | None) -> dict[str, str]:
    """The environment of a system that is not Raspberry Pi OS (no /etc/rpi-issue), on a
    Pi whose device tree names it ``model``, or (None) on a machine without one."""
    env = {"INSTALL_RPI_ISSUE": str(tmp_path / "no-rpi-issue")}
    env["INSTALL_MODEL_FILE"] = str(tmp_path / "model")
    if model is not None:
        (tmp_path / "model").write_bytes(model.encode() + b"\0")
    return env


def test_not_raspberry_pi_os_skips_only_its_own_steps(tmp_path):
    done = script("install.sh", "--dry-run", env=elsewhere(tmp_path, "Raspberry Pi 4 Model B"))
    assert done.returncode == 0, done.stderr
    numbers = [int(m) for m in re.findall(r"^ ?(\d+)\. ", done.stdout, re.MULTILINE)]
    assert numbers == list(range(1, STEPS + 1))
    skipped = re.findall(
        r"^    skipped: not Raspberry Pi OS \(no .*no-rpi-issue\)", done.stdout, re.M
    )
    assert len(skipped) == 2 and "raspi-config nonint" not in done.stdout  # I2C, the console
    assert "packages from the OS: python3-venv python3-spidev i2c-tools\n" in done.stdout
    assert "not python3-lgpio: Raspberry Pi OS has it" in done.stdout
    assert re.search(r"would run: .*/pip install .*\(a copy of .*\)\[pi\]$", done.stdout, re.M)
    assert 'pin_factory = "mock"' not in done.stdout  # a Pi: its pins, through lgpio


@needs_systemd
def test_off_a_pi_the_new_config_uses_mock_pins(tmp_path):
    root = tmp_path / "root"
    done = script("install.sh", "--root", root, "--hub", env=elsewhere(tmp_path, None))
    assert done.returncode == 0, done.stderr
    assert 'pin_factory = "mock" (not a Raspberry Pi: no GPIO pins, no buzzer)' in done.stdout
    config = _config(root)
    assert config["gpio"]["pin_factory"] == "mock" and config["pads"]["source"] == "hub"
    # not a Pi: no buzzer to hear (the appliance test's guest has none)
    assert config["pins"]["buzzer"] is False
    assert "[pi]" not in done.stdout  # no lgpio at all: nothing would open it
    on_a_pi = tmp_path / "pi"
    assert script("install.sh", "--root", on_a_pi).returncode == 0
    assert _config(on_a_pi)["gpio"]["pin_factory"] == "auto"


def test_the_wheels_folder_is_pips_only_source(tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    done = script("install.sh", "--dry-run", "--wheels", wheels)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"install.sh: --wheels: '{wheels}' holds no wheels (*.whl)\n"
    (wheels / "gpiozero-2.0.1.post3-py3-none-any.whl").write_bytes(b"")
    done = script("install.sh", "--dry-run", f"--wheels={wheels}")
    assert done.returncode == 0, done.stderr
    assert f"--root-user-action=ignore --no-index --find-links {wheels} (a copy" in done.stdout
    assert script("install.sh", "--wheels").stderr == "install.sh: --wheels needs a folder\n"
