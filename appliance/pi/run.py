"""make pi-test: the companion on an emulated Raspberry Pi 3 B, watched from outside.

Debian's arm64 kernel on QEMU 10's ``raspi3b`` (a Cortex-A53, as in the Zero 2 W) boots an
initramfs holding the project and its aarch64 wheels (image.py); its /init runs
``companion run`` with its real config (guest/companion.toml). The host plays a whole game
of random seats through the real pad hub firmware (MicroPython, on the host) on QEMU's
USB serial port, presses OK through the GPIO block's levels, rebuilds every frame from
the I²C trace and compares it with the simulator's, watches the output pins, and writes
build/pi/report.json. docs/pi-test.md says what it proves and what it cannot.

    .venv/bin/python appliance/pi/run.py [--seed N]
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import itertools
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO / "appliance"), str(REPO / "tests")]
import reference_replay  # noqa: E402  the independent model's replay (tests/model.py)
from channels import GPIO, Console, Qmp, Qtest, connect  # noqa: E402
from game import STATE, Failed, Game  # noqa: E402
from hubwire import start_firmware  # noqa: E402  (appliance/: the amd64 test's relay)
from oled_trace import Follower  # noqa: E402

from companion.app.simulator import Simulator, simulator_settings  # noqa: E402

BUILD = REPO / "build/pi"
CONFIG = HERE / "guest/companion.toml"
CHECKS = (
    "chip_found_by_label",
    "outputs_seen_by_host",
    "display_frames_equal_simulator",
    "game_exact_on_arm64",
)
LABEL = "pinctrl-bcm2835"
RESET, BUZZER, OK = 7, 18, 21  # the pin map's display reset, buzzer and OK (BCM)
BUTTONS = (15, 20, 21)  # ▶ ◀ OK: pulled up on a Pi, so high until pressed
HOLD = 0.15  # seconds a finger holds OK down (held for 1 s it would open the menu)


def pins() -> dict[str, Any]:
    import tomllib

    return tomllib.loads((REPO / "companion/data/pins.toml").read_text())


class Pi:
    """QEMU's raspi3b and every wire to it: the console (markers, the agent), QMP, qtest
    on the GPIO block, the I²C trace, and the pad hub's firmware on its USB serial port."""

    def __init__(self, qemu: Path, image: dict[str, str], logs: Path) -> None:
        self.logs = logs
        self.sockets = Path(tempfile.mkdtemp(prefix="pi-test-"))  # short: unix socket paths
        trace = logs / "trace.log"
        trace.unlink(missing_ok=True)
        command = [
            str(qemu / "usr/bin/qemu-system-aarch64"), "-L", str(qemu / "usr/share/qemu"),
            "-M", "raspi3b", "-accel", "tcg", "-S", "-display", "none", "-monitor", "none",
            "-kernel", image["kernel"], "-dtb", image["dtb"], "-initrd", image["initrd"],
            "-append", "console=ttyAMA0,115200 rdinit=/init loglevel=4",
            "-chardev", f"socket,id=con,path={self.sockets}/console.sock,server=on,wait=off",
            "-serial", "chardev:con",
            "-qmp", f"unix:{self.sockets}/qmp.sock,server=on,wait=off",
            "-qtest", f"unix:{self.sockets}/qtest.sock,server=on,wait=off",
            "-device", "ssd0303,bus=i2c-bus.1,address=0x3c",
            "-trace", "i2c_*", "-D", str(trace),
            "-chardev", f"socket,id=hub,path={self.sockets}/hub.sock,server=on,wait=off",
            "-device", "usb-serial,id=hub,chardev=hub,always-plugged=on",
        ]  # fmt: skip
        (logs / "qemu.cmd").write_text(" ".join(command) + "\n")
        env = dict(os.environ, QEMU_MODULE_DIR=str(qemu / "usr/lib/x86_64-linux-gnu/qemu"))
        with open(logs / "qemu.log", "wb") as err:
            self.qemu = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stderr=err)
        self.firmware: subprocess.Popen[bytes] | None = None
        self.pressed_at: list[float] = []
        self.held: list[float] = []  # OK's press read to its release read, host seconds
        try:
            self._connect(trace)
        except BaseException:
            self.qemu.kill()
            self.qemu.wait(30)
            raise

    def _connect(self, trace: Path) -> None:
        """Every wire, once QEMU listens (it is paused: nothing runs before ``cont``)."""
        self._console_log = open(self.logs / "console.log", "w")  # noqa: SIM115
        self._wait_socket("qmp.sock")
        self.qmp = Qmp(self.sockets / "qmp.sock")
        self.console = Console(
            connect(self.sockets / "console.sock"), self._console_log, self.alive
        )
        self.qtest = Qtest(connect(self.sockets / "qtest.sock"))
        self.console.start()
        self.qtest.start()
        self.qtest.cmd(f"irq_intercept_out {GPIO}")
        for pin in BUTTONS:  # the buttons' pull-ups, before the guest runs
            self.qtest.level(pin, high=True)
        self._start_hub()
        if not trace.exists():  # QEMU opens its log before it listens
            raise Failed(f"QEMU made no trace log ({trace})")
        self.trace = Follower(trace, self.alive, self.console.t0)
        self.trace.start()

    def _wait_socket(self, name: str) -> None:
        path = self.sockets / name
        deadline = time.monotonic() + 60
        while not path.exists():
            if not self.alive():
                raise Failed(f"QEMU ended with {self.qemu.returncode} (qemu.log)")
            if time.monotonic() > deadline:
                raise Failed(f"QEMU made no {name} within 60 s")
            time.sleep(0.05)

    def _start_hub(self) -> None:
        """The firmware's serial port is QEMU's usb-serial socket, relayed by ``HubWire``
        (which counts the keys the hub reports); its keys are a pipe of ours."""
        hub = connect(self.sockets / "hub.sock")
        with open(self.logs / "firmware.log", "wb") as log:
            self.firmware, self.hub, self._keys = start_firmware(hub, log)

    def alive(self) -> bool:
        return self.qemu.poll() is None

    def cont(self) -> None:
        self.console.t0 = self.qtest.t0 = time.monotonic()
        self.trace.t0 = self.console.t0
        self.qmp.cmd("cont")

    # --- what the game needs (game.Table) ---------------------------------------------------

    def key(self, seat: int, card: int, down: bool) -> None:
        """A pad's key down or up at the firmware's matrix; up returns once the hub has
        reported it (a press and a release in one of its scans would cancel out)."""
        ups = self.hub.ups[(seat, card)]
        os.write(self._keys, f"{'press' if down else 'release'} {seat} {card}\n".encode())
        if not down:
            self.hub.wait_up((seat, card), ups, 120)

    def ok(self) -> None:
        """OK pressed and let go: each level set from outside, then ``edge 21`` in the
        companion's FIFO (QEMU's GPIO block raises no edge interrupt), answered once the
        companion has done the line: the level read through the kernel, the edge handed
        on. The release
        is taken by the screen that follows (OK acts when it comes up); the press to the
        release must stay under the table's long press (1 s of its clock: the menu), so no
        more is waited for in between than the press's read and a finger's hold."""
        for high in (False, True):
            self.qtest.level(OK, high)
            self.console.command("edge", str(OK))
            if not high:
                self.pressed_at.append(time.monotonic())
                time.sleep(HOLD)  # a finger's press, not a wait for anything
        self.held.append(round(time.monotonic() - self.pressed_at[-1], 2))

    def frame(self, test: Callable[[bytes], bool], limit: float) -> bytes | None:
        return self.trace.wait(test, limit)

    def saved(self, rounds: int) -> dict[str, Any]:
        answer = self.console.command("file", STATE, str(rounds))
        return json.loads(zlib.decompress(base64.b64decode(answer["z64"])))  # type: ignore[no-any-return]

    # --- the end ------------------------------------------------------------------------------

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.qmp.cmd("quit")
        try:
            self.qemu.wait(30)
        except subprocess.TimeoutExpired:
            self.qemu.kill()
            self.qemu.wait(30)
        with contextlib.suppress(Exception):
            self.trace.stop()
        with contextlib.suppress(Exception):
            self.hub.close()
        with contextlib.suppress(OSError):
            os.close(self._keys)
        if self.firmware is not None:
            try:
                self.firmware.wait(10)
            except subprocess.TimeoutExpired:
                self.firmware.kill()
                self.firmware.wait(10)
        self._console_log.close()
        shutil.rmtree(self.sockets, ignore_errors=True)


class Run:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.times: dict[str, float] = {}
        self.checks = dict.fromkeys(CHECKS, False)
        self.notes: dict[str, Any] = {"seed": seed}
        self.record: dict[str, Any] | None = None
        self.final: dict[str, Any] | None = None
        self.started = time.monotonic()

    @contextlib.contextmanager
    def step(self, name: str, limit: float) -> Iterator[None]:
        """A step bounded by ``limit`` seconds; its failure is one line, and exit 1."""

        def expired(*_: object) -> None:
            raise Failed(f"not done within {limit:.0f} s")

        print(f"pi: {name} …", flush=True)
        start = time.monotonic()
        signal.signal(signal.SIGALRM, expired)
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            yield
        except Exception as e:  # any: the step failed, said in one line
            signal.setitimer(signal.ITIMER_REAL, 0)
            self.times[name] = round(time.monotonic() - start, 1)
            line = f"pi: step '{name}' failed: {e or type(e).__name__} (logs: {BUILD})"
            self.notes["failed"] = line
            print(line, file=sys.stderr, flush=True)
            raise SystemExit(1) from None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        self.times[name] = round(time.monotonic() - start, 1)
        print(f"pi: {name}: {self.times[name]} s", flush=True)

    def report(self) -> Path:
        path = BUILD / "report.json"
        self.times["total"] = round(time.monotonic() - self.started, 1)
        doc = {
            "arch": "arm64",
            "times": self.times,
            "checks": self.checks,
            "game": {"record": self.record, "final_state": self.final},
            "notes": self.notes,
        }
        path.write_text(json.dumps(doc, indent=1) + "\n")
        return path


def host_tools() -> Path:
    done = subprocess.run([str(HERE / "host-tools.sh")], capture_output=True, text=True)
    if done.returncode != 0:
        raise Failed(f"host-tools.sh ended with {done.returncode}: {done.stderr[-400:]}")
    return Path(done.stdout.strip().splitlines()[-1])


def image(run: Run) -> dict[str, str]:
    with open(BUILD / "image.log", "w") as log:
        done = subprocess.run(
            [sys.executable, str(HERE / "image.py")], stdout=subprocess.PIPE, stderr=log, text=True
        )
    if done.returncode != 0:
        raise Failed(f"image.py ended with {done.returncode} (its log: {BUILD}/image.log)")
    said = (BUILD / "image.log").read_text()
    run.notes["image_built"] = [line for line in said.splitlines() if "built" in line]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def twin() -> Simulator:
    """The simulator on the guest's own config (its display, target, pins), no pauses."""
    errors: list[str] = []
    settings = simulator_settings(CONFIG, None, board=None, target=None, lang=None,
                                  report=errors.append)  # fmt: skip
    if errors:
        raise Failed(f"the guest's config, read on the host: {errors}")
    return Simulator(fast=True, controller="ssd1306", settings=settings)


def outputs(run: Run, pi: Pi) -> None:
    """The display's reset pulse (low, then high) before its first I²C transfer, and the
    buzzer's edges; the pad rows, idle with the pads on the hub."""
    reset = [(round(c.t, 2), c.level) for c in pi.qtest.changes(RESET)]
    first = pi.trace.first_transfer
    before = [level for t, level in reset if first is not None and t <= first]
    pulse = any(a == 0 and b == 1 for a, b in itertools.pairwise(before))
    buzzer = [c.level for c in pi.qtest.changes(BUZZER)]
    rows = {pin: len(pi.qtest.changes(pin)) for pin in pins()["rows"]}
    run.notes["outputs"] = {
        "display_reset_gpio7": reset,
        "first_i2c_transfer_at": first,
        "buzzer_gpio18_edges": len(buzzer),
        "buzzer_on": buzzer.count(1),
        "row_pin_changes": rows,
        "rows": "not driven: the pads come through the hub, so the matrix is not opened",
    }
    run.checks["outputs_seen_by_host"] = pulse and 1 in buzzer and 0 in buzzer


def chip(run: Run, pi: Pi) -> None:
    held = pi.console.command("chip")
    said = "\n".join(pi.console.companion)
    run.notes["chip"] = held
    run.notes["companion_log"] = pi.console.companion[:20]
    run.checks["chip_found_by_label"] = (
        held.get("label") == LABEL and "Traceback" not in said and "companion run:" not in said
    )
    if not run.checks["chip_found_by_label"]:
        raise Failed(f"the companion holds {held}; its log: {said[-300:]}")


def final(run: Run, pi: Pi, game: Game) -> None:
    record = pi.saved(len(game.rounds))
    replayed = subprocess.run(
        [str(REPO / ".venv/bin/companion"), "replay", "--json", "-"],
        input=json.dumps(record), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    if replayed.returncode != 0:
        raise Failed(f"companion replay: {replayed.stderr.strip()}")
    run.record, run.final = record, json.loads(replayed.stdout)
    model_state = reference_replay.replay({k: v for k, v in record.items() if k != "history"})
    plays = [[sorted(p) for p in r["plays"]] for r in record["rounds"]]
    run.notes["rounds"] = len(record["rounds"])
    run.checks["game_exact_on_arm64"] = (
        run.final == model_state and run.final["finished"] and plays == game.pressed
    )
    if not run.checks["game_exact_on_arm64"]:
        raise Failed("the guest's game is not the model's, or not the plays pressed")


def play(run: Run) -> None:
    with run.step("host tools", 900):
        qemu = host_tools()
    with run.step("image", 900):
        built = image(run)
    with run.step("boot", 600):
        pi = Pi(qemu, built, BUILD)
        run.notes["qemu"] = pi.qmp.version()
        try:
            pi.cont()
            started = pi.console.wait("companion-started", 540)
            pi.console.wait("agent-ready", 300)
            run.notes["guest"] = pi.console.command("uname")
            run.notes["boot"] = {"companion_started_at": round(started.t, 1)}
        except BaseException:
            pi.close()
            raise
    try:
        seats = run.rng.randint(2, 6)
        run.notes["seats"] = seats
        with run.step("twin", 60):
            sim = twin()
        game = Game(pi, sim, run.rng, reference_replay.replay, BUILD)
        with run.step("first frame", 600):
            game.expect("the seats' screen")
        with run.step("chip", 120):
            chip(run, pi)
        with run.step("game", 3000):
            try:
                game.play(seats)
            finally:
                run.notes["moments_compared"] = game.moments
                run.notes["ok_presses_held_s"] = pi.held
                run.notes["frames_seen"] = len(pi.trace.frames)
                run.notes["i2c"] = {
                    "transfers": pi.trace.panel.transfers,
                    "commands": pi.trace.panel.commands,
                    "data_bytes": pi.trace.panel.data_bytes,
                }
        run.checks["display_frames_equal_simulator"] = game.moments > 0
        with run.step("outputs", 30):
            outputs(run, pi)
        with run.step("final state", 180):
            final(run, pi, game)
    finally:
        with contextlib.suppress(NameError):
            sim.close()
        pi.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="the seats' and cards' seed")
    args = parser.parse_args()
    BUILD.mkdir(parents=True, exist_ok=True)
    for old in BUILD.glob("mismatch-*.png"):
        old.unlink()
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    run = Run(seed)
    print(f"pi: seed {seed}", flush=True)
    try:
        play(run)
    finally:
        print(f"pi: report {run.report()}", flush=True)
        bad = [name for name, ok in run.checks.items() if not ok]
        if bad:
            print(f"pi: checks failed: {', '.join(bad)}", file=sys.stderr)
        # the plain closing line CI reads, as a test runner's
        print(f"pi: {len(run.checks) - len(bad)} passed, {len(bad)} failed", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
