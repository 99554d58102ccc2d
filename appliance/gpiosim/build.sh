#!/bin/sh
# gpio-sim.ko for the kernel of an appliance image (appliance/image.sh's folder).
#
# Debian builds neither gpio-sim nor IRQ_SIM, so the module is built out of tree from
# Debian's own source and headers of the image's exact kernel (its vermagic and symbol
# versions must match): kernel/irq/irq_sim.c is linked into the module, its one use of
# irq_to_desc (not exported) replaced by generic_handle_irq (exported, the same work).
# gpio-sim-matrix.patch adds a key matrix to the driver (module parameters matrix_rows
# and matrix_columns, a chip attribute matrix_keys): its columns follow its rows in the
# same call that switches a row. Without those parameters the driver is upstream's.
#
#   appliance/gpiosim/build.sh IMAGE_DIR      prints the path of gpio-sim.ko
#
# The kernel's release and Debian version are read from IMAGE_DIR/vmlinuz (its setup
# header's version string). The module is cached in
# $GPIOSIM_CACHE (default /var/cache/santo-domingo/gpiosim as root, else
# ~/.cache/santo-domingo/gpiosim)/<release>_<debian version>/, keyed by that, this
# script and the patch: a module built by another version of either is built again.
# Needs apt-get (Debian's registry; bookworm's lists, updated), dpkg-deb, make, gcc-12.
set -eu

image=${1:?usage: build.sh IMAGE_DIR}
here=$(cd "$(dirname "$0")" && pwd)
script="$here/$(basename "$0")"

if [ -z "${GPIOSIM_CACHE:-}" ]; then
    if [ "$(id -u)" = 0 ]; then GPIOSIM_CACHE=/var/cache/santo-domingo/gpiosim
    else GPIOSIM_CACHE="$HOME/.cache/santo-domingo/gpiosim"; fi
fi

# "6.1.0-50-amd64 (debian-kernel@...) #1 SMP PREEMPT_DYNAMIC Debian 6.1.176-1 (2026-07-02)":
# a bzImage's setup header holds at 0x20E the offset (less 0x200) of that string.
banner=$(
    [ "$(dd if="$image/vmlinuz" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] || exit 1
    start=$(($(od -An -tu2 -j526 -N2 "$image/vmlinuz") + 0x200))
    tail -c +$((start + 1)) "$image/vmlinuz" | head -c 256 | tr '\0' '\n' | head -n 1
) || { echo "build.sh: $image/vmlinuz is not a bzImage" >&2; exit 1; }
release=${banner%% *}
version=$(printf '%s\n' "$banner" | sed -n 's/.* Debian \([^ ]*\) .*/\1/p')
case "$release" in *-amd64) ;; *) echo "build.sh: not an amd64 Debian kernel: $banner" >&2; exit 1 ;; esac
[ -n "$version" ] || { echo "build.sh: no Debian version in: $banner" >&2; exit 1; }
abi=${release%-amd64}                     # 6.1.0-50
series=$(printf '%s' "$release" | cut -d. -f1-2)   # 6.1

patch="$here/gpio-sim-matrix.patch"
key=$(cat "$script" "$patch" | sha256sum | cut -c1-16)
out="$GPIOSIM_CACHE/${release}_${version}"
if [ -f "$out/gpio-sim.ko" ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
    echo "$out/gpio-sim.ko"
    exit 0
fi

work=$(mktemp -d /tmp/gs-build.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
# apt's own sandbox user cannot write to our temporary folder: download as we are.
apt-get -q=2 -o APT::Sandbox::User=root download \
    "linux-headers-$release=$version" "linux-headers-$abi-common=$version" \
    "linux-kbuild-$series=$version" "linux-source-$series=$version" >&2
for deb in ./*.deb; do dpkg-deb -x "$deb" root; done
tar -xJf "root/usr/src/linux-source-$series.tar.xz" -C . \
    "linux-source-$series/drivers/gpio/gpio-sim.c" \
    "linux-source-$series/drivers/gpio/gpiolib.h" \
    "linux-source-$series/kernel/irq/irq_sim.c"

headers="$work/root/usr/src/linux-headers-$release"
# its Makefile includes the common headers' by their installed path: point it here
printf 'include %s\n' "$work/root/usr/src/linux-headers-$abi-common/Makefile" > "$headers/Makefile"

mkdir module
src="linux-source-$series"
cp "$src/drivers/gpio/gpio-sim.c" module/gpio_sim_main.c
patch -s --no-backup-if-mismatch module/gpio_sim_main.c "$patch" >&2
cp "$src/drivers/gpio/gpiolib.h" module/
grep -q 'handle_simple_irq(irq_to_desc(irqnum));' "$src/kernel/irq/irq_sim.c" ||
    { echo "build.sh: irq_sim.c changed: its irq_to_desc line is not there" >&2; exit 1; }
sed 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' \
    "$src/kernel/irq/irq_sim.c" > module/irq_sim.c
cat > module/Kbuild <<'EOF'
obj-m := gpio-sim.o
gpio-sim-y := gpio_sim_main.o irq_sim.o
EOF

# Debian's kernels are built with gcc-12 (bookworm's): the same compiler, by name
make -s -C "$headers" M="$work/module" CC=gcc-12 modules >&2
modinfo_vermagic=$(strings module/gpio-sim.ko | sed -n 's/^vermagic=//p')
case "$modinfo_vermagic" in "$release "*) ;; *)
    echo "build.sh: the module's vermagic ($modinfo_vermagic) is not $release's" >&2; exit 1 ;; esac

mkdir -p "$out"
cp module/gpio-sim.ko "$out/gpio-sim.ko.tmp"
mv "$out/gpio-sim.ko.tmp" "$out/gpio-sim.ko"
printf '%s\n' "$banner" > "$out/kernel"
printf '%s\n' "$key" > "$out/key"
echo "$out/gpio-sim.ko"
