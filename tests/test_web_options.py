"""Turning the page for phones on: ``[web]`` in the config, ``simulate --web``."""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest
from devices import Driven, MockHardware

from companion.app import config
from companion.cli import main
from companion.cli.run import run_command


def test_the_page_is_off_by_default_on_every_interface_port_8080():
    web = config.defaults().web
    assert (web.enabled, web.address, web.port) == (False, "0.0.0.0", 8080)


def test_web_keys_are_read(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[web]\nenabled = true\naddress = "::1"\nport = 8000\n')
    assert config.load(path).web == config.WebConfig(True, "::1", 8000)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("enabled = 1", "[web] enabled: not true or false"),
        ('address = "pi.local"', "[web] address: not an IP address (0.0.0.0: every interface"),
        ("address = 0", "[web] address: not an IP address in quotes"),
        ("port = 0", "[web] port: not in 1..65535"),
        ('port = "80"', "[web] port: not a port number"),
        ("bind = 1", "[web] bind: "),
    ],
)
def test_a_bad_web_value_is_one_line_naming_file_and_key(tmp_path, text, why):
    path = tmp_path / "c.toml"
    path.write_text(f"[web]\n{text}\n")
    with pytest.raises(config.ConfigError) as e:
        config.load(path)
    message = str(e.value)
    assert message.startswith(f"{path}: {why}") and "\n" not in message


@pytest.mark.parametrize("value", ["8080", "host:", ":80", "host:99999", "host:http"])
def test_a_bad_web_option_is_one_line_and_exit_2(capsys, value):
    code = main(["simulate", "--players", "3", "--fast", "--web", value])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("companion simulate: --web: give HOST:PORT") and err.count("\n") == 1


def test_a_taken_port_is_one_line_and_exit_2(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["simulate", "--players", "3", "--fast", "--web", f"127.0.0.1:{port}"])
    said = capsys.readouterr().err.splitlines()  # why not, last
    assert code == 2
    assert said[-1] == f"companion simulate: --web 127.0.0.1:{port}: Address already in use"


@pytest.mark.slow
def test_simulate_serves_the_page_and_says_where_on_stderr(tmp_path):
    command = [sys.executable, "-m", "companion", "simulate", "--players", "3", "--fast"]
    command += ["--web", "127.0.0.1:0", "--state-dir", str(tmp_path)]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as sim:
        try:
            said = sim.stderr.readline().decode()  # the first line says where
            assert "page for phones" in said, said
            url = said.rsplit(" ", 1)[1].strip()
            assert url.startswith("http://127.0.0.1:") and url.endswith("/")
            with urllib.request.urlopen(url + "api/view", timeout=5) as response:
                view = json.loads(response.read())
            assert view["phase"] == "select" and view["body"]["placed"] == [0, 0, 0]
            with urllib.request.urlopen(url, timeout=5) as response:
                assert b'<script src="/app.js">' in response.read()
        finally:
            sim.stdin.close()  # the typed lines end: the simulator stops
            code = sim.wait(timeout=30)
    assert code == 0


def test_the_page_s_drop_in_lets_in_the_local_network_only():
    systemd = Path(__file__).parent.parent / "systemd"
    unit = (systemd / "companion.service").read_text()
    assert "IPAddressDeny=any" in unit.splitlines()
    assert "IPAddressAllow=" not in unit  # without the drop-in: no network
    drop_in = (systemd / "companion-web.conf").read_text()
    (allow,) = [line for line in drop_in.splitlines() if line.startswith("IPAddressAllow=")]
    assert allow.split("=", 1)[1].split() == [
        "localhost",
        "link-local",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "fc00::/7",
    ]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_companion_run_serves_the_page_when_enabled(tmp_path):
    port = free_port()
    path = tmp_path / "c.toml"
    path.write_text(
        f'[paths]\nstate_dir = "."\n[web]\nenabled = true\naddress = "127.0.0.1"\nport = {port}\n'
    )
    seen = []

    class Asking(Driven):  # an input of the test's: it asks the page, then stops the table
        def start(self, put) -> None:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/view", timeout=5) as r:
                seen.append(json.loads(r.read())["phase"])
            super().start(put)

    machine = replace(MockHardware().machine(), inputs=(Asking(),))
    err = io.StringIO()
    assert run_command(str(path), err=err, machine=machine) == 0
    assert seen == ["join"]
    assert f"companion: the page for phones is at http://127.0.0.1:{port}/\n" in err.getvalue()
    with pytest.raises(OSError):  # closed with the table
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_a_taken_port_is_said_and_the_table_plays_on(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        path = tmp_path / "c.toml"
        path.write_text(f'[web]\nenabled = true\naddress = "127.0.0.1"\nport = {port}\n')
        seen: list = []
        err = io.StringIO()
        assert run_command(str(path), err=err, machine=MockHardware().machine(seen=seen)) == 0
    assert seen  # the table played on
    assert f"companion: [web] 127.0.0.1:{port}: Address already in use; no page" in err.getvalue()
