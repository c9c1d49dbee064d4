"""A frame that redraws only the regions that changed has the very pixels, texts and touch
targets of a frame drawn whole, move after move (companion.screen.render, issue 28)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.game.api import Source
from companion.game.session import GameSession
from companion.screen import painter
from companion.screen import render as render_module
from companion.screen.controller import Controller
from companion.screen.painter import DrawnText, Painter
from companion.screen.render import Frame, render
from companion.screen.ui_state import DELTA_SHOWN_S, MESSAGE_S
from companion.screen.views import board_map, panels
from tools.bench.journal import bot_script

BOT = Source("script", banker=True)


pytestmark = pytest.mark.usefixtures("dummy_display")


@contextmanager
def cold_caches() -> Iterator[None]:
    """Everything the screen keeps between frames forgotten for a while, then back."""
    caches: list[dict[Any, Any]] = [painter._measured, painter._rendered, painter._laid,
                                    painter._wrapped, painter.PARTS.items,
                                    painter.PANELS.items, painter.BUTTONS.items]
    kept = [(cache, cache.copy()) for cache in caches]
    ring = board_map._ring
    pixels = (painter.PARTS.bytes, painter.PANELS.bytes, painter.BUTTONS.bytes)
    painter.forget()
    board_map._ring = None
    try:
        yield
    finally:
        for cache, copy in kept:
            cache.clear()
            cache.update(copy)
        board_map._ring = ring
        painter.PARTS.bytes, painter.PANELS.bytes, painter.BUTTONS.bytes = pixels


class Clock:
    """The controller's clock, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Pair:
    """One controller drawn twice: on `kept`, each frame over the last (only what changed),
    on a fresh surface whole; the two must agree on every frame."""

    def __init__(self, controller: Controller, size: tuple[int, int]) -> None:
        self.controller = controller
        self.kept = pygame.Surface(size)
        self.last: Frame | None = None
        self.partial = 0  # frames that redrew less than the whole surface
        self.skipped: set[str] = set()  # regions some frame kept as they were

    def check(self, why: str) -> None:
        c = self.controller
        c.ui.now = c.clock()
        frame = render(c.state, c.ui, self.kept, self.last)
        whole_surface = pygame.Surface(self.kept.get_size())
        with cold_caches():  # the reference drawn from nothing kept
            whole = render(c.state, c.ui, whole_surface)
        assert whole.dirty is None
        assert pygame.image.tobytes(self.kept, "RGB") == \
            pygame.image.tobytes(whole_surface, "RGB"), f"pixels differ after {why}"
        assert frame.texts == whole.texts, why
        assert [(tuple(h.rect), h.action, h.arg) for h in frame.hotspots] == \
            [(tuple(h.rect), h.action, h.arg) for h in whole.hotspots], why
        if frame.dirty is not None:
            self.partial += 1
            drawn = {name for name, region in frame.regions.items()
                     if self.last is None or region is not self.last.regions.get(name)}
            self.skipped |= set(frame.regions) - drawn
            assert sum(r.width * r.height for r in frame.dirty) < \
                self.kept.get_width() * self.kept.get_height() or not frame.dirty
        self.last = frame


def _play(tmp_path: Path, size: tuple[int, int], players: int, moves: int) -> Pair:
    script = bot_script(seed=11, count=moves, players=players)
    clock = Clock()
    session = GameSession.open(tmp_path)
    try:
        session.submit(script[0], BOT)
        controller = Controller(session, language="en", clock=clock)
        controller.ui.remote_placeholder = "http://192.0.2.10:8080/"
        pair = Pair(controller, size)
        pair.check("the start")
        for number, command in enumerate(script[1:], start=1):
            outcome = session.submit(command, BOT)
            assert outcome.accepted, command
            controller.drain_updates(outcome.version)
            pair.check(f"move {number}: {command}")
            clock.now += 0.5
            if number % 7 == 0:  # a notice over the regions, then its end
                controller.notify(f"notice {number}: a banner long enough to take two "
                                  "lines across the bottom of the board and the columns")
                pair.check(f"a banner at move {number}")
                clock.now += MESSAGE_S + 0.1
                pair.check(f"the banner gone at move {number}")
            if number % 5 == 0:  # the changes of cash fade
                clock.now += DELTA_SHOWN_S
                pair.check(f"the deltas gone at move {number}")
            if number % 11 == 0:  # a move taken back strikes its line through
                undone = session.undo(Source("script", banker=True))
                if undone.accepted:
                    controller.drain_updates(undone.version)
                    pair.check(f"an undo at move {number}")
                    redo = session.submit(command, BOT)
                    if redo.accepted:
                        controller.drain_updates(redo.version)
                        pair.check(f"move {number} again")
                    else:  # the dice differ now: the bots' script is off; stop here
                        break
            if number % 13 == 0:  # a hardware warning in the recent moves, then gone
                controller.ui.warnings["reader"] = "The card reader is not answering"
                pair.check(f"a warning at move {number}")
                controller.ui.warnings.clear()
                pair.check(f"the warning gone at move {number}")
        return pair
    finally:
        session.close()


def _count_header_rolls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the frames that drew only the header's right side (`draw_header_roll`)."""
    calls = [0]
    real = render_module.draw_header_roll

    def counted(*args: Any) -> pygame.Rect:
        calls[0] += 1
        return real(*args)

    monkeypatch.setattr(render_module, "draw_header_roll", counted)
    return calls


@pytest.mark.parametrize(("size", "players"), [((800, 480), 4), ((1280, 720), 6)])
def test_a_partial_redraw_gives_the_pixels_of_a_whole_one(
        tmp_path: Path, size: tuple[int, int], players: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    rolls = _count_header_rolls(monkeypatch)
    pair = _play(tmp_path, size, players, moves=60)
    assert pair.partial > 40, "the frames after the first were drawn in regions"
    assert rolls[0] > 5, "a roll in the same turn drew the header's dice only"
    assert {"phones", "header", "players"} <= pair.skipped, \
        "regions that did not change were kept, not drawn again"


def test_an_overlay_or_a_new_size_draws_the_next_frame_whole(tmp_path: Path) -> None:
    pair = _play(tmp_path, (800, 480), 4, moves=4)
    c = pair.controller
    c.ui.overlay = "help"
    pair.check("the help over the game")
    assert pair.last is not None and pair.last.dirty is None
    c.ui.overlay = None
    pair.check("the help closed")
    assert pair.last is not None and pair.last.dirty is None, "no region under it is kept"
    pair.check("nothing changed")
    assert pair.last is not None and pair.last.dirty == []
    pair.kept = pygame.Surface((1280, 720))
    pair.check("another window")  # another surface: nothing of the last frame is on it


def test_the_clock_and_the_dice_drawn_over_a_kept_header_give_a_whole_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A timed game's clock ticking, turning red, running out, with the header's words
    kept (`draw_header_roll`): the pixels and texts of a header drawn whole."""
    rolls = _count_header_rolls(monkeypatch)
    pair = _play(tmp_path, (800, 480), 4, moves=3)
    c = pair.controller
    before = rolls[0]
    assert isinstance(c.clock, Clock)
    for left in (1800.0, 301.0, 299.0, 0.5, -1.0):
        c.ui.clock_deadline = c.clock.now + left
        pair.check(f"the clock with {left} s left")
    assert rolls[0] - before == 5, "each tick drew the header's right side only"
    c.ui.clock_deadline = None
    pair.check("the clock gone")
    assert rolls[0] - before == 6


def test_words_reaching_the_dice_side_draw_the_header_whole() -> None:
    """A header word whose ink crosses into the part `draw_header_roll` paints (a window
    too small for it) makes the header be drawn whole: `header_left` keeps nothing."""
    p = Painter(pygame.Surface((800, 480)), 1.0, 1.0)
    rect = pygame.Rect(0, 0, 800, 50)
    edge = panels._header_boxes(p, rect)[3].right
    inside = DrawnText("Ann's turn", "Ann's turn", pygame.Rect(edge - 90, 10, 80, 20),
                       pygame.Rect(edge - 100, 0, 100, 50), 20)
    assert panels.header_left([inside], rect, p) == [inside]
    crossing = DrawnText("Ann's turn", "Ann's turn", pygame.Rect(edge - 90, 10, 95, 20),
                         pygame.Rect(edge - 100, 0, 100, 50), 20)
    assert panels.header_left([crossing], rect, p) is None
