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
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "deploy" / "test-fresh.sh"
#: an uncached run (debootstrap, then every download) takes ~20 min here; CI allows 90 for all
TIMEOUT = 40 * 60
#: --preflight's exit status when the machine cannot run the test
CANNOT_RUN = 3


def why_not() -> str | None:
    """Why the fresh Debian test cannot run here (the script's own preflight), or None."""
    if os.environ.get("COMPANION_FRESH_TEST") == "0":
        return "COMPANION_FRESH_TEST=0 (./start.sh and ./test.sh in a fresh Debian take minutes)"
    if os.geteuid() != 0:
        return "needs root (debootstrap, systemd-nspawn)"
    result = subprocess.run(["bash", str(SCRIPT), "--preflight"], capture_output=True,
                            text=True, timeout=120, check=False)
    if result.returncode == CANNOT_RUN:
        return result.stdout.strip()
    assert result.returncode == 0, f"--preflight failed: {result.stdout}{result.stderr}"
    return None


def test_the_readme_commands_on_a_fresh_debian() -> None:
    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    cache = os.environ.get("COMPANION_FRESH_CACHE", "/var/cache/table-companion-fresh")
    try:
        result = subprocess.run(
            ["nice", "-n", "19", "bash", str(SCRIPT), "--cache-dir", cache],
            capture_output=True, text=True, timeout=TIMEOUT, check=False,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        steps = re.findall(r"^==> (.*)$", out, re.M)
        pytest.fail(f"deploy/test-fresh.sh took over {TIMEOUT} s, in step "
                    f"{steps[-1] if steps else '?'!r}:\n{out[-4000:]}")
    summary = result.stdout[result.stdout.rfind("==> Summary"):]
    print(summary)  # the timings of each step (pytest -s, or -rA, shows them)
    failed = [line for line in result.stderr.splitlines() if line.startswith("FAIL")]
    assert result.returncode == 0, (
        "\n".join(failed) + "\n--- stdout (end) ---\n" + result.stdout[-6000:]
        + "\n--- stderr (end) ---\n" + result.stderr[-6000:])
    assert "fresh Debian test: all checks passed" in result.stdout
    assert re.search(r"^ok: \./start\.sh: the phones' page answers on port \d+ \(HTTP 200\)$",
                     result.stdout, re.M), result.stdout[-3000:]
    ran = re.search(r"^ok: \./test\.sh: .*?(\d+) passed", result.stdout, re.M)
    assert ran and int(ran.group(1)) > 0, result.stdout[-3000:]
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
    assert result.stdout.strip() == "cannot run here: needs root (debootstrap, systemd-nspawn)"
