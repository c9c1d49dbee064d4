"""`python tests/x11_grab.py MOVES` on an X display (DISPLAY set): the screen loop draws a
bot game's moves into a real window, each frame only the regions that changed sent with
`display.update`, and after each the window's pixels are read back from the X server
(XGetImage, libX11 by ctypes) and compared with a whole render of the same frame. Prints
one line per move ("same" or "different") and exits 1 when any differed."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import tempfile
from pathlib import Path

import pygame

from companion.game.session import GameSession
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.render import render
from tools.bench.journal import build_journal

Z_PIXMAP = 2
ALL_PLANES = 0xFFFFFFFF


class XImage(ctypes.Structure):
    """The head of Xlib's XImage, as far as the pixels."""

    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int),
                ("xoffset", ctypes.c_int), ("format", ctypes.c_int),
                ("data", ctypes.c_void_p), ("byte_order", ctypes.c_int),
                ("bitmap_unit", ctypes.c_int), ("bitmap_bit_order", ctypes.c_int),
                ("bitmap_pad", ctypes.c_int), ("depth", ctypes.c_int),
                ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int)]


def _xlib() -> ctypes.CDLL:
    x = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XGetImage.restype = ctypes.POINTER(XImage)
    x.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                            ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
    x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x.XDestroyImage.argtypes = [ctypes.POINTER(XImage)]
    return x


def grab(x: ctypes.CDLL, display: int, window: int, size: tuple[int, int]) -> bytes:
    """The window's pixels as the X server has them, RGB (a 24-bit TrueColor visual)."""
    x.XSync(display, 0)
    image = x.XGetImage(display, window, 0, 0, size[0], size[1], ALL_PLANES, Z_PIXMAP)
    head = image.contents
    raw = ctypes.string_at(head.data, head.bytes_per_line * size[1])
    x.XDestroyImage(image)
    rows = []
    for y in range(size[1]):
        row = raw[y * head.bytes_per_line:y * head.bytes_per_line + 4 * size[0]]
        rgb = bytearray(3 * size[0])
        rgb[0::3], rgb[1::3], rgb[2::3] = row[2::4], row[1::4], row[0::4]
        rows.append(bytes(rgb))
    return b"".join(rows)


def main(moves: int) -> int:
    """Draw `moves` moves; 0 when every window equalled its whole render."""
    os.environ.pop("SDL_VIDEODRIVER", None)
    os.environ["SDL_FRAMEBUFFER_ACCELERATION"] = "0"  # X11's own framebuffer, as a desktop
    x = _xlib()
    display = x.XOpenDisplay(None)
    data = Path(tempfile.mkdtemp(prefix="x11-grab-"), "data")
    build_journal(data, 30, seed=3)
    size = (800, 480)
    with GameSession.open(data) as session:
        pygame.display.init()
        surface = pygame.display.set_mode(size)
        controller = Controller(session, data_dir=data, language="en")
        loop = ScreenLoop(controller, surface)
        window = int(pygame.display.get_wm_info()["window"])
        loop.draw()
        differing = partial = 0
        for move in range(moves):
            prompt = controller.current_prompt()
            action = next((a for a in prompt.actions if a.command is not None), None)
            if action is None or action.button is None:
                break
            controller.press(action.button, "keyboard")
            loop.draw()
            frame = controller.frame
            partial += frame is not None and frame.dirty is not None
            whole = pygame.Surface(size)
            render(controller.state, controller.ui, whole)
            same = grab(x, display, window, size) == pygame.image.tobytes(whole, "RGB")
            differing += not same
            print(move, "same" if same else "different", flush=True)
        loop.waiter.close()
        pygame.display.quit()
    print(f"partial {partial} differing {differing}", flush=True)
    return 1 if differing or not partial else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
