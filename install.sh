#!/usr/bin/env bash
# Install the Santo Domingo Companion as a service on Raspberry Pi OS Trixie or Bookworm
# (Zero 2 W, 3, 4, 5), from this checkout:   sudo ./install.sh
# Safe to run again (after a `git pull`, say): each step checks first and does only
# what is not done yet. `./install.sh --dry-run` shows the plan and changes nothing.
# On another Debian-based system (or not on a Pi) it says so and skips only what is
# Raspberry Pi OS's or a Pi's own (raspi-config, the OS's lgpio, the GPIO header).
# INSTALL_MODEL_FILE and INSTALL_RPI_ISSUE (for tests) name the files that say which Pi
# this is and that the OS is Raspberry Pi OS.
set -Eeuo pipefail

NAME=santo-domingo
SERVICE=companion
PACKAGES=(python3-venv python3-lgpio python3-spidev i2c-tools)
GROUPS_NEEDED=(gpio i2c spi dialout)
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MODEL_FILE=${INSTALL_MODEL_FILE:-/proc/device-tree/model}
# pi-gen, the tool that makes every Raspberry Pi OS image, writes this file into it
# ("Raspberry Pi reference DATE"); Debian and the other systems have none.
RPI_ISSUE=${INSTALL_RPI_ISSUE:-/etc/rpi-issue}
# The parts a new config is written for, the recommended first (hardware/README.md).
DISPLAYS=(ssd1309 ssd1306 none)
# shellcheck disable=SC2034  # the *_WORDS are read through ask's namerefs
DISPLAY_WORDS=('ssd1309: the 2.42" module (recommended)' 'ssd1306: the 0.96" module'
               'none: the game plays on the pads and the buzzer')
BUZZERS=(active passive none)
# shellcheck disable=SC2034
BUZZER_WORDS=('active: beeps the rhythm at its own pitch (recommended)'
              'passive: plays the notes, its volume set, through software-timed PWM'
              'none: silent')

usage() {
    cat <<EOF
Usage: sudo ./install.sh [--display D] [--buzzer B] [--yes] [--hub] [--web]
                         [--wheels DIR] [--dry-run] [--root DIR]

Installs the companion from this checkout and starts it at every power-on:
I2C on, the serial console off on a Zero 2 W to Pi 4 (GPIO 15 is the ▶ button; a Pi 5's
console is on its own debug connector), the packages it needs from the OS, a venv in
/opt/$NAME, the system user '$SERVICE', the config /etc/$NAME/companion.toml (from
docs/companion.example.toml, only if absent: it asks which display and buzzer you
fitted), the drivers of the hub's port and the display's bus loaded at every boot
(/etc/modules-load.d/$NAME.conf), the systemd unit '$SERVICE' and the udev rule naming
the Pico hub /dev/$NAME-hub. The unit has no network unless the page for phones is
enabled in the config ([web] enabled = true) or --web is given: then a drop-in lets the
local network in.

  --display D ssd1309 (the 2.42" module, recommended), ssd1306 (0.96") or none
  --buzzer B  active (recommended), passive or none
  --yes       ask nothing: the recommended part for what --display and --buzzer do
              not say (also without a terminal to ask at)
  --hub       the pads are on the Pico hub (USB): a new config reads them from there
              ([pads] source = "hub"; an existing config is never changed)
  --web       let the local network reach the page for phones (the drop-in
              $SERVICE.service.d/web.conf); without it, only when the config enables it
  --wheels DIR  the Python packages from the wheels in DIR only, never from PyPI: an
              install without the internet (DIR made elsewhere with \`pip download\`,
              docs/appliance-test.md says how)
  --dry-run   print the numbered plan, change nothing (any user, any machine)
  --root DIR  install the files (user, config, unit, udev rule) under DIR instead of /,
              for packaging and tests; apt-get, raspi-config, pip, udevadm and
              starting the service are then not run
  --help      this text

On a system that is not Raspberry Pi OS it says so and skips raspi-config's steps
(I2C, the serial console); lgpio then comes from PyPI. Not on a Raspberry Pi at all,
a new config uses gpiozero's mock pins: the pads on the hub, the page for phones.

Logs: journalctl -u $SERVICE -f        Remove it: sudo ./uninstall.sh
EOF
}

# Whether option $1's value $2 is one of the names after it; else exit 2 saying so.
pick() {
    local option=$1 value=$2 choice
    for choice in "${@:3}"; do [[ $value == "$choice" ]] && return 0; done
    echo "install.sh: $option: '$value' is not one of ${*:3}" >&2
    exit 2
}

DRY=0 HUB=0 WEB=0 YES=0 ROOT="" DISPLAY_PICK="" BUZZER_PICK="" WHEELS=""
while (($#)); do
    case $1 in
        --dry-run) DRY=1 ;;
        --yes | -y) YES=1 ;;
        --display | --buzzer)
            (($# > 1)) || { echo "install.sh: $1 needs a value (see --help)" >&2; exit 2; }
            if [[ $1 == --display ]]; then pick "$1" "$2" "${DISPLAYS[@]}"; DISPLAY_PICK=$2
            else pick "$1" "$2" "${BUZZERS[@]}"; BUZZER_PICK=$2; fi
            shift ;;
        --display=*) pick --display "${1#*=}" "${DISPLAYS[@]}"; DISPLAY_PICK=${1#*=} ;;
        --buzzer=*) pick --buzzer "${1#*=}" "${BUZZERS[@]}"; BUZZER_PICK=${1#*=} ;;
        --hub) HUB=1 ;;
        --web) WEB=1 ;;
        --root) (($# > 1)) || { echo "install.sh: --root needs a folder" >&2; exit 2; }
                ROOT=$(realpath -m "$2"); shift ;;
        --root=*) ROOT=$(realpath -m "${1#--root=}") ;;
        --wheels) (($# > 1)) || { echo "install.sh: --wheels needs a folder" >&2; exit 2; }
                  WHEELS=$2; shift ;;
        --wheels=*) WHEELS=${1#--wheels=} ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
if [[ -n $WHEELS ]]; then
    if ! compgen -G "$WHEELS/*.whl" >/dev/null; then
        echo "install.sh: --wheels: '$WHEELS' holds no wheels (*.whl)" >&2
        exit 2
    fi
    WHEELS=$(realpath "$WHEELS")
fi

SCRIPT=install.sh
# shellcheck source=systemd/steps.sh
source "$HERE/systemd/steps.sh"
OPT=$ROOT/opt/$NAME
VENV=$OPT/venv
CONFIG=$ETC/$NAME/companion.toml
STAMP=$OPT/installed-from  # the commit the venv was installed from
REBOOT=0

have() { command -v "$1" >/dev/null 2>&1; }
raspberry_pi_os() { [[ -e $RPI_ISSUE ]]; }
a_pi() { grep -qas 'Raspberry Pi' "$MODEL_FILE"; }
NOT_RPI_OS="skipped: not Raspberry Pi OS (no $RPI_ISSUE), whose raspi-config it is"
same() { cmp -s "$1" "$2"; }

# True if the file of the checkout is not in place yet (said if it is). Only a check:
# `act` never runs in a condition, where `set -e` would not stop at its failure.
differs() {
    if same "$1" "$2"; then say "already in place: $2"; return 1; fi
}
put_file() { act install -D -m 0644 "$1" "$2"; }

# Which display and buzzer a new config names: the options', else asked at a terminal,
# else (--yes, or nothing to ask at) the recommended ones. A dry run asks nothing.
choose_parts() {
    if [[ -e $CONFIG ]]; then
        if [[ -n $DISPLAY_PICK$BUZZER_PICK ]]; then
            echo "The config is there already and stays as it is: --display and --buzzer are"
            echo "for a new one ([display] controller and [sound] buzzer in $CONFIG say them)."
        fi
        return 0
    fi
    if ((!YES)) && [[ -t 0 ]]; then
        ((!DRY)) || return 0  # the plan says they will be asked
        [[ -n $DISPLAY_PICK ]] || DISPLAY_PICK=$(ask "Which display is fitted?" DISPLAYS DISPLAY_WORDS)
        [[ -n $BUZZER_PICK ]] || BUZZER_PICK=$(ask "Which buzzer is fitted?" BUZZERS BUZZER_WORDS)
        return 0
    fi
    if ((!DRY && !YES)) && [[ -z $DISPLAY_PICK || -z $BUZZER_PICK ]]; then
        echo "No terminal to ask at: the recommended parts where --display or --buzzer say none."
    fi
    DISPLAY_PICK=${DISPLAY_PICK:-${DISPLAYS[0]}}
    BUZZER_PICK=${BUZZER_PICK:-${BUZZERS[0]}}
}

# Ask $1 at the terminal; the answer is a number or a name of the array named $2 (its
# words in the array named $3), and an empty one is the first, the recommended. Prints
# the name; the question goes to stderr.
ask() {
    local question=$1 answer i
    local -n names=$2 words=$3
    printf '%s\n' "$question" >&2
    for i in "${!names[@]}"; do printf '  %d) %s\n' $((i + 1)) "${words[i]}" >&2; done
    while true; do
        read -r -p "Your choice [1]: " answer || answer=""
        answer=${answer:-1}
        if [[ $answer =~ ^[0-9]+$ ]] && ((answer >= 1 && answer <= ${#names[@]})); then
            printf '%s\n' "${names[answer - 1]}"; return 0
        fi
        for i in "${names[@]}"; do [[ $answer == "$i" ]] && { printf '%s\n' "$i"; return 0; }; done
        printf '  a number from 1 to %d, please\n' "${#names[@]}" >&2
    done
}

i2c_on() {
    step "I2C on (the display's bus)"
    raspberry_pi_os || { say "$NOT_RPI_OS: turn I2C on as your system does"; return 0; }
    if [[ ! -e $CONFIG && $DISPLAY_PICK == none ]]; then
        say "left as it is: no display (turn it on with raspi-config when you fit one)"
        return 0
    fi
    # An SPI display's D/C and reset lines are GPIO 2/3, the I2C pins: I2C must stay off.
    if grep -Eqs '^[[:space:]]*interface[[:space:]]*=[[:space:]]*"spi"' "$CONFIG"; then
        say "left as it is: the config's display is on SPI (hardware/README.md says how to"
        say "turn SPI on, and I2C stays off: its pins are the display's D/C and reset)"
        return 0
    fi
    have raspi-config || { say "no raspi-config here: turn I2C on yourself"; return 0; }
    if [[ $(raspi-config nonint get_i2c) == 0 ]]; then say "already on"; return 0; fi
    if on_system; then act raspi-config nonint do_i2c 0; fi
}

serial_console_off() {
    step "the serial console off (GPIO 15, RXD, is the ▶ button)"
    raspberry_pi_os || { say "$NOT_RPI_OS: take any console off GPIO 15 yourself"; return 0; }
    # A Pi 5's console (serial0) is its 3-pin debug connector's UART, not GPIO 14/15.
    if grep -Eqas 'Raspberry Pi (5|500)|Compute Module 5' "$MODEL_FILE"; then
        say "left as it is: a Pi 5's serial console is on its debug connector, not GPIO 15"
        return 0
    fi
    have raspi-config || { say "no raspi-config here: take console=serial0 out of cmdline.txt"; return 0; }
    if raspi_config_has do_serial_cons; then
        if [[ $(raspi-config nonint get_serial_cons) == 1 ]]; then say "already off"; return 0; fi
        if on_system; then act raspi-config nonint do_serial_cons 1; REBOOT=1; fi
        return 0
    fi
    # A raspi-config from before October 2023 (on early Bookworm images) has do_serial
    # alone: 1 turns the console off and the UART too, which leaves GPIO 14/15 plain GPIOs.
    if [[ $(raspi-config nonint get_serial) == 1 ]]; then say "already off"; return 0; fi
    say "an older raspi-config (no do_serial_cons): do_serial turns the UART off as well"
    if on_system; then act raspi-config nonint do_serial 1; REBOOT=1; fi
}

# Whether the raspi-config here has the function $1 (its nonint commands are its functions).
raspi_config_has() { grep -q "^$1()" "$(command -v raspi-config)"; }

packages() {
    local wanted=() missing=() p
    for p in "${PACKAGES[@]}"; do
        # python3-lgpio is Raspberry Pi OS's own: elsewhere a Pi gets lgpio from PyPI.
        if [[ $p != python3-lgpio ]] || raspberry_pi_os; then wanted+=("$p"); fi
    done
    step "packages from the OS: ${wanted[*]}"
    raspberry_pi_os || say "not python3-lgpio: Raspberry Pi OS has it, this system does not"
    for p in "${wanted[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    ((${#missing[@]})) || { say "already installed"; return 0; }
    have apt-get || { say "no apt-get here: install ${missing[*]} yourself"; return 0; }
    on_system || return 0
    act apt-get update -q
    act env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

venv() {
    step "a venv using the OS's packages (lgpio, spidev): $VENV"
    if grep -qs "include-system-site-packages = true" "$VENV/pyvenv.cfg"; then
        say "already there"; return 0
    fi
    if on_system; then act python3 -m venv --system-site-packages "$VENV"; fi
}

checkout_commit() {
    # The commit of a clean checkout, or nothing (not git, or changed by hand): reinstall.
    local git=(git -C "$HERE" -c safe.directory="$HERE")  # sudo: the checkout is pi's
    if "${git[@]}" diff --quiet HEAD 2>/dev/null; then "${git[@]}" rev-parse HEAD; fi
}

program() {
    step "the companion from this checkout into the venv (pip install $HERE)"
    local commit; commit=$(checkout_commit)
    if [[ -n $commit && -x $VENV/bin/$SERVICE ]] && [[ $(cat "$STAMP" 2>/dev/null) == "$commit" ]]; then
        say "already installed from $commit"; return 0
    fi
    on_system || return 0
    case $(uname -m) in  # PyPI's ready-made Pillow is for 64-bit ARM; 32-bit may compile it
        armv6l | armv7l) say "a 32-bit system: pip may have to build Pillow (slow, needs a" \
                             "compiler); the 64-bit Raspberry Pi OS is recommended" ;;
    esac
    local pip=("$VENV/bin/pip" install -q --disable-pip-version-check --root-user-action=ignore)
    [[ -z $WHEELS ]] || pip+=(--no-index --find-links "$WHEELS")
    # lgpio from PyPI (the pi extra) on a Pi whose OS has no python3-lgpio; off a Pi, none.
    local extra=""
    if a_pi && ! raspberry_pi_os; then extra="[pi]"; fi
    if ((DRY)); then act "${pip[@]}" "(a copy of $HERE)$extra"; return 0; fi
    # From a copy: pip builds in the tree it is given, and root's build files would stay
    # behind in the maker's checkout.
    local copy; copy=$(mktemp -d)
    tar -C "$HERE" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='*.egg-info' \
        --exclude='.*_cache' --exclude=./.hypothesis -cf - . | tar -C "$copy" -xf -
    act "${pip[@]}" "$copy$extra"
    rm -rf "$copy"
    printf '%s\n' "$commit" >"$STAMP"
}

system_user() {
    step "the system user '$SERVICE' in ${GROUPS_NEEDED[*]}"
    local from=$HERE/systemd/$SERVICE.sysusers
    if differs "$from" "$SYSUSERS"; then put_file "$from" "$SYSUSERS"; fi
    if user_ready; then say "already there"; return 0; fi
    if [[ -n $ROOT ]]; then act systemd-sysusers --root="$ROOT" "$SYSUSERS"
    else act systemd-sysusers "$SYSUSERS"; fi
}

user_ready() {
    grep -qs "^$SERVICE:" "$ETC/passwd" || return 1
    local g
    for g in "${GROUPS_NEEDED[@]}"; do
        grep -Eqs "^$g:[^:]*:[^:]*:(.*,)?$SERVICE(,.*)?$" "$ETC/group" || return 1
    done
}

config() {
    step "the config: $CONFIG"
    if [[ -e $CONFIG ]]; then say "already there (a config is never overwritten)"; return 0; fi
    CHANGED=1
    # The example, with the state folder the unit's StateDirectory= gives the service,
    # and the parts chosen: the display's driver, the buzzer's kind or none at its pin.
    local state='state_dir = "/var/lib/santo-domingo"' source='source = "matrix"'
    local edits=() parts=()
    ((HUB)) && source='source = "hub"'
    edits+=(-e "s|^state_dir = \"[^\"]*\"|$state|" -e "s|^source = \"[^\"]*\"|$source|")
    if ! a_pi; then  # no GPIO header: "auto" would find no pins and stop the service
        state+=', pin_factory = "mock" (not a Raspberry Pi: no GPIO pins, no buzzer)'
        edits+=(-e 's|^pin_factory = "[^"]*"|pin_factory = "mock"|')
        BUZZER_PICK=none
    fi
    case $DISPLAY_PICK in
        "") parts+=("the display it asks for") ;;
        none) parts+=("no display") ;;
        *) parts+=("controller = \"$DISPLAY_PICK\"")
           edits+=(-e "s|^controller = \"[^\"]*\"|controller = \"$DISPLAY_PICK\"|") ;;
    esac
    case $BUZZER_PICK in
        "") parts+=("the buzzer it asks for") ;;
        none) parts+=("no buzzer (buzzer = false)"); edits+=(-e "s|^buzzer = [0-9][0-9]*|buzzer = false|") ;;
        *) parts+=("buzzer = \"$BUZZER_PICK\"")
           edits+=(-e "s|^buzzer = \"[^\"]*\"|buzzer = \"$BUZZER_PICK\"|") ;;
    esac
    if ((DRY)); then
        say "would write it from docs/companion.example.toml, with $state, $source,"
        say "${parts[0]}, ${parts[1]}"
        return 0
    fi
    say "writing it from docs/companion.example.toml, with $state, $source,"
    say "${parts[0]}, ${parts[1]}"
    install -d -m 0755 "$(dirname "$CONFIG")"
    sed "${edits[@]}" "$HERE/docs/companion.example.toml" >"$CONFIG.new"
    chmod 0644 "$CONFIG.new" && mv "$CONFIG.new" "$CONFIG"
}

# The kernel's drivers for the devices the unit allows, loaded at every boot. systemd
# turns DeviceAllow=char-ttyACM (and char-i2c, char-spi) into device numbers from
# /proc/devices when the service starts, and a class is listed there only once its driver
# is loaded: cdc_acm loads when a USB serial device first appears, so a Pi booted without
# its hub would refuse the hub's port to the service for good. Loaded now too, before the
# service (re)starts.
modules() {
    step "the kernel's drivers at every boot (the hub's USB serial, the display's bus): $MODULES"
    local wanted=(cdc_acm) text m
    if grep -Eqs '^[[:space:]]*interface[[:space:]]*=[[:space:]]*"spi"' "$CONFIG"; then
        wanted+=(spidev)
    else
        wanted+=(i2c-dev)
    fi
    text="# santo-domingo (install.sh): the drivers of the devices companion.service may open,
# loaded at boot before it starts (uninstall.sh removes this file)."
    for m in "${wanted[@]}"; do text+=$'\n'"$m"; done
    if same <(printf '%s\n' "$text") "$MODULES"; then say "already in place: $MODULES"
    elif ((DRY)); then say "would write: ${wanted[*]}"; CHANGED=1
    else
        say "writing: ${wanted[*]}"
        install -d -m 0755 "$(dirname "$MODULES")"
        printf '%s\n' "$text" >"$MODULES"
        chmod 0644 "$MODULES"
        CHANGED=1
    fi
    on_system || return 0
    for m in "${wanted[@]}"; do
        if [[ -d /sys/module/${m//-/_} ]]; then continue; fi  # loaded, or built in
        if modinfo "$m" >/dev/null 2>&1; then act modprobe "$m"
        else say "no $m in this kernel: its devices come from elsewhere"; fi
    done
}

unit() {
    step "the systemd unit: $UNIT"
    local from=$HERE/systemd/$SERVICE.service
    differs "$from" "$UNIT" || return 0
    put_file "$from" "$UNIT"
    if on_system; then act systemctl daemon-reload; fi
}

# Whether the config turns the page on: `enabled = true` in its [web] table.
web_enabled() {
    [[ -f $CONFIG ]] && awk '
        /^[[:space:]]*\[/ { in_web = ($0 ~ /^[[:space:]]*\[web\][[:space:]]*(#.*)?$/) }
        in_web && /^[[:space:]]*enabled[[:space:]]*=[[:space:]]*true[[:space:]]*(#.*)?$/ { found = 1 }
        END { exit !found }' "$CONFIG"
}

web_dropin() {
    step "the page for phones' network (a drop-in): $DROPIN"
    if ((!WEB)) && ! web_enabled; then
        if [[ -e $DROPIN ]]; then say "kept (installed before; uninstall.sh removes it)"
        else say "not needed: the page is off in the config (--web installs it)"; fi
        return 0
    fi
    local from=$HERE/systemd/$SERVICE-web.conf
    differs "$from" "$DROPIN" || return 0
    put_file "$from" "$DROPIN"
    if on_system; then act systemctl daemon-reload; fi
}

udev_rule() {
    step "the udev rule naming the Pico hub /dev/$NAME-hub: $RULE"
    local from=$HERE/systemd/99-$NAME-hub.rules
    differs "$from" "$RULE" || return 0
    put_file "$from" "$RULE"
    if on_system; then
        act udevadm control --reload
        act udevadm trigger --subsystem-match=tty --action=add
    fi
}

start() {
    step "start it now and at every power-on (systemctl enable --now $SERVICE)"
    if [[ -n $ROOT ]]; then
        if systemctl --root="$ROOT" is-enabled --quiet "$SERVICE" 2>/dev/null; then
            say "already enabled"
        else
            act systemctl --root="$ROOT" enable "$SERVICE"
        fi
        return 0
    fi
    if ! systemctl is-enabled --quiet "$SERVICE" 2>/dev/null \
        || ! systemctl is-active --quiet "$SERVICE" 2>/dev/null; then
        act systemctl enable --now "$SERVICE"
    elif ((CHANGED)); then
        act systemctl restart "$SERVICE"  # running the old program or unit: the new one now
    else
        say "already enabled and running"
    fi
}

main() {
    if ((!DRY)) && [[ -z $ROOT && $EUID -ne 0 ]]; then
        echo "install.sh: it installs for the whole system: run it as root (sudo ./install.sh)" >&2
        exit 2
    fi
    choose_parts
    ((DRY)) && echo "The plan (a dry run: nothing is changed):"
    i2c_on
    serial_console_off
    packages
    venv
    program
    system_user
    config
    modules
    unit
    web_dropin
    udev_rule
    start
    if ((DRY)); then echo "Nothing was changed (dry run)."; return 0; fi
    ((REBOOT)) && echo "Reboot once: the serial console lets go of GPIO 15 (▶) after a reboot."
    ((CHANGED)) || echo "Everything was in place already."
    [[ -n $ROOT ]] || echo "Done. Its log: journalctl -u $SERVICE -f"
}

main
