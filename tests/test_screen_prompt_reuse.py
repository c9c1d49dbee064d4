"""A press answers the prompt the last frame drew while what it was built from stays the same
(`prompt_inputs`), so the loop builds no prompt before a press's first frame (issue 28); the
prompt reused is always the one `build_prompt` would build now, and a change of the state or
of the entry (keys typed in one burst, before any frame) builds it anew."""

from __future__ import annotations

import ast
import threading
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
from test_screen_partial import Clock

from companion.game.api import Source
from companion.game.session import GameSession
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.views import prompt as prompt_module
from companion.screen.views.prompt import PROMPT_READS, build_prompt, prompt_inputs
from companion.screen.wakeups import FirstFrame
from tools.bench.journal import bot_script
from web_remote.store import Persister

BOT = Source("script", banker=True)

pytestmark = pytest.mark.usefixtures("dummy_display")


def _fresh(controller: Controller) -> object:
    assert controller.state is not None
    return build_prompt(controller.state, controller.ui)


def test_the_prompt_reused_is_the_one_built_now_through_a_game_and_its_entry(
        tmp_path: Path) -> None:
    script = bot_script(seed=5, count=50)
    clock = Clock()
    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        controller = Controller(session, language="en", clock=clock)
        loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)))
        loop.draw()
        reused = 0
        for command in script[1:]:
            outcome = session.submit(command, BOT)
            assert outcome.accepted
            controller.drain_updates(outcome.version)
            stale = controller.frame
            assert stale is not None
            # the state moved on, no frame yet: the prompt is built anew, not the frame's
            assert controller.current_prompt() == _fresh(controller)
            assert controller.current_prompt() is not stale.prompt
            loop.draw()
            while loop.follow_up:
                loop.draw()
            frame = controller.frame
            assert frame is not None
            shown = controller.current_prompt()
            assert shown is frame.prompt and shown == _fresh(controller)
            reused += 1
            # the screen's own entry changes what the buttons do: never the frame's prompt
            changes: list[Callable[[], object]] = [
                lambda: controller.dice_digit(3, "keyboard"),
                lambda: setattr(controller.ui, "bid_steps", 2),
                lambda: setattr(controller.ui, "confirm_undo", True),
                lambda: setattr(controller.ui, "square_focus", 5)]
            for change in changes:
                change()
                assert controller.current_prompt() == _fresh(controller)
            controller.ui.dice_entry.clear()
            controller.ui.speed_entry = None
            controller.ui.bid_steps, controller.ui.confirm_undo = 0, False
            controller.ui.square_focus = None
            clock.now += 30.0  # the auction's seconds left, the banker's time: read anew
            assert controller.current_prompt() == _fresh(controller)
        assert reused == len(script) - 1


def test_a_burst_of_keys_builds_each_prompt_from_the_state_before_it(tmp_path: Path) -> None:
    """Two keys in one batch: the second answers the prompt of the state the first made,
    not the one the last frame drew (drawn before both)."""
    script = bot_script(seed=3, count=2)
    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        controller = Controller(session, language="en")
        loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)))
        loop.draw()
        drawn = controller.frame
        assert drawn is not None and drawn.prompt is not None
        roll = drawn.prompt.for_button("roll")
        assert roll is not None and roll.command is not None
        before = session.version
        code = pygame.key.key_code("r")
        loop.handle_all([pygame.event.Event(pygame.KEYDOWN, key=code, mod=0),
                         pygame.event.Event(pygame.KEYUP, key=code, mod=0)])
        assert session.version == before + 1  # rolled
        assert controller.current_prompt() == _fresh(controller)
        assert controller.current_prompt() != drawn.prompt


def test_the_prompt_module_reads_only_the_ui_fields_its_inputs_hold() -> None:
    """Every `ui.<field>` the prompt module reads is in PROMPT_READS, and each of those
    changes `prompt_inputs` (a field read and left out would let a press answer a stale
    prompt)."""
    tree = ast.parse(Path(prompt_module.__file__).read_text("utf-8"))
    read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == "ui"}
    assert read <= set(PROMPT_READS), read - set(PROMPT_READS)
    from companion.screen.ui_state import UiState

    base = UiState(now=100.0, auction_deadline=110.0, banker_free=False)
    state = {"version": 1, "players": []}
    assert prompt_inputs(state, base) == prompt_inputs(state, base)
    changes = {"table": None, "board": None, "confirm_undo": True,
               "undo_target": {"seq": 3}, "dial": 2, "dice_entry": [4], "speed_entry": 2,
               "card_holder": "Bo", "bus_ride": True, "square_focus": 7, "bid_steps": 1,
               "auction_deadline": 120.0, "now": 109.5, "banker_now": None}
    assert set(changes) == set(PROMPT_READS)
    for field, value in changes.items():
        ui = UiState(now=100.0, auction_deadline=110.0, banker_free=False, board=base.board)
        assert prompt_inputs(state, ui) == prompt_inputs(state, base)
        if field == "banker_now":
            ui.banker_until = 200.0
        elif field == "table":
            continue  # None in both; a view of the state is told by its object (Same)
        elif field == "board":
            ui.board = type(base.board)()  # another board, though equal
        else:
            setattr(ui, field, value)
        assert prompt_inputs(state, ui) != prompt_inputs(state, base), field


def test_the_remote_files_wait_for_the_frame_with_the_version_and_lose_no_line(
        tmp_path: Path) -> None:
    """The phones' file writer paced by the screen (Controller.hold_writes through
    FirstFrame.wait_version): nothing is written until a frame with the game's version is
    flipped, then everything scheduled meanwhile, in order."""
    gate = FirstFrame(wait_s=30.0)
    asked = threading.Event()
    version = {"now": 7}

    def pace() -> None:
        asked.set()
        gate.wait_version(version["now"])

    persister = Persister(pace=pace)
    path = tmp_path / "lines.jsonl"
    try:
        persister.append(path, b"1\n")
        assert asked.wait(5)
        persister.append(path, b"2\n")
        persister.append(path, b"3\n")
        assert not path.exists(), "written before the frame"
        gate.shown(0, 6)  # an older version on the screen: still held
        assert not persister.flush(0.05) and not path.exists()
        gate.shown(1, 7)
        assert persister.flush(5)
        assert path.read_bytes() == b"1\n2\n3\n"
    finally:
        gate.close()
        persister.stop()


def test_the_remote_files_wait_no_longer_than_the_bound_nor_for_a_closed_loop(
        tmp_path: Path) -> None:
    gate = FirstFrame(wait_s=0.01, most_s=0.01)
    assert gate.wait_version(1) is False  # the bound passed: written anyway
    gate.loop_thread = threading.get_ident()
    assert gate.wait_version(5) is False  # never on the loop's own thread
    gate.close()
    other = FirstFrame(wait_s=30.0)
    other.close()
    def pace() -> None:
        other.wait_version(99)

    persister = Persister(pace=pace)
    try:
        persister.append(tmp_path / "x", b"a")
        assert persister.flush(5), "a closed loop holds nothing"
        assert (tmp_path / "x").read_bytes() == b"a"
    finally:
        persister.stop()


def test_a_decision_panel_is_kept_from_its_second_drawing_and_put_back_as_drawn() -> None:
    """painter.PANELS keeps a panel seen twice (the first drawing copies nothing) and puts
    back its very pixels, texts and touch targets."""
    from companion.screen import painter
    from companion.screen.layout import GameLayout
    from companion.screen.views.panels import draw_prompt
    from companion.screen.views.prompt import Action, Prompt

    painter.forget()
    surface = pygame.display.set_mode((800, 480))
    game = GameLayout.for_size((800, 480))
    prompt = Prompt("Ann: roll the dice", ["a detail"], [Action("roll", "Roll", {"do": "roll"}),
                                                         Action("menu", "Menu", ui="menu")],
                    "Ann")
    drawn = []
    for _ in range(3):
        surface.fill((18, 22, 30))
        p = painter.Painter(surface, 1.0, 1.0)
        draw_prompt(p, game, prompt, {"Ann": (200, 60, 60)})
        drawn.append((pygame.image.tobytes(surface, "RGB"), p.texts, p.hotspots,
                      len(painter.PANELS.items)))
    assert [kept for *_, kept in drawn] == [0, 1, 1], "kept from the second drawing on"
    assert drawn[0][:3] == drawn[1][:3] == drawn[2][:3]
    painter.forget()
