#!/usr/bin/env bash
# A backup of the saved games onto a USB stick, when one is plugged in: run by
# table-companion-backup.timer (installed with `deploy/install.sh --usb-backup`), or by hand.
#
#     sudo /usr/local/lib/table-companion/usb-backup.sh [--keep N] [--label LABEL]
#     usb-backup.sh --mounted DIR [--data-dir DIR] [--keep N] [--command PATH]
#                   # onto a stick already mounted at DIR, with this `companion` command
#
# The stick is any one whose file system is labelled TABLEBACKUP (FAT, exFAT or ext4): it is
# mounted for the copy (nosuid, nodev, noexec) and unmounted after, so it can be pulled out
# at any time between two backups. `companion backup` makes the copy while a game is
# played (SQLite's online backup), as the service's user, into table-companion-backups/
# on the stick; the archive is readable by its owner only (0600). The newest N (default 24)
# stay. No stick: nothing to do, and that is no error.
set -euo pipefail

readonly APP=table-companion
label=TABLEBACKUP
keep=24
mounted=""
data_dir=/var/lib/$APP
service_user=companion
companion=/usr/local/bin/companion
mount_dir=/run/$APP-usb-backup

usage() {
    sed -n '2,15s/^# \{0,1\}//p' "$0"
}

while [ $# -gt 0 ]; do
    case "$1" in
        --label) label="${2:?--label needs a name}"; shift ;;
        --keep) keep="${2:?--keep needs a number}"; shift ;;
        --mounted) mounted="${2:?--mounted needs a directory}"; shift ;;
        --data-dir) data_dir="${2:?--data-dir needs a directory}"; shift ;;
        --command) companion="${2:?--command needs the companion command}"; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "usb-backup.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
if ! [[ "$keep" =~ ^[1-9][0-9]{0,3}$ ]]; then
    echo "usb-backup.sh: --keep must be a whole number from 1 to 9999" >&2
    exit 2
fi
if ! [[ "$label" =~ ^[A-Za-z0-9_-]{1,16}$ ]]; then
    echo "usb-backup.sh: '$label' is not a file system label (letters, digits, _ and -)" >&2
    exit 2
fi

backup_into() {
    # The copy into $1/table-companion-backups, then only the newest $keep kept.
    local target="$1/$APP-backups" old
    mkdir -p "$target"
    if [ "$(id -u)" -eq 0 ] && id -u "$service_user" >/dev/null 2>&1; then
        # as the service's user, who owns the games (and on FAT, the mount: uid= below)
        chown "$service_user:" "$target" 2>/dev/null || true
        runuser -u "$service_user" -- env COMPANION_DATA_DIR="$data_dir" \
            "$companion" backup --data-dir "$data_dir" --out "$target/"
    else
        "$companion" backup --data-dir "$data_dir" --out "$target/"
    fi
    # file names sort by time (companion-backup-YYYYMMDD-HHMMSS.tar.gz): oldest first out
    while IFS= read -r old; do
        rm -f -- "$old"
        echo "removed the old backup $old"
    done < <(find "$target" -maxdepth 1 -name 'companion-backup-*.tar.gz' -print | sort -r |
        tail -n +"$((keep + 1))")
    sync -f "$target" 2>/dev/null || sync
}

if [ -n "$mounted" ]; then
    [ -d "$mounted" ] || { echo "usb-backup.sh: no directory $mounted" >&2; exit 2; }
    backup_into "$mounted"
    exit 0
fi

device="/dev/disk/by-label/$label"
if [ ! -e "$device" ]; then
    echo "no USB stick labelled $label plugged in: no backup this time"
    exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "usb-backup.sh: mounting the stick needs root" >&2; exit 1; }
fs="$(blkid -o value -s TYPE "$device" 2>/dev/null || true)"
options=nosuid,nodev,noexec
case "$fs" in
    vfat | exfat)  # no owners on the stick: the service's user owns it while mounted
        options="$options,uid=$(id -u "$service_user"),gid=$(id -g "$service_user"),fmask=0177,dmask=0077" ;;
    ext4 | ext3 | ext2 | btrfs | f2fs) ;;
    *) echo "usb-backup.sh: $device holds '${fs:-no}' file system: use FAT, exFAT or ext4" >&2
       exit 1 ;;
esac
mkdir -p "$mount_dir"
mount -o "$options" "$device" "$mount_dir"
trap 'umount "$mount_dir" && rmdir "$mount_dir"' EXIT
backup_into "$mount_dir"
echo "backup on the stick $label ($fs): $mount_dir/$APP-backups, the newest $keep kept"
