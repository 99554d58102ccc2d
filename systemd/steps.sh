# The names below are for the scripts that source this file:
# shellcheck shell=bash disable=SC2034
# What install.sh and uninstall.sh share: the names, the paths under --root, and the
# numbered steps that only say what they would do in a dry run. Sourced after NAME,
# SERVICE, ROOT, DRY and SCRIPT (the script's name, for messages) are set.

ETC=$ROOT/etc
UNIT=$ETC/systemd/system/$SERVICE.service
DROPIN=$ETC/systemd/system/$SERVICE.service.d/web.conf  # the page for phones' network
RULE=$ETC/udev/rules.d/99-$NAME-hub.rules
SYSUSERS=$ETC/sysusers.d/$SERVICE.conf
# The drivers the unit's DeviceAllow= classes need, loaded at every boot before it starts
MODULES=$ETC/modules-load.d/$NAME.conf
STEP=0 CHANGED=0
trap 'echo "$SCRIPT: step $STEP failed; once that is fixed, run it again (safe)" >&2' ERR

step() { STEP=$((STEP + 1)); printf '%2d. %s\n' "$STEP" "$1"; }
say() { printf '    %s\n' "$*"; }
# Run a command that changes the system; in a dry run, only say it.
act() {
    CHANGED=1
    if ((DRY)); then say "would run: $*"; else say "running: $*"; "$@"; fi
}
on_system() { [[ -z $ROOT ]] || { say "not run under --root"; return 1; }; }
