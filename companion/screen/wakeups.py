"""The screen loop's sleep: until input arrives or another thread wakes it, never polling.

pygame's `event.wait` looks for events every millisecond (a thousand wake-ups a second
while nothing happens), and pumping SDL now and then instead makes every key wait for the
next look. So the loop sleeps in `select()` on the files input comes through (the X
server's connection in a window; the evdev devices on a console, KMS/DRM) and on a pipe
that `wake()` writes a byte into from any thread (a session update, a panel button, a
phone); only then does it ask SDL for the events. A video driver whose input files are
not known here (Wayland, say) is looked at every `INPUT_POLL_MS` instead; one without
input (dummy, offscreen) only waits for wake-ups.

`FirstFrame` (at the end) is the other side of a wake-up from the session: its listeners'
thread waits until the loop has flipped the frame with the update it was woken for.
"""

from __future__ import annotations

import ctypes
import glob
import logging
import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping

log = logging.getLogger(__name__)

#: where input files are not known: how often SDL is asked for input anyway
INPUT_POLL_MS = 25
#: video drivers that deliver no input at all
NO_INPUT_DRIVERS = ("dummy", "offscreen")


def x11_connection(wm_info: Mapping[str, object]) -> int | None:
    """The file descriptor of the X server connection behind pygame's window, or None."""
    display = _x11_display(wm_info)
    if display is None:
        return None
    try:
        xlib = ctypes.CDLL("libX11.so.6")
        xlib.XConnectionNumber.argtypes = [ctypes.c_void_p]
        xlib.XConnectionNumber.restype = ctypes.c_int
        fd = int(xlib.XConnectionNumber(display))
    except (OSError, ValueError, TypeError, AttributeError) as exc:
        log.info("cannot find the X connection (%s): looking for input every %d ms", exc,
                 INPUT_POLL_MS)
        return None
    return fd if fd >= 0 else None


def open_evdev(paths: Iterable[str] | None = None) -> list[int]:
    """Our own read-only handles on the input devices SDL reads on a console (each reader
    of an evdev device gets every event, so reading ours takes nothing from SDL)."""
    fds = []
    for path in sorted(glob.glob("/dev/input/event*") if paths is None else paths):
        try:
            fds.append(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC))
        except OSError:
            continue
    return fds


class InputWaiter:
    """Sleep until one of `watched` is readable, `wake()` is called, or the time is up.

    `drained` are files of ours whose bytes are only a signal (the wake pipe, our evdev
    handles): read away after each wait. `poll_ms`: look at SDL at least this often (None:
    only when a file says so)."""

    def __init__(self, watched: list[int] | None = None, drained: list[int] | None = None,
                 poll_ms: int | None = None) -> None:
        self._wake_r, self._wake_w = os.pipe()
        for fd in (self._wake_r, self._wake_w):
            os.set_blocking(fd, False)
        self._drained = [self._wake_r, *(drained or [])]
        self._watched = [*(watched or []), *self._drained]
        self.poll_ms = poll_ms
        self._closed = False

    @classmethod
    def for_driver(cls, driver: str, wm_info: Mapping[str, object]) -> InputWaiter:
        """The waiter for SDL's video `driver` ("x11", "kmsdrm", "dummy"...)."""
        name = driver.lower()
        if name in NO_INPUT_DRIVERS:
            return cls()
        if name == "x11":
            fd = x11_connection(wm_info)
            return cls([fd]) if fd is not None else cls(poll_ms=INPUT_POLL_MS)
        if name == "kmsdrm":
            devices = open_evdev()
            if devices:
                return cls(drained=devices)
        return cls(poll_ms=INPUT_POLL_MS)

    def wake(self) -> None:
        """From any thread: end the current (or the next) wait at once."""
        try:
            os.write(self._wake_w, b"!")
        except (BlockingIOError, OSError):  # the pipe is full (it wakes anyway) or closed
            pass

    def wait(self, timeout_s: float) -> bool:
        """Sleep up to `timeout_s`; True when input or a wake-up may be there."""
        if self._closed:
            return True
        if self.poll_ms is not None:
            timeout_s = min(timeout_s, self.poll_ms / 1000)
        try:
            ready, _w, _x = select.select(self._watched, [], [], max(0.0, timeout_s))
        except (OSError, ValueError):  # a file went away (a device unplugged): look now
            return True
        for fd in ready:
            if fd in self._drained:
                self._drain(fd)
        return bool(ready)

    def _drain(self, fd: int) -> None:
        try:
            while os.read(fd, 4096):
                pass
        except BlockingIOError:  # read empty: nothing more to drain
            return
        except OSError:  # a device unplugged: stop watching it (SDL reports it itself)
            if fd != self._wake_r:
                self._watched.remove(fd)
                self._drained.remove(fd)
                os.close(fd)

    def close(self) -> None:
        """Close our files (the X connection is SDL's and stays)."""
        if self._closed:
            return
        self._closed = True
        for fd in {self._wake_w, *self._drained}:
            try:
                os.close(fd)
            except OSError:
                pass


#: Xlib's "exit handler" (libX11 1.7+): void handler(Display *, void *data)
_EXIT_HANDLER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)


def _x11_display(wm_info: Mapping[str, object]) -> int | None:
    """The Xlib Display* behind pygame's window (a capsule in its wm info), or None."""
    capsule = wm_info.get("display")
    if capsule is None:
        return None
    try:
        get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
        get_pointer.restype = ctypes.c_void_p
        get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
        return get_pointer(capsule, b"display") or None
    except (ValueError, TypeError, AttributeError):
        return None


def _ignore_loss(_display: int | None, _data: int | None) -> None:
    """An exit handler that lets a dead probe connection be (x11_answers)."""


_IGNORE_LOSS = _EXIT_HANDLER(_ignore_loss)
#: Xlib's IO error handler: int handler(Display *)
_IO_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)


def _return_from_io_error(_display: int | None) -> int:
    """Xlib's IO error handler that lets the display's exit handler decide (DisplayLoss)."""
    return 0


_RETURN_FROM_IO_ERROR = _IO_HANDLER(_return_from_io_error)


class DisplayLoss:
    """The X server going away (killed, its screen unplugged) as a flag instead of the end
    of the process.

    When the connection breaks, Xlib calls the display's "exit handler", whose default is
    exit(1): the whole companion (the phones' server, the writer's queue) ended with the
    window. libX11 1.7 lets a program replace it (XSetIOErrorExitHandler); ours only sets
    `lost`, Xlib marks the connection dead and its later calls do nothing, and the screen
    loop sees the flag and hands the table to the headless face. SDL must not be shut down
    on the dead connection afterwards: destroying its window waits for an X event that can
    never come, and closing its second connection ends the process, so a run whose display
    was lost leaves with os._exit after its own parts are closed (companion.app.run_cmd).
    """

    #: the handlers installed (kept alive as long as the process: Xlib holds the pointer)
    _installed: list[object] = []
    #: every connection watched in this process (any_lost)
    _watches: list[DisplayLoss] = []

    def __init__(self) -> None:
        self.lost = threading.Event()
        #: why, in a few words, once lost
        self.why = ""

    @classmethod
    def any_lost(cls) -> bool:
        """Whether a watched X connection of this process broke (Xlib then calls no handler
        for it again, and SDL's shutdown on it would wait forever: leave_on_x_break)."""
        return any(loss.lost.is_set() for loss in cls._watches)

    @classmethod
    def watch(cls, driver: str, wm_info: Mapping[str, object]) -> DisplayLoss | None:
        """Watch the X connection behind pygame's window; None where that cannot be done
        (not X11, a libX11 older than 1.7: then a lost X server still ends the process)."""
        if driver.lower() != "x11":
            return None
        display = _x11_display(wm_info)
        if display is None:
            return None
        try:
            xlib = ctypes.CDLL("libX11.so.6")
            install = xlib.XSetIOErrorExitHandler
        except (OSError, AttributeError) as exc:
            log.info("a lost X server will end the companion (%s)", exc)
            return None
        loss = cls()
        install.argtypes = [ctypes.c_void_p, _EXIT_HANDLER, ctypes.c_void_p]
        install.restype = None

        def on_exit(_display: int | None, _data: int | None) -> None:
            loss.why = "the X server's connection broke: the display went away"
            loss.lost.set()

        handler = _EXIT_HANDLER(on_exit)
        cls._installed.append(handler)
        cls._watches.append(loss)
        install(display, handler, None)
        # Xlib's default IO error handler exits itself before any exit handler is asked:
        # ours only returns (for every connection: one without our exit handler still ends
        # the process, in Xlib's default exit handler)
        xlib.XSetIOErrorHandler.argtypes = [_IO_HANDLER]
        xlib.XSetIOErrorHandler.restype = ctypes.c_void_p
        xlib.XSetIOErrorHandler(_RETURN_FROM_IO_ERROR)
        return loss


def leave_on_x_break(leave: Callable[[], None]) -> bool:
    """From now on an X connection of this process that breaks calls `leave`, which must end
    the process (os._exit); True when armed (False: no libX11, so no X connection either).

    For the last act of a run whose parts are all closed: SDL's shutdown of its window.
    On a connection whose X server is gone (killed at the same moment as the stop) SDL
    waits for an X event that never comes, in a loop that keeps a core busy forever
    (libX11's XIfEvent: Xlib calls the handlers once, marks the connection dead, and every
    later read returns at once with nothing). The IO error handler is Xlib's one for every
    connection (SDL's second one too, whose default exit handler would exit(1)), and is
    called before a display's exit handler: the process ends there, as it was about to.
    Xlib calls no handler again for a connection already marked dead: DisplayLoss.any_lost
    says whether one is, and then SDL must not be shut down at all."""
    try:
        xlib = ctypes.CDLL("libX11.so.6")
    except OSError:
        return False

    def on_io_error(_display: int | None) -> int:
        leave()
        return 0  # `leave` broke its promise: Xlib's exit handlers decide, as before

    handler = _IO_HANDLER(on_io_error)
    DisplayLoss._installed.append(handler)  # Xlib holds the pointer for the process's life
    xlib.XSetIOErrorHandler.argtypes = [_IO_HANDLER]
    xlib.XSetIOErrorHandler.restype = ctypes.c_void_p
    xlib.XSetIOErrorHandler(handler)
    return True


def x11_answers(name: str | None) -> bool:
    """Whether the X server `name` (e.g. ":0") accepts a connection now (opened and closed
    at once; no SDL involved)."""
    if not name:
        return False
    try:
        xlib = ctypes.CDLL("libX11.so.6")
    except OSError:
        return False
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = xlib.XOpenDisplay(name.encode())
    if not display:
        return False
    try:  # a server that dies between the two calls must not end the process either
        install = xlib.XSetIOErrorExitHandler
        install.argtypes = [ctypes.c_void_p, _EXIT_HANDLER, ctypes.c_void_p]
        install(display, _IGNORE_LOSS, None)
    except AttributeError:
        pass
    xlib.XCloseDisplay(display)
    return True


class DisplayReturn:
    """Looks every `every_s` seconds, on a thread of its own, whether the X server `name`
    answers again (x11_answers); once it does, `back` is set and `wake` called. The
    looking never holds up the caller's loop (a display on another machine can take a TCP
    time-out to refuse), and ends at `close`."""

    def __init__(self, name: str | None, every_s: float,
                 wake: Callable[[], None] = lambda: None) -> None:
        self.name, self.every_s, self.wake = name, every_s, wake
        self.back = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="display-return", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            if x11_answers(self.name):
                self.back.set()
                self.wake()
                return

    def close(self) -> None:
        """Stop looking (a look under way ends on its own; the thread is a daemon)."""
        self._stop.set()



# The first frame before the other listeners (issue 28).
#
# The session tells its listeners one after another on one thread; the screen's controller is
# told first (it is built before the phones' remote and the voice, companion/app/run_cmd.py),
# but its listener only queues the update and wakes the screen loop, so the phones' remote
# (the change of the state for every stream, the Me pages, the chart line) and the voice then
# ran on that thread while the loop drew, sharing the core and the interpreter's lock with
# the frame that shows the result. `FirstFrame` holds the listeners' thread after the
# screen's listener until the loop has flipped a frame with that update (or the loop waits
# on the session itself, or the bound passed), so a press shows its result first and the
# phones are told right after, a frame later.
#
# The bound only keeps a loop that stopped drawing (a display gone, a freeze) from holding
# the phones: it is never what ends a hold of a loop that draws. A fixed 25 ms ran out on a
# slow board (a Pi Zero 2 W runs this Python 14-28x slower than the machine it was measured
# on, docs/bench.md: a move's frame there takes about 50-150 ms), and then the phones' work
# ran beside the very frame it should follow. So the bound is learned from the loop itself:
# SLACK times the slowest of its last RECENT draws and holds (from a listener's wait to the
# frame that showed its update, a hold that outlived its bound counted when the frame came),
# never under WAIT_S nor over WAIT_MAX_S. The loop's first frame is drawn whole before any
# update, so the bound fits the board from the first move on.

#: the shortest bound (docs/bench.md: a frame after a move took 2.5-5 ms p50 on the
#: machine the benchmarks run on, and a 50 ms bound held the phones 52 ms at p99 there)
WAIT_S = 0.025
#: the longest: however slow the board, a loop that stopped drawing holds the other
#: listeners no longer than this
WAIT_MAX_S = 0.5
#: the bound is this many times the slowest recent draw or hold
SLACK = 3.0
#: how many recent draws and holds the bound is learned from
RECENT = 16
#: the holds still waiting for their frame that are remembered (a loop that stopped
#: drawing forgets the oldest)
PENDING_MAX = 64


class FirstFrame:
    """Which of the updates the screen was told of a flipped frame shows; the listeners'
    thread waits on its update's ticket, the loop's thread says what it drew.

    Updates are counted, not versioned (an undo's update may carry any version): the
    controller numbers each update its listener queues (the ticket) and counts those it
    applied, in the same order, from its start. `wait_s` is the shortest bound and
    `most_s` the longest (never under `wait_s`); `clock` times the draws and holds the
    bound is learned from.
    """

    def __init__(self, wait_s: float = WAIT_S, most_s: float = WAIT_MAX_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.least_s = wait_s
        self.most_s = max(wait_s, most_s)
        self._clock = clock
        self._cond = threading.Condition()
        self._shown = 0  # of them, those a flipped frame shows (or the loop stopped holding)
        #: the game's version the last flipped frame showed (`shown`; 0: none yet)
        self._version = 0
        self._closed = False
        #: how long the loop's last RECENT draws and the last holds took (seconds)
        self._recent: deque[float] = deque(maxlen=RECENT)
        #: the tickets waited on and not shown yet: when their wait began
        self._pending: dict[int, float] = {}
        self._drawing: float | None = None  # when the draw under way began
        #: updates whose wait ran out before their frame (a slow or stuck loop)
        self.late = 0
        #: the loop's thread (`ScreenLoop.run` sets it): a session that tells its listeners
        #: on the thread that submitted (a test's) never makes the loop wait for itself
        self.loop_thread: int | None = None

    def bound(self) -> float:
        """How long a listener is held now at most: SLACK times the slowest recent draw
        or hold, within `least_s` and `most_s`."""
        with self._cond:
            return self._bound()

    def _bound(self) -> float:
        slowest = max(self._recent, default=0.0)
        return min(self.most_s, max(self.least_s, SLACK * slowest))

    def wait(self, ticket: int) -> bool:
        """On the listeners' thread: until a frame shows update `ticket` (True), or the
        bound passed or the gate closed (False: the other listeners go on anyway)."""
        if threading.get_ident() == self.loop_thread:
            return False  # told on the loop's own thread: its frame comes after this
        with self._cond:
            if not self._closed and self._shown < ticket:
                self._pending[ticket] = self._clock()
                while len(self._pending) > PENDING_MAX:
                    del self._pending[min(self._pending)]
            shown = self._cond.wait_for(lambda: self._closed or self._shown >= ticket,
                                        self._bound())
            if not shown:
                self.late += 1
            return bool(shown) and not self._closed

    def drawing(self) -> None:
        """On the loop's thread: a frame's draw begins (its time teaches the bound)."""
        with self._cond:
            self._drawing = self._clock()

    def wait_version(self, version: int) -> bool:
        """On a thread that should follow the table's frame (the phones' file writer): until
        a flipped frame shows the game's `version` or a later one (True), or the bound
        passed or the gate closed (False). Never on the loop's own thread."""
        if threading.get_ident() == self.loop_thread:
            return False
        with self._cond:
            return bool(self._cond.wait_for(
                lambda: self._closed or self._version >= version, self._bound())) \
                and not self._closed

    def shown(self, applied: int, version: int | None = None) -> None:
        """On the loop's thread: a flipped frame shows the first `applied` updates and the
        game's `version` (None: it was not drawn; the loop is about to wait on the session,
        and holds nobody for them meanwhile)."""
        with self._cond:
            now = self._clock()
            if version is not None and version != self._version:
                self._version = version
                self._cond.notify_all()
            if self._drawing is not None:
                self._recent.append(now - self._drawing)
                self._drawing = None
            for ticket in [t for t in self._pending if t <= applied]:
                self._recent.append(now - self._pending.pop(ticket))
            if applied > self._shown:
                self._shown = applied
                self._cond.notify_all()

    def close(self) -> None:
        """The loop ends: nobody waits for its frames any more."""
        with self._cond:
            self._closed = True
            self._pending.clear()
            self._cond.notify_all()
