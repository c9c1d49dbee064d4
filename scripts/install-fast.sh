#!/usr/bin/env bash
# The phones' server's optional accelerator: httptools, uvicorn's C HTTP parser, into the
# venv of PYTHON as a wheel from requirements/fast.txt (its version and every fitting
# wheel's hash: scripts/lock.sh), or not at all. Where pip finds no wheel for this Python
# (a 32-bit Raspberry Pi OS: armv7l, even on a 64-bit kernel whose uname says aarch64, as
# pip's own tags know), one line says the phones' server uses the pure-Python parser
# (h11, as web_remote/serving.py does without httptools: the same answers, a little more
# CPU a move) and the install goes on. It never compiles (binary only) and never fails an
# install. The one implementation of this step: scripts/bootstrap.sh (./start.sh,
# ./test.sh) and deploy/install.sh (the Pi) both run it.
#
#     scripts/install-fast.sh PYTHON [PIP_OPTION...]
#
# PIP_OPTIONs are added to pip's command (install.sh: --no-cache-dir; the tests: --target
# DIR --platform TAG --python-version X.Y, a machine without a wheel simulated). Exit 0
# whether httptools was installed or not; 2 when PYTHON does not run.
set -uo pipefail

if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"
    [ $# -ge 1 ] && exit 0
    exit 2
fi
python="$1"
shift
lock="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/requirements/fast.txt"
if ! "$python" -c '' 2>/dev/null; then
    echo "install-fast.sh: $python does not run (the venv's Python is needed)" >&2
    exit 2
fi
readonly FALLBACK="the phones' server uses the pure-Python parser (h11)"

target_python() {
    # The Python and platform pip chooses wheels for: the ones the options name (a test's
    # --platform and --python-version), else this interpreter's first tag in pip's order.
    local arg previous="" platform="" version=""
    for arg in "$@"; do
        case "$previous" in
            --platform) platform="$arg" ;;
            --python-version) version="$arg" ;;
        esac
        case "$arg" in
            --platform=*) platform="${arg#*=}" ;;
            --python-version=*) version="${arg#*=}" ;;
        esac
        previous="$arg"
    done
    if [ -n "$platform" ]; then
        echo "Python ${version:-?}, $platform"
        return
    fi
    "$python" -c 'from pip._vendor.packaging.tags import sys_tags
tag = next(iter(sys_tags()))
print(f"{tag.interpreter}, {tag.platform}")' 2>/dev/null || echo "this machine's"
}

version="$(sed -n 's/^httptools==\([^ ]*\).*$/\1/p' "$lock" 2>/dev/null)"
out="$("$python" -m pip --disable-pip-version-check install --quiet --only-binary=:all: \
    --no-deps --require-hashes "$@" -r "$lock" 2>&1)"
status=$?
if [ "$status" -eq 0 ]; then
    echo "httptools ${version:-?} installed: the phones' server parses HTTP with httptools (C)"
elif grep -Eq 'Retrying|NewConnectionError|Failed to establish|Temporary failure' <<<"$out"
then
    echo "httptools not installed, the package index did not answer: $FALLBACK"
elif grep -q 'No matching distribution' <<<"$out"; then
    echo "no httptools wheel fits this Python ($(target_python "$@")): $FALLBACK"
elif grep -q 'DO NOT MATCH THE HASHES' <<<"$out"; then
    echo "the index's httptools wheel for this Python ($(target_python "$@")) has no hash in" \
        "requirements/fast.txt (scripts/lock.sh names the Pythons it locks): $FALLBACK"
else
    said="$(grep -m 1 '^ERROR' <<<"$out")"
    echo "httptools not installed (pip: ${said:-status $status}): $FALLBACK"
fi
exit 0
