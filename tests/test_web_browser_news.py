"""A player's news in a real browser (Debian's chromium through Playwright): it stays on
Ann's phone through two rounds and forty reloads while the page is hidden (in a pocket), and
goes once the page has shown it long enough while visible, from her other tab too, live;
the lines scrolled away in the news box wait until they are scrolled into view.

The page's visibility is the browser's `document.visibilityState`; headless chromium always
says "visible", so an init script stands in for the phone's screen (kept per tab in
sessionStorage, so a reload stays as hidden as the phone is); the page's clock is
Playwright's, run forward by hand, so nothing waits for real time."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_news_seen import turn
from test_web_browser import ARGS, CHROMIUM, PHONE, TABLE, expect, sync_api
from web_fakes import open_real_session

from web_remote import create_app, join_url, serve
from web_remote.serving import ServerHandle

POCKET = """
(() => {
  const now = () => sessionStorage.getItem("visibility") || "hidden";
  Object.defineProperty(document, "visibilityState", { get: now, configurable: true });
  Object.defineProperty(document, "hidden", { get: () => now() !== "visible",
                                              configurable: true });
  window.showPhone = (state) => {
    sessionStorage.setItem("visibility", state);
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""
RENT = "Bo paid you € 4 rent"


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    session = open_real_session(tmp_path / "game", ("Ann", "Bo", "Cy"))
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


def live(page: Any) -> None:
    page.wait_for_selector("body[data-live='1']")


def test_news_stays_while_the_phone_is_hidden_and_goes_once_seen(
        browser: Any, server: ServerHandle, game: Any) -> None:
    context = browser.new_context(**PHONE)
    context.add_init_script(POCKET)
    context.clock.install()
    ann = context.new_page()
    ann.goto(join_url(server.app, server.url, fresh=True))
    ann.click("button[name=who][value='player:Ann']")
    live(ann)
    rent = ann.locator("[data-news=mine] li", has_text=RENT)
    for command in ({"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"},
                    {"do": "roll", "dice": [1, 2]}, {"do": "end_turn"}):  # Bo pays Ann
        assert game.submit(command, TABLE).accepted
    expect(rent).to_have_count(1)
    for _round in range(2):  # two whole rounds with the phone in the pocket
        for dice in ([2, 4], [1, 3], [2, 5]):
            turn(game, dice)
    expect(ann.locator("[data-news=headline]")).to_have_text("Now playing: Cy")  # Cy, Ann, Bo twice
    ann.clock.run_for(60_000)  # a minute in the pocket
    expect(rent).to_have_count(1)
    for _reload in range(40):  # forty reloads of a hidden page mark nothing
        ann.reload()
    live(ann)
    ann.clock.run_for(60_000)
    expect(rent).to_have_count(1)
    assert any(i["event"].get("reason") == "rent" for i in game.news("Ann"))
    other = context.new_page()  # Ann's other tab, hidden too
    other.goto(server.url + "/me")
    live(other)
    expect(other.locator("[data-news=mine] li", has_text=RENT)).to_have_count(1)

    rent.scroll_into_view_if_needed()
    ann.evaluate("showPhone('visible')")  # Ann takes her phone out and reads
    ann.clock.run_for(1_000)  # a glance is not long enough
    assert "seen" not in (rent.get_attribute("class") or "")
    assert any(i["event"].get("reason") == "rent" for i in game.news("Ann"))
    ann.clock.run_for(2_500)
    expect(rent).to_have_class(re.compile(r"\bseen\b"), timeout=10_000)
    assert not any(i["event"].get("reason") == "rent" for i in game.news("Ann"))
    assert any(i["event"].get("reason") == "rent" for i in game.news("Bo"))  # Bo's own
    expect(other.locator("[data-news=mine] li", has_text=RENT)).to_have_count(0)
    unseen = ann.locator("[data-news=mine] li:not(.seen)")
    left = [li.get_attribute("data-key") for li in unseen.all()]
    assert left  # six lines in a box of four: those scrolled away are not seen yet
    assert {i["key"] for i in game.news("Ann")} == set(left)
    ann.locator("[data-news=mine]").evaluate("box => { box.scrollTop = box.scrollHeight; }")
    ann.clock.run_for(3_500)  # Ann scrolls her news and reads the rest
    expect(unseen).to_have_count(0)
    assert game.news("Ann") == []
    ann.reload()
    live(ann)
    expect(rent).to_have_count(0)
    context.close()
