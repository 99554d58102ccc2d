#!/usr/bin/env bash
# What `make appliance-test` needs on the host, from Debian's packages: mmdebstrap builds
# the guest's system, mkfs.ext4 (e2fsprogs) makes its disk without a loop mount, QEMU
# boots it. Installed with apt-get when missing (as root, as CI runs; else through sudo).
set -euo pipefail
need=()
have() { command -v "$1" >/dev/null 2>&1; }
have mmdebstrap || need+=(mmdebstrap)
have mkfs.ext4 || need+=(e2fsprogs)
have qemu-system-x86_64 || need+=(qemu-system-x86)
have qemu-img || need+=(qemu-utils)
((${#need[@]})) || exit 0
if [[ $(id -u) -eq 0 ]]; then apt=(apt-get); else apt=(sudo apt-get); fi
echo "appliance: installing ${need[*]} (Debian's packages)"
timeout 300 "${apt[@]}" update -qq
DEBIAN_FRONTEND=noninteractive timeout 600 "${apt[@]}" install -y -qq --no-install-recommends \
    "${need[@]}" >/dev/null
