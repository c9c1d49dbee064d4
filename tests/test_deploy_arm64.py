"""The Pi install for real on arm64 (deploy/test-arm64.sh), whenever this machine allows it.

On by default: it runs when `deploy/test-arm64.sh --preflight` says this machine can (root,
debootstrap, qemu-user-static and binfmt-support installed, binfmt_misc mountable, Debian's
mirror and pip's index answering), and skips saying why otherwise. It takes minutes of
emulated time (about 7 with the cached base root, 15 without): COMPANION_ARM64_TEST=0 skips
it for quick runs. COMPANION_ARM64_CACHE picks the cache directory of the base root
(default /var/cache/table-companion-arm64).
"""

from __future__ import annotations

import os

import pytest
from deploy_roots import (
    CANNOT_RUN,
    REPO,
    preflight_as_a_user,
    refuses_a_bad_option_and_explains_itself,
    run,
    why_not,
)

SCRIPT = REPO / "deploy" / "test-arm64.sh"
#: an uncached run (debootstrap, then the install) takes ~15 min here; CI allows 90 for all
TIMEOUT = 45 * 60


def test_install_on_arm64() -> None:
    reason = why_not(SCRIPT, "COMPANION_ARM64_TEST",
                     "the arm64 install takes minutes of emulated time",
                     "needs root (debootstrap, chroot, mounts)")
    if reason is not None:
        pytest.skip(reason)
    cache = os.environ.get("COMPANION_ARM64_CACHE", "/var/cache/table-companion-arm64")
    out, failed = run(SCRIPT, cache, TIMEOUT)
    assert "arm64 install test: all checks passed" in out
    for check in ("no compiler and no Python headers installed", "a wheel in the venv",
                  "plain-Python engine", "systemd-analyze verify", "udevadm test",
                  "avahi advertises _http._tcp", "NetworkManager's library accepts",
                  "screenshot:", "companion doctor (as root) checks the hotspot with libnm"):
        assert f"ok: {check}" in out, check
    assert not failed, "\n".join(failed)


def test_the_script_refuses_a_bad_option_and_explains_itself() -> None:
    """Cheap checks of the script that run everywhere."""
    refuses_a_bad_option_and_explains_itself(SCRIPT)


def test_preflight_says_why_a_user_cannot_run_it() -> None:
    """Without root the preflight says so (exit 3) and touches nothing."""
    result = preflight_as_a_user(SCRIPT)
    assert result.returncode == CANNOT_RUN, result.stdout + result.stderr
    assert result.stdout.strip() == "cannot run here: needs root (debootstrap, chroot and mounts)"
