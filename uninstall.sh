#!/usr/bin/env bash
# Remove what install.sh installed:   sudo ./uninstall.sh
# The saved games and history (/var/lib/santo-domingo) stay, unless --purge.
set -Eeuo pipefail

NAME=santo-domingo
SERVICE=companion

usage() {
    cat <<EOF
Usage: sudo ./uninstall.sh [--purge [--yes]] [--dry-run] [--root DIR]

Stops and disables the '$SERVICE' service and removes what install.sh installed: the
unit, the udev rule, the list of drivers loaded at boot and /opt/$NAME. Your config
(/etc/$NAME), the saved games and history in /var/lib/$NAME and the system user
'$SERVICE' they belong to stay, unless --purge: a later install.sh finds them as they
were.
The packages from the OS and the I2C and serial console settings are left as they are.

  --purge     remove the config /etc/$NAME, /var/lib/$NAME (the saved games, the
              history, the settings) and the user '$SERVICE' too: asked first
  --yes       with --purge: do not ask (needed where there is no terminal to ask at)
  --dry-run   print the numbered plan, change nothing
  --root DIR  remove the files under DIR instead of /, as install.sh --root put them;
              systemctl (but --root), udevadm and userdel are then not run
  --help      this text
EOF
}

DRY=0 PURGE=0 YES=0 ROOT=""
while (($#)); do
    case $1 in
        --dry-run) DRY=1 ;;
        --yes | -y) YES=1 ;;
        --purge) PURGE=1 ;;
        --root) (($# > 1)) || { echo "uninstall.sh: --root needs a folder" >&2; exit 2; }
                ROOT=$(realpath -m "$2"); shift ;;
        --root=*) ROOT=$(realpath -m "${1#--root=}") ;;
        -h | --help) usage; exit 0 ;;
        *) echo "uninstall.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

STATE=$ROOT/var/lib/$NAME
SCRIPT=uninstall.sh
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=systemd/steps.sh
source "$HERE/systemd/steps.sh"

# Remove a file or folder, if it is there.
remove() {
    if [[ -e $1 || -L $1 ]]; then act rm -rf "$1"; else say "already gone: $1"; fi
}

stop() {
    step "stop it and no longer start it at power-on (systemctl disable --now $SERVICE)"
    if [[ -n $ROOT ]]; then
        if [[ -e $UNIT ]] && systemctl --root="$ROOT" is-enabled --quiet "$SERVICE" 2>/dev/null; then
            act systemctl --root="$ROOT" disable "$SERVICE"
        else
            say "already disabled"
        fi
        return 0
    fi
    if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null \
        || systemctl is-active --quiet "$SERVICE" 2>/dev/null; then
        act systemctl disable --now "$SERVICE"
    else
        say "already stopped and disabled"
    fi
}

unit() {
    step "the systemd unit: $UNIT"
    if [[ ! -e $UNIT ]]; then say "already gone: $UNIT"; return 0; fi
    act rm -f "$UNIT"
    if on_system; then act systemctl daemon-reload; fi
}

web_dropin() {
    step "the page for phones' drop-in: $DROPIN"
    if [[ ! -e $DROPIN ]]; then say "already gone: $DROPIN"; return 0; fi
    act rm -f "$DROPIN"
    if [[ -d ${DROPIN%/*} ]] && [[ -z $(ls -A "${DROPIN%/*}") ]]; then act rmdir "${DROPIN%/*}"; fi
    if on_system; then act systemctl daemon-reload; fi
}

udev_rule() {
    step "the udev rule naming the Pico hub: $RULE"
    if [[ ! -e $RULE ]]; then say "already gone: $RULE"; return 0; fi
    act rm -f "$RULE"
    if on_system; then act udevadm control --reload; fi
}

modules() {
    step "the kernel's drivers at boot: $MODULES"
    # Only the file: the drivers stay loaded until the next boot, as nothing needs them gone.
    if [[ ! -e $MODULES ]]; then say "already gone: $MODULES"; return 0; fi
    act rm -f "$MODULES"
}

# --purge deletes what no reinstall brings back: asked first, unless --yes.
confirm_purge() {
    ((PURGE && !DRY && !YES)) || return 0
    [[ -e $STATE || -e $ETC/$NAME ]] || return 0  # nothing of the maker's left to lose
    if [[ ! -t 0 ]]; then
        echo "uninstall.sh: --purge deletes the saved games and the history ($STATE) and" \
             "the config: no terminal to ask at, so add --yes to say so" >&2
        exit 2
    fi
    local answer
    read -r -p "Delete the saved games, the history ($STATE) and the config ($ETC/$NAME) for good? [y/N] " answer || answer=""
    case $answer in
        y | Y | yes | Yes | YES) return 0 ;;
    esac
    echo "Nothing was changed. (Without --purge, uninstall.sh keeps them.)"
    exit 1
}

program() {
    step "the program and its venv: $ROOT/opt/$NAME"
    remove "$ROOT/opt/$NAME"
}

config() {
    step "the config: $ETC/$NAME"
    # As a Debian package keeps its conffiles: a reinstall finds the maker's edits.
    if ((!PURGE)); then say "kept (--purge removes it)"; return 0; fi
    remove "$ETC/$NAME"
}

state() {
    step "the saved games and history: $STATE"
    if ((!PURGE)); then say "kept (--purge removes them)"; return 0; fi
    if ((DRY && !YES)) && [[ -e $STATE ]]; then say "asked first (--yes: not asked)"; fi
    remove "$STATE"
}

system_user() {
    step "the system user '$SERVICE'"
    remove "$SYSUSERS"
    # The kept saved games belong to it, so it stays, as a Debian package's user does.
    if ((!PURGE)); then say "the user is kept with the saved games (--purge removes it)"; return 0; fi
    if ! grep -qs "^$SERVICE:" "$ETC/passwd"; then say "already gone: the user"; return 0; fi
    on_system || return 0
    act userdel "$SERVICE"
    if grep -qs "^$SERVICE:" "$ETC/group"; then act groupdel "$SERVICE"; fi
}

main() {
    if ((!DRY)) && [[ -z $ROOT && $EUID -ne 0 ]]; then
        echo "uninstall.sh: it changes the whole system: run it as root (sudo ./uninstall.sh)" >&2
        exit 2
    fi
    confirm_purge
    ((DRY)) && echo "The plan (a dry run: nothing is changed):"
    stop
    unit
    web_dropin
    udev_rule
    modules
    program
    config
    state
    system_user
    if ((DRY)); then echo "Nothing was changed (dry run)."; return 0; fi
    if ((!CHANGED)); then echo "Nothing more to remove."; return 0; fi
    if ((PURGE)); then echo "Removed."; return 0; fi
    echo "Removed. Your config stays in $ETC/$NAME, the saved games in $STATE."
}

main
