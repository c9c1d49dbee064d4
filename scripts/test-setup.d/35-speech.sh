# shellcheck shell=bash
# Sourced by test.sh once .venv exists: espeak-ng, the table's voice (companion.speech), so
# that tests/test_speech.py hears the announcements in all seven languages (skipped
# without it) and the bench times it (tools/bench/speech.py).
if ! command -v espeak-ng >/dev/null; then
    apt_install espeak-ng || echo "espeak-ng could not be installed: the speech tests will be skipped" >&2
fi
