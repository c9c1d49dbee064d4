"""The README's two commands on a fresh Debian 12 machine (deploy/test-fresh.sh), whenever
this machine allows it.

On by default: it runs when `deploy/test-fresh.sh --preflight` says this machine can (root,
debootstrap and systemd-nspawn installed, a container startable, Debian's mirror and pip's
index answering), and skips saying why otherwise. In a clean Debian Bookworm root (its
debootstrapped base cached) a user runs `./start.sh` from a clean clone under /tmp until the
phones' page answers, then `./test.sh` on a quick selection of the tests (never this one nor
the arm64 install). It takes minutes (about 10 with the cached base root, more the first
time): COMPANION_FRESH_TEST=0 skips it for quick runs. COMPANION_FRESH_CACHE picks the cache
directory (default /var/cache/table-companion-fresh).
"""

from __future__ import annotations

import os
import re

import pytest
from deploy_roots import (
    CANNOT_RUN,
    REPO,
    preflight_as_a_user,
    refuses_a_bad_option_and_explains_itself,
    run,
    why_not,
)

SCRIPT = REPO / "deploy" / "test-fresh.sh"
#: an uncached run (debootstrap, then every download) takes ~20 min here; CI allows 90 for all
TIMEOUT = 40 * 60


def test_the_readme_commands_on_a_fresh_debian() -> None:
    reason = why_not(SCRIPT, "COMPANION_FRESH_TEST",
                     "./start.sh and ./test.sh in a fresh Debian take minutes",
                     "needs root (debootstrap, systemd-nspawn)")
    if reason is not None:
        pytest.skip(reason)
    cache = os.environ.get("COMPANION_FRESH_CACHE", "/var/cache/table-companion-fresh")
    out, failed = run(SCRIPT, cache, TIMEOUT)
    assert "fresh Debian test: all checks passed" in out
    assert re.search(r"^ok: \./start\.sh: the phones' page answers on port \d+ \(HTTP 200\)$",
                     out, re.M), out[-3000:]
    ran = re.search(r"^ok: \./test\.sh: .*?(\d+) passed", out, re.M)
    assert ran and int(ran.group(1)) > 0, out[-3000:]
    assert not failed, "\n".join(failed)


def test_the_script_refuses_a_bad_option_and_explains_itself() -> None:
    """Cheap checks of the script that run everywhere."""
    refuses_a_bad_option_and_explains_itself(SCRIPT)


def test_the_quick_selection_leaves_out_the_emulated_installs() -> None:
    """The tests run in the fresh root exist, and never this test nor the arm64 install
    (that would start a root inside the root, for many minutes)."""
    text = SCRIPT.read_text(encoding="utf-8")
    block = re.search(r"^readonly QUICK_TESTS=\((.*?)\)$", text, re.S | re.M)
    assert block, "no QUICK_TESTS in the script"
    quick = block.group(1).split()
    assert quick and all((REPO / name).is_file() for name in quick), quick
    assert not {"tests/test_deploy_arm64.py", "tests/test_deploy_fresh.py"} & set(quick)
    # and inside, a whole-suite run would skip both anyway
    assert "--setenv=COMPANION_ARM64_TEST=0 --setenv=COMPANION_FRESH_TEST=0" in text


def test_preflight_says_why_a_user_cannot_run_it() -> None:
    """Without root the preflight says so (exit 3) and touches nothing."""
    result = preflight_as_a_user(SCRIPT)
    assert result.returncode == CANNOT_RUN, result.stdout + result.stderr
    assert result.stdout.strip() == "cannot run here: needs root (debootstrap, systemd-nspawn)"
