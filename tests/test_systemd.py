"""The units in systemd/: ``systemd-analyze verify`` is clean and ``security --offline``
rates each 2.0 or lower; the system user, its groups and the udev rule agree with them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parent.parent / "systemd"
UNITS = sorted(SYSTEMD.glob("*.service"))
EXEC = "/opt/santo-domingo/venv/bin/companion"  # where install.sh puts the program
needs_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed: the units are checked where the tool exists",
)


def settings(unit: Path, key: str) -> list[str]:
    return re.findall(rf"^{key}=(.*)$", unit.read_text(encoding="utf-8"), re.MULTILINE)


def test_there_is_the_companion_unit():
    assert [u.name for u in UNITS] == ["companion.service"]
    assert settings(UNITS[0], "ExecStart") == [f"/usr/bin/env {EXEC} run"]


@needs_analyze
@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_verify_is_clean(unit):
    # the unit as it is in the repository: env is there on every machine, the program
    # only once installed
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if unit.name in line]
    assert said == []  # no unknown key, no bad value, nothing ignored


@needs_analyze
@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_security_rates_it_2_0_or_lower(unit):
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    level = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert level is not None, done.stdout + done.stderr
    assert float(level.group(1)) <= 2.0, done.stdout


def test_the_user_and_its_groups_are_the_units():
    unit = SYSTEMD / "companion.service"
    users = (SYSTEMD / "companion.sysusers").read_text(encoding="utf-8")
    assert settings(unit, "User") == ["companion"]
    assert re.search(r"^u companion - .* /var/lib/santo-domingo$", users, re.MULTILINE)
    groups = re.findall(r"^m companion (\S+)$", users, re.MULTILINE)
    assert settings(unit, "SupplementaryGroups") == [" ".join(groups)]
    assert settings(unit, "StateDirectory") == ["santo-domingo"]  # the user's home


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="no systemd-sysusers here")
def test_sysusers_reads_the_file(tmp_path):
    done = subprocess.run(
        [
            "systemd-sysusers",
            "--dry-run",
            f"--root={tmp_path}",
            str(SYSTEMD / "companion.sysusers"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Creating user 'companion' (Santo Domingo Companion)" in done.stderr
    assert not list(tmp_path.iterdir())  # a dry run


def test_the_hub_rule_names_the_pico_and_the_group_the_user_is_in():
    rule = [
        line
        for line in (SYSTEMD / "99-santo-domingo-hub.rules").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert len(rule) == 1
    pairs = re.findall(r'([A-Z_]+(?:\{[a-zA-Z_]+\})?)(==|\+=|=)"([^"]*)"', rule[0])
    assert ", ".join(f'{k}{op}"{v}"' for k, op, v in pairs) == rule[0]  # nothing else on it
    keys = {(k, op): v for k, op, v in pairs}
    assert keys[("ATTRS{idVendor}", "==")] == "2e8a" and keys[("ATTRS{idProduct}", "==")] == "0005"
    assert keys[("SYMLINK", "+=")] == "santo-domingo-hub"  # /dev/santo-domingo-hub
    assert keys[("GROUP", "=")] in settings(SYSTEMD / "companion.service", "SupplementaryGroups")[0]


def test_the_unit_has_no_network_and_the_web_drop_in_lets_the_lan_in():
    unit = SYSTEMD / "companion.service"
    drop_in = SYSTEMD / "companion-web.conf"
    assert settings(unit, "IPAddressDeny") == ["any"]
    assert settings(unit, "IPAddressAllow") == []  # the page off: no network at all
    allowed = settings(drop_in, "IPAddressAllow")
    assert allowed == ["localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7"]


@needs_analyze
def test_the_web_drop_in_verifies_clean_beside_the_unit(tmp_path):
    (tmp_path / "companion.service.d").mkdir()
    shutil.copy(SYSTEMD / "companion.service", tmp_path)
    shutil.copy(SYSTEMD / "companion-web.conf", tmp_path / "companion.service.d/web.conf")
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(tmp_path / "companion.service")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if "companion" in line] == []


def test_the_restart_policy_follows_the_exit_statuses():
    """A config mistake (2) is not retried; a crash (1) and missing hardware (3) are, the
    latter after a hold-off that ends before systemd's start timeout."""
    from companion.cli import run

    unit = SYSTEMD / "companion.service"
    assert settings(unit, "Restart") == ["on-failure"]
    assert settings(unit, "RestartPreventExitStatus") == [str(run.EXIT_BAD_INPUT)]
    assert run.EXIT_NO_HARDWARE not in (0, run.EXIT_BAD_INPUT)
    assert run.EXIT_CRASHED not in (0, run.EXIT_BAD_INPUT)
    (timeout,) = settings(unit, "TimeoutStartSec")
    (restart,) = settings(unit, "RestartSec")
    assert int(timeout.removesuffix("s")) >= run.HOLD_OFF + 30  # 30 s left to start up
    # a start limit of 5 in 10 s (systemd's default) is never reached by hold-offs
    assert 5 * (run.HOLD_OFF + int(restart.removesuffix("s"))) > 10
    assert settings(unit, "StartLimitBurst") == settings(unit, "StartLimitIntervalSec") == []


def test_the_service_hands_its_process_what_tells_it_is_the_service():
    """``pinfactory.SERVICE`` (lgpio alone, the hold-off) is set by Type=notify."""
    from companion.hw.pinfactory import SERVICE

    assert SERVICE == "NOTIFY_SOCKET"
    assert settings(SYSTEMD / "companion.service", "Type") == ["notify"]
