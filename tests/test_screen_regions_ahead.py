"""The first frame's header drawn ahead (issue 28, companion.screen.render.draw_first_ahead):
while the table waits, the header the first frame of the session's likeliest forecast would
draw whole is drawn into a picture kept by everything it shows; a first frame whose own
region key finds one copies it. Through the real screen loop: every
first frame is pixel for pixel, text for text and touch target for touch target the frame
drawn from nothing kept, in two languages and two window sizes; a picture drawn for a state
that does not come, or under another language or clock colour, is never used."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.game.session import GameSession
from companion.game.table.view import build as build_view
from companion.screen import render as render_mod
from companion.screen import texts
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.render import FIRSTS, REGIONS_AHEAD, draw_first_ahead
from companion.screen.ui_state import UiState
from companion.screen.views.prompt import Prompt
from tests.test_screen_first_ahead import BOT, _ahead, _pixels, _reference
from tools.bench.journal import bot_script

pytestmark = pytest.mark.usefixtures("dummy_display")


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    REGIONS_AHEAD.clear()
    FIRSTS.clear()
    lang = texts.language()
    yield
    texts.use_language(lang)
    REGIONS_AHEAD.clear()
    FIRSTS.clear()


def _play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str,
          size: tuple[int, int], script: list[Any],
          before: Callable[[ScreenLoop], None] | None = None) -> tuple[int, int]:
    """The script's moves through a session and the real screen loop in a window of `size`
    speaking `language`, the loop's idle work (the regions drawn ahead among it) done
    between two moves and `before` after it; every first frame checked against the frame
    drawn from nothing kept: each region's pixels, texts and touch targets. (frames,
    regions found drawn ahead)."""
    found: list[str] = []
    real = render_mod._drawn_ahead

    def counted(name: str, *args: Any) -> Any:
        kept = real(name, *args)
        if kept is not None:
            found.append(name)
        return kept

    monkeypatch.setattr(render_mod, "_drawn_ahead", counted)
    frames = 0
    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        controller = Controller(session, language=language)
        surface = pygame.display.set_mode(size)
        loop = ScreenLoop(controller, surface)
        loop.draw()
        assert texts.language() == language
        for command in script[1:]:
            _ahead(loop, session)
            if before is not None:
                before(loop)
            outcome = session.submit(command, BOT)
            assert outcome.accepted
            controller.drain_updates(outcome.version)
            loop.draw()  # the first frame
            frames += 1
            frame = controller.frame
            assert frame is not None and frame.prompt is not None
            assert frame.prompt.title != "POISON", command
            reference, whole = _reference(controller, session, size)
            for name, region in frame.regions.items():
                if name in frame.pending:
                    continue
                assert _pixels(surface, region.area) == _pixels(reference, region.area), \
                    (name, command, language, size)
                assert region.texts == whole.regions[name].texts, (name, command)
                assert region.hotspots == whole.regions[name].hotspots, (name, command)
            while loop.follow_up:
                loop.draw()
    return frames, len(found)


@pytest.mark.parametrize("language", ["en", "nl"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_every_first_frame_is_the_frame_drawn_from_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str,
        size: tuple[int, int]) -> None:
    frames, found = _play(tmp_path, monkeypatch, language, size,
                          bot_script(seed=5, count=80))
    print(f"{language} {size}: {frames} first frames, {found} regions copied drawn ahead")
    assert found >= 5, (found, frames)  # the pictures drawn ahead are really used


def _poison(loop: ScreenLoop) -> None:
    """Beside each state the session worked out ahead, regions drawn ahead for states
    that do not come: another player's turn (with a decision panel that says POISON),
    drawn before the honest ones, which are drawn again beside them."""
    frame, ui = loop.controller.frame, loop.controller.ui
    REGIONS_AHEAD.clear()  # the poisoned ones first, the honest ones beside them after
    for kept in list(FIRSTS):
        others = [s.name for s in build_view(kept.content).players
                  if s.name != kept.content.get("current")]
        content = {**kept.content, "current": others[0] if others else "Nobody"}
        view = build_view(content)
        bad = Prompt("POISON", details=["a move that did not come"], player=kept.prompt.player)
        after = None if kept.after is None else dataclasses.replace(kept.after, table=view)
        draw_first_ahead(dataclasses.replace(kept, content=content, view=view, prompt=bad,
                                             after=after), ui, loop.surface, frame)
    for kept in FIRSTS:
        draw_first_ahead(kept, ui, loop.surface, frame)


def test_regions_drawn_for_states_that_did_not_come_are_never_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    frames, found = _play(tmp_path, monkeypatch, "en", (800, 480),
                          bot_script(seed=7, count=60), before=_poison)
    assert frames and found >= 3, (found, frames)


def test_regions_drawn_in_another_language_are_never_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawn ahead in English, the first frame in Dutch: none copied, every frame as drawn
    from nothing in Dutch."""
    drawn: list[int] = []

    def back(loop: ScreenLoop) -> None:
        REGIONS_AHEAD.clear()  # those drawn in Dutch before: the frame shown is Dutch
        loop.controller.language = "en"
        loop.controller.sync_language()
        for kept in FIRSTS:
            draw_first_ahead(kept, loop.controller.ui, loop.surface, loop.controller.frame)
        drawn.append(len(REGIONS_AHEAD.items))
        loop.controller.language = "nl"  # the loop's next frame switches to it

    frames, found = _play(tmp_path, monkeypatch, "en", (800, 480),
                          bot_script(seed=5, count=30), before=back)
    assert frames and found == 0 and sum(drawn) >= 5, (found, frames, sum(drawn))
    assert texts.language() == "nl"


def test_the_key_of_a_header_drawn_ahead_holds_the_clocks_colour_and_the_language() -> None:
    """The header's own region key holds the clock's colour (its text reads "5:00" on both
    sides of the last five minutes), and a picture drawn ahead is kept by that key, the
    language and the window."""
    surface = pygame.Surface((800, 480))
    area = pygame.Rect(0, 0, 800, 40)
    state = {"version": 3, "current": "Ann", "players": []}
    over = UiState(now=1000.0, clock_deadline=1300.0005)
    under = UiState(now=1000.0, clock_deadline=1299.9)
    key_over = render_mod._header_key(state, over, {})
    key_under = render_mod._header_key(state, under, {})
    assert key_over[4][0] == key_under[4][0] == "5:00"  # the same text,
    assert key_over != key_under  # another colour: drawn again, never a kept picture
    made = render_mod._ahead_key("header", key_over, area, surface)
    assert made != render_mod._ahead_key("header", key_under, area, surface)
    assert made == render_mod._ahead_key("header", key_over, area, surface)
    was = texts.language()
    texts.use_language("nl" if was != "nl" else "en")
    assert made != render_mod._ahead_key("header", key_over, area, surface)
    texts.use_language(was)
    assert made != render_mod._ahead_key("header", key_over, area,
                                         pygame.Surface((800, 480), 0, 24))
    assert made != render_mod._ahead_key("header", key_over, area, pygame.Surface((800, 600)))
