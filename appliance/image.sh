#!/usr/bin/env bash
# shellcheck disable=SC2016  # the hooks' "$1" is mmdebstrap's (the new system's root)
# Builds the appliance test's guest: Debian bookworm (amd64) from Debian's packages with
# mmdebstrap, a disk image made by mkfs.ext4 -d (no loop mount), and its kernel and initrd
# beside it for QEMU to boot directly. Usage: appliance/image.sh OUTDIR
# OUTDIR gets disk.img, vmlinuz, initrd.img and a stamp; appliance/run.py caches it
# outside the repository, keyed by this script and appliance/guest/.
set -Eeuo pipefail
trap 'echo "appliance/image.sh: failed at line $LINENO (the guest image)" >&2' ERR
OUT=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MIRROR=${APPLIANCE_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
# What a Raspberry Pi OS Lite brings that the test uses (systemd, udev, Python 3, sudo),
# Debian's kernel, and the test's own machinery: QEMU's guest agent (the host's hands in
# the guest), socat (the hub's wire), kmod (the USB gadget's modules). git and
# ca-certificates too, as Raspberry Pi OS Lite has them: the README's `sudo apt install
# git` then finds it (unpacking it and perl under TCG took 6 minutes). Not python3-venv,
# python3-spidev, i2c-tools: install.sh brings those.
PACKAGES=systemd-sysv,udev,dbus,linux-image-amd64,python3,sudo,procps,less,kmod,iproute2
PACKAGES+=,qemu-guest-agent,socat,git,ca-certificates

root=$(mktemp -d "${TMPDIR:-/tmp}/appliance-root.XXXXXX")
chmod 0755 "$root"  # the guest's / (mktemp makes it 0700)
cleanup() { rm -rf "$root" "$root.boot"; }
trap cleanup EXIT
mkdir -p "$OUT"

mmdebstrap --variant=minbase --arch=amd64 --include="$PACKAGES" \
    --aptopt='Acquire::Check-Valid-Until "false"' --aptopt='Acquire::Languages "none"' \
    --customize-hook='echo santo-domingo > "$1/etc/hostname"' \
    --customize-hook='printf "127.0.0.1 localhost\n127.0.1.1 santo-domingo\n# the registry, through the host (appliance/mirror.py)\n10.0.2.100 deb.debian.org\n" > "$1/etc/hosts"' \
    --customize-hook='printf "/dev/vda / ext4 rw,errors=remount-ro 0 1\n" > "$1/etc/fstab"' \
    --customize-hook="install -m 0644 '$HERE/guest/20-wired.network' \"\$1/etc/systemd/network/\"" \
    --customize-hook="install -m 0644 '$HERE/guest/99appliance-registry' \"\$1/etc/apt/apt.conf.d/\"" \
    --customize-hook="install -m 0755 '$HERE/guest/hub-gadget' '$HERE/guest/save-trap' '$HERE/guest/press-button' \"\$1/usr/local/sbin/\"" \
    --customize-hook="install -m 0644 '$HERE/guest/appliance-hub.service' \"\$1/etc/systemd/system/\"" \
    --customize-hook="install -m 0644 '$HERE/guest/90-appliance-hub.rules' \"\$1/etc/udev/rules.d/\"" \
    --customize-hook='chroot "$1" systemctl enable systemd-networkd' \
    --customize-hook='chroot "$1" systemctl mask apt-daily.timer apt-daily-upgrade.timer systemd-networkd-wait-online.service' \
    --customize-hook='chroot "$1" useradd -m -s /bin/bash -G sudo maker' \
    --customize-hook='echo "maker:maker" | chroot "$1" chpasswd' \
    --customize-hook='echo "root:root" | chroot "$1" chpasswd' \
    --customize-hook='echo "maker ALL=(ALL) NOPASSWD: ALL" > "$1/etc/sudoers.d/maker"' \
    --customize-hook='cp -L "$1/vmlinuz" "$1/initrd.img" "'"$root"'.boot/"' \
    --setup-hook='mkdir -p "'"$root"'.boot"' \
    "$SUITE" "$root" "$MIRROR"
mv "$root.boot/vmlinuz" "$root.boot/initrd.img" "$OUT/"
rmdir "$root.boot"
# Room for the venv, the wheels and the journal.
mkfs.ext4 -q -F -L root -d "$root" "$OUT/disk.img" 3G
echo "$SUITE amd64 $(date -u +%FT%TZ)" > "$OUT/stamp"
