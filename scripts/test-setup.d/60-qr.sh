# shellcheck shell=bash
# Sourced by test.sh once .venv exists: zbarimg (zbar-tools), so that the screen's QR codes
# (the phone remote's and the table's Wi-Fi) are read back from rendered frames as a
# phone's camera would (tests/test_hotspot_screen.py; skipped without it).
if ! command -v zbarimg >/dev/null; then
    apt_install zbar-tools || echo "zbar-tools could not be installed: the QR read-back tests will be skipped" >&2
fi
