"""Inputs reach the session as commands: panel buttons, keys, taps, typed dice, choosers."""

from __future__ import annotations

import pygame
import pytest
from web_fakes import FakeSession

from companion.game.api import Source
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.render import render

pytestmark = pytest.mark.usefixtures("dummy_display")


def last_command(session: FakeSession) -> dict[str, object]:
    return dict(session.history(limit=1)[-1]["command"])


def make_loop(session: FakeSession) -> tuple[Controller, ScreenLoop]:
    controller = Controller(session)
    loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)))
    loop.draw()
    return controller, loop


def key(loop: ScreenLoop, name: str) -> None:
    loop.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(name)))


def test_keys_roll_buy_and_end_turn() -> None:
    session = FakeSession()
    controller, loop = make_loop(session)
    key(loop, "2")
    key(loop, "3")
    assert last_command(session) == {"do": "roll", "by": "Ann", "dice": [2, 3]}
    assert controller.state is not None and controller.state["pending"]["kind"] == "buy"
    key(loop, "y")
    assert last_command(session) == {"do": "buy", "by": "Ann"}
    key(loop, "r")
    assert last_command(session) == {"do": "end_turn", "by": "Ann"}
    assert controller.state["current"] == "Bo"


def test_touching_the_on_screen_button_sends_its_command() -> None:
    session = FakeSession()
    controller, loop = make_loop(session)
    key(loop, "2")
    key(loop, "3")
    loop.draw()
    assert controller.frame is not None
    no = next(h for h in controller.frame.hotspots if h.action == "button" and h.arg == "no")
    w, h = loop.surface.get_size()
    loop.handle(pygame.event.Event(pygame.FINGERDOWN, x=no.rect.centerx / w,
                                   y=no.rect.centery / h, touch_id=0, finger_id=0))
    assert last_command(session) == {"do": "decline", "by": "Ann"}
    assert controller.state is not None and controller.state["pending"]["kind"] == "auction"


def test_refused_press_shows_a_red_banner_and_changes_nothing() -> None:
    session = FakeSession()
    controller, loop = make_loop(session)
    before = session.version
    controller.press("yes")
    assert session.version == before
    assert controller.ui.message is not None and controller.ui.message.kind == "refused"


def test_panel_button_from_another_thread_is_handled_by_the_loop() -> None:
    session = FakeSession()
    controller, loop = make_loop(session)
    controller.post_button("roll")
    assert session.history(limit=1)[-1]["command"]["do"] == "new_game"
    assert controller.drain()
    assert last_command(session)["do"] == "roll"


def test_menu_opens_and_sound_settings_change_volume() -> None:
    session = FakeSession()
    controller, loop = make_loop(session)
    key(loop, "m")
    assert controller.ui.overlay == "chooser" and controller.ui.chooser is not None
    louder = next(i for i, c in enumerate(controller.ui.chooser.choices)
                  if c.action == "sound:down")
    before = controller.ui.volume
    controller.choose(louder, "keyboard")
    assert controller.ui.volume == before - 10
    key(loop, "escape")
    assert controller.ui.overlay is None


def test_undo_button_asks_then_undoes() -> None:
    session = FakeSession()
    controller, loop = make_loop(session)
    controller.language = "en"  # the configured language, over the edition's French
    controller.sync_language()
    key(loop, "r")
    rolled = session.version
    key(loop, "u")
    assert session.version == rolled, "UNDO asks first"
    assert controller.ui.confirm_undo
    dice = session.history(limit=1)[-1]["events"][0]["dice"]
    asked = f"Undo Ann's roll ({dice[0]} + {dice[1]})?"  # the move, named
    assert controller.current_prompt().title == asked
    loop.draw()
    assert controller.frame is not None and asked in [t.text for t in controller.frame.texts]
    key(loop, "n")
    assert session.version == rolled and not controller.ui.confirm_undo, "NO keeps the move"
    key(loop, "u")
    key(loop, "y")
    assert session.version > rolled
    entry = session.history(limit=1)[-1]
    assert entry["kind"] == "undo" and entry["command"]["do"] == "roll"
    # the table's UNDO acts for the current player, who rolled: no banker authority
    assert entry["source"]["banker"] is False and entry["source"]["player"] == "Ann"
    assert controller.state is not None and controller.state["turn"]["rolled"] is False
    assert controller.ui.undo_target is None


def test_undo_question_is_in_the_tables_language() -> None:
    from companion.screen import texts

    session = FakeSession()  # a classic-eur game: the screen speaks French
    controller, loop = make_loop(session)
    try:
        key(loop, "1")
        key(loop, "2")
        key(loop, "y")  # Ann buys Rue Lecourbe
        key(loop, "u")
        assert controller.current_prompt().title == "Annuler : Ann a acheté Rue Lecourbe ?"
        key(loop, "n")
        controller.session = None  # no session to ask: the plain question
        controller.do(controller.current_prompt().for_button("undo"), "keyboard")
        assert controller.current_prompt().title == "Annuler le dernier coup ?"
    finally:
        texts.use_language("en")


def test_a_new_move_drops_the_undo_question() -> None:
    session = FakeSession()
    controller, loop = make_loop(session)
    controller.language = "en"
    controller.sync_language()
    key(loop, "3")
    key(loop, "1")  # the income tax: nothing to decide
    key(loop, "u")
    assert controller.ui.undo_target is not None
    assert session.submit({"do": "end_turn", "by": "Ann"}, Source("phone", "Ann")).accepted
    controller.drain()
    assert not controller.ui.confirm_undo and controller.ui.undo_target is None
    key(loop, "u")  # asked again: about the new last move
    assert controller.current_prompt().title == "Undo passing the dice to Bo?"


def test_setup_form_starts_a_game() -> None:
    session = FakeSession(players=())
    controller, loop = make_loop(session)
    assert controller.ui.setup is not None
    frame = render(None, controller.ui, loop.surface)
    assert frame.screen == "setup"
    controller.press("pass_go")
    command = last_command(session)
    assert command["do"] == "new_game" and len(command["players"]) == 2  # type: ignore[arg-type]
    assert controller.ui.setup is None and controller.state is not None


def test_setup_seats_as_many_players_as_the_edition_allows() -> None:
    from companion.screen import texts
    from companion.screen.views.setup import SetupForm

    def change(form: SetupForm, line: str, step: int = 1) -> None:
        form.focus = next(i for i, (ident, _v) in enumerate(form.lines()) if ident == line)
        form.change(step)

    texts.use_language("en")
    form = SetupForm(editions=[("classic-eur", ""), ("sv", ""), ("ru-monopolist", "")])
    assert (form.min_players, form.max_players, len(form.players)) == (2, 8, 2)
    for _ in range(10):
        change(form, "count")
    assert len(form.players) == 8  # the classic rules: 2 to 8
    assert dict(form.lines())["count"] == "8  (2–8)"
    change(form, "edition")  # the Swedish rules: 2 to 6, the last seats leave
    assert form.edition_id() == "sv" and len(form.players) == 6
    assert dict(form.lines())["count"] == "6  (2–6)"
    change(form, "count")
    assert len(form.players) == 6
    assert form.new_game_command(1).players == tuple(f"Player {n}" for n in range(1, 7))
    change(form, "edition", -1)  # back to the classic board: the seats stay, more may come
    assert form.edition_id() == "classic-eur" and len(form.players) == 6
    change(form, "count")
    assert len(form.players) == 7
    for _ in range(10):
        change(form, "count", -1)
    assert len(form.players) == 2  # never fewer than the edition's fewest


def test_setup_refuses_too_many_players_with_the_editions_limits() -> None:
    session = FakeSession(players=())
    controller, _loop = make_loop(session)
    controller.language = "en"
    controller.sync_language()
    form = controller.ui.setup
    assert form is not None
    form.edition = next(i for i, (ed, _name) in enumerate(form.editions) if ed == "sv")
    while len(form.players) < 7:  # more than the form lets the table seat
        form.players.append(form.players[0].__class__(f"P{len(form.players)}", "red", "car"))
    before = session.submitted
    controller.press("pass_go")
    assert session.submitted == before, "refused on the form, not by the engine"
    assert controller.ui.message is not None and controller.ui.message.kind == "refused"
    assert controller.ui.message.text == \
        f"Refused: {form.edition_name()} is for 2 to 6 players"
    assert controller.ui.setup is form


def test_the_timed_games_countdown_ends_on_the_screen_and_the_session_ends_it() -> None:
    """The screen counts down; the game's end is the session writer's clock (with or
    without a screen: tests/test_table_clocks.py), never a second one on the screen."""
    session = FakeSession()
    controller, loop = make_loop(session)
    controller.ui.clock_deadline = controller.ui.now + 60
    assert controller.tick() is False and controller.state["winner"] is None
    controller.ui.now += 61
    before = session.submitted
    assert controller.tick() is True
    assert session.submitted == before, "the screen sends no end of its own"
    assert controller.ui.clock_deadline is None
    assert controller.tick() is False


def test_timed_setup_asks_the_engine_for_the_timed_variant() -> None:
    session = FakeSession(players=())
    controller, _loop = make_loop(session)
    assert controller.ui.setup is not None
    controller.ui.setup.timed = 45
    command = controller.ui.setup.new_game_command(7)
    assert command.options["variant"] == "timed"
    assert command.options["time_limit_minutes"] == 45


def test_setup_offers_the_language_before_anything_else() -> None:
    from companion.screen import texts
    from companion.screen.views.setup import SetupForm

    texts.use_language("en")
    form = SetupForm(editions=[("classic-eur", ""), ("sv", "")])
    assert form.focused() == "language" and form.lines()[1][0] == "edition"
    assert form.lines()[0][1] == "Français (edition)"  # nothing configured: the edition's
    form.change()
    assert form.language == "en" and form.ui_language() == "en"
    # a configured (or, on a first start, the system's) language is the one shown and spoken
    told = SetupForm(editions=[("classic-eur", "")], fallback="de")
    assert told.lines()[0][1] == "Deutsch" and told.ui_language() == "de"
    told.change()
    assert told.language == "nl"  # the next after German, never back to the edition's
    told.change(-1)
    assert told.language == "de"
