"""The table's first frame before the other listeners' work (issue 28).

The session tells its listeners one after another on one thread; the screen's controller is
told first (it is built before the phones' remote and the voice, companion/app/run_cmd.py),
but its listener only queues the update and wakes the screen loop, so the phones' remote
(the change of the state for every stream, the Me pages, the chart line) and the voice then
ran on that thread while the loop drew, sharing the core and the interpreter's lock with
the frame that shows the result. `FirstFrame` holds the listeners' thread after the
screen's listener until the loop has flipped a frame with that update (or `WAIT_S` passed,
or the loop waits on the session itself), so a press shows its result first and the phones
are told right after, a frame later (a few ms here, never more than `WAIT_S`).

No pygame here: the controller and the tests use it without a display.
"""

from __future__ import annotations

import threading

#: the longest the other listeners (the phones, the voice) wait for the screen's frame: a
#: loop that stopped drawing (a display gone, a freeze) or draws slowly never holds them
#: longer, so that a phone's update stays within the fan-out's 50 ms (docs/bench.md: a
#: frame after a move took 2.5-5 ms p50 here, and 50 ms held the phones 52 ms at p99 on a
#: loaded machine)
WAIT_S = 0.025


class FirstFrame:
    """Which of the updates the screen was told of a flipped frame shows; the listeners'
    thread waits on its update's ticket, the loop's thread says what it drew.

    Updates are counted, not versioned (an undo's update may carry any version): the
    controller numbers each update its listener queues (the ticket) and counts those it
    applied, in the same order, from its start.
    """

    def __init__(self, wait_s: float = WAIT_S) -> None:
        self.wait_s = wait_s
        self._cond = threading.Condition()
        self._shown = 0  # of them, those a flipped frame shows (or the loop stopped holding)
        self._closed = False
        #: updates whose wait ran out before their frame (a slow or stuck loop)
        self.late = 0

    def wait(self, ticket: int) -> bool:
        """On the listeners' thread: until a frame shows update `ticket` (True), or
        `wait_s` passed or the gate closed (False: the other listeners go on anyway)."""
        with self._cond:
            shown = self._cond.wait_for(lambda: self._closed or self._shown >= ticket,
                                        self.wait_s)
            if not shown:
                self.late += 1
            return bool(shown) and not self._closed

    def shown(self, applied: int) -> None:
        """On the loop's thread: a flipped frame shows the first `applied` updates (or the
        loop is about to wait on the session, and holds nobody for them meanwhile)."""
        with self._cond:
            if applied > self._shown:
                self._shown = applied
                self._cond.notify_all()

    def close(self) -> None:
        """The loop ends: nobody waits for its frames any more."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
