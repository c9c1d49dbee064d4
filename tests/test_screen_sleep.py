"""The screen loop sleeps without polling and wakes for input or for another thread."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading

import pygame
import pytest
from web_fakes import FakeSession

from companion.game.api import Source
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.wakeups import INPUT_POLL_MS, InputWaiter

LONG_S = 600.0  # a wait that would outlast the test run: only a wake-up ends it


pytestmark = pytest.mark.usefixtures("dummy_display")


class Spy(InputWaiter):
    """Says when the loop has gone to sleep in it."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.asleep = threading.Event()
        self.timeouts: list[float] = []

    def wait(self, timeout_s: float) -> bool:
        self.timeouts.append(timeout_s)
        self.asleep.set()
        return super().wait(timeout_s)


def in_thread(target: object) -> threading.Thread:
    pygame.event.clear()  # the display's own opening events
    thread = threading.Thread(target=target, daemon=True)  # type: ignore[arg-type]
    thread.start()
    return thread


def test_dummy_video_sleeps_without_looking_for_input() -> None:
    controller = Controller(FakeSession(), language="en")
    loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)))
    assert loop.waiter.poll_ms is None, "no input comes through a dummy display"
    loop.waiter.close()


def test_a_session_update_wakes_the_sleeping_loop_at_once() -> None:
    session = FakeSession()
    controller = Controller(session, language="en")
    spy = Spy()
    loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)), waiter=spy)
    got: list[list[pygame.event.Event]] = []
    waiting = in_thread(lambda: got.append(loop.wait_events(int(LONG_S * 1000))))
    assert spy.asleep.wait(30)
    assert spy.timeouts[-1] > LONG_S - 5, "asleep for the whole timeout, not a short poll"
    session.submit({"do": "roll", "dice": [1, 2]}, Source("keyboard"))  # the listener wakes it
    waiting.join(30)
    assert not waiting.is_alive() and got == [[]]
    assert loop.controller.drain(), "the update is there to draw"
    spy.close()


def test_a_button_from_another_thread_wakes_the_loop() -> None:
    controller = Controller(FakeSession(), language="en")
    spy = Spy()
    loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)), waiter=spy)
    waiting = in_thread(lambda: loop.wait_events(int(LONG_S * 1000)))
    assert spy.asleep.wait(30)
    controller.post_button("roll")
    waiting.join(30)
    assert not waiting.is_alive()
    spy.close()


def test_readable_input_ends_the_wait_and_a_wake_pipe_is_drained() -> None:
    read, write = os.pipe()  # stands in for the X server's connection
    waiter = InputWaiter([read])
    os.write(write, b"x")
    assert waiter.wait(LONG_S)
    os.read(read, 1)
    waiter.wake()
    waiter.wake()
    assert waiter.wait(LONG_S)
    assert not waiter.wait(0), "the wake-ups were read away"
    waiter.close()
    os.close(read)
    os.close(write)


def test_evdev_handles_are_drained_and_an_unplugged_one_is_dropped() -> None:
    read, write = os.pipe()  # stands in for /dev/input/eventN
    os.set_blocking(read, False)
    waiter = InputWaiter(drained=[read])
    os.write(write, b"e" * 48)
    assert waiter.wait(LONG_S)
    assert not waiter.wait(0), "our copy of the device's events was read away"
    waiter.close()
    os.close(write)


def test_an_unknown_video_driver_looks_for_input_regularly() -> None:
    waiter = InputWaiter.for_driver("wayland", {})
    assert waiter.poll_ms == INPUT_POLL_MS
    waiter.close()
    assert InputWaiter.for_driver("offscreen", {}).poll_ms is None


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")
def test_a_window_sleeps_on_the_x_connection() -> None:
    code = (
        "import pygame; from companion.screen.wakeups import InputWaiter\n"
        "pygame.display.init(); pygame.display.set_mode((80, 48))\n"
        "w = InputWaiter.for_driver(pygame.display.get_driver(), pygame.display.get_wm_info())\n"
        "print(pygame.display.get_driver(), w.poll_ms, len(w._watched))\n")
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "320x240x24"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert xvfb.stdout is not None
        display = xvfb.stdout.readline().decode().strip()
        env = {**os.environ, "DISPLAY": f":{display}", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        env.pop("SDL_VIDEODRIVER", None)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, timeout=60, check=True).stdout.split()
    finally:
        xvfb.terminate()
        xvfb.wait(30)
        if xvfb.stdout is not None:
            xvfb.stdout.close()
    assert out == ["x11", "None", "2"], "the X connection and the wake pipe, no polling"


def test_a_window_asks_sdl_for_its_own_framebuffer_unless_told(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.screen import app

    monkeypatch.delenv(app.FRAMEBUFFER_HINT, raising=False)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.setenv("DISPLAY", ":9")
    assert app.prefer_plain_framebuffer() and os.environ[app.FRAMEBUFFER_HINT] == "0"
    assert app._drop_our_hint() and app.FRAMEBUFFER_HINT not in os.environ
    monkeypatch.setenv(app.FRAMEBUFFER_HINT, "1")  # the user's own choice stays
    assert not app.prefer_plain_framebuffer() and os.environ[app.FRAMEBUFFER_HINT] == "1"
    assert not app._drop_our_hint() and os.environ[app.FRAMEBUFFER_HINT] == "1"
    monkeypatch.delenv(app.FRAMEBUFFER_HINT)
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")  # a console draws only through GLES
    assert not app.prefer_plain_framebuffer() and app.FRAMEBUFFER_HINT not in os.environ


def test_a_kms_console_draws_through_gles_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    """On KMS/DRM SDL is told to draw the window's pixels with GL ES 2: its own first
    choice, desktop GL, drew a black screen on the card image (no libGL.so.1 on a Pi)."""
    from companion.screen import app

    monkeypatch.delenv(app.FRAMEBUFFER_HINT, raising=False)
    monkeypatch.setattr(app, "_hint_set_here", None)
    app._gles_on_kms()
    assert os.environ[app.FRAMEBUFFER_HINT] == app.KMS_RENDERER == "opengles2"
    app.drop_our_hints()  # before the process starts itself again: a fresh choice
    assert app.FRAMEBUFFER_HINT not in os.environ
    monkeypatch.setenv(app.FRAMEBUFFER_HINT, "1")  # the user's own choice stays
    app._gles_on_kms()
    assert os.environ[app.FRAMEBUFFER_HINT] == "1"
    app.drop_our_hints()
    assert os.environ[app.FRAMEBUFFER_HINT] == "1"
