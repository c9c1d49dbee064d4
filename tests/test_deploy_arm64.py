"""The Pi install for real on arm64 (deploy/test-arm64.sh), when this machine allows it.

Opt-in for now (COMPANION_ARM64_TEST=1): it takes minutes of emulated time. It needs root,
apt (for debootstrap and qemu-user-static) and binfmt_misc in the kernel; each missing
piece skips with the reason. COMPANION_ARM64_CACHE picks the cache directory of the base
root (default /var/cache/table-companion-arm64).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "deploy" / "test-arm64.sh"
#: an uncached run (debootstrap, then the install) stays well inside this
TIMEOUT = 45 * 60


def why_not() -> str | None:
    """Why the arm64 install cannot run here, or None when it can."""
    if os.environ.get("COMPANION_ARM64_TEST") != "1":
        return "opt-in: set COMPANION_ARM64_TEST=1 to install on arm64 through qemu (minutes)"
    if os.geteuid() != 0:
        return "needs root (debootstrap, chroot, mounts)"
    if shutil.which("apt-get") is None and shutil.which("debootstrap") is None:
        return "needs apt-get (Debian) to install debootstrap and qemu-user-static"
    if not Path("/proc/sys/fs/binfmt_misc").is_dir():
        return "the kernel has no binfmt_misc (/proc/sys/fs/binfmt_misc)"
    return None


@pytest.mark.skipif(why_not() is not None, reason=why_not() or "")
def test_install_on_arm64() -> None:
    cache = os.environ.get("COMPANION_ARM64_CACHE", "/var/cache/table-companion-arm64")
    result = subprocess.run(
        ["nice", "-n", "19", "bash", str(SCRIPT), "--cache-dir", cache],
        capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )
    summary = result.stdout[result.stdout.rfind("==> Summary"):]
    print(summary)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-4000:]
    assert "arm64 install test: all checks passed" in result.stdout
    for check in ("no compiler and no Python headers installed", "a wheel in the venv",
                  "plain-Python engine", "systemd-analyze verify", "udevadm test",
                  "avahi advertises _http._tcp", "NetworkManager's library accepts",
                  "screenshot:"):
        assert f"ok: {check}" in result.stdout, check
    assert "FAIL" not in result.stderr, result.stderr[-4000:]


def test_the_script_refuses_a_non_root_user_or_bad_option() -> None:
    """Cheap checks of the script that run everywhere."""
    result = subprocess.run(["bash", str(SCRIPT), "--frobnicate"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 2 and "unknown option" in result.stderr
    result = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0 and "--cache-dir" in result.stdout
