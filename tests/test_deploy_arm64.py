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
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "deploy" / "test-arm64.sh"
#: an uncached run (debootstrap, then the install) takes ~15 min here; CI allows 90 for all
TIMEOUT = 45 * 60
#: --preflight's exit status when the machine cannot run the test
CANNOT_RUN = 3


def why_not() -> str | None:
    """Why the arm64 install cannot run here (the script's own preflight), or None."""
    if os.environ.get("COMPANION_ARM64_TEST") == "0":
        return "COMPANION_ARM64_TEST=0 (the arm64 install takes minutes of emulated time)"
    if os.geteuid() != 0:
        return "needs root (debootstrap, chroot, mounts)"
    result = subprocess.run(["bash", str(SCRIPT), "--preflight"], capture_output=True,
                            text=True, timeout=120, check=False)
    if result.returncode == CANNOT_RUN:
        return result.stdout.strip()
    assert result.returncode == 0, f"--preflight failed: {result.stdout}{result.stderr}"
    return None


def test_install_on_arm64() -> None:
    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    cache = os.environ.get("COMPANION_ARM64_CACHE", "/var/cache/table-companion-arm64")
    try:
        result = subprocess.run(
            ["nice", "-n", "19", "bash", str(SCRIPT), "--cache-dir", cache],
            capture_output=True, text=True, timeout=TIMEOUT, check=False,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        steps = re.findall(r"^==> (.*)$", out, re.M)
        pytest.fail(f"deploy/test-arm64.sh took over {TIMEOUT} s, in step "
                    f"{steps[-1] if steps else '?'!r}:\n{out[-4000:]}")
    summary = result.stdout[result.stdout.rfind("==> Summary"):]
    print(summary)  # the timings of each step (pytest -s, or -rA, shows them)
    failed = [line for line in result.stderr.splitlines() if line.startswith("FAIL")]
    assert result.returncode == 0, (
        "\n".join(failed) + "\n--- stdout (end) ---\n" + result.stdout[-6000:]
        + "\n--- stderr (end) ---\n" + result.stderr[-4000:])
    assert "arm64 install test: all checks passed" in result.stdout
    for check in ("no compiler and no Python headers installed", "a wheel in the venv",
                  "plain-Python engine", "systemd-analyze verify", "udevadm test",
                  "avahi advertises _http._tcp", "NetworkManager's library accepts",
                  "screenshot:", "companion doctor (as root) checks the hotspot with libnm"):
        assert f"ok: {check}" in result.stdout, check
    assert not failed, "\n".join(failed)
    assert re.search(r"^\s+\d+s  total$", summary, re.M), "no timings printed"


def test_the_script_refuses_a_bad_option_and_explains_itself() -> None:
    """Cheap checks of the script that run everywhere."""
    result = subprocess.run(["bash", str(SCRIPT), "--frobnicate"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 2 and "unknown option" in result.stderr
    result = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0 and "--cache-dir" in result.stdout
    assert "--preflight" in result.stdout


def test_preflight_says_why_a_user_cannot_run_it() -> None:
    """Without root the preflight says so (exit 3) and touches nothing."""
    if os.geteuid() != 0:
        argv = ["bash", str(SCRIPT), "--preflight"]
    else:  # as nobody, to see the refusal; nobody may not read a private checkout, so
        # a copy in a folder of its own under the system's temporary folder
        shared = Path(tempfile.mkdtemp())
        shared.chmod(0o755)
        script = shared / SCRIPT.name
        shutil.copy(SCRIPT, script)
        script.chmod(0o644)
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "bash", str(script), "--preflight"]
    try:
        result = subprocess.run(argv, capture_output=True, text=True, check=False)
    finally:
        if os.geteuid() == 0:
            shutil.rmtree(shared)
    assert result.returncode == CANNOT_RUN, result.stdout + result.stderr
    assert result.stdout.strip() == "cannot run here: needs root (debootstrap, chroot and mounts)"
