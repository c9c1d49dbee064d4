#!/bin/sh
# At boot, before the companion starts (table-companion-update-check.service): an update
# that was cut off (a power cut, a crash) after install.sh switched to the new version but
# before that version said READY=1 goes back to the version before it, the one that ran.
#
# install.sh writes /opt/table-companion/update-pending before the switch (the new
# version, the one before it, and this boot's id) and removes it once the new version is
# ready or rolled back. Found at a later boot, the update never finished: the new version
# is untried, and may be the reason the machine went down. Found in the boot that wrote it,
# install.sh is at work: nothing to do. The new version's directory stays (the next
# install.sh removes it).
#
#     update-check.sh            # as the unit runs it (root)
#
# TABLE_COMPANION_ROOT, for the tests only, puts /opt and /proc under another directory.
set -eu

root="${TABLE_COMPANION_ROOT:-}"
prefix="$root/opt/table-companion"
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
# The same atomic switch as install.sh's: a new link renamed over the old one.
ln -sfn "versions/$previous/venv" "$prefix/venv.new"
mv -T "$prefix/venv.new" "$prefix/venv"
sync "$prefix"
rm -f "$pending"
sync "$prefix"
echo "update-check: the update to $new was cut off before it reported ready:" \
    "back to $previous (run install.sh again to update)"
