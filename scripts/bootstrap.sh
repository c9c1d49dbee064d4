#!/usr/bin/env bash
# Create (or refresh) the project's virtual environment in .venv from the lock files in
# requirements/: with no argument the app's (requirements/run.txt), with "dev" everything
# with the dev tools (requirements/dev.txt). Sourced by start.sh and test.sh so that both
# quick-start commands work on a fresh Debian / Raspberry Pi OS machine with only Python
# 3.11+ installed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
extras="${1:-}"
venv="$root/.venv"

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "Please run as root or install sudo: $*" >&2; return 1; fi
}

apt_install() {
    # Install Debian packages that are missing; quiet when everything is already there.
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! command -v apt-get >/dev/null; then
        echo "Missing system packages: ${missing[*]} (no apt-get here: install them by hand)" >&2
        return 1
    fi
    echo "Installing system packages: ${missing[*]}"
    as_root apt-get update -qq
    # dpkg's unpacking chatter only matters when something goes wrong
    local log
    log="$(mktemp)"
    if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" \
            >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
}

python="${PYTHON:-python3}"
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Table Companion needs Python 3.11 or newer (found: $("$python" --version 2>&1))" >&2
    exit 1
fi
# Debian splits venv and ensurepip out of the interpreter package.
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    ver="$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
    apt_install "python${ver}-venv" || apt_install python3-venv
fi

# setup.py compiles the rules engine with mypyc (the speed target in docs/bench.md needs
# it): that takes a C compiler and Python's headers. Without them it installs plain Python.
if [ "${COMPANION_COMPILE:-1}" != 0 ]; then
    command -v cc >/dev/null || apt_install gcc libc6-dev \
        || echo "No C compiler: the engine stays plain Python (slower)" >&2
    if ! "$python" -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
        ver="$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
        apt_install "python${ver}-dev" || apt_install python3-dev \
            || echo "No Python headers: the engine stays plain Python (slower)" >&2
    fi
fi

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
# Everything comes from the lock files in requirements/ (scripts/lock.sh makes them), each
# file checked against its hash: pip itself and the build tools (setuptools, wheel; mypy to
# compile the engine), then the app's dependencies, or all of them with the dev tools, and
# the optional httptools wheel where one fits (scripts/install-fast.sh).
# Then the project, editable, with nothing more: --no-deps, and --no-build-isolation so
# that the build uses the locked tools above instead of fetching the newest.
lock="$root/requirements"
compile="${COMPANION_COMPILE:-1}"
[ "$compile" = 0 ] || compile=1
digest() { cat "$@" | sha1sum | cut -c1-12; }
deps_stamp="$venv/.deps-$(digest "$lock"/*.txt)-${extras:-none}-compile$compile"
# The editable install: again when the packaging or a compiled engine source changed.
project_stamp="$venv/.project-$(digest "$root/pyproject.toml" "$root/setup.py" \
    "$root"/companion/rules/*.py "$root/companion/bots.py")-compile$compile"
if [ ! -f "$deps_stamp" ]; then
    echo "Setting up .venv: the locked dependencies (requirements/${extras:-run}.txt)..."
    locked=(-r "$lock/build.txt")
    [ "$compile" = 0 ] || locked+=(-r "$lock/mypyc.txt")
    if [ -n "$extras" ]; then locked+=(-r "$lock/$extras.txt"); else locked+=(-r "$lock/run.txt"); fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes \
        "${locked[@]}"
    # The phones' server's C HTTP parser where a wheel fits this Python (one line says
    # which parser serves; never compiles, never fails: requirements/fast.txt).
    bash "$root/scripts/install-fast.sh" "$venv/bin/python"
    rm -f "$venv"/.deps-*-"${extras:-none}"-compile*
    touch "$deps_stamp"
fi
if [ ! -f "$project_stamp" ]; then
    echo "Setting up .venv: the companion (compiling the rules engine takes a minute or two)..."
    # PYTHONWARNINGS: setuptools warns at length about every editable install
    PYTHONWARNINGS=ignore "$venv/bin/python" -m pip install --quiet \
        --disable-pip-version-check --no-deps --no-build-isolation -e "$root"
    rm -f "$venv"/.project-*
    touch "$project_stamp"
fi
