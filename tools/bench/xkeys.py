"""Key presses into an X server through the XTEST extension (libX11 and libXtst by ctypes),
so that a benchmark knows to the microsecond when it pressed (xdotool would add its own
process start to every sample), and the window journeys (tests/window_watch.py) type bursts
as fast as the X server takes them.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import time


class XKeys:
    """One connection to the X display `display`, pressing keys as a keyboard would."""

    def __init__(self, display: str) -> None:
        x11_name = ctypes.util.find_library("X11") or "libX11.so.6"
        xtst_name = ctypes.util.find_library("Xtst") or "libXtst.so.6"
        self._x = ctypes.CDLL(x11_name)
        self._t = ctypes.CDLL(xtst_name)
        x, t = self._x, self._t
        x.XOpenDisplay.restype = ctypes.c_void_p
        x.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x.XStringToKeysym.restype = ctypes.c_ulong
        x.XStringToKeysym.argtypes = [ctypes.c_char_p]
        x.XKeysymToKeycode.restype = ctypes.c_ubyte
        x.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        x.XFlush.argtypes = [ctypes.c_void_p]
        x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x.XCloseDisplay.argtypes = [ctypes.c_void_p]
        t.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                                        ctypes.c_ulong]
        t.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                           ctypes.c_int, ctypes.c_ulong]
        self._dpy = x.XOpenDisplay(display.encode())
        if not self._dpy:
            raise RuntimeError(f"cannot open X display {display}")
        self._codes: dict[str, int] = {}
        #: key downs sent by `burst`, `down` (each one the window should take)
        self.sent = 0

    def point(self, x: int, y: int) -> None:
        """Move the pointer (with no window manager the keyboard follows the pointer)."""
        self._t.XTestFakeMotionEvent(self._dpy, -1, x, y, 0)
        self._x.XSync(self._dpy, 0)

    def press(self, key: str) -> float:
        """Press and release `key` (an X keysym name such as "r"); time.monotonic() taken
        just before the press left for the server."""
        code = self.code(key)
        sent = time.monotonic()
        self._t.XTestFakeKeyEvent(self._dpy, code, 1, 0)
        self._t.XTestFakeKeyEvent(self._dpy, code, 0, 0)
        self._x.XFlush(self._dpy)
        return sent

    def code(self, key: str) -> int:
        """The keycode of an X keysym name ("r", "Return", "Shift_L")."""
        code = self._codes.get(key)
        if code is None:
            code = self._codes[key] = int(self._x.XKeysymToKeycode(
                self._dpy, self._x.XStringToKeysym(key.encode())))
        if not code:
            raise ValueError(f"no key for {key!r} on this display")
        return code

    def down(self, key: str) -> None:
        """Press `key` and keep it down (M held for the banker menu)."""
        self._t.XTestFakeKeyEvent(self._dpy, self.code(key), 1, 0)
        self._x.XFlush(self._dpy)
        self.sent += 1

    def up(self, key: str) -> None:
        """Let go of `key`."""
        self._t.XTestFakeKeyEvent(self._dpy, self.code(key), 0, 0)
        self._x.XFlush(self._dpy)

    def burst(self, keys: list[str], gap_ms: int = 3) -> None:
        """Press and release every key in order (a capital letter with Shift), all sent in
        one XFlush; the X server plays them `gap_ms` apart. SDL takes a key pressed again
        less than 2 ms after its release for the keyboard's auto-repeat (and pygame drops
        repeats), so the gap is never 0: no hand types Down, Down that fast anyway."""
        shift = self.code("Shift_L")
        for key in keys:
            upper = len(key) == 1 and key.isupper()
            code = self.code(key.lower() if upper else key)
            events = [(shift, 1), (code, 1), (code, 0), (shift, 0)] if upper else \
                [(code, 1), (code, 0)]
            for keycode, down in events:
                self._t.XTestFakeKeyEvent(self._dpy, keycode, down, gap_ms)
            self.sent += 2 if upper else 1
        self._x.XFlush(self._dpy)

    def close(self) -> None:
        """Close the connection."""
        if self._dpy:
            self._x.XCloseDisplay(self._dpy)
            self._dpy = None
