# shellcheck shell=bash
# Sourced by test.sh once .venv exists: Debian's chromium for the phone remote's browser
# tests (tests/test_web_browser.py drives it with Playwright; never `playwright install`).
if [ ! -x /usr/bin/chromium ]; then
    apt_install chromium || echo "chromium could not be installed: the browser tests will be skipped" >&2
fi
