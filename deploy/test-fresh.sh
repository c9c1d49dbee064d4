#!/usr/bin/env bash
# The README's two commands on a fresh Debian 12 machine, for real: a clean Debian Bookworm
# root of this machine's own architecture made by debootstrap (Python 3, sudo and the CA
# certificates: nothing of the project's), a user with sudo in it, and a clean clone of
# this checkout's HEAD under /tmp there. In that root, through systemd-nspawn, the user runs
# `./start.sh` until the phones' page answers, then `./test.sh` on a quick selection of the
# tests. Nothing comes from this machine's venv or caches: the venv is made in the root,
# and pip downloads every package from the index (each checked against the lock's hash).
# Prints how long each step took.
#
#     sudo nice -n 19 deploy/test-fresh.sh [--cache-dir DIR] [--keep] [--fresh-base] [-- TESTS]
#     sudo deploy/test-fresh.sh --preflight   # can it run here? (exit 0 yes, 3 no: why)
#
# TESTS are ./test.sh's arguments (pytest's), by default the quick selection below: the
# emulated installs (tests/test_deploy_arm64.py, tests/test_deploy_fresh.py) never run in
# there, the whole suite runs outside. Needs root, debootstrap and systemd-nspawn
# (systemd-container; installed when missing, except with --preflight), and the network to
# the registries: Debian's packages from the mirror apt uses here, Python's from pip's
# configured index. Kept in the cache directory: the debootstrapped base root (a tarball),
# and the .deb files apt fetched in the root (apt checks each against the signed lists),
# so that later runs download only what changed.
set -euo pipefail

readonly SUITE=bookworm
readonly APP=table-companion
# A fresh Debian 12 as the README's quick start assumes it: Python 3, and a user with sudo.
readonly BASE_PACKAGES=python3,sudo,ca-certificates
readonly USER_NAME=table
readonly CLONE=/tmp/$APP
# The quick selection: the venv against the lock, the catalogs against the locked Babel,
# the compiled engine, the Pi installer's dry run, the phones' server, the headless table.
# (Not the watchdog's: as the user, its systemd half skips, and its other half counts
# seconds that a loaded machine at nice 19 does not give it.)
readonly QUICK_TESTS=(tests/test_deploy_lock.py tests/test_i18n.py tests/test_engine_build.py
    tests/test_deploy.py tests/test_web_api.py tests/test_headless_table.py)
# How long the first ./start.sh may take to answer (apt, pip, compiling the engine).
readonly START_TIMEOUT=1200

source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache_dir=/var/cache/$APP-fresh
keep=0
fresh_base=0
base_only=0
preflight=0
tests=()
readonly ME=test-fresh.sh
readonly PIP_ENV_AS=--setenv=  # pip's settings reach the root through systemd-nspawn
# shellcheck source=test-root-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/test-root-lib.sh"

usage() {
    cat <<EOF
usage: sudo nice -n 19 $0 [options] [-- TESTS]

Run the README's ./start.sh and ./test.sh from a clean clone under $CLONE in a clean
Debian Bookworm root (debootstrap, systemd-nspawn), as a user with sudo.

  --cache-dir DIR   where the base root tarball and apt's .deb files are kept
                    (default: $cache_dir)
  --fresh-base      debootstrap the base root again even when it is cached
  --base-only       make (or check) the cached base root and stop
  --preflight       only check that this machine can run the test (root, the tools,
                    systemd-nspawn, the network to Debian's mirror and pip's index):
                    exit 0, or $CANNOT_RUN with the reason (installs and downloads nothing)
  --keep            leave the root (under the cache directory) for a look inside
  -h, --help        this help
  TESTS             ./test.sh's arguments (default: ${QUICK_TESTS[*]})
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --cache-dir)
            [ $# -ge 2 ] || { echo "test-fresh.sh: --cache-dir needs a directory" >&2; exit 2; }
            cache_dir="$2"
            shift
            ;;
        --cache-dir=*) cache_dir="${1#--cache-dir=}" ;;
        --keep) keep=1 ;;
        --base-only) base_only=1 ;;
        --fresh-base) fresh_base=1 ;;
        --preflight) preflight=1 ;;
        -h | --help) usage; exit 0 ;;
        --) shift; tests=("$@"); break ;;
        *) echo "test-fresh.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
[ ${#tests[@]} -gt 0 ] || tests=("${QUICK_TESTS[@]}")

root=""
base_arch=""  # this machine's own (host_tools)
port=""

# --- the host ----------------------------------------------------------------------------

missing_tools() {
    # The host packages the test needs and this machine lacks, space-separated.
    local missing=()
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    command -v systemd-nspawn >/dev/null || missing+=(systemd-container)
    printf '%s' "${missing[*]}"
}

nspawn_problem() {
    # Why systemd-nspawn cannot run a command in a container here (empty when it can): a
    # volatile container over this machine's own /usr, the cheapest one it makes.
    local out
    if ! out="$(systemd-nspawn --quiet --register=no --keep-unit --directory=/ \
        --volatile=yes --console=pipe /bin/true 2>&1 </dev/null)"; then
        printf 'systemd-nspawn cannot start a container here: %s' "$(tail -n 2 <<<"$out")"
    fi
}

host_tools() {
    [ "$(id -u)" -eq 0 ] || die "run me as root (debootstrap, systemd-nspawn)"
    local missing problem
    missing="$(missing_tools)"
    if [ -n "$missing" ]; then
        say "installing $missing"
        apt-get update -qq || die "apt-get update failed: cannot install $missing"
        # shellcheck disable=SC2086 # a list of package names
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            $missing >/dev/null || die "apt-get install $missing failed"
    fi
    problem="$(nspawn_problem)"
    [ -z "$problem" ] || die "$problem"
    base_arch="$(dpkg --print-architecture)"
    ok "debootstrap $(dpkg-query -W -f='${Version}' debootstrap), $(systemd-nspawn --version |
        head -n 1), native $base_arch"
}

preflight_check() {
    # Everything the test needs, checked without installing anything: exit 0 or CANNOT_RUN.
    [ "$(id -u)" -eq 0 ] || cannot "needs root (debootstrap, systemd-nspawn)"
    if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
        cannot "needs Debian's apt-get and dpkg (debootstrap uses its mirror)"
    fi
    local missing problem
    missing="$(missing_tools)"
    [ -z "$missing" ] || cannot "$missing not installed (apt-get install debootstrap" \
        "systemd-container; ./test.sh does it through scripts/test-setup.d)"
    problem="$(nspawn_problem)"
    [ -z "$problem" ] || cannot "$problem"
    registries_answer
    printf 'ready: root, debootstrap, systemd-nspawn; %s\n' "$answered"
}

# --- the base root -----------------------------------------------------------------------

nspawn_pid=""
cleanup() {
    local status=$?
    if [ -n "$current_step" ]; then
        printf 'FAIL: stopped in step "%s" (status %s) after:\n' "$current_step" "$status" >&2
        print_timings >&2
    fi
    stop_container
    [ -n "$root" ] && [ -d "$root" ] || return 0
    umount_all "$root"
    if [ "$keep" -eq 1 ]; then
        say "kept the root: $root (systemd-nspawn -D $root --bind=$root.clone:$CLONE)"
    else
        rm -rf --one-file-system "$root" "$root.clone"
    fi
}

open_root() {
    install -d -m 0755 "$cache_dir" "$cache_dir/apt-archives/partial"
    root="$(mktemp -d "$cache_dir/root.XXXXXX")"
    tar --numeric-owner -C "$root" -xpf "$(base_tarball)"
    chmod 0755 "$root"
    root_registries  # apt's sources and pip's authorities (test-root-lib.sh)
    # Named as a fresh install names it (sudo looks its own name up).
    echo debian >"$root/etc/hostname"
    printf '127.0.0.1\tlocalhost\n127.0.1.1\tdebian\n::1\tlocalhost ip6-localhost\n' \
        >"$root/etc/hosts"
    # A person's account with sudo, as a fresh install makes it when root has no password.
    chroot "$root" useradd --create-home --shell /bin/bash --groups sudo "$USER_NAME"
    printf '%s ALL=(ALL) NOPASSWD: ALL\n' "$USER_NAME" >"$root/etc/sudoers.d/$USER_NAME"
    chmod 0440 "$root/etc/sudoers.d/$USER_NAME"
    # The phones' port: a free one on this machine (the root shares its network), in the
    # user's own settings, so that the command stays the README's bare ./start.sh.
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')"
    local home="$root/home/$USER_NAME" owner
    owner="$(stat -c %u:%g "$home")"
    install -d "$home/.config/$APP"
    printf '[web]\nport = %s\n' "$port" >"$home/.config/$APP/config.toml"
    chown -R "$owner" "$home/.config"
    # A clean clone of this checkout's HEAD (what is committed), owned by the user, where a
    # person would have one: under /tmp (kept beside the root, bound there by enter_root).
    git clone --quiet "$source_dir" "$root.clone"
    local head
    head="$(git -C "$root.clone" log -1 --format='%h (%s)' | cut -c1-70)"
    chown -R "$owner" "$root.clone"
    enter_root
    ok "a clean Debian $(cat "$root/etc/debian_version") root at $root; a clone of" \
        "$head in $CLONE"
}

container=()
enter_root() {
    # The command line that runs a command as the user in the root, in the clone, with a
    # clean environment: only what a person's login has, and pip's index as this machine
    # uses it. nspawn mounts a tmpfs on the container's /tmp (hiding the root's own): the
    # clone is bound there.
    container=(systemd-nspawn --quiet --register=no --keep-unit --as-pid2 --console=pipe
        --directory="$root" --hostname=debian --resolv-conf=copy-host --timezone=off
        --bind="$cache_dir/apt-archives:/var/cache/apt/archives"
        --bind="$root.clone:$CLONE"
        --user="$USER_NAME" --chdir="$CLONE" --setenv=LANG=C.UTF-8 --setenv=TERM=dumb
        --setenv=COMPANION_ARM64_TEST=0 --setenv=COMPANION_FRESH_TEST=0 "${pip_env[@]}")
}

stop_container() {
    [ -n "$nspawn_pid" ] || return 0
    # nspawn answers SIGTERM by killing the container's PID 1 (every process in it goes)
    kill -TERM "$nspawn_pid" 2>/dev/null || true
    wait "$nspawn_pid" 2>/dev/null || true
    nspawn_pid=""
}

# --- the README's two commands -----------------------------------------------------------

page_answers() {
    # The HTTP status of the phones' page (000 when nothing answers).
    python3 - "http://127.0.0.1:$port/" <<'PY' 2>/dev/null || echo 000
import sys, urllib.error, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=5) as answer:
        print(answer.status)
except urllib.error.HTTPError as error:
    print(error.code)
except OSError:
    print("000")
PY
}

start_sh() {
    local log="$cache_dir/start.log" deadline status
    # nspawn itself in the background (no subshell between): stop_container signals it
    "${container[@]}" ./start.sh >"$log" 2>&1 </dev/null &
    nspawn_pid=$!
    deadline=$(($(date +%s) + START_TIMEOUT))
    status="$(page_answers)"
    while [ "$status" != 200 ]; do
        if ! kill -0 "$nspawn_pid" 2>/dev/null; then
            wait "$nspawn_pid" || true
            nspawn_pid=""
            tail -n 40 "$log" >&2
            fail "./start.sh stopped before the phones' page answered (log: $log)"
            return 0
        fi
        if [ "$(date +%s)" -ge "$deadline" ]; then
            tail -n 40 "$log" >&2
            fail "the phones' page did not answer within $START_TIMEOUT s of ./start.sh"
            stop_container
            return 0
        fi
        sleep 2
        status="$(page_answers)"
    done
    ok "./start.sh: the phones' page answers on port $port (HTTP $status)"
    grep -m 1 "Phones join at" "$log" || true
    # scripts/bootstrap.sh's optional step: this machine's Python has an httptools wheel
    if grep -q "parses HTTP with httptools" "$log"; then
        ok "./start.sh: $(grep -m 1 "parses HTTP with httptools" "$log")"
    else
        fail "./start.sh did not install httptools (scripts/install-fast.sh): $(grep -m 1 \
            -e "the phones' server uses the pure-Python parser" "$log" || echo "no line")"
    fi
    stop_container
    if grep -q Traceback "$log"; then
        fail "./start.sh printed a traceback (log: $log)"
        grep -m 1 -A 20 Traceback "$log" >&2
    fi
}

test_sh() {
    local log="$cache_dir/test.log" status=0
    say "    \$ ./test.sh ${tests[*]}"
    "${container[@]}" ./test.sh "${tests[@]}" >"$log" 2>&1 </dev/null || status=$?
    grep -E '^(All checks passed|Success: no issues|Found [0-9]+ error)' "$log" || true
    local summary
    summary="$(grep -E '^=*.*[0-9]+ (passed|failed|error)' "$log" | tail -n 1)" || true
    say "    $summary"
    if [ "$status" -eq 0 ] && grep -q ' passed' <<<"$summary" &&
        ! grep -Eq '[0-9]+ (failed|error)' <<<"$summary"; then
        ok "./test.sh: $summary"
    else
        tail -n 60 "$log" >&2
        fail "./test.sh exited $status (log: $log)"
    fi
}

main() {
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
        say "another fresh Debian test is running with $cache_dir: waiting for it"
        flock 9
    fi
    timed "host tools" host_tools
    registries
    timed "base root (debootstrap, or the cached tarball)" make_base
    [ "$base_only" -eq 0 ] || return 0
    timed "unpack the base root, a user, a clean clone" open_root
    timed "./start.sh until the phones' page answers" start_sh
    timed "./test.sh (a quick selection)" test_sh
    printf '\n==> Summary\n'
    print_timings
    if [ "$failures" -gt 0 ]; then
        say "fresh Debian test: $failures failed"
        return 1
    fi
    say "fresh Debian test: all checks passed"
}

main
