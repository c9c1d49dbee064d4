# shellcheck shell=bash
# Sourced by test.sh once .venv exists: debootstrap (and systemd-nspawn, from 20-deploy.sh),
# so that tests/test_deploy_fresh.py runs the README's ./start.sh and ./test.sh in a clean
# Debian root (deploy/test-fresh.sh; it skips, saying why, without root or the network;
# COMPANION_FRESH_TEST=0 skips it).
if ! command -v debootstrap >/dev/null; then
    apt_install debootstrap || echo "warning: could not install debootstrap: the fresh Debian test will be skipped" >&2
fi
