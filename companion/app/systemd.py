"""Talking to systemd's service manager: readiness and the watchdog, over $NOTIFY_SOCKET.

The unit (deploy/table-companion.service) is `Type=notify` with `WatchdogSec=`: systemd
counts the companion started only once it says READY=1, and restarts it (the game resumes
from its journal) when no WATCHDOG=1 arrives within the interval. This is the sd_notify
protocol without a dependency: one datagram on a unix socket, whose address systemd passes
in $NOTIFY_SOCKET ("@..." names an abstract socket). Outside systemd (a desktop, the tests,
`companion run` by hand) the variable is unset and every call here does nothing.

The composition root wires it: `ready()` once the screen shows the game and the phone
remote listens; then, in the main loop, `heartbeat.beat(time.monotonic())` on each pass
where the loop and the journal writer are both alive (a frozen writer must starve the
watchdog, so the process is restarted rather than the table silently losing moves);
`notify("STOPPING=1")` when the loop ends.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping

#: the datagram's size limit we keep to (systemd reads up to its pipe buffer; states are short)
MAX_STATE = 4096


def _address(environ: Mapping[str, str]) -> str | None:
    """The notify socket's address from the environment, or None outside systemd."""
    path = environ.get("NOTIFY_SOCKET", "")
    if not path or not (path.startswith("/") or path.startswith("@")):
        return None  # unset, or a vsock address this module does not speak
    return "\0" + path[1:] if path.startswith("@") else path


def notify(state: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send `state` ("READY=1", "STATUS=...", newline-separated pairs) to systemd.

    True when a datagram was sent; False outside systemd or when the socket is gone (the
    companion carries on either way: a missing service manager never stops the game).
    """
    address = _address(os.environ if environ is None else environ)
    if address is None:
        return False
    data = state.encode("utf-8")
    if not data or len(data) > MAX_STATE:
        raise ValueError(f"a notify state is 1 to {MAX_STATE} bytes, not {len(data)}")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        try:
            sock.sendto(data, address)
        except OSError:
            return False
    return True


def ready(status: str = "", environ: Mapping[str, str] | None = None) -> bool:
    """Tell systemd the companion is up (and, with `status`, what `systemctl status` shows)."""
    state = "READY=1" + (f"\nSTATUS={status}" if status else "")
    return notify(state, environ)


def watchdog(environ: Mapping[str, str] | None = None) -> bool:
    """Feed systemd's watchdog: the process is alive and its loop is turning."""
    return notify("WATCHDOG=1", environ)


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds systemd waits for WATCHDOG=1 before restarting us; None without a watchdog.

    From $WATCHDOG_USEC, when $WATCHDOG_PID is unset or names this process (a child that
    inherited the variables must not feed its parent's watchdog).
    """
    env = os.environ if environ is None else environ
    pid = env.get("WATCHDOG_PID", "")
    if pid and pid != str(os.getpid()):
        return None
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 1_000_000 if usec > 0 else None


class Heartbeat:
    """Feeds the watchdog from a loop at a third of its interval, not on every pass.

    `beat(now)` takes the caller's monotonic time, so it is testable without a clock.
    """

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        self._environ = environ
        interval = watchdog_interval(environ)
        self.every = None if interval is None else interval / 3
        self._last: float | None = None

    def beat(self, now: float) -> bool:
        """Send WATCHDOG=1 if a third of the interval has passed since the last; True if sent."""
        if self.every is None:
            return False
        if self._last is not None and now - self._last < self.every:
            return False
        self._last = now
        return watchdog(self._environ)
