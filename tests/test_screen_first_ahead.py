"""The first frame's inputs built ahead for the states the session worked out ahead (issue
28's fourteenth round, companion.screen.render.first_ahead): the view of the table and the
prompt of a forecast, kept by everything they are made of, so that a press that brings such
a state draws the very pixels a frame built without them does, and one kept for a state
that did not come (or came with other content, other offers, another UI state) is never
used."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.game.api import Source
from companion.game.session import GameSession
from companion.game.table.view import build as build_view
from companion.screen import render as render_mod
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.render import FIRSTS, FirstAhead, first_ahead, render
from companion.screen.ui_state import Same
from companion.screen.views.prompt import Prompt
from tests.panel_draws import lead_screen
from tests.test_screen_partial import cold_caches
from tools.bench.journal import bot_script

BOT = Source("script", banker=True)
SETTLE_S = 10.0

pytestmark = pytest.mark.usefixtures("dummy_display")


def _reference(controller: Controller, session: GameSession,
               size: tuple[int, int]) -> tuple[pygame.Surface, Any]:
    """The frame of the controller's state drawn whole from nothing kept: no caches, nothing
    built ahead, the session's own view of the table."""
    kept = list(FIRSTS)
    FIRSTS.clear()
    surface = pygame.Surface(size)
    try:
        with cold_caches():
            ui = dataclasses.replace(controller.ui, table=session.table())
            frame = render(controller.state, ui, surface)
    finally:
        FIRSTS[:] = kept
    return surface, frame


def _pixels(surface: pygame.Surface, area: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(area), "RGB")


def _ahead(loop: ScreenLoop, session: GameSession) -> None:
    """The loop's idle work for the state shown, all of it (as between two presses)."""
    state = loop.controller.state
    assert state is not None and session.ahead_settled(SETTLE_S)
    while loop._read_ahead():
        pass


def _play(tmp_path: Path, script: list[Any],
          poison: bool = False) -> tuple[int, int, int]:
    """The script's moves through a session and the real screen loop, the loop's idle work
    done between two; every first frame's regions and every settled frame checked against
    the frame drawn from nothing kept. With `poison`, before each move, kept things for
    states that do not come (poisoned prompts and views) are put beside the honest ones.
    (frames, views found kept, prompts found kept)."""
    views = prompts = frames = 0
    poisoned_views: list[Any] = []
    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        controller, surface, loop = lead_screen(session)
        size = surface.get_size()
        for command in script[1:]:
            _ahead(loop, session)
            if poison:
                poisoned_views = _poison(controller)
            outcome = session.submit(command, BOT)
            assert outcome.accepted
            controller.drain_updates(outcome.version)
            table = controller.ui.table
            views += any(kept.view is table for kept in FIRSTS)
            assert all(table is not bad for bad in poisoned_views), command
            loop.draw()  # the first frame
            frames += 1
            frame = controller.frame
            assert frame is not None and frame.prompt is not None
            assert frame.prompt.title != "POISON", command
            prompts += any(kept.prompt is frame.prompt for kept in FIRSTS)
            reference, whole = _reference(controller, session, size)
            assert frame.prompt == whole.prompt, command
            for name, region in frame.regions.items():
                if name not in frame.pending:  # drawn by this frame: as from nothing
                    assert _pixels(surface, region.area) == _pixels(reference, region.area), \
                        (name, command)
            while loop.follow_up:
                loop.draw()
            reference, whole = _reference(controller, session, size)
            assert pygame.image.tobytes(surface, "RGB") == \
                pygame.image.tobytes(reference, "RGB"), command
            assert controller.frame is not None and controller.frame.texts == whole.texts
    return frames, views, prompts


def _poison(controller: Controller) -> list[Any]:
    """Beside each honest kept thing: one for the same state with the session's extras (a
    teaching lesson), one for the same state with other open offers, one for the same
    state and view but another UI state; each with a prompt that says POISON (and the
    first two a view of another player's turn). The poisoned views."""
    bad_views = []
    for kept in list(FIRSTS):
        other_turn = build_view({**kept.content, "current": "Nobody"})
        lesson = {**kept.content, "lesson": {"text": "a lesson"}}
        bad = Prompt("POISON")
        FIRSTS.append(dataclasses.replace(kept, state=lesson, content=dict(lesson),
                                          view=other_turn, prompt=bad,
                                          prompt_key=(Same(lesson),) + kept.prompt_key[1:]))
        FIRSTS.append(dataclasses.replace(kept, offers=kept.offers + 7, view=other_turn,
                                          prompt=bad, prompt_key=kept.prompt_key[:1] + (
                                              Same(other_turn),) + kept.prompt_key[2:]))
        card_held = dataclasses.replace(controller.ui, card_holder="Nobody")
        before = len(FIRSTS)
        first_ahead(kept.state, card_held, controller.offers, controller.state or {})
        assert len(FIRSTS) > before or any(k.state is kept.state and k.prompt.title == "POISON"
                                           for k in FIRSTS[:before])  # its other guess's
        for i in range(before, len(FIRSTS)):
            assert FIRSTS[i].prompt_key != kept.prompt_key
            FIRSTS[i] = dataclasses.replace(FIRSTS[i], prompt=bad)
        bad_views.append(other_turn)
    del FIRSTS[:-render_mod.FIRSTS_KEPT * 4]
    return bad_views


def test_the_first_frame_built_ahead_draws_the_frame_built_anew(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_mod, "FIRSTS_KEPT", 8)
    frames, views, prompts = _play(tmp_path, bot_script(seed=5, count=120))
    print(f"{frames} frames, {views} views and {prompts} prompts found kept")
    assert views >= frames // 2, (views, frames)
    assert prompts >= frames // 3, (prompts, frames)


def test_kept_things_for_states_that_did_not_come_are_never_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_mod, "FIRSTS_KEPT", 40)
    frames, views, prompts = _play(tmp_path, bot_script(seed=5, count=60), poison=True)
    print(f"{frames} frames, {views} views and {prompts} prompts found kept")
    assert views >= frames // 2 and prompts >= 1, (views, prompts, frames)


def test_a_timed_games_clock(tmp_path: Path) -> None:
    """The session adds the timed game's clock to every update's state (the seconds left
    as they read at the commit): a view kept is used only when the clock reads the same,
    and every frame is as drawn anew."""
    script = bot_script(seed=5, count=40)
    options = dict(script[0].get("options") or {})
    script[0] = {**script[0], "options": {**options, "time_limit_minutes": 90}}
    frames, views, prompts = _play(tmp_path, script)
    assert frames and views <= frames


def test_a_kept_thing_is_found_by_content_not_by_version() -> None:
    state = {"version": 3, "current": "Ann", "players": []}
    FIRSTS.clear()
    try:
        FIRSTS.append(FirstAhead(state, dict(state), -1, build_view(state), (), Prompt("x"),
                                 {}))
        assert render_mod.view_ahead(dict(state), None) is FIRSTS[0].view
        assert render_mod.view_ahead({**state, "current": "Bo"}, None) is None
        assert render_mod.view_ahead({**state, "lesson": {}}, None) is None
        state["lesson"] = {}  # the forecast's own dict changed after it was kept
        assert render_mod.view_ahead(state, None) is None
    finally:
        FIRSTS.clear()


def test_the_first_press_after_a_start_builds_no_view_of_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first update after the screen started compares the new decision with the one of
    the state shown so far (`Controller._reset_entry`): that is the screen's own view of
    it, as for every later update, not a view built anew inside the press's window (issue
    28: about 0.2 ms of the first press's CPU after every start)."""
    from companion.screen.views import prompt as prompt_mod

    script = bot_script(seed=3, count=12)
    with GameSession.open(tmp_path) as session:
        for command in script[:10]:
            assert session.submit(command, BOT).accepted
    built: list[int] = []
    real = prompt_mod.build_view

    def counted(state: Any) -> Any:
        built.append(int(state.get("version", -1)))
        return real(state)

    with GameSession.open(tmp_path) as session:  # a start: the saved game resumed
        controller, _surface, loop = lead_screen(session)
        for command in script[10:]:
            _ahead(loop, session)
            monkeypatch.setattr(prompt_mod, "build_view", counted)
            outcome = session.submit(command, BOT)
            assert outcome.accepted
            controller.drain_updates(outcome.version)
            loop.draw()  # the first frame
            monkeypatch.setattr(prompt_mod, "build_view", real)
            while loop.follow_up:
                loop.draw()
            assert controller.ui.table is not None
            assert controller.ui.table.version == outcome.version
    assert built == []


def test_a_move_that_brings_news_finds_its_first_frame_built_ahead(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move the session worked out ahead that brings news (a card drawn, a teaching
    lesson) finds its view of the table built ahead too: the session's forecasts carry the
    extras its commit adds (`GameSession._ahead_extras`), instead of the screen guessing
    them from the state shown, which never guessed news (a tenth of the bench's presses
    built their view in the window, issue 28). The frames are checked against frames drawn
    anew by the other tests of this file."""
    monkeypatch.setattr(render_mod, "FIRSTS_KEPT", 8)
    script = bot_script(seed=5, count=160)
    news = found = 0
    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        controller, _surface, loop = lead_screen(session)
        for command in script[1:]:
            _ahead(loop, session)
            shown = controller.state or {}
            used = session.ahead_counts()[1]
            outcome = session.submit(command, BOT)
            assert outcome.accepted
            controller.drain_updates(outcome.version)
            state = controller.state or {}
            card = state.get("card_news")
            lessons = (state.get("teaching") or {}).get("lessons")
            if (card is not None and card != shown.get("card_news") or lessons) \
                    and session.ahead_counts()[1] > used \
                    and "auction_clock" not in state:  # news, worked out ahead (an
                # auction's clock ends at its commit's time: no forecast knows it)
                news += 1
                found += any(kept.view is controller.ui.table for kept in FIRSTS)
            loop.draw()
            while loop.follow_up:
                loop.draw()
    print(f"{news} moves with news worked out ahead, {found} found their view built ahead")
    assert news >= 3 and found == news, (news, found)


def test_a_declined_purchase_and_its_auction_find_their_first_frame_built_ahead(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's own presses through the controller, as the press bench makes them
    (`tools.bench.flipwatch._key_for`: a third of the purchases declined, the auction bid
    and closed with the banker's gavel): the NO that opens an auction, the table's bid and
    the gavel that closes it take the session's result worked out ahead and find their
    view and prompt built ahead (the NO and the bid did not: the auction clock the commit
    adds, of its own time, was compared; the gavel was not worked out ahead at all), the
    view found holds the update's clock, and every first frame is the frame drawn anew
    (issue 28, 2026-11-29 midday)."""
    from companion.screen.app import KEY_BUTTONS
    from tools.bench.flipwatch import _key_for

    monkeypatch.setattr(render_mod, "FIRSTS_KEPT", 8)
    keys = {button: key for key, button in KEY_BUTTONS.items()}
    found: dict[str, list[tuple[bool, bool, bool]]] = {"decline": [], "bid": [], "sold": []}
    with GameSession.open(tmp_path) as session:
        session.submit(bot_script(seed=5, count=1)[0], BOT)
        controller, surface, loop = lead_screen(session)
        for _ in range(400):
            if all(len(seen) >= 3 for seen in found.values()):
                break
            _ahead(loop, session)
            key, verb = _key_for(controller, keys)
            assert key != "-", controller.current_prompt()
            used, version = session.ahead_counts()[1], session.version
            controller.press(KEY_BUTTONS[key], "keyboard")
            assert session.version > version, (verb, controller.ui.message)
            hit = session.ahead_counts()[1] > used
            table = controller.ui.table
            loop.draw()  # the first frame
            frame = controller.frame
            assert frame is not None
            if verb in found:
                found[verb].append((hit, any(k.view is table for k in FIRSTS),
                                    any(k.prompt is frame.prompt for k in FIRSTS)))
            # the view found is the update's state's, its auction clock the update's own
            assert table is not None and table.state == controller.state, verb
            own = build_view(controller.state or {})
            assert table.auction_clock == own.auction_clock, verb
            assert table.decision == own.decision, verb
            reference, whole = _reference(controller, session, surface.get_size())
            assert frame.prompt == whole.prompt, verb
            for name, region in frame.regions.items():
                if name not in frame.pending:
                    assert _pixels(surface, region.area) == _pixels(reference, region.area), \
                        (name, verb)
            while loop.follow_up:
                loop.draw()
    print(found)
    for verb, seen in found.items():
        assert len(seen) >= 3 and all(all(s) for s in seen), (verb, seen)


def test_the_undo_of_a_declined_purchase_finds_its_first_frame_built_ahead(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's UNDO as the press bench times it (`tools.bench.press.undo_presses`): at a
    purchase NO, then UNDO (the screen's question) and its YES. While the question is open,
    the loop's idle work builds the state the UNDO brings (`GameSession.undo_ahead`): the
    YES finds its view and prompt built ahead, the session's commit takes the public JSON
    built ahead (no JSON is built in the press), and the first frame is the frame drawn
    anew (issue 28, 2026-11-29 afternoon: the UNDO was the one press that found nothing)."""
    from companion.screen.app import KEY_BUTTONS
    from tests.test_session_undo_ahead import count_json_builds
    from tools.bench.flipwatch import _key_for

    keys = {button: key for key, button in KEY_BUTTONS.items()}
    builds = count_json_builds(monkeypatch)

    def settle() -> None:  # the press's first frame and those that follow it at once
        loop.draw()
        while loop.follow_up:
            loop.draw()

    undone = 0
    with GameSession.open(tmp_path) as session:
        session.submit(bot_script(seed=5, count=1)[0], BOT)
        controller, surface, loop = lead_screen(session)
        for _ in range(400):
            if undone >= 3:
                break
            _ahead(loop, session)
            key, verb = _key_for(controller, keys)
            assert key != "-", controller.current_prompt()
            if verb not in ("buy", "decline"):
                controller.press(KEY_BUTTONS[key], "keyboard")
                settle()
                continue
            controller.press("no", "keyboard")  # the auction opens
            settle()
            _ahead(loop, session)
            controller.press("undo", "keyboard")  # the question, the screen's own
            assert controller.ui.confirm_undo
            loop.draw()
            _ahead(loop, session)
            version, before = session.version, len(builds)
            controller.press("yes", "keyboard")
            assert session.version == version + 1, controller.ui.message
            assert len(builds) == before, "the undo built its JSON in the press"
            table = controller.ui.table
            loop.draw()  # the first frame
            frame = controller.frame
            assert frame is not None and frame.prompt is not None
            assert any(k.view is table for k in FIRSTS), "the undo's view was not built ahead"
            assert any(k.prompt is frame.prompt for k in FIRSTS), "nor its prompt"
            assert table is not None and table.state == controller.state
            reference, whole = _reference(controller, session, surface.get_size())
            assert frame.prompt == whole.prompt
            for name, region in frame.regions.items():
                if name not in frame.pending:
                    assert _pixels(surface, region.area) == _pixels(reference, region.area), \
                        name
            while loop.follow_up:
                loop.draw()
            reference, whole = _reference(controller, session, surface.get_size())
            assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(reference, "RGB")
            undone += 1
            controller.press("no", "keyboard")  # declined again: on with the game
            settle()
    assert undone >= 3
