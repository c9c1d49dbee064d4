"""The table's first frame comes before the session's other listeners (the phones, the
voice) are told: companion.screen.wakeups.FirstFrame, through a real session and screen loop."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import pygame
import pytest

from companion.game.api import Source, Update
from companion.game.session import GameSession
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.wakeups import FirstFrame
from tools.bench.journal import bot_script

BOT = Source("script", banker=True)
#: long enough that a loop holding the listeners by mistake fails the test, not slows it
NEVER_S = 30.0


pytestmark = pytest.mark.usefixtures("dummy_display")


class Recording(ScreenLoop):
    """A loop that records the version each flipped frame showed."""

    def __init__(self, controller: Controller, surface: pygame.Surface) -> None:
        super().__init__(controller, surface)
        self.first_frame = FirstFrame(wait_s=NEVER_S)
        self.shown: list[int] = []

    def draw(self) -> None:
        super().draw()
        self.shown.append(int((self.controller.state or {}).get("version") or 0))


def _phone_listener(loop: Recording, told: list[tuple[int, list[int]]],
                    last: threading.Event, version: int) -> object:
    """A listener added after the screen's, as the phones' remote is: what had been
    flipped when it was told of each update."""

    def listener(update: Update) -> None:
        told.append((update.version, list(loop.shown)))
        if update.version >= version:
            last.set()

    return listener


def test_the_phones_are_told_after_the_frame_that_shows_the_move(tmp_path: Path) -> None:
    script = bot_script(seed=5, count=25)
    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        controller = Controller(session, language="en")
        loop = Recording(controller, pygame.display.set_mode((800, 480)))
        told: list[tuple[int, list[int]]] = []
        last = threading.Event()
        final = session.version + len(script) - 1
        session.add_listener(_phone_listener(loop, told, last, final))  # type: ignore[arg-type]
        runner = threading.Thread(target=loop.run, daemon=True)
        runner.start()
        try:
            for command in script[1:]:  # a phone's moves, from another thread
                assert session.submit(command, BOT).accepted
            assert last.wait(NEVER_S), "the phones were told of every move"
        finally:
            loop.request_stop()
            runner.join(NEVER_S)
        assert not runner.is_alive()
        assert [v for v, _ in told] == list(range(final - len(script) + 2, final + 1))
        for version, flipped in told:
            assert flipped and max(flipped) >= version, \
                f"the phones heard of version {version} before a frame showed it"
        assert loop.first_frame.late == 0


def test_the_screens_own_presses_hold_nobody_while_it_waits(tmp_path: Path) -> None:
    """A press waits for its own update while the listeners' thread may still hold an
    earlier one for its frame: the loop lets it go rather than both waiting."""
    with GameSession.open(tmp_path) as session:
        session.submit(bot_script(seed=5, count=1)[0], BOT)
        controller = Controller(session, language="en")
        loop = Recording(controller, pygame.display.set_mode((800, 480)))
        told: queue.Queue[tuple[int, list[int]]] = queue.Queue()
        session.add_listener(lambda u: told.put((u.version, list(loop.shown))))
        runner = threading.Thread(target=loop.run, daemon=True)
        runner.start()
        heard: list[tuple[int, list[int]]] = []
        try:
            for _ in range(8):  # the panel's buttons, as the prompt offers them
                prompt = controller.current_prompt()
                button = next(a.button for a in prompt.actions if a.command is not None)
                controller.post_button(button or "roll", "keyboard")
                heard.append(told.get(timeout=NEVER_S))
        finally:
            loop.request_stop()
            runner.join(NEVER_S)
        assert not runner.is_alive()
        assert loop.first_frame.late == 0, "no listener waited out its bound"
        for version, flipped in heard:
            assert flipped and max(flipped) >= version


def test_a_loop_that_does_not_draw_holds_the_others_only_so_long(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as session:
        script = bot_script(seed=5, count=3)
        session.submit(script[0], BOT)
        controller = Controller(session, language="en")
        gate = FirstFrame(wait_s=0.05)
        controller.first_frame = gate  # as a running loop installs it, but nothing draws
        told = threading.Event()
        session.add_listener(lambda _u: told.set())
        assert session.submit(script[1], BOT).accepted
        assert told.wait(NEVER_S), "the other listeners go on without the frame"
        assert gate.late == 1
        gate.close()
        told.clear()
        assert session.submit(script[2], BOT).accepted
        assert told.wait(NEVER_S)
        assert gate.late == 1, "a closed gate holds nobody"


def test_a_press_after_an_update_not_yet_drawn_gets_its_own_result(tmp_path: Path) -> None:
    """A phone's move is queued for the screen (its listener held until a frame shows it)
    and a key press comes in the same wake, before any frame: the press's own update must
    still reach it, in the next frame, not after the bound."""
    with GameSession.open(tmp_path) as session:
        script = bot_script(seed=5, count=3)
        session.submit(script[0], BOT)
        controller = Controller(session, language="en")
        gate = FirstFrame(wait_s=NEVER_S)
        controller.first_frame = gate  # the loop's, which has not drawn yet
        queued = threading.Event()
        controller.wake = queued.set
        phone = session.submit(script[1], BOT)
        assert phone.accepted and queued.wait(NEVER_S)
        own = controller.submit(script[2], "keyboard")  # as a press does, on the loop's thread
        assert own is not None and own.accepted
        assert int((controller.state or {}).get("version") or 0) == phone.version + 1, \
            "the press's own result is there for the next frame"
        gate.close()
        assert gate.late == 0


def test_a_session_that_tells_on_the_presser_s_thread_does_not_hold_the_loop() -> None:
    """A session calling its listeners on the thread that submitted (the tests' fake) tells
    the screen on the loop's own thread: the loop must not wait for its own frame."""
    from web_fakes import FakeSession

    session = FakeSession()
    controller = Controller(session, language="en")  # type: ignore[arg-type]
    loop = Recording(controller, pygame.display.set_mode((800, 480)))
    runner = threading.Thread(target=loop.run, daemon=True)
    told: queue.Queue[int] = queue.Queue()
    session.add_listener(lambda u: told.put(u.version))
    runner.start()
    try:
        controller.post_button("roll", "keyboard")  # the loop presses: submit on its thread
        version = told.get(timeout=NEVER_S)
    finally:
        loop.request_stop()
        runner.join(NEVER_S)
    assert not runner.is_alive() and version >= 1
    assert loop.first_frame.late == 0, "the loop did not wait out the bound for itself"
