#!/bin/sh
# At boot, before the companion starts (table-companion-update-check.service): an update
# that was cut off (a power cut, a crash) after install.sh switched to the new version but
# before that version said READY=1 goes back to the version before it, the one that ran.
#
# install.sh writes /opt/table-companion/update-pending before the switch (the new
# version, the one before it, and this boot's id) and removes it once the new version is
# ready or rolled back. Found at a later boot, the update never finished: the new version
# is untried, and may be the reason the machine went down: the venv, the copy of the
# checkout (and with it the command `companion`) and the service unit of the version before
# come back. Found in the boot that wrote it, install.sh is at work: nothing to do. The new
# version's directory stays (the next install.sh removes it).
#
# A read-only root (the card image's read_only = true) that was made writable by hand for
# the update boots read-only again after the cut: the unit runs `writable` first, which
# remounts the root writable for the going back (only then: a pending mark from an earlier
# boot, and the root read-only), and `read-only-again` last, which puts back what it found
# (the file system's read-only flag, or only the mount's). Both run outside the unit's
# sandbox (systemd's "+"), and remount the root as PID 1 sees it (its mount namespace:
# even a "+" command has one of its own, and the next command's sandbox is made from
# PID 1's).
#
#     update-check.sh                   # the going back (root, in the unit's sandbox)
#     update-check.sh writable          # before it: a read-only root made writable
#     update-check.sh read-only-again   # after it: read-only again, if `writable` made it so
#
# TABLE_COMPANION_ROOT, for the tests only, puts /opt, /etc, /proc and /run under another
# directory; there the root is remounted only through TABLE_COMPANION_MOUNT (a stand-in
# for mount(8)), never this machine's own.
set -eu

root="${TABLE_COMPANION_ROOT:-}"
app=table-companion
prefix="$root/opt/$app"
unit="$root/etc/systemd/system/$app.service"
pending="$prefix/update-pending"
boot_id_file="$root/proc/sys/kernel/random/boot_id"
#: what `writable` did to the root ("filesystem" or "mount"), for `read-only-again`
remounted="$root/run/$app-update-check.remounted"
mount_command="${TABLE_COMPANION_MOUNT:-}"
if [ -z "$mount_command" ] && [ -z "$root" ]; then
    mount_command="nsenter --mount=/proc/1/ns/mnt mount"
fi

# How the root is read-only now, as PID 1 sees it: "filesystem" (the file system's own
# flag, as fstab's `ro` leaves it), "mount" (only this mount's flag), or "" (writable).
root_read_only() {
    awk '$5 == "/" {
        for (i = 7; i <= NF && $i != "-"; i++) {}
        mnt = "," $6 ","; fs = "," $(i + 3) ","
    } END {
        if (fs ~ /,ro,/) print "filesystem"; else if (mnt ~ /,ro,/) print "mount"
    }' "$root/proc/1/mountinfo" 2>/dev/null || true
}

# The root remounted: $1 rw or ro, $2 "filesystem" or "mount" (a bind remount).
remount_root() {
    if [ -z "$mount_command" ]; then
        echo "update-check: not remounting / (TABLE_COMPANION_ROOT without" \
            "TABLE_COMPANION_MOUNT)" >&2
        return 1
    fi
    if [ "$2" = mount ]; then
        $mount_command -o "remount,bind,$1" /
    else
        $mount_command -o "remount,$1" /
    fi
}

case "${1:-}" in
    "") ;;
    writable)
        [ -f "$pending" ] || exit 0
        boot="$(sed -n 's/^boot=//p' "$pending")"
        if [ -n "$boot" ] && [ "$boot" = "$(cat "$boot_id_file" 2>/dev/null || true)" ]; then
            exit 0 # install.sh is at work in this boot
        fi
        how="$(root_read_only)"
        [ -n "$how" ] || exit 0
        if remount_root rw "$how"; then
            mkdir -p "${remounted%/*}"
            echo "$how" >"$remounted"
            echo "update-check: the root is read-only: writable for going back to the" \
                "version before the cut-off update"
        else
            echo "update-check: the root is read-only and could not be made writable" >&2
        fi
        exit 0
        ;;
    read-only-again)
        [ -f "$remounted" ] || exit 0
        how="$(cat "$remounted")"
        rm -f "$remounted"
        sync
        if remount_root ro "$how"; then
            echo "update-check: the root is read-only again"
        else
            echo "update-check: the root could not be made read-only again (a file open" \
                "for writing): it is read-only from the next start" >&2
        fi
        exit 0
        ;;
    *)
        echo "update-check: unknown argument $1 (none, writable or read-only-again)" >&2
        exit 2
        ;;
esac

[ -f "$pending" ] || exit 0
new="$(sed -n 's/^new=//p' "$pending")"
previous="$(sed -n 's/^previous=//p' "$pending")"
boot="$(sed -n 's/^boot=//p' "$pending")"
this_boot="$(cat "$boot_id_file" 2>/dev/null || true)"

if [ -n "$boot" ] && [ "$boot" = "$this_boot" ]; then
    echo "update-check: an update to $new is under way in this boot: left to install.sh"
    exit 0
fi
if [ ! -w "$prefix" ]; then
    # the root read-only, and `writable` could not change that: nothing can be switched
    echo "update-check: the update to $new was cut off before it reported ready, but" \
        "$prefix cannot be written (a read-only root): $new, untried, starts; make the" \
        "root writable (read_only = false in companion.toml) and restart to go back to" \
        "$previous" >&2
    exit 1
fi
case "$previous" in
    "" | */* | .*)
        echo "update-check: $pending names no version to go back to: removed" >&2
        rm -f "$pending"
        exit 0
        ;;
esac
if [ ! -x "$prefix/versions/$previous/venv/bin/python" ]; then
    echo "update-check: the update to $new was cut off, and the version before," \
        "$previous, is gone: keeping $new" >&2
    rm -f "$pending"
    sync "$prefix"
    exit 0
fi
# The unit the version before ran with, if the update changed it (install.sh kept it):
# back in place, and systemd told, before it starts the companion (this runs Before= it).
if [ -f "$prefix/versions/$previous/$app.service" ]; then
    cp "$prefix/versions/$previous/$app.service" "$unit.new"
    chmod 0644 "$unit.new"
    mv -f "$unit.new" "$unit"
    sync "$unit" "${unit%/*}"
    if [ -d "$root/run/systemd/system" ]; then
        systemctl daemon-reload ||
            echo "update-check: systemctl daemon-reload failed: $unit applies at the next boot" >&2
    fi
    echo "update-check: back to the service unit $previous ran with"
fi
# The same atomic switches as install.sh's: a new link renamed over the old one (the copy
# of the checkout only where the version before has one: older versions shared one copy).
if [ -d "$prefix/versions/$previous/src" ]; then
    ln -sfn "versions/$previous/src" "$prefix/src.new"
    mv -T "$prefix/src.new" "$prefix/src"
fi
ln -sfn "versions/$previous/venv" "$prefix/venv.new"
mv -T "$prefix/venv.new" "$prefix/venv"
sync "$prefix"
rm -f "$pending"
sync "$prefix"
echo "update-check: the update to $new was cut off before it reported ready:" \
    "back to $previous (run install.sh again to update)"
