"""The first frame after an update shows its result first: the decision panel with its
buttons (and the dice when they changed, and the banner), while the other changed regions
keep what they showed until the next frame, drawn at once; after it the screen is the
whole frame, pixel for pixel (companion.screen.render `result_first`, issue 28)."""

from __future__ import annotations

import threading
from pathlib import Path

import pygame
import pytest
from test_screen_partial import Clock, cold_caches

from companion.game.api import Source
from companion.game.session import GameSession
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.render import FIRST, Frame, render
from companion.screen.ui_state import DELTA_SHOWN_S, MESSAGE_S
from companion.screen.wakeups import FirstFrame
from tools.bench.journal import bot_script

BOT = Source("script", banker=True)
#: long enough that a hold running out by mistake would show as `late`, not as a slow test
NEVER_S = 30.0

pytestmark = pytest.mark.usefixtures("dummy_display")


def _area_bytes(surface: pygame.Surface, area: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(area), "RGB")


def _spots(frame: Frame, names: set[str] | None = None) -> list[tuple[object, ...]]:
    regions = frame.regions.values() if names is None else \
        [frame.regions[n] for n in sorted(names)]
    return [(tuple(h.rect), h.action, h.arg) for r in regions for h in r.hotspots]


class Watch:
    """A screen loop of a controller, drawn by the test as `ScreenLoop.run` draws (the
    first frame after an update, then the follow-up frames while the loop says so), each
    frame held to what the screen must show."""

    def __init__(self, controller: Controller, size: tuple[int, int]) -> None:
        self.controller = controller
        self.loop = ScreenLoop(controller, pygame.display.set_mode(size))
        self.loop.first_frame = FirstFrame(wait_s=NEVER_S)
        self.loop.first_frame.loop_thread = threading.get_ident()
        controller.first_frame = self.loop.first_frame  # as the running loop installs it
        self.split = 0  # first frames that left regions for the next one
        self.left: set[str] = set()  # the regions some first frame left
        #: first frames after which a banner went and a region under it was still left for
        #: the next frame (what it covered put back instead of the region drawn again)
        self.banner_went = 0
        self.loop.draw()  # whole

    def after_update(self, why: str) -> None:
        """The frames after an update the controller applied: the first shows the result
        and keeps every other region as it was on the screen; the next ones complete it."""
        loop, c = self.loop, self.controller
        last = c.frame
        assert last is not None and not last.pending
        before = pygame.image.tobytes(loop.surface, "RGB")
        before_surface = pygame.image.frombytes(before, loop.surface.get_size(), "RGB")
        loop.draw()
        frame = c.frame
        assert frame is not None
        assert frame.regions["log"] is last.regions["log"], \
            "the recent moves' lines are made after the first frame"
        if frame.pending:
            self.split += 1
            self.left |= frame.pending
            self._first_frame(last, frame, before_surface, why)
            assert loop.follow_up and loop.timeout_ms() == 0, "the rest at once, no sleep"
        follow = 0
        while loop.follow_up:
            follow += 1
            assert follow <= 2, f"the frames after {why} end"
            c.drain()
            loop.draw()
        assert c.frame is not None and not c.frame.pending
        self.whole(why)

    def _first_frame(self, last: Frame, frame: Frame, before: pygame.Surface,
                     why: str) -> None:
        c, surface = self.controller, self.loop.surface
        assert not frame.pending & {"prompt"}, "the decision panel is never left"
        assert set(FIRST) >= {"prompt", "header"}
        with cold_caches():
            reference = pygame.Surface(surface.get_size())
            whole = render(c.state, c.ui, reference)
        drawn = set(frame.regions) - frame.pending
        if last.banner is not None and last.banner != frame.banner:
            # the banner that went: what it covered put back (`Frame.under`), the regions
            # under it not drawn again for it
            assert last.under is not None and last.under[0] == last.banner[1], why
            before = before.copy()
            before.blit(last.under[1], last.under[0])
            self.banner_went += any(frame.regions[name].area.colliderect(last.banner[1])
                                    for name in frame.pending)
        for name in frame.pending:  # left as it was: its pixels, texts and touch targets
            area = frame.regions[name].area
            assert frame.regions[name] is last.regions[name], (why, name)
            if frame.banner is None or not area.colliderect(frame.banner[1]):
                assert _area_bytes(surface, area) == _area_bytes(before, area), (why, name)
        for name in drawn:
            if frame.regions[name] is last.regions.get(name):
                continue  # unchanged, kept
            area = frame.regions[name].area
            if frame.banner is None or not area.colliderect(frame.banner[1]):
                assert _area_bytes(surface, area) == _area_bytes(reference, area), (why, name)
            assert frame.regions[name].texts == whole.regions[name].texts, (why, name)
        assert _spots(frame, drawn) == _spots(whole, drawn), why
        # the buttons live are the ones drawn now, and they do what the controller does
        live = sorted(str(h.arg) for h in frame.hotspots if h.action == "button")
        assert live == sorted(str(h.arg) for h in whole.hotspots if h.action == "button")
        assert live == sorted(str(a.button) for a in c.current_prompt().actions
                              if a.button), why
        assert frame.prompt == whole.prompt
        for h in frame.hotspots:  # every touch target lies where its region was drawn
            assert any(r.area.contains(h.rect) for r in frame.regions.values()) or \
                h.action != "button", why

    def whole(self, why: str) -> None:
        """The screen as it stands is the whole frame drawn from nothing."""
        c, surface = self.controller, self.loop.surface
        frame = c.frame
        assert frame is not None
        with cold_caches():
            reference = pygame.Surface(surface.get_size())
            whole = render(c.state, c.ui, reference)
        assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(reference, "RGB"), \
            f"pixels differ after {why}"
        assert frame.texts == whole.texts, why
        assert _spots(frame) == _spots(whole), why

    def ui_change(self, why: str) -> None:
        """A frame for a change of the screen's own (no update): drawn as before."""
        self.loop.draw()
        assert self.controller.frame is not None and not self.controller.frame.pending
        while self.loop.follow_up:
            self.loop.draw()
        self.whole(why)


def _play(tmp_path: Path, size: tuple[int, int], players: int, moves: int) -> Watch:
    script = bot_script(seed=11, count=moves, players=players)
    clock = Clock()
    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        controller = Controller(session, language="en", clock=clock)
        watch = Watch(controller, size)
        controller.ui.remote_placeholder = "http://192.0.2.10:8080/"
        watch.ui_change("the start")
        for number, command in enumerate(script[1:], start=1):
            if number % 9 == 0:  # a banner up before the move, gone as it comes
                controller.notify(f"notice {number}: gone when the next move comes")
                watch.ui_change(f"a banner before move {number}")
                clock.now += MESSAGE_S + 0.1
            outcome = session.submit(command, BOT)
            assert outcome.accepted, command
            controller.drain_updates(outcome.version)
            if number % 7 == 0:  # a notice in the same frame as the move's result
                controller.notify(f"notice {number}: a banner long enough to take two "
                                  "lines across the bottom of the board and the columns")
            watch.after_update(f"move {number}: {command}")
            clock.now += 0.5
            if number % 5 == 0:  # the changes of cash fade: no update, drawn as before
                clock.now += DELTA_SHOWN_S
                watch.ui_change(f"the deltas gone at move {number}")
            if number % 11 == 0:  # a move taken back, then made again
                undone = session.undo(BOT)
                if undone.accepted:
                    controller.drain_updates(undone.version)
                    watch.after_update(f"an undo at move {number}")
                    redo = session.submit(command, BOT)
                    if not redo.accepted:
                        break  # the dice differ now: the bots' script is off; stop here
                    controller.drain_updates(redo.version)
                    watch.after_update(f"move {number} again")
        watch.loop.first_frame.close()
        return watch


@pytest.mark.parametrize(("size", "players"), [((800, 480), 4), ((1280, 720), 6)])
def test_the_result_goes_first_and_the_rest_follows_to_the_whole_frame(
        tmp_path: Path, size: tuple[int, int], players: int) -> None:
    watch = _play(tmp_path, size, players, moves=60)
    assert watch.split > 30, "most moves' first frames left regions for the next"
    assert {"board", "players"} <= watch.left, "the board and the cards came a frame later"
    assert watch.banner_went >= 2, "a banner that went left the regions under it for later"
    assert watch.loop.first_frame.late == 0


def test_updates_in_a_row_never_leave_a_region_behind(tmp_path: Path) -> None:
    """Updates applied while a frame's rest is pending: the next frame draws everything
    (never split twice in a row), so the board and the cards cannot be starved; a frame
    that left regions is followed at once even when no update's work waits."""
    script = bot_script(seed=11, count=20)
    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        controller = Controller(session, language="en", clock=Clock())
        watch = Watch(controller, (800, 480))
        loop = watch.loop
        controller.first_frame = None  # no hold: every update's work done as it is applied
        splits_in_a_row = 0
        for command in script[1:]:
            outcome = session.submit(command, BOT)
            assert outcome.accepted
            controller.drain_updates(outcome.version)  # a new update before every frame
            was_pending = controller.frame is not None and bool(controller.frame.pending)
            loop.draw()
            frame = controller.frame
            assert frame is not None
            if was_pending:
                assert not frame.pending, "a frame after a split one draws all"
            if frame.pending:  # the regions left call the next frame at once by themselves
                assert loop.follow_up and loop.timeout_ms() == 0
            splits_in_a_row = splits_in_a_row + 1 if frame.pending else 0
            assert splits_in_a_row <= 1
        while loop.follow_up:
            loop.draw()
        watch.whole("the last of the moves")
        loop.first_frame.close()
