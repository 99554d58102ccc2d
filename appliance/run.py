"""make appliance-test: the appliance's life on a real Linux, in QEMU, with no step by hand.

Builds (or takes from its cache, outside the repository) a Debian bookworm system, boots
it, and from the host: installs the companion with install.sh from a copy of this
checkout as the README tells a maker; boots it without the hub and plugs the hub in;
plays a whole game of random seats through the real Pico firmware (MicroPython unix
port) wired to the guest's USB, pulling the hub out and in mid-round; follows it on the
page for phones; hangs the service's loop and kills it; cuts the power at several
moments; plays a second game on a kernel GPIO chip (gpio-sim); uninstalls; and writes
build/appliance/report.json. Every step is bounded in
time and a failure is one line naming it. docs/appliance-test.md says what it proves.

    .venv/bin/python appliance/run.py [--seed N] [--shell]

--shell boots the last run's disk (build/appliance/disk.qcow2) with its console on this
terminal, to log in and look around (maker / maker); Ctrl-A X leaves.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

from vm import REPO, Machine

sys.path.insert(0, str(REPO / "tests"))
import model  # the independent model of the rules
import reference_replay  # its replay

BUILD = REPO / "build/appliance"
HERE = Path(__file__).resolve().parent
STATE = "/var/lib/santo-domingo"
CONFIG = "/etc/santo-domingo/companion.toml"
FIFO = "/run/santo-domingo/pins"  # the test's fingers on the host buttons (sim/wire.py)
DROP_IN = "/etc/systemd/system/companion.service.d/appliance-test.conf"
TARGET = 15  # VP: a whole game in 3 to 12 rounds at random (the rules' 30 takes 6 to 23)
CHECKS = (
    "installed_by_install_sh",
    "service_ready_notify",
    "game_through_hub",
    "hub_plugged_after_boot",
    "hub_replugged_mid_game",
    "keys_through_kernel_gpio",
    "web_page_served",
    "watchdog_restarted_hung_loop",
    "crash_restarted_into_resume",
    "power_cut_resumed_exactly",
    "exposure_at_most_2",
    "journal_without_traceback",
    "uninstalled_clean",
)
# What happens to the service mid-game, in order, each at its first chance: at a round's
# start, after one seat has chosen (mid), or during the round's save.
EVENTS = (
    ("watchdog", "start"),
    ("crash", "mid"),
    ("cut-temp", "save"),
    ("cut", "mid"),
    ("cut-between", "save"),
)


class Failed(Exception):
    """A step's failure: the line said."""


class StepTimeout(Failed):
    pass


def cache_root() -> Path:
    if os.geteuid() == 0:
        return Path("/var/cache/santo-domingo/appliance")
    home = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return home / "santo-domingo/appliance"


def digest(*paths: Path) -> str:
    h = hashlib.sha256()
    for path in paths:
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for f in files:
            if f.is_file():
                h.update(str(f.relative_to(REPO)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def sh(command: list[str], timeout: float, **kwargs: object) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)
    if done.returncode != 0:
        raise Failed(f"{' '.join(command[:3])}… ended with {done.returncode}: {done.stderr[-600:]}")
    return done


class Run:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.times: dict[str, float] = {}
        self.checks = dict.fromkeys(CHECKS, False)
        self.notes: dict[str, object] = {"seed": seed}
        self.record: dict | None = None
        self.final: dict | None = None
        self.machine: Machine | None = None
        self.deliberate: list[tuple[int, int]] = []  # journal time windows (µs) of the faults
        self.started = time.monotonic()

    # --- steps, bounded -------------------------------------------------------------------

    @contextlib.contextmanager
    def step(self, name: str, limit: float) -> Iterator[None]:
        def expired(*_: object) -> None:
            raise StepTimeout(f"not done within {limit:.0f} s")

        print(f"appliance: {name} …", flush=True)
        start = time.monotonic()
        signal.signal(signal.SIGALRM, expired)
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            yield
        except Exception as e:  # any: the step failed, said in one line
            signal.setitimer(signal.ITIMER_REAL, 0)
            self.times[name] = round(time.monotonic() - start, 1)
            where = self.machine.console if self.machine else BUILD
            line = f"appliance: step '{name}' failed: {e or type(e).__name__} (console: {where})"
            self.notes["failed"] = line
            print(line, file=sys.stderr, flush=True)
            raise SystemExit(1) from None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        self.times[name] = round(time.monotonic() - start, 1)
        print(f"appliance: {name}: {self.times[name]} s", flush=True)

    def report(self) -> Path:
        path = BUILD / "report.json"
        self.times["total"] = round(time.monotonic() - self.started, 1)
        path.write_text(
            json.dumps(
                {
                    "arch": "amd64",
                    "times": self.times,
                    "checks": self.checks,
                    "game": {"record": self.record, "final_state": self.final},
                    "notes": self.notes,
                },
                indent=1,
            )
            + "\n"
        )
        return path

    # --- the host's side ------------------------------------------------------------------

    def image(self) -> Path:
        key = digest(HERE / "image.sh", HERE / "guest")
        ready = cache_root() / f"bookworm-amd64-{key}"
        self.notes["image"] = str(ready)
        if (ready / "stamp").exists():
            self.notes["image_cached"] = True
            return ready
        self.notes["image_cached"] = False
        partial = ready.with_name(ready.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        log = BUILD / "image.log"
        with log.open("w") as out:
            done = subprocess.run(
                [str(HERE / "image.sh"), str(partial)], stdout=out, stderr=subprocess.STDOUT
            )
        if done.returncode != 0:
            raise Failed(f"appliance/image.sh ended with {done.returncode} (its log: {log})")
        partial.rename(ready)
        for old in ready.parent.glob("bookworm-amd64-*"):  # the images of older appliance/
            if old != ready:
                shutil.rmtree(old, ignore_errors=True)
        return ready

    def wheels(self) -> Path:
        """Every wheel the install needs, for the guest's Python (bookworm's 3.11 on
        x86-64, as this host's): pip in the guest takes them from there only."""
        project = tomllib.loads((REPO / "pyproject.toml").read_text())
        wants = [*project["build-system"]["requires"], *project["project"]["dependencies"]]
        wants += project["project"]["optional-dependencies"]["pi"]  # lgpio: kernel_gpio
        folder = cache_root() / f"wheels-{hashlib.sha256(repr(wants).encode()).hexdigest()[:16]}"
        if not folder.is_dir():
            partial = folder.with_name(folder.name + ".partial")
            shutil.rmtree(partial, ignore_errors=True)
            sh(
                [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
                 "--only-binary=:all:", "-d", str(partial), *wants],
                timeout=600,
            )  # fmt: skip
            partial.rename(folder)
        return folder

    def carry(self, wheels: Path, image: Path) -> Path:
        """A small disk for the guest: the checkout as a git bundle (git clone takes it as
        the maker's clone address), the wheels, and the test's gpio-sim module built for
        the image's kernel with its wiring (appliance/gpiosim/)."""
        stage = BUILD / "carry"
        shutil.rmtree(stage, ignore_errors=True)
        tree = stage / "tree"
        tree.mkdir(parents=True)
        listed = sh(
            ["git", "-C", str(REPO), "ls-files", "-z", "-c", "-o", "--exclude-standard"], timeout=60
        ).stdout.split("\0")
        for name in filter(None, listed):
            source = REPO / name
            if source.is_file():
                (tree / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, tree / name)
        git = ["git", "-C", str(tree), "-c", "user.name=appliance", "-c", "user.email=a@test"]
        sh([*git, "init", "-q", "-b", "main"], timeout=60)
        sh([*git, "add", "-A"], timeout=120)
        sh([*git, "commit", "-q", "-m", "the checkout under test"], timeout=120)
        disk = stage / "disk"
        disk.mkdir()
        bundle = disk / "santo-domingo.bundle"
        sh([*git, "bundle", "create", "-q", str(bundle), "HEAD", "main"], timeout=120)
        shutil.copytree(wheels, disk / "wheels")
        log = BUILD / "gpiosim.log"
        with log.open("w") as out:
            built = subprocess.run(
                [str(HERE / "gpiosim/build.sh"), str(image)], stdout=subprocess.PIPE,
                stderr=out, text=True, timeout=1200,
            )  # fmt: skip
        if built.returncode != 0:
            raise Failed(f"appliance/gpiosim/build.sh ended with {built.returncode} ({log})")
        (disk / "gpiosim").mkdir()
        shutil.copy(built.stdout.strip().splitlines()[-1], disk / "gpiosim/gpio-sim.ko")
        shutil.copy(HERE / "gpiosim/wiring", disk / "gpiosim/wiring")
        shutil.rmtree(tree)
        image = BUILD / "carry.img"
        image.unlink(missing_ok=True)
        sh(["mkfs.ext4", "-q", "-F", "-L", "carry", "-d", str(disk), str(image), "256M"], 120)
        return image

    # --- the guest's side -----------------------------------------------------------------

    @property
    def vm(self) -> Machine:
        assert self.machine is not None
        return self.machine

    def guest(self, shell: str, timeout: float = 60, check: bool = True) -> str:
        return self.vm.agent.run(shell, timeout=timeout, check=check).out

    def as_maker(self, shell: str, timeout: float) -> str:
        """A command typed by the maker in their home folder (sudo needs no password)."""
        quoted = shell.replace("'", "'\"'\"'")
        return self.guest(f"su - maker -c '{quoted}'", timeout=timeout)

    def service(self) -> dict[str, str]:
        out = self.guest(
            "systemctl show companion -p ActiveState -p SubState -p MainPID -p NRestarts"
            " -p Type -p NotifyAccess -p WatchdogUSec -p StatusText -p Result"
        )
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def until_active(self, timeout: float, after: dict[str, str] | None = None) -> dict[str, str]:
        """Waits until systemd says the service is active and running (for Type=notify:
        READY=1 was received), restarted since ``after`` if given."""
        deadline = time.monotonic() + timeout
        while True:
            now = self.service()
            fresh = after is None or (
                now.get("MainPID") != after.get("MainPID")
                and int(now.get("NRestarts", 0)) > int(after.get("NRestarts", 0))
            )
            if now.get("ActiveState") == "active" and now.get("SubState") == "running" and fresh:
                return now
            if time.monotonic() > deadline:
                raise Failed(f"the service is not active and running again: {now}")
            time.sleep(1)

    def journal_now(self) -> int:
        return int(self.guest("date +%s%6N").strip())

    def saved(self) -> dict:
        return json.loads(self.guest(f"cat {STATE}/game.json"))

    # --- the page ---------------------------------------------------------------------------

    def view(self) -> dict:
        url = f"http://127.0.0.1:{self.vm.web_port}/api/view"
        with urllib.request.urlopen(url, timeout=10) as answer:
            return json.load(answer)

    def wait_view(
        self,
        what: str,
        test: Callable[[dict], bool],
        timeout: float = 60,
        unless: Callable[[], bool] | None = None,
    ) -> dict:
        """The page's view once ``test`` holds for it; ``{}`` if the page does not answer
        and ``unless`` says why (the service frozen on purpose, say)."""
        deadline = time.monotonic() + timeout
        last: object = None
        while True:
            try:
                last = self.view()
                if test(last):
                    return last
            except (urllib.error.URLError, OSError, json.JSONDecodeError) as e:
                last = e
                if unless is not None and unless():
                    return {}
            if time.monotonic() > deadline:
                raise Failed(f"the page never showed {what} within {timeout:.0f} s; last: {last}")
            time.sleep(0.2)

    # --- the host buttons (the test's fingers) and the pads (the firmware's keys) -----------

    def button(self, name: str) -> None:
        pin = BUTTONS[name]
        self.guest(f"/usr/local/sbin/press-button {FIFO} {pin}", timeout=300)


def kind(name: str, **fields: object) -> Callable[[dict], bool]:
    def test(view: dict) -> bool:
        body = view["body"]
        return body.get("kind") == name and all(body.get(k) == v for k, v in fields.items())

    return test


BUTTONS = {
    name: pin
    for name, pin in tomllib.loads((REPO / "docs/companion.example.toml").read_text())["pins"][
        "buttons"
    ].items()
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="the game's and the cuts' seed")
    parser.add_argument("--shell", action="store_true", help="boot the last disk, to look around")
    args = parser.parse_args()
    BUILD.mkdir(parents=True, exist_ok=True)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    run = Run(seed)
    if args.shell:
        return shell(run)
    from life import life  # the steps, after the helpers they use

    for pattern in ("console-*.log", "qemu-*.log", "firmware-*.log", "*.txt", "mirror.log"):
        for old in BUILD.glob(pattern):  # an earlier run's: this run's logs only
            old.unlink()

    try:
        life(run)
    finally:
        if run.machine is not None:
            if "failed" in run.notes:
                keep_evidence(run)
            with contextlib.suppress(Exception):
                run.machine.cut()
        path = run.report()
        print(f"appliance: report {path}", flush=True)
    bad = [name for name, ok in run.checks.items() if not ok]
    if bad:
        print(f"appliance: checks failed: {', '.join(bad)}", file=sys.stderr)
    # the plain closing line CI reads, as a test runner's
    print(f"appliance: {len(run.checks) - len(bad)} passed, {len(bad)} failed", flush=True)
    return 1 if bad else 0


def keep_evidence(run: Run) -> None:
    """After a failure, what the guest says of the service, beside the console logs."""
    commands = (
        "systemctl status companion --no-pager",
        "journalctl -u companion -b --no-pager -n 200",
        "journalctl -b -p warning --no-pager -n 100",
    )
    said = []
    for command in commands:
        try:
            said.append(f"$ {command}\n{run.guest(command, timeout=60, check=False)}")
        except Exception as e:  # the guest may be the thing that failed
            said.append(f"$ {command}\n(no answer: {e})")
    (BUILD / "failure.txt").write_text("\n".join(said))


def shell(run: Run) -> int:
    """The installed appliance of the last run, booted with its console on this terminal
    and the hub's firmware on its USB; the kept disk stays as the run left it."""
    kept = BUILD / "installed.qcow2"
    report = BUILD / "report.json"
    image = Path(json.loads(report.read_text())["notes"]["image"]) if report.exists() else None
    if not kept.exists() or image is None or not (image / "disk.img").exists():
        print(
            "appliance: no installed disk of a run: run make appliance-test first", file=sys.stderr
        )
        return 2
    disk = BUILD / "shell.qcow2"
    disk.unlink(missing_ok=True)
    subprocess.run(
        ["qemu-img", "create", "-q", "-f", "qcow2", "-F", "qcow2", "-b", str(kept), str(disk)],
        check=True, timeout=60,
    )  # fmt: skip
    port = free_port()
    print(f"appliance: log in as maker (password maker); the page: http://127.0.0.1:{port}/;"
          " Ctrl-A X ends it", flush=True)  # fmt: skip
    machine = Machine(image, disk, BUILD / "carry.img", BUILD / "shell", port)
    machine.logs.mkdir(exist_ok=True)
    machine.start("mon:stdio", timeout=60)
    assert machine.qemu is not None
    status = machine.qemu.wait()
    machine.cut()
    return status


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def seats_text(plays: list[list[int]]) -> str:
    return " ".join(f"P{i + 1}:{','.join(map(str, p))}" for i, p in enumerate(plays))


def state_of(record: dict) -> dict:
    """The independent model's state after ``record``'s rounds (tests/model.py)."""
    return reference_replay.replay(record)


def supplied(record: dict) -> dict:
    """The rows once the next round's supply phase has moved them, by the model."""
    rows, step = state_of(record)["rows"], model.SUPPLY[record["players"]]
    return {row: min(15, n + step) for row, n in rows.items()}  # a row holds 15 at most


def strip_history(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in ("history",)}


__all__ = [
    "EVENTS",
    "Failed",
    "Run",
    "kind",
    "re",
    "seats_text",
    "state_of",
    "strip_history",
    "supplied",
]

if __name__ == "__main__":
    sys.exit(main())
