"""Builds the emulated Pi's guest (make pi-test) from Debian's and PyPI's packages, cached
by its inputs.

Two layers, each a newc cpio, concatenated into one initrd (the kernel unpacks one archive
after the other into the same rootfs). Not compressed: gunzip under TCG cost 4-9 s of boot.
  base-<key>/   Debian bookworm arm64 from `mmdebstrap --variant=extract` (python3,
                busybox-static; the kernel package apart), the kernel modules the companion
                needs, the aarch64 wheels of the project's runtime dependencies, all
                byte-compiled;
                beside it the kernel (vmlinuz: bookworm's arm64 one is a plain Image) and
                the Pi 3 B DTB with its two edits. Key: this file, the dependency pins.
  boot-<key>/   the project (`pip install --no-deps --target`) and guest/ (init, the
                console agent, the companion's config); its initrd.cpio is base + this
                layer. Key: base key, the project's files, guest/.
Each build replaces the older folders of its kind: one base and one boot stay cached.
Usage: python appliance/pi/image.py [--cache DIR]; prints {"kernel", "dtb", "initrd"} as JSON.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import BinaryIO

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
MIRROR = os.environ.get("PI_MIRROR", "http://deb.debian.org/debian")
DEBS = "python3,busybox-static"
KERNEL = "linux-image-arm64"  # its versioned package, unpacked beside the root, not into it
# mmdebstrap's extract hook (the extract variant runs no customize hook), with mmdebstrap's
# apt (bookworm, arm64): the kernel package linux-image-arm64 points at, unpacked into $KDIR.
KERNEL_HOOK = (
    'export APT_CONFIG="$MMDEBSTRAP_APT_CONFIG"; cd "$KDIR"'
    ' && apt-get download -qq -o APT::Sandbox::User=root "$(apt-cache depends '
    f'{KERNEL} | sed -n "s/^ *Depends: \\(linux-image-[0-9][^ ]*\\).*/\\1/p")"'
    " && dpkg-deb -x linux-image-*.deb root"
)
# Load order: each module after what it needs (phy-generic is not a symbol dependency of
# dwc2 but the DT's usb-nop-xceiv must be bound before dwc2 probes). The display's bus,
# the USB host controller, and QEMU's usb-serial (an FTDI) for the pad hub's line.
MODULES = [
    "i2c-bcm2835",
    "i2c-dev",
    "usb-common",
    "usbcore",
    "roles",
    "udc-core",
    "phy-generic",
    "dwc2",
    "usbserial",
    "ftdi_sio",
]
DTB = "broadcom/bcm2837-rpi-3-b.dtb"
REVISION = "a02082"  # a Pi 3 B, 1 GB (gpiozero reads /proc/device-tree/system/linux,revision)
WHEEL_PLATFORMS = ["manylinux2014_aarch64", "manylinux_2_28_aarch64", "manylinux_2_34_aarch64"]
PRUNE = [
    "usr/share",
    "usr/lib/aarch64-linux-gnu/gconv",
    "var/lib/dpkg",
    "etc/apt",
    "usr/lib/python3.11/test",
    "usr/lib/python3.11/idlelib",
    "usr/lib/python3.11/tkinter",
    "usr/lib/python3.11/ensurepip",
    "usr/lib/python3.11/lib2to3",
    "var/cache",
    "var/lib/apt",
]
SITE = "usr/local/lib/python3.11/dist-packages"


def log(msg: str) -> None:
    print(f"pi/image: {msg}", file=sys.stderr, flush=True)


def run(*cmd: str | Path, **kw: object) -> None:
    subprocess.run([str(c) for c in cmd], check=True, **kw)  # type: ignore[call-overload]


def digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(hashlib.sha256(p).digest())
    return h.hexdigest()[:12]


def runtime_pins() -> list[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return [*project["dependencies"], *project["optional-dependencies"]["pi"]]


def project_files() -> list[Path]:
    out = subprocess.run(
        [
            "git",
            "ls-files",
            "-co",
            "--exclude-standard",
            "--",
            "pyproject.toml",
            "README.md",
            "companion",
        ],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return sorted(REPO / f for f in out if (REPO / f).is_file())


# --- cpio (newc) -------------------------------------------------------------------------


def _cpio_entry(
    out: BinaryIO,
    name: str,
    mode: int,
    data: bytes = b"",
    rdev: tuple[int, int] = (0, 0),
    ino: int = 0,
) -> None:
    raw = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(raw), 0]
    head = b"070701" + b"".join(b"%08X" % f for f in fields)
    out.write(head + raw + b"\0" * (-(len(head) + len(raw)) % 4))
    out.write(data + b"\0" * (-len(data) % 4))


def write_cpio(root: Path, dest: Path, devices: bool) -> None:
    """Every file under root as root-owned; devices adds /dev/console for the kernel."""
    ino = 1
    with open(dest, "wb") as out:
        if devices:
            _cpio_entry(out, "dev", stat.S_IFDIR | 0o755, ino=ino)
            _cpio_entry(out, "dev/console", stat.S_IFCHR | 0o600, rdev=(5, 1), ino=ino + 1)
            ino += 2
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for n in sorted(dirnames) + sorted(filenames):
                p = Path(dirpath, n)
                rel = p.relative_to(root).as_posix()
                st = p.lstat()
                ino += 1
                if stat.S_ISLNK(st.st_mode):
                    _cpio_entry(out, rel, st.st_mode, os.readlink(p).encode(), ino=ino)
                elif stat.S_ISDIR(st.st_mode):
                    if not (devices and rel == "dev"):
                        _cpio_entry(out, rel, st.st_mode, ino=ino)
                elif stat.S_ISREG(st.st_mode):
                    _cpio_entry(out, rel, st.st_mode, p.read_bytes(), ino=ino)
        _cpio_entry(out, "TRAILER!!!", 0)


# --- the layers --------------------------------------------------------------------------


def compile_tree(root: Path, *subdirs: str) -> None:
    """Byte-compile with the host's 3.11 (same magic as bookworm's 3.11): TCG is slow."""
    for sub in subdirs:
        run(
            sys.executable,
            "-m",
            "compileall",
            "-q",
            "-j",
            "2",
            "--invalidation-mode",
            "unchecked-hash",
            "-s",
            root,
            "-p",
            "/",
            root / sub,
            stdout=subprocess.DEVNULL,
        )


def module_order(moddir: Path) -> list[str]:
    files = {p.stem.replace("-", "_"): p for p in moddir.rglob("*.ko")}
    order: list[str] = []

    def add(name: str) -> None:
        key = name.replace("-", "_")
        rel = files[key].relative_to(moddir).as_posix()
        if rel in order:
            return
        m = re.search(rb"depends=([^\0]*)", files[key].read_bytes())
        for dep in filter(None, (m.group(1).decode() if m else "").split(",")):
            add(dep)
        order.append(rel)

    for name in MODULES:
        add(name)
    return order


def build_base(out: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="pi-base.", dir=out.parent) as tmp:
        root, kdir = Path(tmp, "root"), Path(tmp, "kernel")
        kdir.mkdir()
        t0 = time.monotonic()
        run(
            "mmdebstrap",
            "--quiet",
            "--variant=extract",
            "--architectures=arm64",
            f"--include={DEBS}",
            '--aptopt=Acquire::Languages "none"',
            f"--extract-hook={KERNEL_HOOK}",
            "bookworm",
            root,
            MIRROR,
            env=dict(os.environ, KDIR=str(kdir)),
        )
        log(f"mmdebstrap: {time.monotonic() - t0:.1f} s")
        kroot = kdir / "root"
        (kver,) = os.listdir(kroot / "lib/modules")
        shutil.copy(kroot / f"boot/vmlinuz-{kver}", out / "vmlinuz")
        dtb = out / "pi3b.dtb"
        shutil.copy(kroot / f"usr/lib/linux-image-{kver}" / DTB, dtb)
        run("fdtput", "-r", dtb, "/soc/serial@7e201000/bluetooth")  # else serdev owns ttyAMA0
        run("fdtput", "-c", dtb, "/system")
        run("fdtput", "-t", "x", dtb, "/system", "linux,revision", REVISION)
        kmods = kroot / "lib/modules" / kver
        keep = module_order(kmods)
        for rel in keep:
            (root / "lib/modules" / kver / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(kmods / rel, root / "lib/modules" / kver / rel)
        (root / "etc/pi-modules").write_text("".join(f"{kver}/{r}\n" for r in keep))
        for p in PRUNE:
            shutil.rmtree(root / p, ignore_errors=True)
        for d in ("proc", "sys", "tmp", "run", "root"):
            (root / d).mkdir(exist_ok=True)
        t0 = time.monotonic()
        run(
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-warn-script-location",
            "--target",
            root / SITE,
            *(f"--platform={p}" for p in WHEEL_PLATFORMS),
            "--only-binary=:all:",
            "--python-version=3.11",
            "--implementation=cp",
            *runtime_pins(),
        )
        log(f"aarch64 wheels: {time.monotonic() - t0:.1f} s")
        t0 = time.monotonic()
        compile_tree(root, "usr/lib/python3.11", SITE)
        log(f"compileall: {time.monotonic() - t0:.1f} s")
        t0 = time.monotonic()
        write_cpio(root, out / "base.cpio", devices=True)
        log(f"cpio: {time.monotonic() - t0:.1f} s")
        (out / "modules.txt").write_text("".join(f"{r}\n" for r in keep))


def build_boot(base: Path, out: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="pi-boot.", dir=out.parent) as tmp:
        root = Path(tmp, "root")
        run(
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-compile",
            "--target",
            root / SITE,
            REPO,
        )
        shutil.copy(HERE / "guest/init", root / "init")
        (root / "init").chmod(0o755)
        (root / "pi").mkdir()
        shutil.copy(HERE / "guest/agent.py", root / "pi/agent.py")
        (root / "etc/santo-domingo").mkdir(parents=True)
        shutil.copy(HERE / "guest/companion.toml", root / "etc/santo-domingo/companion.toml")
        compile_tree(root, SITE)
        write_cpio(root, Path(tmp, "boot.cpio"), devices=False)
        with open(out / "initrd.cpio", "wb") as dest:
            for part in (base / "base.cpio", Path(tmp, "boot.cpio")):
                with open(part, "rb") as src:
                    shutil.copyfileobj(src, dest)


def cached(cache: Path, name: str, build: object) -> Path:
    out = cache / name
    if (out / ".done").exists():
        log(f"cached {out}")
        return out
    t0 = time.monotonic()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    build(out)  # type: ignore[operator]
    (out / ".done").write_text(f"{time.monotonic() - t0:.1f} s\n")
    log(f"built {out} in {time.monotonic() - t0:.1f} s")
    kind = name.split("-", 1)[0]
    for old in cache.glob(f"{kind}-*"):  # an older key's layer: never used again
        if old != out and (old / ".done").exists():  # one being built is another run's
            shutil.rmtree(old, ignore_errors=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("PI_CACHE", "/var/cache/santo-domingo/pi")),
    )
    args = ap.parse_args()
    pins = "\n".join(runtime_pins()).encode()
    base_key = digest(Path(__file__).read_bytes(), DEBS.encode(), pins)
    base = cached(args.cache, f"base-{base_key}", build_base)
    guest = sorted((HERE / "guest").iterdir())
    inputs = [*project_files(), *guest]
    # the files' places in the checkout, not on this disk: every clone has the same key
    named = (str(p.relative_to(REPO)).encode() + p.read_bytes() for p in inputs)
    boot_key = digest(base_key.encode(), *named)
    boot = cached(args.cache, f"boot-{boot_key}", lambda out: build_boot(base, out))
    print(
        json.dumps(
            {
                "kernel": str(base / "vmlinuz"),
                "dtb": str(base / "pi3b.dtb"),
                "initrd": str(boot / "initrd.cpio"),
            }
        )
    )


if __name__ == "__main__":
    main()
