#!/usr/bin/env bash
# /usr/local/bin/companion: the installed companion, with the service's settings and data
# unless told otherwise, so that `sudo -u companion companion doctor` checks what runs.
set -euo pipefail
export COMPANION_CONFIG="${COMPANION_CONFIG:-/etc/table-companion/config.toml}"
export COMPANION_DATA_DIR="${COMPANION_DATA_DIR:-/var/lib/table-companion}"
exec /opt/table-companion/venv/bin/companion "$@"
