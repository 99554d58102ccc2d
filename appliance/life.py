"""The appliance's life, step by step (appliance/run.py runs it): install, the service,
a boot without the hub, a whole game through the hub with its comings and goings, the
service's faults and power cuts, a second game with its keys through the kernel's GPIO,
the exposure, the journal, the uninstall. Each step sets its check in the report."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import Callable
from pathlib import Path

from fingers import Fingers, HubFingers, WiringFingers
from run import (
    BUILD,
    CONFIG,
    DROP_IN,
    EVENTS,
    FIFO,
    STATE,
    TARGET,
    Failed,
    Run,
    free_port,
    kind,
    seats_text,
    state_of,
    strip_history,
    supplied,
)
from vm import REPO, Machine

CARRY = "/media/carry"  # the maker's USB stick: the checkout's bundle and the wheels
GPIOSIM = f"{CARRY}/gpiosim"  # the test's gpio-sim module and wiring (appliance/gpiosim/)
VENV = "/opt/santo-domingo/venv"
GPIO_DROP_IN = "/etc/systemd/system/companion.service.d/appliance-gpio.conf"
TRAP_OUT = "/run/save-trap.out"
ANSWERING = "pad hub: answering again on /dev/santo-domingo-hub"  # the service's line
# Seconds the service may take to be active and running (READY=1) after a start, a boot
# or a fault: systemd's restart and the companion's start under TCG on a loaded host
# (over 60 s once, beside a test suite and two busy loops). A limit, never a wait.
START = 300


def life(run: Run) -> None:
    if os.environ.get("APPLIANCE_DEV_DISK"):  # a developer's loop: the game on a kept install
        return again(run, Path(os.environ["APPLIANCE_DEV_DISK"]))
    with run.step("image", 1800):
        image = run.image()
    with run.step("wheels", 600):
        wheels = run.wheels()
    with run.step("carry disk", 300):
        carry = run.carry(wheels, image)
    disk = BUILD / "disk.qcow2"
    disk.unlink(missing_ok=True)
    subprocess.run(
        ["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b", str(image / "disk.img"),
         str(disk)],
        check=True, timeout=60,
    )  # fmt: skip
    run.machine = Machine(image, disk, carry, BUILD, free_port())
    with run.step("boot", 600):  # boot 280 + settle 180 + the journal's flush
        first_boot(run)
    with run.step("install", 1800):  # install.sh 1200 + START
        install(run)
    with run.step("configure", 1500):  # 200 + halt 120 + boot 280 + settle 180 + START + reads
        configure(run)
    with run.step("page", 180):
        page(run)
    with run.step("game", 4800):  # its faults (~3,400 s of limits: each a start, a cut a boot)
        run.checks["game_through_hub"] = Game(run).play()
    with run.step("keys through the kernel's GPIO", 2700):  # 3 × 300, pip 900, 2 × START, its game
        kernel_gpio(run)
    with run.step("exposure", 180):
        exposure(run)
    with run.step("keep the installed disk", 1200):  # halt 120 + boot 280 + 180 + START
        keep_installed(run)  # a clean shutdown and a boot: their journal is read too
    with run.step("journal", 120):
        journal(run)
    with run.step("uninstall", 900):  # two runs of uninstall.sh, 300 each
        uninstall(run)
    with run.step("halt", 120):
        run.vm.halt(90)


def again(run: Run, kept: Path) -> None:
    """The game and what follows it, on a copy of a disk installed and configured by an
    earlier run (APPLIANCE_DEV_DISK): minutes instead of half an hour, while working."""
    image = run.image()
    disk = BUILD / "disk.qcow2"
    shutil.copyfile(kept, disk)
    run.machine = Machine(image, disk, BUILD / "carry.img", BUILD, free_port())
    with run.step("boot", 1200):  # first_boot's 600, 200, START
        first_boot(run)
        run.guest(f"systemctl stop companion && rm -f {STATE}/game*.json"
                  " && systemctl start companion", timeout=200)  # fmt: skip
        run.until_active(START)
    with run.step("game", 4800):
        run.checks["game_through_hub"] = Game(run).play()
    with run.step("keys through the kernel's GPIO", 2700):  # 3 × 300, pip 900, 2 × START, its game
        kernel_gpio(run)
    with run.step("exposure", 180):
        exposure(run)
    with run.step("journal", 120):
        journal(run)


def first_boot(run: Run) -> None:
    run.times["boot_to_agent"] = round(run.vm.boot(280), 1)
    settle(run)
    # The journal kept across the power cuts, as on Raspberry Pi OS (persistent storage).
    run.guest("mkdir -p /var/log/journal && systemd-tmpfiles --create --prefix /var/log/journal"
              " && journalctl --flush")  # fmt: skip


def settle(run: Run) -> None:
    state = run.guest("systemctl is-system-running --wait", timeout=180, check=False).strip()
    if state not in ("running", "degraded"):
        raise Failed(f"the guest did not finish booting: {state}")
    if state == "degraded":
        run.notes.setdefault("degraded", []).append(
            run.guest("systemctl --failed --no-legend --plain", check=False).strip()
        )
    if run.vm.hub_plugged:
        run.guest("test -e /dev/ttyACM0")  # the hub's gadget: a Pico on the guest's USB


def install(run: Run) -> None:
    run.guest(f"mkdir -p {CARRY} && mount -o ro /dev/vdb {CARRY}")
    steps = {
        "apt install git": "sudo apt-get install -y -q git",  # in the image: "already newest"
        "git clone": f"git clone -q {CARRY}/santo-domingo.bundle santo-domingo",
        # install.sh's lines stamped with the guest's time: how long each step took
        "install.sh": "set -o pipefail; cd santo-domingo && sudo ./install.sh --hub --web"
        f" --yes --wheels {CARRY}/wheels 2>&1"
        """ | perl -MPOSIX -ne '$|=1; print strftime("%T ", localtime), $_'""",
    }
    said = []
    for name, command in steps.items():
        start = time.monotonic()
        said.append(f"$ {command}\n" + run.as_maker(command, timeout=1200))
        run.times[f"install: {name}"] = round(time.monotonic() - start, 1)
    (BUILD / "install.log").write_text("\n".join(said))
    out = said[-1]
    if "skipped: not Raspberry Pi OS" not in out or not out.rstrip().endswith(
        "Done. Its log: journalctl -u companion -f"
    ):
        raise Failed(f"install.sh did not say it skipped and end done ({BUILD}/install.log)")
    now = run.until_active(START)
    run.checks["installed_by_install_sh"] = now.get("Type") == "notify"
    run.notes["mirror_connections"] = len((BUILD / "mirror.log").read_text().splitlines())


def configure(run: Run) -> None:
    """The page on ([web] in the config, as docs/web.md says), a house-rule target, and
    the test's one drop-in: the FIFO its fingers press the host buttons through. Then the
    Pi is switched off and on again without its hub: the service starts at power-on with
    no hub, which is plugged in once the seats' screen shows (``Game.plug_at_setup``)."""
    run.guest(
        "sed -i -e 's/^enabled = false /enabled = true  /'"
        f" -e 's/^target = 30 /target = {TARGET} /' {CONFIG}"
        f" && mkdir -p {DROP_IN.rsplit('/', 1)[0]} && printf '%s\\n' '[Service]'"
        f" 'Environment=COMPANION_TEST_PINS={FIFO}' > {DROP_IN}"
        " && systemctl daemon-reload",
        timeout=200,
    )
    run.vm.halt(120)
    run.times["boot without the hub"] = round(run.vm.boot(280, hub=False), 1)
    settle(run)
    now = run.until_active(START)
    shown = json.loads(run.guest("/opt/santo-domingo/venv/bin/companion config show --json"))
    keys = ("web.enabled", "pads.source", "gpio.pin_factory")
    values = {key: shown[key]["value"] for key in keys}
    if values != {"web.enabled": True, "pads.source": "hub", "gpio.pin_factory": "mock"}:
        raise Failed(f"the config is not as the install and the test made it: {values}")
    started = run.guest("journalctl -u companion --no-pager -o cat | grep -c '^Started companion'")
    run.checks["service_ready_notify"] = (
        now.get("Type") == "notify"
        and now.get("NotifyAccess") == "main"
        and now.get("WatchdogUSec") == "30s"
        and int(started) >= 2  # install.sh's start and the boot's: each after READY=1
    )


def page(run: Run) -> None:
    url = f"http://127.0.0.1:{run.vm.web_port}/"
    deadline = time.monotonic() + 40
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:
                html = answer.read().decode()
                status = answer.status
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    view = run.view()
    said = run.guest("journalctl -u companion -b -o cat | grep -c 'page for phones is at'")
    run.checks["web_page_served"] = (
        status == 200 and "<html" in html.lower() and view["phase"] == "join" and int(said) >= 1
    )


class Game:
    """A whole game: random seats (2..6) and plays, pressed with ``fingers`` (the hub's
    firmware and the test's FIFO, or the gpio-sim wiring); followed on the page; each
    round checked in the state folder against the independent model; through the hub,
    the hub pulled out and in and the service's faults and power cuts in between
    (``EVENTS``)."""

    def __init__(self, run: Run, fingers: Fingers | None = None) -> None:
        """``fingers``: the hub's (the default), with the hub's comings and goings and
        the service's faults (``EVENTS``); or others, for a game played through and on."""
        self.run = run
        self.fingers = fingers or HubFingers(run)
        self.hub = isinstance(self.fingers, HubFingers)
        self.events = list(EVENTS) if self.hub else []
        self.notes = run.notes if self.hub else run.notes.setdefault("kernel_gpio", {})
        self.rounds: list[dict] = []  # completed rounds, as saved
        self.setup: dict = {}
        self.faults: list[dict] = []
        self.plugged: set[str] = set()  # the hub's checks done so far
        self.replugged = 0  # the round whose choosing the hub was pulled out and back in

    def doc(self) -> dict:
        return {**self.setup, "rounds": self.rounds}

    def play(self) -> bool:
        run = self.run
        seats = run.rng.randint(2, 6)
        self.notes["seats"] = seats
        run.wait_view("the seats' screen", kind("JoinView"))
        if self.hub and not run.vm.hub_plugged:
            self.plug_at_setup()
        for seat in range(1, seats + 1):
            self.tap(
                seat,
                run.rng.randint(1, 8),
                f"P{seat} seated",
                lambda v, s=seat: kind("JoinView")(v) and v["body"]["joined"][s - 1],
            )
        if "hub_plugged_after_boot" in self.plugged:
            run.checks["hub_plugged_after_boot"] = True  # and every seat joined through it
        self.fingers.button("ok")
        view = run.wait_view("the options", kind("OptionsView"))
        while (body := view["body"])["items"][body["cursor"]] != "start":
            self.fingers.button("ok")
            view = run.wait_view("the next option", kind("OptionsView", cursor=body["cursor"] + 1))
        self.fingers.button("ok")
        run.wait_view("round 1", kind("ChoosingView", round=1))
        saved = run.saved()
        if saved["players"] != seats or saved["target"] != TARGET or saved.get("rounds"):
            raise Failed(f"the new game saved is not the one set up: {saved}")
        self.setup = {key: saved[key] for key in ("players", "board", "target")}
        start = time.monotonic()
        while self.round() != "over":
            pass
        run.times["game: rounds" if self.hub else "kernel gpio: rounds"] = round(
            time.monotonic() - start, 1
        )
        return self.final()

    def round(self) -> str:
        """One round, or the part of it before a fault: "again" (the table resumed after
        it), "next", "over"."""
        run = self.run
        number = len(self.rounds) + 1
        view = run.wait_view(
            f"round {number}'s choosing",
            lambda v: kind("ChoosingView", round=number)(v) and not any(v["body"]["placed"]),
            120,
        )
        if self.fault("start"):
            return "again"
        state = state_of(self.doc())
        need = view["body"]["need"]
        plays = [sorted(run.rng.sample(p["hand"], need)) for p in state["players"]]
        trap = None
        for seat, cards in enumerate(plays, 1):
            for i, card in enumerate(cards):
                if seat == len(plays) and i == len(cards) - 1:
                    trap = self.arm("save")  # before the key that completes the round
                    done = self.complete(number, seat, need)
                    self.tap(seat, card, "the round complete", done, unless=self.frozen(trap))
                else:
                    self.place(number, seat, card, i + 1)
            if seat == 1 and self.hub and self.replug(number, need):
                continue
            if seat == 1 and self.fault("mid"):
                return "again"
        end = self.follow(number, trap)
        if trap is not None:
            self.cut_in_save(trap, number, plays)
            return "again"
        saved = run.saved()
        played = saved["rounds"]
        if played[:-1] != self.rounds or [sorted(p) for p in played[-1]["plays"]] != plays:
            raise Failed(f"round {number} saved is not the one played: {seats_text(plays)}")
        self.rounds.append(played[-1])
        if self.replugged == number:  # every press of the round taken once, across it
            run.checks["hub_replugged_mid_game"] = True
        after = state_of(self.doc())
        if end["body"].get("kind") == "ScoresView":
            shown = [[p["vp"], p["goods"], p["cards"]] for p in end["body"]["players"]]
            model = [[p["vp"], p["goods"], len(p["hand"])] for p in after["players"]]
            if shown != model:
                raise Failed(f"the page's scores after round {number} {shown} are not {model}")
        return "over" if after["finished"] else "next"

    def tap(
        self,
        seat: int,
        card: int,
        what: str,
        taken: Callable[[dict], bool],
        unless: Callable[[], bool] | None = None,
    ) -> dict:
        """``card`` pressed on the pad of ``seat`` and held until the page shows the table
        took it (``taken``), then released, as a finger does: no window of time in which
        the firmware must happen to scan it. The page's view then (``unless``: as
        ``Run.wait_view``)."""
        self.fingers.press(seat, card)
        try:
            view = self.run.wait_view(what, taken, 90, unless)
        except BaseException:
            self.fingers.release(seat, card, timeout=None)  # the failure is said, not this
            raise
        self.fingers.release(seat, card)  # seen up: the next press is a press
        return view

    def place(self, number: int, seat: int, card: int, placed: int) -> None:
        """A card pressed on a pad, and seen placed on the page."""

        def seen(view: dict) -> bool:
            body = view["body"]
            return kind("ChoosingView", round=number)(view) and body["placed"][seat - 1] >= placed

        self.tap(seat, card, f"round {number}: P{seat}'s card {placed} placed", seen)

    def frozen(self, trap: str | None) -> Callable[[], bool]:
        """Whether the save trap armed (if any) has frozen the service."""
        return lambda: trap is not None and "frozen" in self.run.guest(f"cat {TRAP_OUT}")

    @staticmethod
    def complete(number: int, seat: int, need: int) -> Callable[[dict], bool]:
        """The round's last card taken: placed, or the table gone on past the choosing."""

        def done(view: dict) -> bool:
            body = view["body"]
            return not kind("ChoosingView", round=number)(view) or body["placed"][seat - 1] >= need

        return done

    def follow(self, number: int, trap: str | None) -> dict:
        """Follows the round on the page to its end, trading at each Trader's turn on its
        pad; its scores (or the ranking). With a ``trap`` armed, until it caught the save."""
        run = self.run
        deadline = time.monotonic() + 240
        scores = None
        view: dict = {}
        traded: set[int] = set()
        while time.monotonic() < deadline:
            if self.frozen(trap)():
                return {}
            try:
                view = run.view()
            except OSError:  # frozen by the trap (its file says so next), or restarting
                time.sleep(0.5)
                continue
            body = view["body"]
            if body.get("kind") == "TradeView" and body["seat"] not in traded:
                self.trade(body)
                traded.add(body["seat"])
                continue
            if kind("ScoresView", round=number)(view):
                scores = view
            if kind("OverView")(view):
                return view
            if kind("ChoosingView", round=number + 1)(view) and scores is not None:
                return scores
            time.sleep(0.2)
        raise Failed(f"round {number} did not end within 240 s; the page: {view}")

    def trade(self, body: dict) -> None:
        """A random offer on the Trader's own pad: 1 offers fewer goods, 7 accepts."""
        run = self.run
        seat = body["seat"] + 1
        for _ in range(run.rng.choice((0, 0, 1, 2))):
            if body["spent"] <= 0:
                break
            view = self.tap(seat, 1, "the offer changed", lambda v, b=body: v["body"] != b)
            if view["body"].get("kind") != "TradeView":
                return
            body = view["body"]
        self.tap(seat, 7, "the trade accepted", lambda v, b=body: v["body"] != b)

    # --- the hub, any time -----------------------------------------------------------------

    def said(self, text: str) -> int:
        """How many of the service's journal lines of this boot hold ``text``."""
        out = self.run.guest(
            f"journalctl -u companion -b --no-pager -o cat | grep -cF -- {shlex.quote(text)}",
            check=False,
        )
        return int(out.strip() or 0)

    def until(self, what: str, done: Callable[[], bool], timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise Failed(f"{what}: not within {timeout:.0f} s")
            time.sleep(0.5)

    def plug_at_setup(self) -> None:
        """The hub plugged in while the seats' screen shows, the service having started at
        power-on without it: the hub's serial class was known before the plug
        (install.sh's modules-load.d), and the service takes the port with no restart and
        no refusal. The seats then join through it."""
        run = self.run
        pid = run.service()["MainPID"]
        known = run.guest("grep -c ' ttyACM$' /proc/devices", check=False).strip() == "1"
        answering = self.said(ANSWERING)
        run.vm.plug()
        self.until(
            "the service answering the hub plugged in", lambda: self.said(ANSWERING) > answering
        )
        link = run.guest("readlink -f /dev/santo-domingo-hub").strip()
        refused, restarted = self.said("refused"), run.service()["MainPID"] != pid
        run.notes["hub"] = {
            "link": link,
            "ttyACM_known_before_the_plug": known,
            "refused": refused,
            "restarted": restarted,
        }
        if not known or link != "/dev/ttyACM0" or refused or restarted:
            raise Failed(f"the hub plugged in after the boot: {run.notes['hub']}")
        self.plugged.add("hub_plugged_after_boot")

    def replug(self, number: int, need: int) -> bool:
        """Once a round was saved: the hub pulled out after P1 chose, and plugged in again
        once the service said it was gone. The page shows the same cards placed before
        and after, and the round's save (``round``) every press taken once."""
        if self.replugged or not self.rounds:
            return False
        run = self.run
        pid = run.service()["MainPID"]
        before = run.view()
        answering, lines = self.said(ANSWERING), self.said("pad hub: ")
        run.vm.unplug(60)
        self.until(
            "the service saying the hub is gone",
            lambda: self.said("pad hub: ") - self.said(ANSWERING) > lines - answering,
        )
        gone = run.guest("test -e /dev/ttyACM0 || echo gone", check=False).strip() == "gone"
        run.vm.plug()
        self.until("the service answering the hub again", lambda: self.said(ANSWERING) > answering)
        after = run.view()
        placed = [need, *[0] * (len(before["body"]["placed"]) - 1)]
        same = (
            gone
            and kind("ChoosingView", round=number)(after)
            and before["body"]["placed"] == after["body"]["placed"] == placed
            and run.service()["MainPID"] == pid
        )
        run.notes["hub_replugged"] = {"round": number, "gone": gone, "placed": after["body"]}
        if not same:
            raise Failed(f"round {number}: the hub pulled out and in again: {before} {after}")
        self.replugged = number
        return True

    # --- the faults ---------------------------------------------------------------------

    def fault(self, when: str) -> bool:
        if not self.events or self.events[0][1] != when:
            return False
        name, _ = self.events.pop(0)
        if not self.rounds:  # a fault before any round saved proves nothing: later
            self.events.insert(0, (name, when))
            return False
        start = time.monotonic()
        getattr(self, name.replace("-", "_"))()
        self.run.times[f"fault: {name}"] = round(time.monotonic() - start, 1)
        return True

    def watchdog(self) -> None:
        t0 = self.signalled("STOP", 30 + START)  # the watchdog's 30 s, then the start
        said = self.run.guest(
            f"journalctl -u companion --no-pager -o cat --since @{t0 // 10**6}"
            " | grep -c 'Watchdog timeout'",
            check=False,
        )
        ok = int(said.strip() or 0) >= 1 and self.resume("watchdog", backup=False)
        self.run.checks["watchdog_restarted_hung_loop"] = ok

    def crash(self) -> None:
        self.signalled("KILL", START)
        self.run.checks["crash_restarted_into_resume"] = self.resume("crash", backup=False)

    def signalled(self, signal: str, restart_within: float) -> int:
        """The service's main process sent ``signal``, and started again by systemd within
        ``restart_within`` s; the journal's time before it (the fault's traceback, from
        then to the restart, is a deliberate one)."""
        run = self.run
        before = run.service()
        t0 = run.journal_now()
        run.guest(f"kill -{signal} {before['MainPID']}")
        run.until_active(restart_within, after=before)
        run.deliberate.append((t0, run.journal_now()))
        return t0

    def cut(self) -> None:
        self.power_cut("cut", None)

    def arm(self, when: str) -> str | None:
        """Arms the save trap when the next fault is a cut during the save."""
        if not self.events or self.events[0][1] != when or not self.rounds:
            return None
        name, _ = self.events.pop(0)
        moment = name.removeprefix("cut-")
        pid = self.run.service()["MainPID"]
        self.run.guest(
            f"rm -f {TRAP_OUT}; (setsid /usr/local/sbin/save-trap {STATE} {pid} {moment} 300"
            f" > {TRAP_OUT} 2>&1 &) ; for i in $(seq 50); do grep -q watching {TRAP_OUT}"
            " && exit 0; sleep 0.1; done; cat {TRAP_OUT}; exit 1"
        )
        return name

    def cut_in_save(self, name: str, number: int, plays: list[list[int]]) -> None:
        """The power cut while round ``number``'s save was where the trap froze it (the
        folder's files then, in the report). What the disk kept of it decides: the game
        before the round, or with it (both renames done), never anything else."""
        caught = json.loads(self.run.guest(f"cat {TRAP_OUT}").strip().splitlines()[-1])
        if "frozen" not in caught:
            raise Failed(f"the save of round {number} was not caught: {caught}")
        start = time.monotonic()
        self.power_cut(name, caught["files"], pending=plays)
        self.run.times[f"fault: {name}"] = round(time.monotonic() - start, 1)

    def power_cut(
        self, name: str, files: list[str] | None, pending: list[list[int]] | None = None
    ) -> None:
        run = self.run
        run.vm.cut()
        boot = run.vm.boot(280)
        settle(run)
        run.until_active(START)
        # a cut away from a save finds the game file as it was: never the previous version
        backup = None if pending is not None else False
        ok = self.resume(name, backup=backup, pending=pending, files=files, boot=boot)
        run.checks["power_cut_resumed_exactly"] = ok and all(
            f["resumed_exactly"] for f in self.faults if f["fault"].startswith("cut")
        )

    def resume(
        self,
        name: str,
        backup: bool | None,
        pending: list[list[int]] | None = None,
        **more: object,
    ) -> bool:
        """After a fault: the resume screen with the game as saved after its last completed
        round, and OK resumes it at the next round with the board as the model has it.
        ``pending``: the plays of a round whose save the power cut hit: the game comes
        back without that round or with it as played, never otherwise. ``backup``: whether
        the table must say its last save was unusable (None: as the disk has it, the
        previous version when no game file is left)."""
        run = self.run
        view = run.wait_view("the resume screen", kind("ResumeView"), 90)
        body = view["body"]
        # What the table resumes from: the game file, or after a cut between the save's
        # two renames (no game file) the previous version.
        found = run.guest(
            f"if test -e {STATE}/game.json; then echo game; cat {STATE}/game.json;"
            f" else echo previous; cat {STATE}/game.prev.json; fi"
        )
        source, _, text = found.partition("\n")
        saved = json.loads(text)
        before = len(self.rounds)
        kept = saved["rounds"]
        with_it = (
            pending is not None
            and len(kept) == before + 1
            and [sorted(p) for p in kept[-1]["plays"]] == pending
        )
        exactly = kept[:before] == self.rounds and (len(kept) == before or with_it)
        if with_it:
            self.rounds.append(kept[-1])
        if backup is None:
            backup = source == "previous"
        self.fingers.button("ok")
        number = len(self.rounds) + 1
        # the rows are compared once the supply has moved them: while it runs the page
        # shows them on their way
        after = run.wait_view(
            f"round {number} resumed",
            lambda v: kind("ChoosingView", round=number)(v) and v["phase"] == "select",
            30,
        )
        exactly = (
            exactly
            and body["rounds"] == len(self.rounds)
            and body["players"] == self.setup["players"]
            and body["backup"] == backup
            and after["board"]["rows"] == supplied(self.doc())
            and not any(after["body"]["placed"])
        )
        fault = {
            "fault": name,
            "rounds_before": before,
            "rounds_resumed": len(self.rounds),
            "resumed_from": source,
            "resumed_exactly": exactly,
        }
        fault.update({k: v for k, v in more.items() if v is not None})
        self.faults.append(fault)
        run.notes["faults"] = self.faults
        if not exactly:
            raise Failed(
                f"after '{name}' the table did not resume exactly: {body} {after}; "
                f"the rows by the model: {supplied(self.doc())}"
            )
        return True

    # --- the end --------------------------------------------------------------------------

    def final(self) -> bool:
        """The ranking on the page, the game saved as played, and the model's final state
        that of ``companion replay``: kept in the report (the hub's game as its ``game``)."""
        run = self.run
        if self.events:
            raise Failed(f"the game ended before these faults: {[n for n, _ in self.events]}")
        over = run.wait_view("the ranking", kind("OverView"), 60)
        record = run.saved()
        if record["rounds"] != self.rounds:
            raise Failed("the final game saved is not the one played")
        replayed = subprocess.run(
            [str(REPO / ".venv/bin/companion"), "replay", "--json", "-"],
            input=json.dumps(record), capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        if replayed.returncode != 0:
            raise Failed(f"companion replay: {replayed.stderr.strip()}")
        final = json.loads(replayed.stdout)
        model = state_of(strip_history(record))
        shown = over["body"]["outcome"]["vp"]
        if self.hub:
            run.record, run.final = record, final
        else:
            self.notes["game"] = {"record": record, "final_state": final}
        self.notes["rounds"] = len(self.rounds)
        if not (final == model and final["finished"] and final["result"]["vp"] == shown):
            raise Failed(f"the final state {final} is not the model's {model} (page: {shown})")
        return True


def kernel_gpio(run: Run) -> None:
    """A second game, its pads and host buttons through the kernel's GPIO character
    device: the test's gpio-sim chip labelled as a Pi's header (its patched driver plays
    the pads' diodes, appliance/gpiosim/), lgpio in the venv (a Pi's extra), the config's
    pins on lgpio and the pads on the Pi's own matrix, a Pi's board revision bound over
    /proc/cpuinfo. The service finds the chip by its label and its scanner and buttons
    read real edges. Then the config goes back as it was, for the steps after."""
    pins = tomllib.loads((REPO / "companion/data/pins.toml").read_text())
    matrix = " ".join(
        f"matrix_{name}={','.join(map(str, pins[name]))}" for name in ("rows", "columns")
    )
    run.guest(
        f"mountpoint -q {CARRY} || mount -o ro /dev/vdb {CARRY};"
        # as Raspberry Pi OS has its GPIO chips: the gpio group's, which the service is in
        ' echo \'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"\''
        " > /etc/udev/rules.d/60-appliance-gpio.rules && udevadm control --reload"
        f" && insmod {GPIOSIM}/gpio-sim.ko {matrix}"
        f" && systemd-run --unit=appliance-wiring /usr/bin/python3 {GPIOSIM}/wiring"
        " --port /dev/virtio-ports/wiring --ready /run/wiring.ready"
        " && for i in $(seq 1200); do test -s /run/wiring.ready && exit 0; sleep 0.1; done;"
        " exit 1",
        timeout=300,
    )
    chip = "gpiochip" + run.guest("cat /run/wiring.ready").strip()
    run.guest(f"{VENV}/bin/pip install -q --no-index --find-links {CARRY}/wheels lgpio", 900)
    run.guest(
        "mkdir -p /run/appliance && { grep -v '^Revision' /proc/cpuinfo;"
        " printf 'Revision\\t: a02082\\n'; } > /run/appliance/cpuinfo"
        f" && printf '%s\\n' '[Service]' 'Environment=COMPANION_TEST_PINS='"
        f" 'BindReadOnlyPaths=/run/appliance/cpuinfo:/proc/cpuinfo' > {GPIO_DROP_IN}"
        """ && sed -i -e 's/^pin_factory = "mock"/pin_factory = "lgpio"/'"""
        f""" -e 's/^source = "hub"/source = "matrix"/' {CONFIG}"""
        f" && systemctl stop companion && rm -f {STATE}/game*.json"
        " && systemctl daemon-reload && systemctl start companion",
        timeout=300,
    )
    now = run.until_active(START)
    held = run.guest(f"ls -l /proc/{now['MainPID']}/fd", check=False)
    label = run.guest(
        f"{VENV}/bin/python -c 'import lgpio; h = lgpio.gpiochip_open({chip[8:]});"
        " print(lgpio.gpio_get_chip_info(h)[3])'"
    ).strip()
    invocation = run.guest("systemctl show -p InvocationID --value companion").strip()
    said = run.guest(f"journalctl _SYSTEMD_INVOCATION_ID={invocation} -o cat --no-pager")
    found = f"/dev/{chip}" in held and label == "pinctrl-bcm2835" and "mock pins" not in said
    notes = run.notes.setdefault("kernel_gpio", {})
    notes.update(chip=chip, label=label, held_by_the_service=f"/dev/{chip}" in held)
    if not found:
        raise Failed(f"the service did not open the gpio-sim chip by its label: {notes} {said}")
    ok = Game(run, WiringFingers(run.vm)).play()
    run.checks["keys_through_kernel_gpio"] = ok
    run.guest(
        f"rm -f {GPIO_DROP_IN}"
        """ && sed -i -e 's/^pin_factory = "lgpio"/pin_factory = "mock"/'"""
        f""" -e 's/^source = "matrix"/source = "hub"/' {CONFIG}"""
        " && systemctl daemon-reload && systemctl restart companion",
        timeout=300,
    )
    run.until_active(START)


def exposure(run: Run) -> None:
    out = run.guest("systemd-analyze security --no-pager companion.service", check=False)
    (BUILD / "security.txt").write_text(out)
    found = re.search(r"Overall exposure level for companion\.service: (\d+\.\d+)", out)
    if found is None:
        raise Failed(f"systemd-analyze security said no level: {out[-300:]}")
    run.notes["exposure"] = {"companion.service": float(found[1])}
    run.checks["exposure_at_most_2"] = float(found[1]) <= 2.0


def journal(run: Run) -> None:
    out = run.guest("journalctl -u companion --no-pager -o json", timeout=90)
    (BUILD / "journal.json").write_text(out)
    stray, deliberate = [], 0
    for line in out.splitlines():
        entry = json.loads(line)
        text = entry.get("MESSAGE", "")
        if isinstance(text, list):
            text = bytes(text).decode(errors="replace")
        if "Traceback" not in text and "Fatal Python error" not in text:
            continue
        at = int(entry["__REALTIME_TIMESTAMP"])
        if any(t0 <= at <= t1 for t0, t1 in run.deliberate):
            deliberate += 1
        else:
            stray.append(text)
    run.notes["journal"] = {"boots": run.vm.boots, "deliberate_tracebacks": deliberate}
    run.checks["journal_without_traceback"] = not stray
    if stray:
        raise Failed(f"a traceback outside the deliberate faults: {stray[0][:200]}")


def keep_installed(run: Run) -> None:
    """A clean shutdown, the disk kept as build/appliance/installed.qcow2 (what `make
    appliance-shell` boots, to look around), and the guest booted again: the service
    comes back at power-on as it would on a Pi."""
    run.vm.halt(120)
    shutil.copyfile(run.vm.disk, BUILD / "installed.qcow2")
    run.vm.boot(280)
    settle(run)
    run.until_active(START)


def uninstall(run: Run) -> None:
    run.guest(f"rm -f {DROP_IN} && systemctl daemon-reload")  # the test's own machinery first
    said = [run.as_maker("cd santo-domingo && sudo ./uninstall.sh", timeout=300)]
    gone = run.guest(
        "systemctl list-unit-files --no-legend companion.service | wc -l;"
        " pgrep -u companion | wc -l;"
        " ls -d /opt/santo-domingo /etc/systemd/system/companion.service"
        " /etc/systemd/system/companion.service.d /etc/udev/rules.d/99-santo-domingo-hub.rules"
        " 2>/dev/null | wc -l;"
        f" test -f {CONFIG} && test -f {STATE}/game.json && id -u companion >/dev/null"
        " && echo kept",
        check=False,
    ).split()
    said.append(run.as_maker("cd santo-domingo && sudo ./uninstall.sh --purge --yes", timeout=300))
    purged = run.guest(
        f"ls -d /etc/santo-domingo {STATE} 2>/dev/null | wc -l;"
        " id -u companion 2>/dev/null | wc -l",
        check=False,
    ).split()
    (BUILD / "uninstall.log").write_text("\n".join(said))
    run.notes["uninstall"] = {"after": gone, "after_purge": purged}
    run.checks["uninstalled_clean"] = gone == ["0", "0", "0", "kept"] and purged == ["0", "0"]
    if not run.checks["uninstalled_clean"]:
        raise Failed(f"uninstall left: {gone}, --purge left: {purged}")


__all__ = ["Machine", "life", "sys"]
