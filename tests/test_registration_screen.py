"""Card registration on the table screen: the banker menu's entry, the run's overlay in the
screen's language (deed names from the edition), its buttons, and the pump's notices."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from companion.game.api import Source  # noqa: E402
from companion.game.session import GameSession  # noqa: E402
from companion.inputs.actions import OpenMenu, PassOn, Show  # noqa: E402
from companion.inputs.registrar import Registrar  # noqa: E402
from companion.inputs.registry import TagKind, TagRegistry, TagRole  # noqa: E402
from companion.screen import texts  # noqa: E402
from companion.screen.controller import Controller  # noqa: E402
from companion.screen.render import render  # noqa: E402
from companion.screen.views.registration import BANKER_MENU, OVERLAY, CardRegistration  # noqa: E402
from companion.words import catalog as i18n  # noqa: E402


@pytest.fixture
def screen(tmp_path: Path) -> Iterator[tuple[Controller, Registrar]]:
    language = texts.language()
    with GameSession.open(tmp_path) as session:
        session.submit({"do": "new_game", "edition": "sv", "players": ["Ann", "Bo"],
                        "seed": 1}, Source("script", banker=True))
        controller = Controller(session, data_dir=tmp_path)
        registrar = Registrar(TagRegistry.in_data_dir(tmp_path), session.state)
        controller.cards = CardRegistration(controller, registrar)
        yield controller, registrar
        controller.cards.close()
        controller.close()
    texts.use_language(language)


def draw(controller: Controller) -> list[str]:
    pygame.display.init()
    surface = pygame.Surface((800, 480))
    frame = render(controller.state, controller.ui, surface)
    assert all(t.fits for t in frame.texts), [t.text for t in frame.texts if not t.fits]
    return [t.text for t in frame.texts]


def start_deeds(controller: Controller) -> None:
    controller.press(BANKER_MENU)
    chooser = controller.ui.chooser
    assert chooser is not None and chooser.choices[0].label == texts.text("reg_menu")
    controller.choose(0, "button")  # Register cards
    kinds = controller.ui.chooser
    assert kinds is not None
    labels = [c.label for c in kinds.choices]
    assert labels[0] == texts.text("reg_kind_deeds")
    assert texts.text("reg_kind_bus_tickets") not in labels  # not a Mega board
    controller.choose(0, "button")


def test_the_banker_menu_starts_all_deeds_in_the_screens_language(
    screen: tuple[Controller, Registrar],
) -> None:
    controller, registrar = screen
    assert texts.language() == "sv"
    controller.press("menu")  # the plain MENU: no registration in it
    chooser = controller.ui.chooser
    assert chooser is not None
    assert texts.text("reg_menu") not in [c.label for c in chooser.choices]
    controller.press("no")
    start_deeds(controller)
    assert registrar.active and controller.ui.overlay == OVERLAY
    first = i18n.localized_name("sv", "vasterlanggatan", "sv")
    assert texts.text("reg_tap", name=first) in draw(controller)
    registrar.tap("T1")  # the pump's thread in real life: the listener posts a refresh
    assert controller.drain()
    shown = draw(controller)
    assert texts.text("reg_progress", position=2, total=28) in shown
    assert texts.text("reg_registered", name=first) in shown
    controller.press("no")  # skip Hornsgatan
    assert registrar.status()["position"] == 3
    controller.press("undo")  # back to it
    assert registrar.status()["position"] == 2
    controller.press("menu")  # stop
    controller.drain()
    assert not registrar.active and controller.ui.overlay is None
    assert controller.ui.message is not None
    assert controller.ui.message.text == texts.text("reg_stopped")


def test_a_card_of_something_else_is_moved_only_after_yes(
    screen: tuple[Controller, Registrar],
) -> None:
    controller, registrar = screen
    registrar.registry.register("OLD", TagRole(TagKind.BANKER))
    start_deeds(controller)
    registrar.tap("OLD")
    controller.drain()
    asked = texts.text("reg_asking", was=texts.text("reg_banker_card"),
                       name=i18n.localized_name("sv", "vasterlanggatan", "sv"))
    assert " ".join(draw(controller)).find(asked.split(".")[0]) >= 0
    controller.press("yes")
    assert registrar.registry.lookup("OLD") == TagRole(TagKind.DEED, square="vasterlanggatan")


def test_pump_actions_reach_the_screen(screen: tuple[Controller, Registrar]) -> None:
    controller, registrar = screen
    cards = controller.cards
    cards.ui(Show("unknown_tag", "Unknown card", data={"tag": "0FEDCBA987"}))
    cards.ui(OpenMenu("banker", Source("rfid", banker=True), authorized=True))
    controller.drain()
    assert controller.ui.chooser is not None
    assert controller.ui.chooser.choices[0].label == texts.text("reg_menu")  # banker card
    assert controller.ui.message is not None and "0FEDCBA987" in controller.ui.message.text
    controller.press("no")
    posted: list[tuple[str, Any]] = []
    controller.inbox.put = lambda item: posted.append(item)  # type: ignore[method-assign]
    cards.ui(PassOn("roll"))
    cards.ui(PassOn("menu", held=True))
    cards.ui(PassOn("knob", steps=2))
    assert posted == [("button", ("roll", "button")), ("button", (BANKER_MENU, "button")),
                      ("encoder", 2)]
    assert not registrar.active


def test_registration_overlay_png(screen: tuple[Controller, Registrar], tmp_path: Path) -> None:
    controller, registrar = screen
    start_deeds(controller)
    registrar.tap("T1")
    controller.drain()
    pygame.display.init()
    surface = pygame.Surface((800, 480))
    render(controller.state, controller.ui, surface)
    out = tmp_path / "registration.png"
    pygame.image.save(surface, str(out))
    assert out.stat().st_size > 1000
