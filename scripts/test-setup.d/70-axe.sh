# shellcheck shell=bash
# Sourced by test.sh once .venv exists: axe-core (npm; only its axe.min.js is used), which
# tests/test_web_a11y.py injects into every phone page in Debian's chromium to audit it
# (skipped without it). Kept in a cache folder outside the checkout; COMPANION_AXE_DIR
# overrides where. Pinned: the same axe rules on every machine.
axe_dir="${COMPANION_AXE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/table-companion/axe}"
if [ ! -f "$axe_dir/node_modules/axe-core/axe.min.js" ]; then
    command -v npm >/dev/null || apt_install npm || true
    if command -v npm >/dev/null; then
        mkdir -p "$axe_dir"
        npm install --prefix "$axe_dir" --no-audit --no-fund --silent axe-core@4.14.1 \
            || echo "axe-core could not be installed: the accessibility audit will be skipped" >&2
    else
        echo "npm is missing: the accessibility audit will be skipped" >&2
    fi
fi
