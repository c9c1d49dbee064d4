#!/usr/bin/env bash
# Install Table Companion on Raspberry Pi OS Bookworm (64-bit) or Debian 12 as a service
# that starts the table screen at boot, without a desktop. Run it from a checkout:
#
#     sudo deploy/install.sh [--enable-uart] [--hotspot] [--hostname NAME] [--user NAME]
#                            [--dry-run]
#     sudo deploy/install.sh --uninstall        # removes everything but the saved games
#
# No compiler on the Pi: the app is installed as a wheel of plain Python (the rules engine
# without mypyc), built from this checkout with Debian's python3 alone; --wheel FILE
# installs one built elsewhere instead (for example a compiled engine for aarch64). Every
# Python package comes from the lock files in requirements/, checked against its hash; the
# phones' server's C HTTP parser (requirements/fast.txt) only where its wheel fits.
#
# Safe to run again (that is how you update): every step checks what is already done.
# With --dry-run it only prints the commands it would run, and needs no root.
set -euo pipefail

readonly APP=table-companion
readonly GROUPS_NEEDED=(video render input gpio audio dialout)
readonly APT_PACKAGES=(
    python3 python3-venv rsync ca-certificates udev      # the app and its install
    fonts-dejavu-core                                     # fonts beyond the bundled ones
    libgbm1 libdrm2 libegl1 libgles2                      # SDL's KMS/DRM display (no desktop)
    libgl1-mesa-dri                                       # its GPU drivers (vc4, v3d): loaded
                                                          # by libgbm1, not among its depends
    alsa-utils libasound2                                 # sound (ALSA, no desktop session)
    espeak-ng                                             # the table's voice (companion.speech)
    avahi-daemon                                          # mDNS: phones open <name>.local
)
# --hotspot: the Pi's own Wi-Fi. NetworkManager (Bookworm's network stack), the access
# point's WPA (wpasupplicant) and the addresses it hands out (dnsmasq-base): the last two
# are only recommended by network-manager, so named here.
readonly HOTSPOT_PACKAGES=(network-manager wpasupplicant dnsmasq-base)

# For the tests only: with --dry-run, TABLE_COMPANION_ROOT makes the checks for files
# already installed look under another directory (so a test can fake an installed Pi).
root="${TABLE_COMPANION_ROOT:-}"
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix=/opt/$APP
config_file=/etc/$APP/config.toml
data_dir=/var/lib/$APP
unit_file=/etc/systemd/system/$APP.service
udev_rule=/etc/udev/rules.d/99-$APP-readers.rules
command_file=/usr/local/bin/companion
avahi_file=/etc/avahi/services/$APP.service
avahi_conf=/etc/avahi/avahi-daemon.conf
hotspot_info=/etc/$APP/hotspot.toml
hotspot_profile=/etc/NetworkManager/system-connections/$APP-hotspot.nmconnection
watchdog_conf=/etc/systemd/system.conf.d/$APP-watchdog.conf
journald_conf=/etc/systemd/journald.conf.d/$APP.conf
usb_backup_script=/usr/local/lib/$APP/usb-backup.sh
usb_backup_service=/etc/systemd/system/$APP-backup.service
usb_backup_timer=/etc/systemd/system/$APP-backup.timer
update_check_script=/usr/local/lib/$APP/update-check.sh
update_check_unit=/etc/systemd/system/$APP-update-check.service
# Written before the switch to a new version, removed once it reported ready or was rolled
# back: found at a later boot, the update was cut off (deploy/update-check.sh).
update_pending=$prefix/update-pending
hostname_file=/etc/hostname
hosts_file=/etc/hosts
# A display manager's unit: only with one does a graphical boot hold the screen.
display_manager=/etc/systemd/system/display-manager.service
#: the name phones open as <name>.local, unless one was chosen (in Imager, or --hostname)
readonly DEFAULT_HOSTNAME=table
# Names no one chose: the images' and installers' defaults, replaced by $DEFAULT_HOSTNAME.
readonly UNCHOSEN_HOSTNAMES=" raspberrypi localhost debian "
# Debian's own Python: one from pyenv or /usr/local may sit in a home the service cannot read.
system_python=/usr/bin/python3
# (the rollback test's stand-in systems have their python3 on PATH)
[ "${TABLE_COMPANION_FAKE_SYSTEM:-}" != 1 ] || system_python=python3

dry_run=0
uninstall=0
enable_uart=0
hotspot=0
wheel_file=""
service_user=companion
hostname_wanted=""
usb_backup=0
reboot_needed=0
# The versions' directories (versions/NAME) of this install and of the one in use before.
new_release=""
previous_release=""
# Set once this run marked its update pending ($update_pending).
pending_written=0
# Set when a step asked for could not be done: the install ends saying so, with status 1.
unfinished=()

usage() {
    cat <<EOF
usage: sudo $0 [options]

Install Table Companion as a service that starts the table screen when the Pi boots.

  --user NAME     the service user (default: companion)
  --enable-uart   turn on the Pi's serial port for an RFID reader on GPIO 14/15
                  (raspi-config's non-interactive mode; needs a reboot)
  --hotspot       make the Pi's own Wi-Fi when no known network is around (a
                  NetworkManager hotspot; its name and passphrase go to $hotspot_info)
  --usb-backup    back the saved games up every hour onto a USB stick labelled
                  TABLEBACKUP whenever one is plugged in (a systemd timer)
  --hostname NAME the Pi's name, which phones open as NAME.local (default: keep a
                  name chosen before, e.g. in Raspberry Pi Imager; else '$DEFAULT_HOSTNAME')
  --wheel FILE    install this wheel of the app instead of building one (plain Python)
  --dry-run       print every step without changing anything
  --uninstall     remove the service, the app, its command, config and udev rule;
                  the saved games in $data_dir stay
  -h, --help      this help
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --uninstall) uninstall=1 ;;
        --enable-uart) enable_uart=1 ;;
        --hotspot) hotspot=1 ;;
        --usb-backup) usb_backup=1 ;;
        --wheel)
            [ $# -ge 2 ] || { echo "install.sh: --wheel needs a file" >&2; exit 2; }
            wheel_file="$2"
            shift
            ;;
        --wheel=*) wheel_file="${1#--wheel=}" ;;
        --user)
            [ $# -ge 2 ] || { echo "install.sh: --user needs a name" >&2; exit 2; }
            service_user="$2"
            shift
            ;;
        --user=*) service_user="${1#--user=}" ;;
        --hostname)
            [ $# -ge 2 ] || { echo "install.sh: --hostname needs a name" >&2; exit 2; }
            hostname_wanted="$2"
            shift
            ;;
        --hostname=*) hostname_wanted="${1#--hostname=}" ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

if ! [[ "$service_user" =~ ^[a-z_][a-z0-9_-]{0,31}$ ]]; then
    echo "install.sh: '$service_user' is not a valid user name" >&2
    exit 2
fi
if [ -n "$hostname_wanted" ] &&
    ! [[ "$hostname_wanted" =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]]; then
    echo "install.sh: '$hostname_wanted' is not a valid host name (a-z, 0-9 and '-', up to 63)" >&2
    exit 2
fi
if [ -n "$wheel_file" ]; then
    if [[ "$wheel_file" != *.whl ]] || [ ! -f "$wheel_file" ]; then
        echo "install.sh: --wheel: '$wheel_file' is not a wheel file (*.whl)" >&2
        exit 2
    fi
    wheel_file="$(cd "$(dirname "$wheel_file")" && pwd)/$(basename "$wheel_file")"
fi

step() { printf '\n==> %s\n' "$*"; }
note() { printf '    = %s\n' "$*"; }
warn() { printf '    ! %s\n' "$*" >&2; }

run() {
    # Print a command, shell-quoted, and run it unless this is a dry run.
    local quoted
    printf -v quoted ' %q' "$@"
    printf '    $%s\n' "$quoted"
    [ "$dry_run" -eq 1 ] || "$@"
}

have() { command -v "$1" >/dev/null 2>&1; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
user_exists() { id -u "$1" >/dev/null 2>&1; }
group_exists() { getent group "$1" >/dev/null 2>&1; }
systemd_running() { [ -d "$root/run/systemd/system" ]; }
# udevd's control socket: absent in a container or a chroot, where udev does not run.
udev_running() { [ -e "$root/run/udev/control" ]; }

owned_by() {
    # Whether directory $1 and everything in it belong to user $2.
    local other
    [ -d "$1" ] && user_exists "$2" || return 1
    other="$(find "$1" ! -user "$2" -print -quit 2>/dev/null)" || return 1
    [ -z "$other" ]
}

same_file() {
    # Whether installed file $2 already has the content of $1.
    [ -f "$2" ] && cmp -s "$1" "$2"
}

changed=0
install_file() {
    # Copy $1 to $2 with mode $3 unless it is already there, unchanged; sets $changed.
    if same_file "$1" "$root$2"; then
        note "$2 is up to date"
        changed=0
    else
        run install -D -m "$3" "$1" "$root$2"
        changed=1
    fi
}

preflight() {
    if [ "$dry_run" -eq 1 ]; then
        echo "Dry run: printing the steps, changing nothing."
    elif [ -n "$root" ] && [ "${TABLE_COMPANION_FAKE_SYSTEM:-}" != 1 ]; then
        # (tests/test_deploy.py's rollback test runs for real into a directory, with every
        # system command a stub: it says so with TABLE_COMPANION_FAKE_SYSTEM=1)
        echo "install.sh: TABLE_COMPANION_ROOT is only for --dry-run (tests)" >&2
        exit 2
    elif [ "$(id -u)" -ne 0 ]; then
        echo "install.sh: run me as root: sudo $0" >&2
        exit 1
    fi
    for needed in pyproject.toml requirements/build.txt requirements/run.txt \
        requirements/fast.txt scripts/install-fast.sh \
        deploy/$APP.service deploy/config.toml deploy/companion.sh deploy/99-$APP-readers.rules \
         deploy/avahi/$APP.service deploy/hotspot.py deploy/usb-backup.sh \
         deploy/systemd/watchdog.conf deploy/systemd/journald.conf \
         deploy/systemd/$APP-backup.service deploy/systemd/$APP-backup.timer \
         deploy/update-check.sh deploy/systemd/$APP-update-check.service; do
        if [ ! -f "$source_dir/$needed" ]; then
            echo "install.sh: $source_dir/$needed is missing: run me from a full checkout" >&2
            exit 1
        fi
    done
    refuse_a_read_only_root
    local id="" version=""
    if [ -r /etc/os-release ]; then
        # shellcheck source=/dev/null # the running system's, not ours
        read -r id version < <(. /etc/os-release && echo "${ID:-?} ${VERSION_CODENAME:-?}")
    fi
    if [ "$version" != bookworm ]; then
        warn "made for Raspberry Pi OS / Debian 12 (bookworm); this is ${id:-?} ${version:-?}"
    fi
    local arch
    arch="$(uname -m)"
    case "$arch" in
        aarch64 | x86_64) ;;
        *) warn "made for 64-bit Raspberry Pi OS; on $arch the GPIO library (lgpio) may not install" ;;
    esac
}

refuse_a_read_only_root() {
    # A root mounted read-only (the card image's read_only = true, or a file-system error)
    # would stop the install half-way: said before anything changes.
    local mounts="$root/proc/mounts"
    [ -r "$mounts" ] || return 0
    awk '$2 == "/" { ro = ($3 != "overlay" && ("," $4 ",") ~ /,ro,/) } END { exit !ro }' \
        "$mounts" || return 0
    echo "install.sh: the root file system is mounted read-only: nothing was changed." >&2
    echo "  On the card image turn read-only off first: read_only = false in companion.toml" >&2
    echo "  on the boot partition, restart, install, then turn it on again" >&2
    echo "  (docs/raspberry-pi.md, 'A read-only root')." >&2
    exit 1
}

install_packages() {
    step "System packages: Python, fonts, KMS/DRM display libraries, ALSA sound"
    if ! have dpkg-query || ! have apt-get; then
        warn "no apt here: install by hand: ${APT_PACKAGES[*]}"
        return
    fi
    local missing=() pkg wanted=("${APT_PACKAGES[@]}")
    [ "$hotspot" -eq 0 ] || wanted+=("${HOTSPOT_PACKAGES[@]}")
    for pkg in "${wanted[@]}"; do
        installed "$pkg" || missing+=("$pkg")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        note "all installed: ${wanted[*]}"
        return
    fi
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

create_user() {
    step "Service user '$service_user' in the groups for screen, input, GPIO, sound and serial"
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        # systemd refuses to start a unit whose SupplementaryGroups= do not exist.
        group_exists "$group" || run groupadd --system "$group"
    done
    if user_exists "$service_user"; then
        note "user $service_user exists"
    else
        run useradd --system --user-group --home-dir "$data_dir" --no-create-home \
            --shell /usr/sbin/nologin --comment "Table Companion" "$service_user"
    fi
    local have_groups=" " missing=()
    user_exists "$service_user" && have_groups=" $(id -nG "$service_user") "
    for group in "${GROUPS_NEEDED[@]}"; do
        [[ "$have_groups" == *" $group "* ]] || missing+=("$group")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        note "$service_user is in ${GROUPS_NEEDED[*]}"
    else
        local list
        list="$(IFS=,; echo "${missing[*]}")"
        run usermod --append --groups "$list" "$service_user"
    fi
    step "Data directory $data_dir (the saved games)"
    if owned_by "$root$data_dir" "$service_user"; then
        note "$data_dir exists and belongs to $service_user"
    else
        run install -d -m 0750 -o "$service_user" -g "$service_user" "$root$data_dir"
        # Saved games from an earlier install may belong to an old user id.
        run chown -R "$service_user:$service_user" "$root$data_dir"
    fi
}

release_of() {
    # The release directory name a venv link ($1, e.g. versions/ID/venv) points into, or "".
    local target
    [ -L "$1" ] || { echo ""; return; }
    target="$(readlink "$1")"
    target="${target%/venv}"
    echo "${target##*/}"
}

install_app() {
    step "The app in $prefix: a wheel of this checkout (plain Python) in a new versioned venv"
    [ -d "$root$prefix" ] || run install -d -m 0755 "$root$prefix"
    # Every install (an update too) goes into a directory of its own, versions/VERSION-TIME:
    # its copy of the checkout (src) and its venv. $prefix/src and $prefix/venv are links to
    # the version in use, switched only once the new one is complete, and switched back if
    # the new version does not start (install_service). The version in use before stays
    # until the next update: one step back is always there.
    local version
    version="$(sed -n '/^version = "/{s/^version = "\(.*\)"$/\1/p;q}' \
        "$source_dir/pyproject.toml")"
    previous_release="$(release_of "$root$prefix/venv")"
    new_release="$version-$(date -u +%Y%m%dT%H%M%SZ)"
    local n=1 stamp="$new_release"
    while [ -e "$root$prefix/versions/$new_release" ]; do  # twice within a second
        new_release="$stamp.$n"
        n=$((n + 1))
    done
    local release="$root$prefix/versions/$new_release"
    note "new version $new_release (in use now: ${previous_release:-none})"
    # A copy of the checkout: the wheel is built from it, and it keeps install.sh, the docs
    # and the example config beside the app for later updates (run from the copy in use,
    # it is copied too). --checksum: a changed file with the copy's size and time (a release
    # unpacked with its archive's times, a checkout made within the same second) is copied.
    run install -d -m 0755 "$release"
    run rsync -a --checksum --delete --delete-excluded --exclude=.git/ --exclude=.venv/ \
        --exclude=__pycache__/ --exclude='*.egg-info/' --exclude=build/ \
        --exclude=.pytest_cache/ --exclude=.mypy_cache/ --exclude=.ruff_cache/ \
        --exclude='*.so' --exclude=engine_build.json "$source_dir/" "$release/src/"
    run "$system_python" -m venv "$release/venv"
    local pip=("$release/venv/bin/python" -m pip --disable-pip-version-check)
    # Every package from the lock files (requirements/, scripts/lock.sh), each checked
    # against its hash: every Pi gets the versions the tests passed with.
    local lock="$release/src/requirements"
    local wheel="$wheel_file"
    if [ -z "$wheel" ]; then
        # No compiler here: COMPANION_COMPILE=0 makes setup.py skip mypyc, and without
        # build isolation pip fetches no build tools (mypy) either: only the locked pip,
        # setuptools and wheel, into the venv.
        run "${pip[@]}" install --quiet --no-cache-dir --require-hashes -r "$lock/build.txt"
        run env COMPANION_COMPILE=0 "${pip[@]}" wheel --quiet --no-cache-dir --no-deps \
            --no-build-isolation --wheel-dir "$release/wheels" "$release/src"
        # The build directory in the copy (5 MB).
        run rm -rf "$release/src/build"
        wheel="$release/wheels/${APP//-/_}-$version-py3-none-any.whl"
    fi
    # Its locked dependencies (lgpio on the Pi's aarch64 and armv7l), then the wheel alone;
    # pip compiles the bytecode, since the service sees /opt read-only (ProtectSystem=strict).
    run "${pip[@]}" install --quiet --no-cache-dir --require-hashes -r "$lock/run.txt"
    run "${pip[@]}" install --quiet --no-cache-dir --no-deps "$wheel"
    # The phones' server's C HTTP parser, a wheel or nothing: a 64-bit Pi OS has one, a
    # 32-bit one (armv7l, even on a 64-bit kernel) has none and serves with h11; one line
    # says which, and the install goes on (never compiles, never fails). Run from the
    # checkout this script runs from, with its requirements/fast.txt (the copy's twins).
    run bash "$source_dir/scripts/install-fast.sh" "$release/venv/bin/python" --no-cache-dir
    if [ -d "$root$prefix/venv" ] && [ ! -L "$root$prefix/venv" ]; then
        # An install from before versioned venvs: its venv becomes the previous version. Its
        # scripts name /opt/table-companion/venv/bin/python, which the link still reaches.
        # The link follows at once: until the switch to the new version (or if this run
        # stops before it) the version that runs is reached, and found again by a rerun.
        run install -d -m 0755 "$root$prefix/versions/earlier"
        run mv -T "$root$prefix/venv" "$root$prefix/versions/earlier/venv"
        run ln -s "versions/earlier/venv" "$root$prefix/venv"
        previous_release=earlier
    fi
    if [ ! -e "$root$prefix/venv" ] && [ ! -L "$root$prefix/venv" ] &&
        [ -d "$root$prefix/versions/earlier/venv" ]; then
        # A run stopped between that move and its link: the version before is found again.
        run ln -s "versions/earlier/venv" "$root$prefix/venv"
        previous_release=earlier
    fi
    if [ -d "$root$prefix/src" ] && [ ! -L "$root$prefix/src" ]; then
        # One copy of the checkout for every version (before per-version copies): it goes
        # with the version in use, reached through a link at once (this script may be
        # running from it).
        if [ -n "$previous_release" ] && [ ! -e "$root$prefix/versions/$previous_release/src" ]
        then
            run mv -T "$root$prefix/src" "$root$prefix/versions/$previous_release/src"
            run ln -s "versions/$previous_release/src" "$root$prefix/src"
        else
            # No version before this one to keep it (no venv), or that version has its own
            # copy: the new version's copy takes its place at once, as the link the switch
            # then renames over (this script may be running from it: $source_dir/deploy
            # still holds the same files).
            run rm -rf "$root$prefix/src"
            run ln -s "versions/$new_release/src" "$root$prefix/src"
        fi
    fi
    command_link
    install_update_check
    if [ -n "$previous_release" ]; then
        # A power cut from here until the new version's READY=1 (or the rollback) finds
        # this at the next boot, and the version before comes back (update-check.sh).
        local tmp
        tmp="$(mktemp)"
        printf 'new=%s\nprevious=%s\nboot=%s\n' "$new_release" "$previous_release" \
            "$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || true)" >"$tmp"
        run install -m 0644 "$tmp" "$root$update_pending"
        rm -f "$tmp"
        run sync "$root$prefix"  # on the disk before the switch it may have to undo
        pending_written=1
    fi
    use_release "$new_release"
}

command_link() {
    # The command `companion`: a relative link to the wrapper in the copy in use
    # ($prefix/src), so that it is always the one of the version that runs.
    local target="../../..$prefix/src/deploy/companion.sh"
    if [ -L "$root$command_file" ] && [ "$(readlink "$root$command_file")" = "$target" ]; then
        note "$command_file is up to date"
    else
        [ -d "$root${command_file%/*}" ] || run install -d -m 0755 "$root${command_file%/*}"
        run ln -sfn "$target" "$root$command_file"
    fi
}

install_update_check() {
    # The boot-time check for an update cut off before its new version was ready: in place
    # (and enabled) before the first switch it may have to undo.
    install_file "$source_dir/deploy/update-check.sh" "$update_check_script" 0755
    install_file "$source_dir/deploy/systemd/$APP-update-check.service" "$update_check_unit" 0644
    if [ ! -L "$root/etc/systemd/system/multi-user.target.wants/$APP-update-check.service" ]
    then
        run systemctl enable "$APP-update-check.service"
    fi
}

update_settled() {
    # The update is over (the new version ready, rolled back, or not started here): no
    # pending mark for the next boot to act on.
    if [ -e "$root$update_pending" ] || [ "$pending_written" -eq 1 ]; then
        run rm -f "$root$update_pending"
        run sync "$root$prefix"
    fi
}

use_release() {
    # Point $prefix/src and $prefix/venv at versions/$1's: each a new link renamed over the
    # old (atomic). A version from before per-version copies has no src: the copy stays.
    if [ "$1" = "$new_release" ] || [ -d "$root$prefix/versions/$1/src" ]; then
        run ln -sfn "versions/$1/src" "$root$prefix/src.new"
        run mv -T "$root$prefix/src.new" "$root$prefix/src"
    fi
    run ln -sfn "versions/$1/venv" "$root$prefix/venv.new"
    run mv -T "$root$prefix/venv.new" "$root$prefix/venv"
}

keep_two_releases() {
    # Only the version in use and the one before it stay.
    local dir name
    for dir in "$root$prefix"/versions/*/; do
        [ -d "$dir" ] || continue
        name="$(basename "$dir")"
        if [ "$name" != "$new_release" ] && [ "$name" != "$previous_release" ]; then
            run rm -rf "$root$prefix/versions/$name"
        fi
    done
}

started() {
    # Whether the service is running after `systemctl restart` returned (a dry run: yes).
    [ "$dry_run" -eq 1 ] || systemctl is-active --quiet "$APP.service"
}

start_or_roll_back() {
    # Type=notify: `systemctl restart` waits for the companion's READY=1 (the table is up)
    # and fails when it exits, crashes or stays silent for TimeoutStartSec=.
    if run systemctl restart "$APP.service" && started; then
        note "version $new_release started and reported ready"
        update_settled
        keep_two_releases
        return
    fi
    warn "the new version $new_release did not start (its log: journalctl -u $APP -b)"
    if [ -z "$previous_release" ]; then
        warn "no earlier version to go back to"
        exit 1
    fi
    warn "going back to the version before, $previous_release"
    use_release "$previous_release"
    update_settled
    local unit_before="$root$prefix/versions/$previous_release/$APP.service"
    if [ -f "$unit_before" ]; then
        warn "going back to its service unit as well"
        run install -m 0644 "$unit_before" "$root$unit_file"
        run systemctl daemon-reload
    fi
    if run systemctl restart "$APP.service" && started; then
        warn "rolled back: $previous_release runs again; the failed $new_release is removed"
        run rm -rf "$root$prefix/versions/$new_release"
    else
        warn "$previous_release does not start either: see journalctl -u $APP -b"
    fi
    exit 1
}

install_config() {
    step "Configuration $config_file"
    if [ -e "$root$config_file" ]; then
        if same_file "$source_dir/deploy/config.toml" "$root$config_file"; then
            note "$config_file is the example, unchanged"
        else
            note "keeping your edited $config_file (the example is $prefix/src/deploy/config.toml)"
        fi
    else
        run install -D -m 0644 "$source_dir/deploy/config.toml" "$root$config_file"
    fi
}

enable_serial_port() {
    step "Serial port (UART) for a reader on GPIO 14/15"
    if [ "$enable_uart" -eq 0 ]; then
        note "not asked (pass --enable-uart for a reader on /dev/serial0)"
        return
    fi
    if ! have raspi-config; then
        warn "raspi-config not found (plain Debian?): add 'enable_uart=1' to"
        warn "/boot/firmware/config.txt, remove 'console=serial0,115200' from"
        warn "/boot/firmware/cmdline.txt, and reboot"
        enable_pi5_header_uart
        return
    fi
    # raspi-config's non-interactive mode: 0 means on, 1 means off (for get and do).
    if [ "$(raspi-config nonint get_serial_hw)" = 0 ]; then
        note "the serial port is on"
    else
        run raspi-config nonint do_serial_hw 0
        reboot_needed=1
    fi
    if [ "$(raspi-config nonint get_serial_cons)" = 1 ]; then
        note "no login console on the serial port"
    else
        run raspi-config nonint do_serial_cons 1
        reboot_needed=1
    fi
    enable_pi5_header_uart
}

enable_pi5_header_uart() {
    # A Pi 5's enable_uart=1 is its debug connector's port; GPIO 14/15 need an overlay.
    local model config
    model="$(pi_model)"
    [[ "$model" == "Raspberry Pi 5"* ]] || return 0
    config="$(boot_config)"
    if [ -z "$config" ]; then
        warn "a Pi 5 needs dtoverlay=uart0-pi5 in /boot/firmware/config.txt for GPIO 14/15,"
        warn "and there is no config.txt here: add the line by hand, and reboot"
        unfinished+=("the serial port on GPIO 14/15 (add dtoverlay=uart0-pi5 to config.txt)")
        return
    fi
    if add_boot_line "$config" "dtoverlay=uart0-pi5" "dtoverlay=uart0-pi5([[:space:]]|$)"; then
        reboot_needed=1
    fi
    note "a Pi 5 ($model): the header's port is /dev/ttyAMA0 (dtoverlay=uart0-pi5);"
    note "in [readers] use rdm6300:/dev/ttyAMA0"
}

web_port() {
    # The phone remote's port: [web] port of the installed config (or the example's).
    local file="$root$config_file" port
    [ -f "$file" ] || file="$source_dir/deploy/config.toml"
    port="$(awk '/^[[:space:]]*\[/ { section = $0; gsub(/[[:space:]]/, "", section) }
        section == "[web]" && /^[[:space:]]*port[[:space:]]*=/ {
            sub(/^[^=]*=[[:space:]]*/, ""); sub(/[[:space:]]*(#.*)?$/, ""); print; exit
        }' "$file")"
    if [[ "$port" =~ ^[0-9]{1,5}$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ]; then
        echo "$port"
    else
        echo 8080
    fi
}

install_avahi_service() {
    local port
    port="$(web_port)"
    step "mDNS: phones find http://<this Pi's name>.local:$port/ (avahi service file)"
    local tmp
    tmp="$(mktemp)"
    sed "s|<port>8080</port>|<port>$port</port>|" "$source_dir/deploy/avahi/$APP.service" >"$tmp"
    install_file "$tmp" "$avahi_file" 0644
    rm -f "$tmp"
    # avahi-daemon watches its services directory: no restart needed.
    mdns_over_ipv4_only
}

mdns_over_ipv4_only() {
    # mDNS over IPv4 alone (use-ipv6=no), and no IPv6 address announced over it either
    # (publish-aaaa-on-ipv4=no). The phone remote listens on IPv4 ([web] host 0.0.0.0), so
    # a phone sent to an IPv6 address finds nothing; and avahi 0.8 takes its own announcement
    # for a rival's when an IPv6 address replaces another while it announces (the link-local
    # one when the router's prefix comes, at every boot): it then renames the table NAME-2,
    # NAME-3, and phones opening NAME.local find nothing (avahi #117). use-ipv6=no alone left
    # the IPv6 addresses announced over IPv4: the card image's boot test still saw it rename.
    local conf="$root$avahi_conf" edits=0
    if [ ! -f "$conf" ]; then
        note "no $avahi_conf yet: avahi-daemon is not installed"
        return
    fi
    avahi_set server use-ipv6 no && edits=$((edits + 1))
    avahi_set publish publish-aaaa-on-ipv4 no && edits=$((edits + 1))
    if [ "$edits" -eq 0 ]; then
        note "avahi announces the name over IPv4 only (use-ipv6=no, publish-aaaa-on-ipv4=no)"
    elif systemd_running; then
        run systemctl try-restart avahi-daemon.service
    fi
}

avahi_set() {
    # KEY=VALUE ($2, $3) in section [$1] of avahi-daemon.conf: a line for KEY (commented
    # out or not) becomes it, else it goes under [$1] (the section added at the end if
    # missing). Status 0 when it changed the file (or would, in a dry run).
    local conf="$root$avahi_conf"
    if grep -q "^$2=$3[[:space:]]*\$" "$conf"; then
        return 1
    elif grep -q "^#\?[[:space:]]*$2[[:space:]]*=" "$conf"; then
        run sed -i "s/^#\?[[:space:]]*$2[[:space:]]*=.*/$2=$3/" "$conf"
    elif grep -q "^\[$1\]" "$conf"; then
        run sed -i "/^\[$1\]/a $2=$3" "$conf"
    else
        run sed -i "\$a [$1]\n$2=$3" "$conf"
    fi
}

setup_hotspot() {
    step "The Pi's own Wi-Fi (a NetworkManager hotspot) for tables without a router"
    if [ "$hotspot" -eq 0 ]; then
        if [ -e "$root$hotspot_profile" ]; then
            note "kept: $hotspot_profile (from an earlier --hotspot)"
        else
            note "not asked (pass --hotspot for a table with no Wi-Fi router around)"
        fi
        return
    fi
    run "$system_python" "$source_dir/deploy/hotspot.py" --root "${root:-/}" \
        --group "$service_user"
    if have raspi-config && [ -z "$(raspi-config nonint get_wifi_country 2>/dev/null)" ]; then
        warn "no Wi-Fi country set: the Pi keeps Wi-Fi off until one is. Set yours, e.g.:"
        warn "sudo raspi-config nonint do_wifi_country GB"
    fi
    if have nmcli && systemd_running; then
        run nmcli connection reload
        note "it starts by itself when no known Wi-Fi is around; to start it now:"
        note "sudo nmcli connection up 'Table Companion hotspot'"
    else
        note "NetworkManager is not running here: it reads the profile at the next boot"
    fi
}

boot_config() {
    # The Raspberry Pi firmware's config.txt (Bookworm's place, then the older one), or "".
    local file
    for file in /boot/firmware/config.txt /boot/config.txt; do
        if [ -f "$root$file" ]; then
            echo "$file"
            return
        fi
    done
    echo ""
}

pi_model() {
    # The board's name from the device tree ("Raspberry Pi 5 Model B Rev 1.0"), or "".
    local file model=""
    for file in /proc/device-tree/model /sys/firmware/devicetree/base/model; do
        if [ -r "$root$file" ]; then
            IFS= read -r -d '' model <"$root$file" || true
            break
        fi
    done
    echo "$model"
}

add_boot_line() {
    # Append line $2 to config.txt $1 under [all] (so no [pi4]-style section above it
    # limits it to one model) unless a line setting the same thing ($3, a regex) is there.
    if grep -Eq "^[[:space:]]*$3" "$root$1"; then
        note "$1 already has $(grep -m 1 -E "^[[:space:]]*$3" "$root$1")"
        return 1
    fi
    run sed -i -e '$a [all]' -e "\$a $2" "$root$1"
}

install_watchdog() {
    step "Hardware watchdog: a Pi that hangs whole resets itself (systemd feeds /dev/watchdog)"
    install_file "$source_dir/deploy/systemd/watchdog.conf" "$watchdog_conf" 0644
    if [ "$changed" -eq 1 ] && systemd_running; then
        run systemctl daemon-reexec  # systemd reads RuntimeWatchdogSec= when it starts
    fi
    local config
    config="$(boot_config)"
    if [ -z "$config" ]; then
        note "no Raspberry Pi config.txt here: systemd uses the kernel's /dev/watchdog if it has one"
    elif add_boot_line "$config" "dtparam=watchdog=on" "dtparam=watchdog="; then
        note "the SoC's watchdog is switched on in $config from the next boot"
    fi
}

cap_journal() {
    step "The log capped to spare the SD card: $journald_conf"
    install_file "$source_dir/deploy/systemd/journald.conf" "$journald_conf" 0644
    if [ "$changed" -eq 1 ] && systemd_running; then
        run systemctl restart systemd-journald.service
    fi
}

current_hostname() {
    # /etc/hostname's name: the one the system boots with ("" for none: in a chroot or an
    # image being built, `uname -n` would be the building machine's name).
    local name=""
    if [ -r "$root$hostname_file" ]; then
        read -r name <"$root$hostname_file" || true
    fi
    echo "$name"
}

set_hostname() {
    local port current name
    port="$(web_port)"
    current="$(current_hostname)"
    if [ -n "$hostname_wanted" ]; then
        name="$hostname_wanted"
    elif [ -n "$current" ] && [[ "$UNCHOSEN_HOSTNAMES" != *" $current "* ]]; then
        name="$current"
    else
        name="$DEFAULT_HOSTNAME"
    fi
    step "Hostname: phones open http://$name.local:$port/"
    if [ "$name" = "$current" ]; then
        if [ -n "$hostname_wanted" ] || [ "$name" = "$DEFAULT_HOSTNAME" ]; then
            note "the hostname is $name"
        else
            note "keeping the hostname '$name' chosen before (in Imager?); --hostname NAME changes it"
        fi
        return
    fi
    note "'${current:-none}' becomes '$name'"
    if have hostnamectl && systemd_running; then
        run hostnamectl hostname "$name"  # writes /etc/hostname too
    else
        local tmp
        tmp="$(mktemp)"
        echo "$name" >"$tmp"
        install_file "$tmp" "$hostname_file" 0644
        rm -f "$tmp"
    fi
    # Debian names the host itself on 127.0.1.1 (sudo warns when the name resolves nowhere).
    if [ ! -f "$root$hosts_file" ]; then
        note "no $hosts_file to update"
    elif grep -q '^127\.0\.1\.1[[:space:]]' "$root$hosts_file"; then
        run sed -i "s/^127\.0\.1\.1[[:space:]].*/127.0.1.1\t$name/" "$root$hosts_file"
    else
        run sed -i "\$a 127.0.1.1\t$name" "$root$hosts_file"
    fi
    if systemd_running; then
        run systemctl try-restart avahi-daemon.service  # announce the new name now
    fi
}

setup_usb_backup() {
    step "Hourly backups onto a USB stick labelled TABLEBACKUP (a systemd timer)"
    if [ "$usb_backup" -eq 0 ]; then
        if [ -e "$root$usb_backup_timer" ]; then
            note "kept: $usb_backup_timer (from an earlier --usb-backup)"
        else
            note "not asked (pass --usb-backup for hourly backups onto a USB stick)"
        fi
        return
    fi
    local any=0
    install_file "$source_dir/deploy/usb-backup.sh" "$usb_backup_script" 0755
    any=$((any + changed))
    install_file "$source_dir/deploy/systemd/$APP-backup.service" "$usb_backup_service" 0644
    any=$((any + changed))
    install_file "$source_dir/deploy/systemd/$APP-backup.timer" "$usb_backup_timer" 0644
    any=$((any + changed))
    if systemd_running; then
        [ "$any" -eq 0 ] || run systemctl daemon-reload
        run systemctl enable --now "$APP-backup.timer"
    else
        run systemctl enable "$APP-backup.timer"
    fi
    note "label a stick TABLEBACKUP (FAT, exFAT or ext4) and plug it in; the newest 24 stay"
}

check_read_only_root() {
    # raspi-config's overlay file system keeps every write in RAM: saved games included,
    # unless they have a partition of their own (docs/raspberry-pi.md, "A read-only root").
    local mounts="$root/proc/mounts"
    [ -r "$mounts" ] || return 0
    # An overlay root keeps its writes in RAM when its upper layer is on a tmpfs (or it is
    # raspi-config's "overlayroot"); a container's overlay on a disk keeps them.
    awk '$2 == "/" && $3 == "overlay" {
            if ($1 == "overlayroot") { ram = 1; next }
            n = split($4, options, ",")
            for (i = 1; i <= n; i++) if (options[i] ~ /^upperdir=/) upper = substr(options[i], 10)
        }
        { type[$2] = $3 }
        END {
            if (!ram && upper != "") {
                for (dir = upper; dir != ""; sub(/\/[^\/]*$/, "", dir))
                    if (dir in type) break
                if (dir == "") dir = "/"
                ram = (type[dir] == "tmpfs")
            }
            exit !ram
        }' "$mounts" || return 0
    if awk -v dir="$data_dir" '$2 == dir { found = 1 } END { exit !found }' "$mounts"; then
        note "a read-only root, with the saved games on their own partition ($data_dir)"
    else
        warn "the root file system is an overlay (raspi-config's read-only mode): every write"
        warn "goes to RAM, the saved games too, and a power cut loses them all. Give"
        warn "$data_dir a partition of its own (docs/raspberry-pi.md, 'A read-only root')"
        warn "or turn the overlay off: sudo raspi-config nonint do_overlayfs 1"
        unfinished+=("saved games that survive a power cut (the root is an overlay in RAM)")
    fi
}

install_udev_rule() {
    step "udev rule for USB RFID readers: $udev_rule"
    install_file "$source_dir/deploy/99-$APP-readers.rules" "$udev_rule" 0644
    if [ "$changed" -eq 0 ]; then
        return
    elif have udevadm && udev_running; then
        run udevadm control --reload-rules
        run udevadm trigger --action=change --subsystem-match=tty --subsystem-match=gpio
    else
        note "udev is not running here: the rule applies from the next boot"
    fi
}

install_service() {
    step "systemd service $APP.service (starts the table screen at boot)"
    local unit="$source_dir/deploy/$APP.service"
    if [ "$service_user" != companion ]; then
        local tmp
        tmp="$(mktemp)"
        # shellcheck disable=SC2064 # expand now: the file name is known now
        trap "rm -f '$tmp'" EXIT
        sed -e "s/^User=companion\$/User=$service_user/" \
            -e "s/^Group=companion\$/Group=$service_user/" "$unit" >"$tmp"
        unit="$tmp"
    fi
    if [ -n "$previous_release" ] && [ -f "$root$unit_file" ] &&
        ! same_file "$unit" "$root$unit_file"; then
        # The unit the version before ran with, for a rollback (a new setting this
        # systemd refuses must not keep the old version from starting either).
        run install -m 0644 "$root$unit_file" \
            "$root$prefix/versions/$previous_release/$APP.service"
    fi
    install_file "$unit" "$unit_file" 0644
    if ! systemd_running; then
        run systemctl enable "$APP.service"
        note "systemd is not running here: the service starts at the next boot"
        update_settled
        keep_two_releases
        return
    fi
    run systemctl daemon-reload
    run systemctl enable "$APP.service"
    if [ "$(systemctl get-default 2>/dev/null)" = graphical.target ]; then
        if [ -e "$root$display_manager" ] || [ -L "$root$display_manager" ]; then
            warn "this Pi boots to a desktop, which holds the screen: the companion cannot draw."
            warn "switch to console boot (sudo raspi-config nonint do_boot_behaviour B1) and reboot"
        else
            note "boots to graphical.target, but no desktop (display manager) holds the screen"
        fi
    fi
    if [ "$reboot_needed" -eq 1 ]; then
        note "not starting now: reboot first (sudo reboot) for the serial port"
        update_settled
        keep_two_releases
    else
        start_or_roll_back
    fi
}

do_install() {
    preflight
    install_packages
    create_user
    check_read_only_root
    install_app
    install_config
    install_avahi_service
    set_hostname
    setup_hotspot
    enable_serial_port
    install_watchdog
    cap_journal
    setup_usb_backup
    install_udev_rule
    install_service
    if [ ${#unfinished[@]} -gt 0 ]; then
        step "Done, but not all of it"
        local item
        for item in "${unfinished[@]}"; do
            warn "not done: $item"
        done
        exit 1
    fi
    step "Done"
    if [ "$reboot_needed" -eq 1 ]; then
        echo "    Reboot now (sudo reboot) to turn on the serial port; the companion starts by itself."
    fi
    echo "    Check the hardware:  sudo systemctl stop $APP && sudo -u $service_user companion doctor"
    echo "    Follow the log:      journalctl -u $APP -f"
    echo "    Settings:            sudo nano $config_file, then sudo systemctl restart $APP"
}

do_uninstall() {
    preflight
    step "Stop and remove the service"
    if [ -e "$root$usb_backup_timer" ]; then
        if systemd_running; then
            run systemctl disable --now "$APP-backup.timer"
        else
            run systemctl disable "$APP-backup.timer"
        fi
    fi
    if [ -e "$root$update_check_unit" ]; then
        run systemctl disable "$APP-update-check.service"
    fi
    if [ -e "$root$unit_file" ]; then
        if systemd_running; then
            run systemctl disable --now "$APP.service"
        else
            run systemctl disable "$APP.service"
        fi
        run rm -f "$root$unit_file"
        if systemd_running; then
            run systemctl daemon-reload
        fi
    else
        note "no service installed"
    fi
    step "Remove the udev rule, the command, mDNS, the hotspot, the app, the configuration, the watchdog and journal settings"
    local path had_hotspot=0
    [ ! -e "$root$hotspot_profile" ] || had_hotspot=1
    for path in "$udev_rule" "$command_file" "$avahi_file" "$hotspot_profile" "$prefix" \
        "/etc/$APP" "$watchdog_conf" "$journald_conf" "$usb_backup_timer" "$usb_backup_service" \
        "$update_check_unit" "/usr/local/lib/$APP"; do
        if [ -e "$root$path" ] || [ -L "$root$path" ]; then
            run rm -rf "$root$path"
        else
            note "$path is already gone"
        fi
    done
    if [ "$had_hotspot" -eq 1 ] && have nmcli && systemd_running; then
        run nmcli connection reload  # NetworkManager forgets the hotspot now, not at boot
    fi
    step "Remove the service user"
    if user_exists "$service_user"; then
        # Without --remove: its home is the data directory, which keeps the saved games.
        run userdel "$service_user"
    else
        note "no user $service_user"
    fi
    step "Done"
    echo "    The saved games stay in $data_dir (delete it by hand if you want them gone)."
    echo "    System packages, groups, the hostname, config.txt's lines and avahi's IPv4-only settings"
    echo "    are left as they are."
}

if [ "$uninstall" -eq 1 ]; then
    do_uninstall
else
    do_install
fi
