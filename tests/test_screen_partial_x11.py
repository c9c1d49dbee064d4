"""Only the changed regions sent to a real X window (`display.update` of the dirty rects)
leave the window as a whole render would: read back from the X server (Xvfb) after each
move (tests/x11_grab.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tools.bench.proc import CHECKOUT, Xvfb, child_env, have_xvfb


@pytest.mark.skipif(not have_xvfb(), reason="no Xvfb")
def test_the_window_shows_the_whole_picture_after_partial_frames() -> None:
    xvfb = Xvfb()
    try:
        done = subprocess.run(
            [sys.executable, str(CHECKOUT / "tests" / "x11_grab.py"), "20"],
            env=child_env({"DISPLAY": xvfb.display}), capture_output=True, text=True,
            timeout=300, cwd=CHECKOUT)
    finally:
        xvfb.close()
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert lines[-1].startswith("partial ") and lines[-1].endswith(" differing 0")
    assert int(lines[-1].split()[1]) >= 15, "the moves' frames were drawn in regions"
    assert all(line.endswith("same") for line in lines[:-1])
