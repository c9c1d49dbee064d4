#!/usr/bin/env bash
# Quick start: set up the virtual environment and start the table companion.
# Simulated hardware is used automatically when no Raspberry Pi is present.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$root/scripts/bootstrap.sh" ""
exec "$root/.venv/bin/companion" run "$@"
