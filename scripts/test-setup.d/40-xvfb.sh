# shellcheck shell=bash
# Sourced by test.sh once .venv exists: Xvfb and libXtst, so that the tests of the real-path
# benchmark open the companion's real window and press its keys (skipped without them).
if ! command -v Xvfb >/dev/null || ! ldconfig -p | grep -q libXtst.so.6; then
    apt_install xvfb libxtst6 || echo "Xvfb could not be installed: the window benchmarks' tests will be skipped" >&2
fi
