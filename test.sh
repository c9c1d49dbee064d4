#!/usr/bin/env bash
# Quick start: set up the virtual environment and run every test, ruff and mypy.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$root/scripts/bootstrap.sh" "dev"
cd "$root"
for setup in scripts/test-setup.d/*.sh; do
    # shellcheck source=/dev/null
    [ -e "$setup" ] && source "$setup"
done
.venv/bin/ruff check .
.venv/bin/mypy
exec .venv/bin/python -m pytest -q "$@"
