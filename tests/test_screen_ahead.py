"""The words a press may bring next are laid out ahead, while the table waits (issue 28): the
guess names the prompts a roll or the turn's end brings, as `build_prompt` words them, and
a title laid out ahead is drawn by the next frame without asking freetype again."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.game.api import Source
from companion.game.session import GameSession
from companion.game.table.view import TableView
from companion.screen import painter, theme
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.painter import Painter
from companion.screen.render import game_layout, keep_panel_ahead, lay_ahead
from companion.screen.views import panels
from companion.screen.views.panels import draw_prompt
from companion.screen.views.prompt import Action, Ahead, Prompt, likely_titles, table_of
from tests.panel_draws import count_panel_draws
from tools.bench.journal import bot_script

BOT = Source("script", banker=True)

pytestmark = pytest.mark.usefixtures("dummy_display")


def _counting_font(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Every call of the painter's `font` (a measure or a render freetype must do: the
    kept ones never ask for the font) is counted in the list returned."""
    calls: list[bool] = []
    real: Callable[[bool], Any] = painter.font

    def counting(bold: bool) -> Any:
        calls.append(bold)
        return real(bold)

    monkeypatch.setattr(painter, "font", counting)
    return calls


def _panel(surface: pygame.Surface, title: str) -> None:
    p = Painter(surface, 1.0, 1.0)
    draw_prompt(p, game_layout(surface.get_size()), Prompt(title, [], []), {})


@pytest.mark.parametrize("ahead", [False, True])
def test_a_title_laid_out_ahead_is_drawn_without_freetype(
        monkeypatch: pytest.MonkeyPatch, ahead: bool) -> None:
    painter.forget()
    surface = pygame.display.set_mode((800, 480))
    title = "Wilhelmina van Oranje-Nassau: buy Rue de la Paix for €400?"
    if ahead:
        assert lay_ahead(Ahead(title), surface.get_size())
        assert not lay_ahead(Ahead(title), surface.get_size())  # once is enough
        # on a scratch surface as tall as the decision panel, not the window
        from companion.screen import render
        scratch = render._scratch[0][1]
        assert scratch.get_width() == 800
        assert scratch.get_height() <= game_layout((800, 480)).prompt.height + 4
        # the guess is rendered apart: it pushes none of the texts the screen shows out
        assert not painter._rendered and painter._rendered_ahead
    calls = _counting_font(monkeypatch)
    _panel(surface, title)
    # laid out ahead: nothing asked of freetype; cold, the title is measured and rendered
    assert (calls == []) is ahead
    assert painter._rendered and not painter._rendered_ahead  # drawn: now the screen's


def test_a_guess_whose_glyphs_were_pushed_out_is_laid_out_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Guesses come faster than they are shown: one whose glyphs the later ones pushed out
    of the store of texts rendered ahead is not "done" any more, and is rendered again;
    while they stay, it is not."""
    painter.forget()
    surface = pygame.display.set_mode((800, 480))
    size = surface.get_size()
    title = "Wilhelmina van Oranje-Nassau: buy Rue de la Paix for €400?"
    assert lay_ahead(Ahead(title), size)
    calls = _counting_font(monkeypatch)
    assert not lay_ahead(Ahead(title), size)
    assert calls == []
    for n in range(painter.RENDERED_AHEAD_MAX):  # later guesses push its glyphs out
        assert lay_ahead(Ahead(f"Player {n}: buy Square {n} for €{n}?"), size)
    assert not any(key[2] == title for key in painter._rendered_ahead)
    calls.clear()
    assert lay_ahead(Ahead(title), size)  # laid out again: rendered, not measured
    assert calls
    calls.clear()
    _panel(surface, title)
    assert calls == []  # and the frame finds it


def _played(tmp_path: Path, seed: int, count: int, language: str
            ) -> Iterator[tuple[TableView, list[str], dict[str, Any], TableView, str]]:
    """A bot game played through a real session and the screen's loop, a command at a
    time: the table before each command, the titles guessed then, the command, the table
    after it and the title of the prompt its frames settled on."""
    script = bot_script(seed=seed, count=count)
    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        controller = Controller(session, language=language)
        loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)))
        loop.draw()
        for command in script[1:]:
            state = controller.state
            assert state is not None
            table = table_of(state, controller.ui)
            guess = likely_titles(state, controller.ui)
            outcome = session.submit(command, BOT)
            assert outcome.accepted
            controller.drain_updates(outcome.version)
            loop.draw()
            while loop.follow_up:
                loop.draw()
            frame = controller.frame
            assert frame is not None and frame.prompt is not None
            after = table_of(controller.state or {}, controller.ui)
            yield table, guess, command, after, frame.prompt.title


def test_the_guess_names_the_prompt_a_roll_or_the_turns_end_brings(tmp_path: Path) -> None:
    named = guessed = 0
    for table, guess, command, after, title in _played(tmp_path, 7, 300, "en"):
        if table.decision is not None or after.winner or command.get("do") not in (
                "roll", "end_turn") or after.turn.number > table.turn.number + 1:
            continue
        # a roll of the turn: the square it lands on asks to buy or draw, else the turn
        # goes on; the turn's end: the next player's first question
        decision = after.decision
        kind = decision.kind if decision is not None else None
        if kind not in (None, "buy", "draw") or (
                decision is not None and decision.deck == "bus_tickets"):
            continue
        named += 1
        guessed += title in guess
    assert named > 100
    assert guessed == named


def test_the_collector_waits_from_the_loops_wake_to_its_flip(tmp_path: Path) -> None:
    import gc

    script = bot_script(seed=3, count=3)
    assert gc.isenabled()
    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        controller = Controller(session, language="en")
        loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)))
        loop.draw()
        try:
            loop._collector_waits()  # woken: a key, an update
            assert not gc.isenabled()
            outcome = session.submit(script[1], BOT)
            controller.drain_updates(outcome.version)
            loop.draw()  # the frame flipped: the collector's turn
            assert gc.isenabled() and not loop.collector_held
            gc.disable()  # switched off by someone else: the loop leaves it so
            loop._collector_waits()
            loop.draw()
            assert not gc.isenabled() and not loop.collector_held
        finally:
            gc.enable()


def test_the_guess_names_the_roll_for_rent_a_drawn_card_brings(tmp_path: Path) -> None:
    """A card that sends its drawer to a utility another player owns asks for a fresh roll
    for the rent ("ten times the dice"): its title, two lines long, is among the guesses
    while the card is still to be drawn (the bench's game, seed 3, draws one at move 114)."""
    named = guessed = 0
    for table, guess, _command, after, title in _played(tmp_path, 3, 120, "fr"):
        before, now = table.decision, after.decision
        if before is None or before.kind != "draw" or now is None or \
                now.kind != "roll_for_rent":
            continue
        named += 1
        guessed += title in guess
    assert named >= 1
    assert guessed == named


@pytest.mark.parametrize("ahead", [False, True])
def test_whose_turn_laid_out_ahead_is_drawn_without_freetype(
        monkeypatch: pytest.MonkeyPatch, ahead: bool) -> None:
    """The header's "X's turn" of each player, in their colour, is laid out ahead: a
    player's first turn draws it without asking freetype (cold it is measured and
    rendered)."""
    from companion.screen.views import panels

    painter.forget()
    surface = pygame.display.set_mode((800, 480))
    name, color = "Wilhelmina", (200, 120, 40)
    if ahead:
        assert lay_ahead(Ahead(whose=((name, color), ("Bo", (40, 120, 200)))),
                         surface.get_size())
    calls = _counting_font(monkeypatch)
    p = Painter(surface, 1.0, 1.0)
    who_box = panels._header_boxes(p, game_layout(surface.get_size()).header)[3]
    panels._whose_words(p, who_box, name, color)
    assert (calls == []) is ahead


def _drawn_panel(surface: pygame.Surface, prompt: Prompt,
                 records: list[Any] | None = None) -> bytes:
    """`prompt`'s panel drawn on `surface` (on the screen's ground) and its pixels; the
    texts and touch targets it put on the screen go to `records`."""
    surface.fill(theme.BACKGROUND)
    layout = game_layout(surface.get_size())
    p = Painter(surface, 1.0, 1.0)
    draw_prompt(p, layout, prompt, {"Ann": (200, 40, 40)})
    if records is not None:
        records[:] = [p.texts, p.hotspots]
    return pygame.image.tobytes(surface.subsurface(layout.prompt), "RGB")


def test_a_panel_drawn_once_is_kept_ahead_and_shown_with_one_blit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision panel the screen drew once (not kept: PANELS keeps one from its second
    drawing) is drawn into PANELS ahead when a press may bring its title again, from the
    very prompt the screen showed: the next showing is one blit, the same pixels as a
    panel drawn anew; a title never drawn, or a panel kept already, costs nothing."""
    painter.forget()
    surface = pygame.display.set_mode((800, 480))
    size = surface.get_size()
    title = "Ann: roll the dice"
    prompt = Prompt(title, ["in jail"], [Action("roll", "Roll"), Action("no", "Pay €50")],
                    player="Ann")
    assert not keep_panel_ahead(title, size)  # never drawn: nothing to keep
    cold_records: list[Any] = []
    cold = _drawn_panel(surface, prompt, cold_records)
    assert not painter.PANELS.items  # drawn once: not kept
    assert keep_panel_ahead(title, size)
    assert len(painter.PANELS.items) == 1
    # kept with its texts and touch targets where the screen shows it (drawn higher up on
    # the scratch surface): its showing puts back those very records, none moved
    (kept,) = painter.PANELS.items.values()
    assert kept[1] == game_layout(size).prompt.topleft
    # kept without its detail line (drawn over the kept panel: the line of this move)
    assert [kept[2], kept[3]] == [cold_records[0][:-1], cold_records[1]]
    assert cold_records[0][-1].text == "in jail" and cold_records[1]
    drawn = count_panel_draws(monkeypatch)
    blitted_records: list[Any] = []
    assert _drawn_panel(surface, prompt, blitted_records) == cold  # one blit, the very pixels
    assert drawn == []
    assert blitted_records == cold_records
    assert all(a is b for a, b in zip(blitted_records[0][:-1], kept[2], strict=True))
    other = Prompt(title, ["in jail"], [Action("roll", "Roll")], player="Ann")
    _drawn_panel(surface, other)  # the same title with other buttons: drawn anew
    assert drawn == ["x"]


def test_a_panel_is_kept_without_its_detail_line() -> None:
    """A decision panel is kept (PANELS) without its detail line, which names the move
    (the square landed on, the card drawn) and is drawn over the kept panel: the same
    title and buttons with another line are one blit and that line, the very pixels of
    the panel drawn anew with it; a title on two lines (no detail line drawn) is kept as
    it is."""
    painter.forget()
    surface = pygame.display.set_mode((800, 480))
    actions = [Action("roll", "End turn"), Action("undo", "Undo")]
    first = Prompt("Ann: end your turn", ["landed on Mayfair"], actions, player="Ann")
    second = Prompt("Ann: end your turn", ["drew Go to jail"], actions, player="Ann")
    _drawn_panel(surface, first)
    _drawn_panel(surface, first)  # its second drawing: kept
    assert len(painter.PANELS.items) == 1
    drawn: list[str] = []
    real = panels._draw_prompt

    def counting(*args: Any) -> None:
        drawn.append("x")
        real(*args)

    panels._draw_prompt = counting  # type: ignore[assignment]
    try:
        records: list[Any] = []
        kept_then_line = _drawn_panel(surface, second, records)
        assert drawn == []  # the kept panel, and the line over it
    finally:
        panels._draw_prompt = real  # type: ignore[assignment]
    painter.forget()
    fresh: list[Any] = []
    assert kept_then_line == _drawn_panel(surface, second, fresh)  # drawn anew, whole
    assert records == fresh
    long_title = "Ann: " + "a question far too long for one line of the panel " * 3
    two_lines = Prompt(long_title, ["not drawn"], actions, player="Ann")
    _drawn_panel(surface, two_lines)
    _drawn_panel(surface, two_lines)
    key = panels._panel_key(two_lines, (200, 40, 40))
    assert any(k[0] == key for k in painter.PANELS.items)
