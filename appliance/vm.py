"""The guest machine: QEMU booting the cached Debian image, with its disk an overlay
kept under build/appliance/ (the power cuts hit that), its console in a log per boot,
the guest agent, QMP, the page for phones forwarded to a port of the host's loopback, and
the Pico hub: the real firmware under the MicroPython unix port, on the host, wired to
the guest's virtio port "hub" (the guest's gadget makes it a /dev/ttyACM0). The port is
plugged in and pulled out over QMP, as a hub's USB cable is: the guest's gadget follows
it, so its cdc_acm driver sees the device come and go."""

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
from hubwire import HubWire, start_firmware
from qmp import Qmp

REPO = Path(__file__).resolve().parent.parent
HUB_PORT = "hub-port"  # the QEMU id of the hub's virtio port (QMP's device_add, device_del)
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
        self.qmp = Qmp(str(self.sockets / "qmp.sock"))
        self.hub_plugged = False
        self._keys = -1
        self._hub: HubWire | None = None
        self._wiring: socket.socket | None = None  # the gpio-sim wiring's port (gpiosim/)
        self._wired = b""

    @property
    def console(self) -> Path:
        return self.logs / f"console-{self.boots}.log"

    def boot(self, timeout: float, hub: bool = True) -> float:
        """Starts QEMU and the hub's firmware, the hub plugged in from power-on or not
        (``plug`` then); returns once the guest agent answers. The seconds it took."""
        start = time.monotonic()
        self.start(f"file:{self.console}", timeout, hub)
        self.agent.connect(max(1.0, start + timeout - time.monotonic()))
        return time.monotonic() - start

    def start(self, console: str, timeout: float, hub: bool = True) -> None:
        """QEMU with its serial console on ``console``, and the hub's firmware on its port.
        On the terminal ("mon:stdio"), QEMU reads it: a person logs in."""
        self.boots += 1
        for name in ("qga.sock", "hub.sock", "qmp.sock", "wiring.sock"):
            (self.sockets / name).unlink(missing_ok=True)
        command = self.command(console, hub)
        stderr = open(self.logs / f"qemu-{self.boots}.log", "wb")  # noqa: SIM115
        here = None if console == "mon:stdio" else subprocess.DEVNULL
        self.qemu = subprocess.Popen(command, stdin=here, stderr=stderr)
        stderr.close()
        self.hub_plugged = hub
        self.qmp.connect(timeout)
        self._start_hub(time.monotonic() + timeout)
        # connected from power-on: a virtio port with no one at the host's end reads closed
        self._wiring = _connect(self.sockets / "wiring.sock", time.monotonic() + timeout)
        self._wired = b""

    def command(self, console: str, hub: bool = True) -> list[str]:
        """QEMU's command line, its serial console on ``console`` (a file, or the
        terminal: "mon:stdio"); the hub's port plugged in or not."""
        mirror = f"{sys.executable} {REPO / 'appliance/mirror.py'} {self.logs / 'mirror.log'}"
        return [
            "qemu-system-x86_64", "-accel", ACCEL, "-smp", "2", "-m", "1536",
            "-nodefaults", "-no-user-config", "-display", "none",
            "-kernel", str(self.image / "vmlinuz"), "-initrd", str(self.image / "initrd.img"),
            "-append", "root=/dev/vda rw console=ttyS0,115200 panic=-1",
            # lgpio's x86-64 wheel uses SSE4.1, which TCG's default CPU lacks (SIGILL)
            "-cpu", os.environ.get("APPLIANCE_CPU", "host" if ACCEL == "kvm" else "max"),
            "-serial", console,
            "-drive", f"file={self.disk},if=virtio,format=qcow2",
            "-drive", f"file={self.carry},if=virtio,format=raw,readonly=on",
            "-device", "virtio-rng-pci",
            "-qmp", f"unix:{self.sockets / 'qmp.sock'},server=on,wait=off",
            "-device", "virtio-serial-pci,id=serial",
            "-chardev", f"socket,id=qga,path={self.sockets / 'qga.sock'},server=on,wait=off",
            "-device", "virtserialport,chardev=qga,name=org.qemu.guest_agent.0",
            "-chardev", f"socket,id=hub,path={self.sockets / 'hub.sock'},server=on,wait=off",
            *(["-device", ",".join(self._hub_port())] if hub else []),
            "-chardev", f"socket,id=wiring,path={self.sockets / 'wiring.sock'},server=on,wait=off",
            "-device", "virtserialport,bus=serial.0,chardev=wiring,name=wiring",
            # restrict=on: no packet of the guest's leaves but through the rules below
            "-netdev", f"user,id=net,restrict=on,"
            f"hostfwd=tcp:127.0.0.1:{self.web_port}-:8080,"
            f"guestfwd=tcp:10.0.2.100:80-cmd:{mirror}",
            "-device", "virtio-net-pci,netdev=net,romfile=",
        ]  # fmt: skip

    @staticmethod
    def _hub_port() -> list[str]:
        return ["virtserialport", "bus=serial.0", "chardev=hub", "name=hub", f"id={HUB_PORT}"]

    def plug(self) -> None:
        """The hub's cable plugged in: its port appears in the guest."""
        driver, *options = self._hub_port()
        self.qmp.execute("device_add", driver=driver, **dict(o.split("=", 1) for o in options))
        self.hub_plugged = True

    def unplug(self, timeout: float) -> None:
        """The hub's cable pulled out: returns once QEMU says the guest let its port go
        (a virtio port is removed with the guest's consent)."""
        self.qmp.execute("device_del", id=HUB_PORT)
        self.qmp.wait_event("DEVICE_DELETED", timeout, device=HUB_PORT)
        self.hub_plugged = False

    def wire(self, line: str, timeout: float = 60) -> str:
        """One command to the gpio-sim wiring in the guest (appliance/gpiosim/wiring);
        its ``ok`` answer, once the chip reads what the command set."""
        assert self._wiring is not None
        self._wiring.sendall(line.encode() + b"\n")
        deadline = time.monotonic() + timeout
        while b"\n" not in self._wired:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the wiring did not answer '{line}' within {timeout:g} s")
            self._wiring.settimeout(left)
            try:
                data = self._wiring.recv(4096)
            except TimeoutError:
                continue
            if not data:
                raise OSError("the wiring's port closed")
            self._wired += data
        answer, _, self._wired = self._wired.partition(b"\n")
        said = answer.decode(errors="replace").strip()
        if not said.startswith("ok"):
            raise RuntimeError(f"the wiring answered '{line}' with: {said}")
        return said

    def _start_hub(self, deadline: float) -> None:
        """The firmware's serial port is QEMU's socket, its keys a pipe of ours."""
        hub = _connect(self.sockets / "hub.sock", deadline, self.qemu)
        with open(self.logs / f"firmware-{self.boots}.log", "wb") as log:
            self.firmware, self._hub, self._keys = start_firmware(hub, log)

    def press(self, seat: int, card: int) -> None:
        """``card`` (1..8) pressed down on the pad of ``seat`` (1..6), held until
        ``release``: the caller holds it until the table has taken it, as a finger does
        (a press and release written together land in one of the firmware's scans)."""
        os.write(self._keys, f"press {seat} {card}\n".encode())

    def release(self, seat: int, card: int, timeout: float | None = 90) -> None:
        """``card`` let go; returns once the hub has reported it up (``HubWire``), or at
        once with ``timeout`` None."""
        assert self._hub is not None
        ups = self._hub.ups[(seat, card)]
        os.write(self._keys, f"release {seat} {card}\n".encode())
        if timeout is not None:
            self._hub.wait_up((seat, card), ups, timeout)

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
        self.qmp.close()
        if self._wiring is not None:
            self._wiring.close()
            self._wiring = None
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


def _connect(path: Path, deadline: float, qemu: subprocess.Popen | None = None) -> socket.socket:
    """A client of QEMU's socket chardev at ``path``, once QEMU has made it."""
    while True:
        if qemu is not None and qemu.poll() is not None:
            raise OSError(f"QEMU ended with {qemu.returncode} (see qemu-*.log)")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(str(path))
            return sock
        except OSError:
            sock.close()
            if time.monotonic() > deadline:
                raise TimeoutError(f"QEMU made no socket {path.name}") from None
            time.sleep(0.1)
