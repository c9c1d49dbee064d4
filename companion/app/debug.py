"""A switch for tests only: with COMPANION_DEBUG_FREEZE=1, SIGUSR2 freezes the main loop and
SIGUSR1 freezes the journal's writer.

The service's watchdog (companion/app/systemd.py, deploy/table-companion.service) must
restart a companion whose loop or writer stopped, without losing a move the phones were
told was saved. tests/test_watchdog_restart.py shows that on the real process: it needs a
running `companion run` to hang for good in one part while the others carry on, as a stuck
screen or a stuck listener would. Only the environment turns the switch on (never the
config file); without it both signals keep their default meaning.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Callable, Mapping
from typing import Any

log = logging.getLogger("companion.debug")

#: the environment variable that arms the switch
FREEZE = "COMPANION_DEBUG_FREEZE"


def install_freeze_switch(environ: Mapping[str, str] | None = None,
                          session: Any = None) -> bool:
    """Arm SIGUSR2 (hang the main thread) and, given the `session`, SIGUSR1 (hang its
    writer at its next update) when $COMPANION_DEBUG_FREEZE is "1". True when armed.

    Python runs signal handlers on the main thread, which runs the loop: the SIGUSR2
    handler never returns, so the loop (and the watchdog it feeds) stops there. After
    SIGUSR1, the next move is saved and acknowledged, then a session listener (run on the
    session's listeners' thread) never returns: nobody hears of later moves, and the
    session counts as stuck (GameSession.healthy).
    """
    env = os.environ if environ is None else environ
    if env.get(FREEZE) != "1":
        return False

    def freeze_loop(_signum: int, _frame: object) -> None:
        log.warning("%s: SIGUSR2 arrived: the main loop hangs from now on", FREEZE)
        threading.Event().wait()

    signal.signal(signal.SIGUSR2, freeze_loop)
    if session is not None:
        signal.signal(signal.SIGUSR1, _writer_freezer(session))
    log.warning("%s=1: SIGUSR2 will hang the main loop, SIGUSR1 the writer (a test's "
                "switch)", FREEZE)
    return True


def _writer_freezer(session: Any) -> Callable[[int, object], None]:
    armed = threading.Event()

    def listener(_update: object) -> None:
        if armed.is_set():
            log.warning("%s: the writer hangs from now on", FREEZE)
            threading.Event().wait()

    session.add_listener(listener)

    def arm(_signum: int, _frame: object) -> None:
        log.warning("%s: SIGUSR1 arrived: the writer hangs after the next move", FREEZE)
        armed.set()

    return arm
