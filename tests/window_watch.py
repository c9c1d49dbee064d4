"""The real `companion run` in a window on Xvfb, for the journey tests: what each drawn
frame shows comes back as JSON lines (tests/screen_watch.py), read against deadlines, and
keys go in through XTEST (tools/bench/xkeys.py). Nothing sleeps: every wait is on a report,
a line or a socket, with a deadline."""

from __future__ import annotations

import json
import os
import select
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest

from tools.bench.proc import CHECKOUT, Companion, Xvfb
from tools.bench.xkeys import XKeys

TESTS = Path(__file__).resolve().parent
WAIT_S = 60.0
Report = dict[str, Any]


class Reports:
    """The frame reports of tests/screen_watch.py, read from a pipe against deadlines."""

    def __init__(self, fd: int, child: Companion) -> None:
        self.fd, self.child = fd, child
        self.buffer = b""
        self.last: Report = {}
        #: every text the frames read so far showed, once set to a set (None: not kept),
        #: and the banners among them
        self.shown: set[str] | None = None
        self.banners: set[str] = set()

    def until(self, what: str, ok: Callable[[Report], bool], timeout: float = WAIT_S) -> Report:
        """The first report (from the next one on, or the last one read) for which `ok`
        holds; fails, saying `what` and the last report, when none comes in `timeout`."""
        if self.last and ok(self.last):
            return self.last
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                    pytest.fail(f"the screen never showed {what}; last frame: "
                                f"{json.dumps(self.last, ensure_ascii=False)[:3000]}; "
                                f"log: {' | '.join(self.child.errors[-5:])}")
                chunk = os.read(self.fd, 1 << 20)
                if not chunk:
                    pytest.fail(f"companion run ended before {what}: "
                                + " | ".join(self.child.errors[-5:]))
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            self.last = json.loads(line)
            if self.shown is not None:
                self.shown.update(self.last.get("texts") or ())
                if self.last.get("message"):
                    self.banners.add(self.last["message"])
            if ok(self.last):
                return self.last


class Window:
    """`companion run` in a window on `xvfb`, its frame reports and a keyboard on it; the
    data directory `data` (a game may be saved there first), `env` added to the child's."""

    def __init__(self, xvfb: Xvfb, data: Path, size: str = "800x480",
                 env: dict[str, str] | None = None) -> None:
        read, write = os.pipe()
        self.read = read
        self.child: Companion | None = None
        self.keys: XKeys | None = None
        try:
            try:
                self.child = Companion(
                    data, headless=False, extra_args=["--size", size],
                    env={"DISPLAY": xvfb.display, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                         "SDL_AUDIODRIVER": "dummy",
                         "PYTHONPATH": os.pathsep.join([str(CHECKOUT), str(TESTS)]),
                         **(env or {})},
                    pass_fds=(write,), prefix=[sys.executable, "-m", "screen_watch",
                                               str(write)])
            finally:
                os.close(write)
            self.reports = Reports(read, self.child)
            self.reports.until("a first frame", lambda r: True)
            self.keys = XKeys(xvfb.display)
            width, height = (int(n) for n in size.split("x"))
            self.keys.point(width // 2, height // 2)
        except BaseException:
            self.close()
            raise

    @property
    def companion(self) -> Companion:
        assert self.child is not None
        return self.child

    @property
    def keyboard(self) -> XKeys:
        assert self.keys is not None
        return self.keys

    def close(self) -> None:
        """Stop the companion (SIGTERM), close the keyboard and the report pipe."""
        if self.keys is not None:
            try:
                self.keys.close()
            finally:
                self.keys = None
        if self.child is not None:
            self.child.stop()
        if self.read >= 0:
            os.close(self.read)
            self.read = -1

    def __enter__(self) -> Window:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
