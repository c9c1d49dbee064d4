#!/usr/bin/env bash
# The Pi install, for real, on the Pi's own architecture, on this x86 machine: an arm64
# Debian Bookworm root made by debootstrap (with systemd in it) and run through
# qemu-user-static and binfmt_misc. deploy/install.sh runs in it as on a fresh Pi; then the
# installed companion runs there (doctor, replay of the demo game, screenshot) and the
# installed files, the unit, the udev rule, the avahi service and the hotspot profile are
# checked. Prints how long each step took and the installed size.
#
#     sudo nice -n 19 deploy/test-arm64.sh [--cache-dir DIR] [--keep] [--fresh-base]
#     sudo deploy/test-arm64.sh --preflight   # can it run here? (exit 0 yes, 3 no: why)
#
# Needs root, debootstrap, qemu-user-static and binfmt-support (installed when missing, except
# with --preflight), binfmt_misc (mounted when it is not) and the network to the registries.
# Every file it fetches comes from the package registries as this machine is set up for
# them: Debian's packages from the mirror apt uses here (/etc/apt/sources.list*), Python's
# from pip's configured index. The debootstrapped base root is kept as a tarball
# in the cache directory, so later runs skip debootstrap.
set -euo pipefail

readonly SUITE=bookworm
readonly base_arch=arm64
# A Debian 12 that boots with systemd: what Raspberry Pi OS Lite starts from. Everything
# the companion needs beyond this, install.sh must install itself.
readonly BASE_PACKAGES=systemd,systemd-sysv,dbus,udev
readonly APP=table-companion
readonly DEMO=companion/data/demo/short-game.jsonl
readonly SIZE_LIMIT_MB=150

source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache_dir=/var/cache/$APP-arm64
keep=0
# The version directories of the first install and the one kept after the update.
first=""
previous=""
fresh_base=0
base_only=0
preflight=0
readonly ME=test-arm64.sh
readonly PIP_ENV_AS=""  # pip's settings reach the root through env(1) in the chroot
# shellcheck source=test-root-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/test-root-lib.sh"

usage() {
    cat <<EOF
usage: sudo nice -n 19 $0 [options]

Install Table Companion in an arm64 Debian Bookworm root through qemu-user-static and
check that it runs there.

  --cache-dir DIR   where the base root tarball is kept (default: $cache_dir)
  --fresh-base      debootstrap the base root again even when it is cached
  --base-only       make (or check) the cached base root and stop
  --preflight       only check that this machine can run the test (root, the tools,
                    binfmt_misc, the network to Debian's mirror and pip's index):
                    exit 0, or $CANNOT_RUN with the reason (installs and downloads nothing)
  --keep            leave the arm64 root (under the cache directory) for a look inside
  -h, --help        this help
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --cache-dir)
            [ $# -ge 2 ] || { echo "test-arm64.sh: --cache-dir needs a directory" >&2; exit 2; }
            cache_dir="$2"
            shift
            ;;
        --cache-dir=*) cache_dir="${1#--cache-dir=}" ;;
        --keep) keep=1 ;;
        --base-only) base_only=1 ;;
        --fresh-base) fresh_base=1 ;;
        --preflight) preflight=1 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "test-arm64.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

root=""

in_root() {
    # Run a command inside the arm64 root with a clean environment (none of this host's
    # pip or proxy settings leak in, only the index pip is configured to use).
    chroot "$root" /usr/bin/env -i \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 TERM=dumb "${pip_env[@]}" "$@"
}

# --- the host ----------------------------------------------------------------------------

missing_tools() {
    # The host packages the test needs and this machine lacks, space-separated.
    local missing=()
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    [ -x /usr/bin/qemu-aarch64-static ] || missing+=(qemu-user-static)
    command -v update-binfmts >/dev/null || missing+=(binfmt-support)
    printf '%s' "${missing[*]}"
}

binfmt_problem=""
binfmt_ready() {
    # binfmt_misc mounted (mounting it when it is not) with qemu-aarch64 enabled and
    # registered with the F flag; otherwise 1 with the reason in $binfmt_problem.
    local binfmt=/proc/sys/fs/binfmt_misc
    if [ ! -e "$binfmt/register" ] &&
        ! mount -t binfmt_misc binfmt_misc "$binfmt" 2>/dev/null; then
        binfmt_problem="cannot mount binfmt_misc on $binfmt (a container without it?)"
        return 1
    fi
    if ! grep -qx enabled "$binfmt/qemu-aarch64" 2>/dev/null; then
        update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    fi
    if ! grep -qx enabled "$binfmt/qemu-aarch64" 2>/dev/null; then
        binfmt_problem="qemu-aarch64 is not enabled in binfmt_misc (update-binfmts failed)"
        return 1
    fi
    # The F flag: the kernel opens the interpreter now, so the root needs no copy of it.
    if ! grep -q '^flags: .*F' "$binfmt/qemu-aarch64"; then
        binfmt_problem="qemu-aarch64 is registered without the F flag: reinstall qemu-user-static"
        return 1
    fi
}

host_tools() {
    [ "$(id -u)" -eq 0 ] || die "run me as root (debootstrap, chroot and mounts need it)"
    local missing
    missing="$(missing_tools)"
    if [ -n "$missing" ]; then
        say "installing $missing"
        apt-get update -qq || die "apt-get update failed: cannot install $missing"
        # shellcheck disable=SC2086 # a list of package names
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            $missing >/dev/null || die "apt-get install $missing failed"
    fi
    binfmt_ready || die "$binfmt_problem"
    ok "qemu-aarch64 $(/usr/bin/qemu-aarch64-static --version | head -n 1 | awk '{print $3}') through binfmt_misc"
}

preflight_check() {
    # Everything the test needs, checked without installing anything: exit 0 or CANNOT_RUN.
    [ "$(id -u)" -eq 0 ] || cannot "needs root (debootstrap, chroot and mounts)"
    command -v apt-get >/dev/null || cannot "needs Debian's apt-get (debootstrap uses its mirror)"
    local missing
    missing="$(missing_tools)"
    [ -z "$missing" ] || cannot "$missing not installed (apt-get install debootstrap" \
        "qemu-user-static binfmt-support; ./test.sh does it through scripts/test-setup.d)"
    binfmt_ready || cannot "$binfmt_problem"
    registries_answer
    printf 'ready: root, debootstrap, qemu-aarch64 in binfmt_misc; %s\n' "$answered"
}

# --- the base root -----------------------------------------------------------------------

cleanup() {
    local status=$?
    if [ -n "$current_step" ]; then
        printf 'FAIL: stopped in step "%s" (status %s) after:\n' "$current_step" "$status" >&2
        print_timings >&2
    fi
    [ -n "$root" ] && [ -d "$root" ] || return 0
    umount_all "$root"
    if [ "$keep" -eq 1 ]; then
        say "kept the arm64 root: $root (chroot $root /bin/bash)"
    else
        rm -rf --one-file-system "$root"
    fi
}

open_root() {
    install -d -m 0755 "$cache_dir"
    root="$(mktemp -d "$cache_dir/root.XXXXXX")"
    tar --numeric-owner -C "$root" -xpf "$(base_tarball)"
    chmod 0755 "$root"  # its / (mktemp made it 0700): the service user must get through
    mount -t proc proc "$root/proc"
    mount --bind /sys "$root/sys"
    mount -o remount,bind,ro "$root/sys"
    mount --bind /dev "$root/dev"
    mount --bind /dev/pts "$root/dev/pts"
    # An empty /run: no /run/systemd/system, so install.sh sees a Pi that is not booted.
    mount -t tmpfs -o mode=0755 tmpfs "$root/run"
    rm -f "$root/etc/resolv.conf"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    root_registries  # apt's sources and pip's authorities (test-root-lib.sh)
    # The checkout, as a person would have it on the Pi (no build products, no venv).
    install -d -m 0755 "$root/root/$APP"
    tar -C "$source_dir" --exclude=.git --exclude=.venv --exclude=__pycache__ \
        --exclude='*.egg-info' --exclude=build --exclude=.pytest_cache --exclude=.mypy_cache \
        --exclude=.ruff_cache --exclude='*.so' --exclude=engine_build.json -cf - . |
        tar -C "$root/root/$APP" -xf -
    [ "$(in_root uname -m)" = aarch64 ] || die "the root does not run as aarch64"
    ok "arm64 root at $root: $(in_root uname -m), $(in_root cat /etc/debian_version)"
}

used_mb() {
    # The root's size in MB, without apt's download cache and package lists.
    du -sxm --exclude="$root/var/cache/apt" --exclude="$root/var/lib/apt/lists" \
        --exclude="$root/root/$APP" "$root" | cut -f1
}

# --- inside ------------------------------------------------------------------------------

install_sh() { in_root bash "/root/$APP/deploy/install.sh" "$@"; }

check_versions() {
    # After the update: the venv link points at the update's version, the first is kept.
    local link in_use
    link="$root/opt/$APP/venv"
    [ -L "$link" ] || { fail "/opt/$APP/venv is not a link to a version"; return; }
    in_use="$(readlink "$link")"
    in_use="${in_use%/venv}"
    in_use="${in_use##*/}"
    previous="$first"
    if [ "$in_use" != "$first" ] && [ -x "$root/opt/$APP/versions/$first/venv/bin/companion" ]
    then
        ok "versions: $in_use in use, $first kept for a rollback"
    else
        fail "versions: $in_use in use; the first install's $first not kept apart"
    fi
}

check_installed() {
    local path
    for path in /usr/local/bin/companion /etc/$APP/config.toml \
        /etc/systemd/system/$APP.service /etc/udev/rules.d/99-$APP-readers.rules \
        /etc/avahi/services/$APP.service /opt/$APP/venv/bin/companion; do
        if [ -e "$root$path" ]; then ok "installed: $path"; else fail "missing: $path"; fi
    done
    local bad
    for bad in gcc cc python3-dev libc6-dev; do
        # shellcheck disable=SC2016 # ${...} is dpkg-query's field, not the shell's
        if in_root dpkg-query -W -f='${db:Status-Status}' "$bad" 2>/dev/null |
            grep -qx installed ||
            in_root sh -c "command -v $bad" >/dev/null; then
            fail "$bad is installed: the Pi install must need no compiler"
        fi
    done
    ok "no compiler and no Python headers installed"
    local where
    where="$(in_root /opt/$APP/venv/bin/python -c \
        'import companion, pathlib; print(pathlib.Path(companion.__file__).parent)')"
    case "$where" in
        /opt/$APP/venv/lib/python3*/site-packages/companion | \
            /opt/$APP/versions/*/venv/lib/python3*/site-packages/companion)
            ok "a wheel in the venv: $where" ;;
        *) fail "companion is imported from $where, not from the venv's site-packages" ;;
    esac
    if find "$root$where" -name '*.so' | grep -q .; then
        fail "compiled modules in $where: the Pi's engine is plain Python"
    else
        ok "plain-Python engine (no compiled modules)"
    fi
    # The optional C HTTP parser (scripts/install-fast.sh): an arm64 userland, a 64-bit Pi
    # OS, has its wheel, and the phones' server takes it (a 32-bit one has none: h11).
    local parser
    parser="$(in_root /opt/$APP/venv/bin/python -c 'import httptools
from web_remote import serving
print(httptools.__version__, serving.parser_name(serving.HTTP_PROTOCOL))' 2>&1)" || true
    if [[ "$parser" =~ ^[0-9.]+\ httptools$ ]]; then
        ok "the phones' server parses HTTP with httptools ${parser%% *} (its aarch64 wheel)"
    else
        fail "httptools is not what the phones' server parses with on arm64: $parser"
    fi
    if in_root systemctl is-enabled "$APP.service" | grep -qx enabled; then
        ok "$APP.service is enabled"
    else
        fail "$APP.service is not enabled"
    fi
    if in_root id -nG companion | tr ' ' '\n' | grep -qx gpio; then
        ok "user companion: $(in_root id -nG companion)"
    else
        fail "user companion is missing or not in group gpio"
    fi
}

check_unit() {
    local out
    out="$(in_root systemd-analyze verify "/etc/systemd/system/$APP.service" 2>&1)" ||
        { fail "systemd-analyze verify: $out"; return; }
    # Lines about units of the root's own packages are not ours to fix; ours must be clean.
    if grep -i "$APP" <<<"$out"; then
        fail "systemd-analyze verify reports the unit"
    else
        ok "systemd-analyze verify (arm64 systemd $(in_root systemctl --version | head -n 1 |
            awk '{print $2}')) finds nothing in $APP.service"
    fi
    out="$(in_root systemd-analyze security --offline=yes \
        "/etc/systemd/system/$APP.service" 2>/dev/null | tail -n 1)" || true
    [ -z "$out" ] || say "    systemd-analyze security: $out"
}

check_udev_rule() {
    local device out rules="/etc/udev/rules.d/99-$APP-readers.rules"
    device="$(find /sys/class/tty /sys/class/mem -mindepth 1 -maxdepth 1 2>/dev/null |
        head -n 1)"
    device="${device#/sys}"
    out="$(in_root udevadm test --action=add "$device" 2>&1)" || true
    if ! grep -q "$rules" <<<"$out"; then
        fail "udevadm test did not read $rules"
        printf '%s\n' "$out" | tail -n 5 >&2
    elif grep "$rules" <<<"$out" | grep -iE 'invalid|error|unknown|failed|ignoring'; then
        fail "udevadm finds mistakes in $rules"
    else
        ok "udevadm test (on $device) reads $rules without complaint"
    fi
}

check_avahi() {
    local port
    port="$(in_root python3 - <<'EOF'
import xml.etree.ElementTree as ET
tree = ET.parse("/etc/avahi/services/table-companion.service")
service = tree.getroot().find("service")
assert service.findtext("type") == "_http._tcp", service.findtext("type")
print(service.findtext("port"))
EOF
)" || { fail "the avahi service file does not parse"; return; }
    if [ "$port" = 8080 ]; then
        ok "avahi advertises _http._tcp on port $port"
    else
        fail "avahi advertises port $port, not the configured 8080"
    fi
}

check_hotspot() {
    local profile="/etc/NetworkManager/system-connections/$APP-hotspot.nmconnection"
    local info="/etc/$APP/hotspot.toml"
    [ -f "$root$profile" ] || { fail "no hotspot profile $profile"; return; }
    local mode owner
    mode="$(stat -c %a "$root$profile")"
    if [ "$mode" = 600 ]; then ok "$profile has mode 0600"; else fail "$profile: mode $mode"; fi
    owner="$(in_root stat -c '%U:%G %a' "$info")"
    if [ "$owner" = "root:companion 640" ]; then
        ok "$info is root:companion 0640"
    else
        fail "$info is $owner"
    fi
    # NetworkManager's own reading of the keyfile (libnm, as NetworkManager itself reads
    # it), then its checks of the connection and its secrets.
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        python3-gi gir1.2-nm-1.0 >/dev/null || { fail "cannot install libnm"; return; }
    if in_root python3 "/opt/$APP/src/deploy/hotspot.py" --check "$profile"; then
        ok "NetworkManager's library accepts the hotspot profile"
    else
        fail "libnm refuses the hotspot profile $profile"
    fi
    if in_root nmcli --version >/dev/null 2>&1; then
        ok "NetworkManager $(in_root nmcli --version | awk '{print $NF}') installed by --hotspot"
    else
        fail "--hotspot did not install NetworkManager"
    fi
    # The doctor as root reads the root-only profile through libnm too.
    local said
    said="$(in_root companion doctor | grep -E '^(OK|WARN|FAIL) +hotspot ' || true)"
    printf '%s\n' "$said"
    if grep -q "NetworkManager's library (libnm) accepts" <<<"$said"; then
        ok "companion doctor (as root) checks the hotspot with libnm"
    else
        fail "companion doctor did not check the hotspot profile with libnm"
    fi
}

run_companion() {
    local demo game=/var/tmp/arm64-game shot=/var/tmp/arm64-screenshot.png
    demo="$(in_root /opt/$APP/venv/bin/python -c \
        "import companion, pathlib; print(pathlib.Path(companion.__file__).parent / 'data/demo/short-game.jsonl')")"
    in_root install -d -o companion -g companion "$game"
    say "    \$ companion doctor"
    local status=0 report check
    report="$(in_root runuser -u companion -- companion doctor)" || status=$?
    printf '%s\n' "$report"
    # No screen, sound card or GPIO in a chroot: doctor may FAIL those, never crash.
    [ "$status" -le 1 ] || fail "companion doctor crashed (status $status)"
    for check in renderer memory mdns hotspot; do
        grep -Eq "^(OK|WARN|FAIL) +$check " <<<"$report" ||
            fail "companion doctor says nothing about $check"
    done
    say "    \$ companion replay $DEMO (the installed copy: $demo)"
    in_root runuser -u companion -- companion replay --data-dir "$game" "$demo" | tail -n 12 ||
        fail "companion replay"
    say "    \$ companion screenshot"
    if in_root runuser -u companion -- env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
        companion screenshot --data-dir "$game" --out "$shot" &&
        [ -s "$root$shot" ]; then
        cp "$root$shot" "$cache_dir/screenshot.png"
        ok "screenshot: $cache_dir/screenshot.png ($(du -k "$cache_dir/screenshot.png" | cut -f1) kB)"
    else
        fail "companion screenshot"
    fi
}

main() {
    local before after
    if [ "$preflight" -eq 1 ]; then
        preflight_check
        return 0
    fi
    total_start="$(date +%s)"
    trap cleanup EXIT
    # One run at a time per cache directory (two test suites on one machine share it).
    install -d -m 0755 "$cache_dir"
    exec 9>"$cache_dir/.lock"
    if ! flock -n 9; then
        say "another arm64 install test is running with $cache_dir: waiting for it"
        flock 9
    fi
    timed "host tools and binfmt_misc" host_tools
    registries
    timed "base root (debootstrap, or the cached tarball)" make_base
    [ "$base_only" -eq 0 ] || return 0
    timed "unpack the base root" open_root
    before="$(used_mb)"
    timed "deploy/install.sh (first install)" install_sh
    after="$(used_mb)"
    first="$(readlink "$root/opt/$APP/venv")"
    first="${first%/venv}"
    first="${first##*/}"
    timed "deploy/install.sh --hotspot (second run: an update)" install_sh --hotspot
    timed "installed files" check_installed
    timed "the unit: systemd-analyze verify" check_unit
    timed "the udev rule: udevadm test" check_udev_rule
    timed "the avahi service" check_avahi
    timed "companion doctor, replay, screenshot" run_companion
    timed "the hotspot profile" check_hotspot
    timed "the versions: the update's in use, the first kept" check_versions
    local app_mb all_mb
    # The app as one version of it takes: the checkout's copy and the version in use (the
    # one kept for a rollback is said apart).
    app_mb="$(du -sxm --exclude="$root/opt/$APP/versions/$previous" "$root/opt/$APP" | cut -f1)"
    all_mb="$(du -sxm "$root/opt/$APP" | cut -f1)"
    printf '\n==> Summary\n'
    print_timings
    say "installed size: the app in /opt/$APP $app_mb MB (limit $SIZE_LIMIT_MB MB), $all_mb MB" \
        "with the version before kept for a rollback;" \
        "with the Debian packages install.sh added to a bare Debian: $((after - before)) MB"
    if [ "$app_mb" -gt "$SIZE_LIMIT_MB" ]; then
        fail "the app takes $app_mb MB in /opt/$APP, over $SIZE_LIMIT_MB MB"
    fi
    if [ "$failures" -gt 0 ]; then
        say "arm64 install test: $failures failed"
        return 1
    fi
    say "arm64 install test: all checks passed"
}

# deploy/build-image.sh sources this file for its registries, base root and chroot steps.
[ "${ARM64_ROOT_LIBRARY:-0}" = 1 ] || main
