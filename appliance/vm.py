"""The guest machine: QEMU booting the cached Debian image, with its disk an overlay
kept under build/appliance/ (the power cuts hit that), its console in a log per boot,
the guest agent, the page for phones forwarded to a port of the host's loopback, and
the Pico hub: the real firmware under the MicroPython unix port, on the host, wired to
the guest's virtio port "hub" (the guest's gadget makes it a /dev/ttyACM0)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from agent import Agent

REPO = Path(__file__).resolve().parent.parent
MICROPYTHON = Path(sys.executable).parent / "micropython"
HOLD = 0.08  # seconds a key is held: several of the firmware's 5-scan debounces
BETWEEN = 0.05  # seconds between two keys
# TCG, QEMU's own CPU: a KVM guest hung after its boot loader on this machine
ACCEL = os.environ.get("APPLIANCE_ACCEL", "tcg")


class Machine:
    """One guest, booted as many times as the test cuts its power."""

    def __init__(self, image: Path, disk: Path, carry: Path, logs: Path, web_port: int) -> None:
        self.image, self.disk, self.carry, self.logs = image, disk, carry, logs
        self.web_port = web_port
        self.sockets = Path(tempfile.mkdtemp(prefix="appliance-"))  # short: unix socket paths
        self.boots = 0
        self.qemu: subprocess.Popen | None = None
        self.firmware: subprocess.Popen | None = None
        self.agent = Agent(str(self.sockets / "qga.sock"))
        self._keys = -1
        self._hub: socket.socket | None = None

    @property
    def console(self) -> Path:
        return self.logs / f"console-{self.boots}.log"

    def boot(self, timeout: float) -> float:
        """Starts QEMU and the hub's firmware; returns once the guest agent answers.
        The seconds it took."""
        start = time.monotonic()
        self.start(f"file:{self.console}", timeout)
        self.agent.connect(max(1.0, start + timeout - time.monotonic()))
        return time.monotonic() - start

    def start(self, console: str, timeout: float) -> None:
        """QEMU with its serial console on ``console``, and the hub's firmware on its port.
        On the terminal ("mon:stdio"), QEMU reads it: a person logs in."""
        self.boots += 1
        for name in ("qga.sock", "hub.sock"):
            (self.sockets / name).unlink(missing_ok=True)
        command = self.command(console)
        stderr = open(self.logs / f"qemu-{self.boots}.log", "wb")  # noqa: SIM115
        here = None if console == "mon:stdio" else subprocess.DEVNULL
        self.qemu = subprocess.Popen(command, stdin=here, stderr=stderr)
        stderr.close()
        self._start_hub(time.monotonic() + timeout)

    def command(self, console: str) -> list[str]:
        """QEMU's command line, its serial console on ``console`` (a file, or the
        terminal: "mon:stdio")."""
        mirror = f"{sys.executable} {REPO / 'appliance/mirror.py'} {self.logs / 'mirror.log'}"
        return [
            "qemu-system-x86_64", "-accel", ACCEL, "-smp", "2", "-m", "1536",
            "-nodefaults", "-no-user-config", "-display", "none",
            "-kernel", str(self.image / "vmlinuz"), "-initrd", str(self.image / "initrd.img"),
            "-append", "root=/dev/vda rw console=ttyS0,115200 panic=-1",
            *(["-cpu", os.environ.get("APPLIANCE_CPU", "host")] if ACCEL == "kvm" else []),
            "-serial", console,
            "-drive", f"file={self.disk},if=virtio,format=qcow2",
            "-drive", f"file={self.carry},if=virtio,format=raw,readonly=on",
            "-device", "virtio-rng-pci",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=qga,path={self.sockets / 'qga.sock'},server=on,wait=off",
            "-device", "virtserialport,chardev=qga,name=org.qemu.guest_agent.0",
            "-chardev", f"socket,id=hub,path={self.sockets / 'hub.sock'},server=on,wait=off",
            "-device", "virtserialport,chardev=hub,name=hub",
            # restrict=on: no packet of the guest's leaves but through the rules below
            "-netdev", f"user,id=net,restrict=on,"
            f"hostfwd=tcp:127.0.0.1:{self.web_port}-:8080,"
            f"guestfwd=tcp:10.0.2.100:80-cmd:{mirror}",
            "-device", "virtio-net-pci,netdev=net,romfile=",
        ]  # fmt: skip

    def _start_hub(self, deadline: float) -> None:
        """The firmware's serial port is QEMU's socket, its keys a pipe of ours."""
        path = str(self.sockets / "hub.sock")
        while True:
            if self.qemu is not None and self.qemu.poll() is not None:
                raise OSError(f"QEMU ended with {self.qemu.returncode} (see qemu-*.log)")
            try:
                hub = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                hub.connect(path)
                break
            except OSError:
                hub.close()
                if time.monotonic() > deadline:
                    raise TimeoutError("QEMU made no hub socket") from None
                time.sleep(0.1)
        keys_read, self._keys = os.pipe()
        log = open(self.logs / f"firmware-{self.boots}.log", "wb")  # noqa: SIM115
        self.firmware = subprocess.Popen(
            [str(MICROPYTHON), str(REPO / "firmware/main.py")],
            stdin=hub.fileno(),
            stdout=hub.fileno(),
            stderr=log,
            env={**os.environ, "HUB_KEYS_FD": str(keys_read)},
            pass_fds=(keys_read,),
        )
        log.close()
        os.close(keys_read)
        self._hub = hub

    def key(self, seat: int, card: int) -> None:
        """A press and release of ``card`` (1..8) on the pad of ``seat`` (1..6)."""
        os.write(self._keys, f"press {seat} {card}\n".encode())
        time.sleep(HOLD)
        os.write(self._keys, f"release {seat} {card}\n".encode())
        time.sleep(BETWEEN)

    def cut(self) -> None:
        """The power cut: QEMU killed at once; the hub loses its port and ends."""
        if self.qemu is not None and self.qemu.poll() is None:
            self.qemu.send_signal(signal.SIGKILL)
            self.qemu.wait(30)
        self._after()

    def halt(self, timeout: float) -> None:
        """A clean shutdown from inside the guest."""
        if self.qemu is None or self.qemu.poll() is not None:
            self._after()
            return
        with contextlib.suppress(Exception):  # the agent may go before it answers
            self.agent.call("guest-shutdown", mode="powerdown", timeout=5)
        try:
            self.qemu.wait(timeout)
        except subprocess.TimeoutExpired:
            self.qemu.kill()
            self.qemu.wait(30)
        self._after()

    def _after(self) -> None:
        self.agent.close()
        if self._hub is not None:
            self._hub.close()
            self._hub = None
        if self._keys >= 0:
            os.close(self._keys)
            self._keys = -1
        if self.firmware is not None:
            try:
                self.firmware.wait(10)
            except subprocess.TimeoutExpired:
                self.firmware.kill()
                self.firmware.wait(10)
            self.firmware = None
