"""A switch for tests only: with COMPANION_DEBUG_FREEZE=1, SIGUSR2 freezes the main loop.

The service's watchdog (companion/app/systemd.py, deploy/table-companion.service) must
restart a companion whose loop stopped turning, without losing a move the phones were told
was saved. tests/test_watchdog_restart.py shows that on the real process: it needs the loop
of a running `companion run` to hang for good while everything else (the phone remote, the
journal writer) carries on, as a stuck screen would. Only the environment turns the switch
on (never the config file); without it SIGUSR2 keeps its default meaning.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Mapping

log = logging.getLogger("companion.debug")

#: the environment variable that arms the switch
FREEZE = "COMPANION_DEBUG_FREEZE"


def install_freeze_switch(environ: Mapping[str, str] | None = None) -> bool:
    """Arm SIGUSR2 to hang the main thread for good when $COMPANION_DEBUG_FREEZE is "1".

    Python runs signal handlers on the main thread, which runs the loop: the handler
    never returns, so the loop (and the watchdog it feeds) stops there. True when armed.
    """
    env = os.environ if environ is None else environ
    if env.get(FREEZE) != "1":
        return False

    def freeze(_signum: int, _frame: object) -> None:
        log.warning("%s: SIGUSR2 arrived: the main loop hangs from now on", FREEZE)
        threading.Event().wait()

    signal.signal(signal.SIGUSR2, freeze)
    log.warning("%s=1: SIGUSR2 will hang the main loop (a test's switch)", FREEZE)
    return True
