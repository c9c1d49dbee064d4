# shellcheck shell=bash
# Sourced by test.sh after scripts/bootstrap.sh (which defines apt_install): the deploy
# tests (tests/test_deploy.py) need shellcheck and systemd-analyze (Debian's systemd).
if ! apt_install shellcheck systemd; then
    echo "warning: could not install shellcheck and systemd: tests/test_deploy.py will fail" >&2
fi
