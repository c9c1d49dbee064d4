# shellcheck shell=bash
# Sourced by test.sh after scripts/bootstrap.sh (which defines apt_install): the deploy
# tests (tests/test_deploy*.py) need shellcheck, systemd-analyze (Debian's systemd), and
# NetworkManager's library for Debian's python3 (python3-gi, gir1.2-nm-1.0) to read the
# hotspot profile as NetworkManager does; systemd-container (systemd-nspawn), so that
# tests/test_watchdog_restart.py boots systemd in a container and shows its watchdog
# restarting a frozen companion (skipped without it).
if ! apt_install shellcheck systemd systemd-container python3-gi gir1.2-nm-1.0; then
    echo "warning: could not install shellcheck, systemd and libnm: tests/test_deploy*.py will fail" >&2
fi
