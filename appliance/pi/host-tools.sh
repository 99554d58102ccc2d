#!/usr/bin/env bash
# What the emulated Pi (`make pi-test`) needs on the host, from Debian's registry only:
#   - dtc (device-tree-compiler), mmdebstrap, cpio: installed with apt-get when missing;
#   - QEMU 10 (bookworm-backports), NOT installed: its .debs are unpacked into
#     $PI_CACHE/qemu-<key>/ through a private APT_CONFIG (own sources, lists and status),
#     so the system's sources and its QEMU 7.2 stay untouched.
# <key> is this file's hash: the version and the package list below are its inputs.
# Idempotent: a finished folder (its .done stamp) is reused. Prints that folder on stdout.
# Usage: appliance/pi/host-tools.sh        (as root, else through sudo for apt-get)
set -Eeuo pipefail
trap 'echo "pi/host-tools.sh: failed at line $LINENO" >&2' ERR
CACHE=${PI_CACHE:-/var/cache/santo-domingo/pi}
MIRROR=${PI_MIRROR:-http://deb.debian.org/debian}
QEMU_VERSION='1:10.0.2+ds-2+deb13u1~bpo12+1'
QEMU_PKGS=(qemu-system-arm qemu-system-common qemu-system-data)
key=$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-12)
out=$CACHE/qemu-$key
log() { echo "pi/host-tools: $*" >&2; }
have() { command -v "$1" >/dev/null 2>&1; }
if [[ $(id -u) -eq 0 ]]; then sys_apt=(apt-get); else sys_apt=(sudo apt-get); fi
sys_install() {
    log "installing $* (Debian's packages)"
    timeout 300 "${sys_apt[@]}" update -qq
    DEBIAN_FRONTEND=noninteractive timeout 600 "${sys_apt[@]}" install -y -qq \
        --no-install-recommends "$@" >/dev/null
}

need=()
have dtc || need+=(device-tree-compiler)
have mmdebstrap || need+=(mmdebstrap)
have cpio || need+=(cpio)
((${#need[@]} == 0)) || sys_install "${need[@]}"

if [[ -f $out/.done ]]; then echo "$out"; exit 0; fi

# A private apt: bookworm + bookworm-backports, amd64 (QEMU) and arm64 (for look-ups).
apt_dir=$CACHE/apt
mkdir -p "$apt_dir"/{lists/partial,cache/archives/partial,etc/apt.conf.d,etc/preferences.d}
touch "$apt_dir/status"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
printf 'deb [signed-by=%s] %s %s main\n' "$keyring" "$MIRROR" bookworm \
    "$keyring" "$MIRROR" bookworm-backports >"$apt_dir/etc/sources.list"
cat >"$apt_dir/apt.conf" <<EOF
Dir::State "$apt_dir";
Dir::State::Lists "$apt_dir/lists";
Dir::State::status "$apt_dir/status";
Dir::Cache "$apt_dir/cache";
Dir::Etc::SourceList "$apt_dir/etc/sources.list";
Dir::Etc::SourceParts "$apt_dir/etc/sources.list.d";
Dir::Etc::Parts "$apt_dir/etc/apt.conf.d";
Dir::Etc::Preferences "$apt_dir/etc/preferences";
Dir::Etc::PreferencesParts "$apt_dir/etc/preferences.d";
APT::Architecture "amd64";
APT::Architectures { "amd64"; "arm64"; };
APT::Sandbox::User "root";
Acquire::Languages "none";
EOF
export APT_CONFIG=$apt_dir/apt.conf
log "QEMU $QEMU_VERSION from bookworm-backports into $out"
timeout 300 apt-get update -qq

# The shared libraries QEMU links against come from bookworm itself: install missing ones.
libs=$(apt-cache depends "qemu-system-arm=$QEMU_VERSION" | awk '$1 == "Depends:" && $2 ~ /^lib/ {print $2}')
missing=()
for lib in $libs; do
    dpkg-query -W -f='${Status}' "$lib" 2>/dev/null | grep -q 'ok installed' || missing+=("$lib")
done
((${#missing[@]} == 0)) || (unset APT_CONFIG; sys_install "${missing[@]}")

tmp=$(mktemp -d "$CACHE/qemu-tmp.XXXXXX")
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
(cd "$tmp" && timeout 300 apt-get download -qq "${QEMU_PKGS[@]/%/=$QEMU_VERSION}")
mkdir "$tmp/root"
for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$tmp/root"; done
bin=$tmp/root/usr/bin/qemu-system-aarch64
if ldd "$bin" | grep 'not found' >&2; then log "unresolved libraries (above)"; exit 1; fi
QEMU_MODULE_DIR=$tmp/root/usr/lib/x86_64-linux-gnu/qemu "$bin" --version | head -1 >&2
rm -rf "$out"
mv "$tmp/root" "$out"
echo "$QEMU_VERSION ${QEMU_PKGS[*]}" >"$out/.done"
echo "$out"
