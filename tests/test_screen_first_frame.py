"""The table's first frame comes before the session's other listeners (the phones, the
voice) are told: companion.screen.wakeups.FirstFrame, through a real session and screen loop."""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.game.api import Source, Update
from companion.game.session import GameSession
from companion.screen.app import ScreenLoop
from companion.screen.audio import sounds_for
from companion.screen.controller import Controller
from companion.screen.render import render
from companion.screen.screen_sounds import extra_sounds
from companion.screen.wakeups import RECENT, SLACK, WAIT_MAX_S, WAIT_S, FirstFrame
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


class Clock:
    """A clock the test moves: how long draws and holds took, without waiting for it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_bound_follows_the_slowest_recent_draw_within_its_limits() -> None:
    """A board whose frames take 100 ms (a Pi Zero 2 W's, about) holds the phones up to
    three times that; faster frames bring the bound back down, never under its least."""
    clock = Clock()
    gate = FirstFrame(wait_s=WAIT_S, most_s=WAIT_MAX_S, clock=clock)
    assert gate.bound() == WAIT_S  # nothing drawn yet
    gate.drawing()
    clock.now += 0.1
    gate.shown(0)
    assert gate.bound() == pytest.approx(SLACK * 0.1)
    for _ in range(RECENT):  # fast frames push the slow one out of the recent ones
        gate.drawing()
        clock.now += 0.002
        gate.shown(0)
    assert gate.bound() == WAIT_S
    gate.drawing()
    clock.now += 5.0  # a frame that took seconds (a stalled display) holds no longer
    gate.shown(0)
    assert gate.bound() == WAIT_MAX_S


def test_a_hold_that_outlived_its_bound_teaches_the_bound() -> None:
    """A frame that came after its hold ran out (the board slower than the bound) counts
    when it comes: the next holds wait long enough for such a frame."""
    clock = Clock()
    gate = FirstFrame(wait_s=0.001, most_s=10.0, clock=clock)
    assert gate.wait(1) is False and gate.late == 1  # nothing drew within 1 ms
    clock.now += 0.4  # its frame came 400 ms after the hold began
    gate.shown(1)
    assert gate.bound() == pytest.approx(SLACK * 0.4)
    clock.now += 1.0
    gate.shown(1)  # shown again: counted once
    assert gate.bound() == pytest.approx(SLACK * 0.4)


def test_a_held_listener_goes_on_at_the_frame_not_at_the_bound() -> None:
    """The hold ends on the frame: with a bound of NEVER_S, a listener waiting for its
    update returns once the loop's thread says the frame shows it."""
    gate = FirstFrame(wait_s=NEVER_S)
    began, result = threading.Event(), queue.Queue[bool]()

    def listener() -> None:
        began.set()
        result.put(gate.wait(1))

    waiter = threading.Thread(target=listener, daemon=True)
    waiter.start()
    assert began.wait(NEVER_S)
    gate.drawing()
    gate.shown(1)
    assert result.get(timeout=NEVER_S) is True
    waiter.join(NEVER_S)
    assert gate.late == 0


def test_the_loop_s_own_frames_teach_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen loop times each of its frames on the gate: a slow board's first frame
    (drawn whole, before any move) already sets the bound for the first move's hold."""
    import companion.screen.app as app

    clock = Clock()

    def slow_render(*args: Any, **kwargs: Any) -> Any:
        clock.now += 0.12  # the frame took 120 ms on this board's clock
        return render(*args, **kwargs)

    monkeypatch.setattr(app, "render", slow_render)
    loop = ScreenLoop(Controller(None, language="en"), pygame.display.set_mode((800, 480)))
    loop.first_frame = FirstFrame(clock=clock)
    assert loop.first_frame.bound() == WAIT_S
    loop.draw()
    assert loop.first_frame.bound() == pytest.approx(SLACK * 0.12)


class Sounds:
    """A sound player that records what it was handed (every sound known)."""

    def __init__(self) -> None:
        self.handed: list[str] = []

    def play(self, name: str) -> bool:
        self.handed.append(name)
        return True

    def play_events(self, events: list[dict[str, Any]]) -> list[str]:
        names = sounds_for(events)
        self.handed += names
        return names


def test_a_move_s_sound_is_handed_over_after_the_frame_that_shows_it(tmp_path: Path) -> None:
    """Under a running loop the sounds of an update wait for its first frame (the player's
    thread may open the audio device then); with no loop they are handed over at once."""
    script = bot_script(seed=5, count=30)

    def called_for(events: list[dict[str, Any]]) -> list[str]:
        return sounds_for(events) or extra_sounds(events)[:1]

    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        sounds = Sounds()
        controller = Controller(session, language="en", sound=sounds)  # type: ignore[arg-type]
        loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)))
        loop.first_frame = FirstFrame(wait_s=NEVER_S)
        controller.first_frame = loop.first_frame  # as the running loop installs it
        expected: list[str] = []
        for command in script[1:12]:
            done = session.submit(command, BOT)
            assert done.accepted
            controller.drain_updates(done.version)  # the loop's thread takes the update
            expected += called_for(done.events)
        assert expected, "the script's moves call for sounds"
        assert sounds.handed == [], "no sound before the frame"
        loop.draw()
        assert sounds.handed == expected, "each update's sounds, in order, after the frame"
        loop.draw()
        assert sounds.handed == expected, "each handed over once"
        loop.first_frame.close()
        controller.first_frame = None  # no loop: at once
        before = len(expected)
        for command in script[12:]:
            done = session.submit(command, BOT)
            assert done.accepted
            controller.drain_updates(done.version)
            expected += called_for(done.events)
            assert sounds.handed == expected
        assert len(expected) > before, "the moves without a loop called for sounds too"
