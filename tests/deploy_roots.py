"""What the tests of the deploy scripts that build a Debian root share (deploy/test-fresh.sh,
deploy/test-arm64.sh, both over deploy/test-root-lib.sh): whether the script's own
preflight says this machine can run it, a run that names the step a timeout stopped it in,
and the cheap checks of its options and of its preflight as a user, which run everywhere."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
#: the library the scripts source (beside them)
LIBRARY = REPO / "deploy" / "test-root-lib.sh"
#: --preflight's exit status when the machine cannot run the test
CANNOT_RUN = 3


def why_not(script: Path, switch: str, switched_off: str, no_root: str) -> str | None:
    """Why `script` cannot run here, or None: the environment's `switch` set to 0 (said as
    `switched_off`), not root (`no_root`), or the script's own preflight's answer."""
    if os.environ.get(switch) == "0":
        return f"{switch}=0 ({switched_off})"
    if os.geteuid() != 0:
        return no_root
    result = subprocess.run(["bash", str(script), "--preflight"], capture_output=True,
                            text=True, timeout=120, check=False)
    if result.returncode == CANNOT_RUN:
        return result.stdout.strip()
    assert result.returncode == 0, f"--preflight failed: {result.stdout}{result.stderr}"
    return None


def run(script: Path, cache: str, timeout: float) -> tuple[str, list[str]]:
    """Run `script` at nice 19 with its cache directory; it must pass. Its output, and
    the timings' summary is printed (pytest -s, or -rA, shows them); returns stdout and the
    FAIL lines of stderr."""
    try:
        result = subprocess.run(
            ["nice", "-n", "19", "bash", str(script), "--cache-dir", cache],
            capture_output=True, text=True, timeout=timeout, check=False,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        steps = re.findall(r"^==> (.*)$", out, re.M)
        pytest.fail(f"deploy/{script.name} took over {timeout} s, in step "
                    f"{steps[-1] if steps else '?'!r}:\n{out[-4000:]}")
    summary = result.stdout[result.stdout.rfind("==> Summary"):]
    print(summary)  # the timings of each step
    failed = [line for line in result.stderr.splitlines() if line.startswith("FAIL")]
    assert result.returncode == 0, (
        "\n".join(failed) + "\n--- stdout (end) ---\n" + result.stdout[-6000:]
        + "\n--- stderr (end) ---\n" + result.stderr[-6000:])
    assert re.search(r"^\s+\d+s  total$", summary, re.M), "no timings printed"
    return result.stdout, failed


def refuses_a_bad_option_and_explains_itself(script: Path) -> None:
    """A wrong option is exit 2 saying so; --help names the cache and the preflight."""
    result = subprocess.run(["bash", str(script), "--frobnicate"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 2 and "unknown option" in result.stderr
    result = subprocess.run(["bash", str(script), "--help"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0 and "--cache-dir" in result.stdout
    assert "--preflight" in result.stdout


def preflight_as_a_user(script: Path) -> subprocess.CompletedProcess[str]:
    """`script --preflight` without root: as this user, or (as root) as nobody, from a copy
    with its library in a folder of its own under the system's temporary folder (nobody
    may not read a private checkout)."""
    if os.geteuid() != 0:
        return subprocess.run(["bash", str(script), "--preflight"], capture_output=True,
                              text=True, check=False)
    shared = Path(tempfile.mkdtemp())
    try:
        shared.chmod(0o755)
        for source in (script, LIBRARY):
            copy = shared / source.name
            shutil.copy(source, copy)
            copy.chmod(0o644)
        return subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                               "bash", str(shared / script.name), "--preflight"],
                              capture_output=True, text=True, check=False)
    finally:
        shutil.rmtree(shared)
