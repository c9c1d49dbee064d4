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
#     update-check.sh            # as the unit runs it (root)
#
# TABLE_COMPANION_ROOT, for the tests only, puts /opt, /etc, /proc and /run under another
# directory.
set -eu

root="${TABLE_COMPANION_ROOT:-}"
app=table-companion
prefix="$root/opt/$app"
unit="$root/etc/systemd/system/$app.service"
pending="$prefix/update-pending"
boot_id_file="$root/proc/sys/kernel/random/boot_id"

[ -f "$pending" ] || exit 0
new="$(sed -n 's/^new=//p' "$pending")"
previous="$(sed -n 's/^previous=//p' "$pending")"
boot="$(sed -n 's/^boot=//p' "$pending")"
this_boot="$(cat "$boot_id_file" 2>/dev/null || true)"

if [ -n "$boot" ] && [ "$boot" = "$this_boot" ]; then
    echo "update-check: an update to $new is under way in this boot: left to install.sh"
    exit 0
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
