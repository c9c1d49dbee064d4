"""The Me page in a real browser (Debian's chromium through Playwright), as a 390 px phone:
folded sections stay as the player left them through live updates, the trade form offers
only the deeds of the player the trade is with, an offer to the player stands at the top,
and the news says what happened to them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import ARGS, CHROMIUM, TABLE, expect, phone, sync_api
from web_fakes import open_real_session

from web_remote import create_app, serve
from web_remote.serving import ServerHandle


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    session = open_real_session(tmp_path / "game", ("Ann", "Bo", "Cy"),
                                options={"physical_dice": True})  # dice entered on phones
    yield session
    session.close()


@pytest.fixture
def server(game: Any, tmp_path: Path) -> Iterator[ServerHandle]:
    handle = serve(create_app(game, tmp_path / "game", {"banker_pin": "2468"}), "127.0.0.1",
                   0, threads=16)
    yield handle
    handle.stop()


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def play(game: Any, *commands: dict[str, Any]) -> None:
    for command in commands:
        out = game.submit(command, TABLE)
        assert out.accepted, (command, out)


def test_folded_sections_stay_as_left_through_live_updates(browser: Any, server: ServerHandle,
                                                           game: Any) -> None:
    ann = phone(browser, server, "player:Ann")
    expect(ann.locator("details[data-fold=dice]")).to_have_count(1)  # Ann may roll
    ann.locator("details[data-fold=pay] summary").click()
    expect(ann.locator("details[data-fold=pay]")).to_have_attribute("open", "")
    play(game, {"do": "roll", "dice": [1, 2]})  # the dice entry goes: the sections shift
    expect(ann.locator("details[data-fold=dice]")).to_have_count(0)
    expect(ann.locator("[data-news=headline]")).to_be_visible()
    expect(ann.locator("details[data-fold=pay]")).to_have_attribute("open", "")
    for other in ("banker", "moved"):
        for fold in ann.locator(f"details[data-fold={other}]").all():
            assert fold.get_attribute("open") is None, other


def test_the_trade_form_lists_the_counterparts_deeds_and_offers_go_on_top(
        browser: Any, server: ServerHandle, game: Any) -> None:
    play(game, {"do": "land", "square": 1}, {"do": "buy"}, {"do": "land", "square": 3},
         {"do": "buy"},  # Ann buys both browns, then sells one to Bo and one to Cy
         {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [1]},
          "take": {"cash": 10}},
         {"do": "trade", "from": "Ann", "to": "Cy", "give": {"squares": [3]},
          "take": {"cash": 10}})
    ann = phone(browser, server, "player:Ann")
    ann.locator("details.propose summary").click()
    ann.select_option("form[data-api-form] select[name=to]", "Bo")
    take = ann.locator("fieldset", has_text="I get")
    expect(take.locator("label[data-owner=Bo]")).to_be_visible()
    expect(take.locator("label[data-owner=Cy]")).to_be_hidden()
    ann.select_option("form[data-api-form] select[name=to]", "Cy")
    expect(take.locator("label[data-owner=Cy]")).to_be_visible()
    expect(take.locator("label[data-owner=Bo]")).to_be_hidden()
    take.locator("label[data-owner=Cy] input").check()
    ann.fill("input[name='give.cash']", "100")
    cy = phone(browser, server, "player:Cy")
    ann.get_by_role("button", name="Propose", exact=True).click()
    offers = cy.locator("section.incoming")
    expect(offers).to_contain_text("Offers to you")
    expect(offers.locator("article.proposal")).to_contain_text("Rue Lecourbe")
    top = offers.bounding_box()
    deeds = cy.locator("section.deeds").bounding_box()
    assert top is not None and deeds is not None and top["y"] < deeds["y"]
    assert cy.locator("section.trades:not(.incoming) article.proposal").count() == 0


def test_the_news_tells_the_payee_live(browser: Any, server: ServerHandle, game: Any) -> None:
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"})
    ann = phone(browser, server, "player:Ann")
    expect(ann.locator("[data-news=headline]")).to_have_text("Now playing: Bo")
    play(game, {"do": "roll", "dice": [1, 2]})  # Bo pays Ann's rent
    expect(ann.locator("[data-news=mine]")).to_contain_text("Bo paid you € 4 rent")


def test_an_offer_between_others_leaves_a_third_phones_page_alone(
        browser: Any, server: ServerHandle, game: Any) -> None:
    """The Me page asks its seat's view of the table (GET /api/table) when the offers
    change, and reads itself again only when its own offers did: Bo's page shows Ann's
    offer to him, Cy's page asks and keeps what it shows."""
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"})  # Ann owns Rue Lecourbe
    bo = phone(browser, server, "player:Bo")
    cy = phone(browser, server, "player:Cy")
    partials: list[str] = []
    cy.on("request", lambda r: partials.append(r.url) if "partial=1" in r.url else None)
    ann = phone(browser, server, "player:Ann")
    ann.locator("details.propose summary").click()
    ann.select_option("form[data-api-form] select[name=to]", "Bo")
    ann.fill("input[name='give.cash']", "50")
    with cy.expect_response(lambda r: "/api/table" in r.url) as asked:
        ann.get_by_role("button", name="Propose", exact=True).click()
    assert asked.value.ok
    assert asked.value.json()["offers"] == []  # none of Cy's: only what this seat may see
    expect(bo.locator("section.incoming article.proposal")).to_contain_text("Ann")
    cy.evaluate("() => fetch('/api/table').then((r) => r.json())")  # after its handler ran
    assert partials == [], "Cy's page was read again for an offer not hers"
    assert cy.locator("article.proposal").count() == 0
