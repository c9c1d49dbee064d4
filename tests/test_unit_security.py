"""The systemd unit is hardened (issue: the appliance): `systemd-analyze security` rates it
"OK" (3.0 or lower), with no capability and only an ordinary service's system calls, while
the watchdog and hotspot tests keep running the same unit file."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parent.parent / "deploy" / "table-companion.service"


def exposure() -> float:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (./test.sh installs Debian's systemd)")
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(UNIT)],
                            capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", result.stdout)
    if found is None and "offline" in result.stderr:
        pytest.skip(f"this systemd-analyze cannot rate a unit file: {result.stderr.strip()}")
    assert found is not None, result.stdout + result.stderr
    return float(found.group(1))


def test_the_unit_is_rated_ok_by_systemd_analyze_security() -> None:
    assert exposure() <= 3.0


def test_the_unit_keeps_no_capability_and_filters_system_calls() -> None:
    settings = [line.strip() for line in UNIT.read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    assert "CapabilityBoundingSet=" in settings and "AmbientCapabilities=" in settings
    assert "SystemCallFilter=@system-service" in settings
    assert "SystemCallArchitectures=native" in settings
    assert any(s.startswith("MemoryMax=") for s in settings)
    assert "UMask=0077" in settings  # saved games and the PIN's file: the service's own
