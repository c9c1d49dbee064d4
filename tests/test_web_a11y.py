"""Every phone page usable by everyone at the table (issue 30): an axe-core audit of each
page of a played game (join, Me with an auction on, Table, History, Rules, Net worth,
Story, Banker) in each of the seven languages, in the light and the phone's dark colour
scheme, finds no serious or critical violation; the text enlarged to 200 % still fits the
phone's width; news and bids reach a screen reader through a live region; each colour
group carries its letter. Debian's chromium through Playwright; axe-core from npm
(scripts/test-setup.d/70-axe.sh)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_fakes import open_real_session

from companion.editions import group_letters
from companion.game.api import Source
from web_remote import create_app, join_url, serve
from web_remote.present import contrast
from web_remote.serving import ServerHandle

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
AXE_DIR = Path(os.environ.get("COMPANION_AXE_DIR") or Path(
    os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "table-companion" / "axe")
AXE = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True, "bypass_csp": True}  # axe is injected
TABLE = Source(kind="script", banker=True)
#: each language with an edition that speaks it (its money, its board)
EDITIONS = {"en": "classic-en", "sv": "sv", "fr": "classic-eur", "de": "ch", "nl": "classic-eur",
            "pl": "pl", "ru": "ru-monopolist"}
PAGES = ("/me", "/table", "/history", "/rules", "/worth", "/story")

pytestmark = [
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed"),
    pytest.mark.skipif(not AXE.exists(), reason=f"axe-core is not installed in {AXE_DIR} "
                       "(scripts/test-setup.d/70-axe.sh)"),
]
sync_api = pytest.importorskip("playwright.sync_api")

AUDIT = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}));
}"""


def played(data_dir: Path, edition: str) -> Any:
    """A game under way: a purchase, rent paid, and an auction open with a bid."""
    game = open_real_session(data_dir, ("Ann", "Bo"), edition=edition)
    for command in ({"do": "roll", "dice": [1, 2]}, {"do": "buy", "by": "Ann"},
                    {"do": "end_turn"}, {"do": "roll", "dice": [1, 2]}, {"do": "end_turn"}):
        assert game.submit(command, TABLE).accepted, command
    for dice in ([2, 3], [3, 3], [1, 3], [2, 4]):  # onto an unowned deed: decline, auction
        assert game.submit({"do": "roll", "dice": dice}, TABLE).accepted
        offer = next((o for o in game.state()["legal"] if o["do"] == "decline"), None)
        if offer is not None:
            assert game.submit(offer, TABLE).accepted
            break
        assert game.submit({"do": "end_turn"}, TABLE).accepted
    assert (game.state().get("pending") or {}).get("kind") == "auction"
    assert game.submit({"do": "bid", "by": "Bo", "amount": 10}, TABLE).accepted
    return game


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerHandle]:
    game = played(tmp_path / "game", EDITIONS[request.param])
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468"})
    handle = serve(app, "127.0.0.1", 0, threads=16)
    yield handle
    handle.stop()
    game.close()


def audit(page: Any) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(AUDIT)
    return found


def joined(browser: Any, server: ServerHandle, lang: str, who: str, scheme: str) -> Any:
    """A phone in `lang` and colour `scheme` that audited the join page, then joined."""
    context = browser.new_context(**PHONE, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{server.url}/lang/{lang}?next=/")
    page.goto(join_url(server.app, server.url, fresh=True))
    assert page.locator("html").get_attribute("lang") == lang
    problems = audit(page)
    assert problems == [], ("join", lang, scheme, problems)
    if who == "banker":
        page.fill("input[name=pin]", "2468")
    page.click(f"button[name=who][value='{who}']")
    page.wait_for_load_state()
    return page


@pytest.mark.parametrize("served", list(EDITIONS), indirect=True)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_the_audit(browser: Any, served: ServerHandle, scheme: str,
                                     request: pytest.FixtureRequest) -> None:
    lang = request.node.callspec.params["served"]
    found = {}
    ann = joined(browser, served, lang, "player:Ann", scheme)
    for path in PAGES:
        ann.goto(served.url + path)
        ann.wait_for_load_state()
        found[path] = audit(ann)
    ann.context.close()
    banker = joined(browser, served, lang, "banker", scheme)
    banker.goto(served.url + "/banker")
    found["/banker"] = audit(banker)
    banker.context.close()
    assert {path: v for path, v in found.items() if v} == {}


@pytest.mark.parametrize("served", ["pl"], indirect=True)
def test_text_at_200_percent_fits_the_phone(browser: Any, served: ServerHandle) -> None:
    """WCAG 1.4.4: the text twice as large, nothing wider than the phone (no sideways
    scrolling on any page)."""
    ann = joined(browser, served, "pl", "player:Ann", "light")
    wide = {}
    for path in PAGES:
        ann.goto(served.url + path)
        ann.wait_for_load_state()
        ann.add_style_tag(content="html { font-size: 200% !important; } "
                                  "body { font-size: 34px !important; }")
        overflow = ann.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        if overflow > 1:
            wide[path] = overflow
    assert wide == {}


@pytest.mark.parametrize("served", ["en"], indirect=True)
def test_news_and_bids_reach_a_screen_reader(browser: Any, served: ServerHandle) -> None:
    ann = joined(browser, served, "en", "player:Ann", "light")
    ann.goto(served.url + "/me")
    ann.wait_for_selector("body[data-live='1']")
    region = ann.locator("#announce")
    assert region.get_attribute("aria-live") == "polite"
    game = served.app.extensions["web_remote"].session
    highest = int(game.state()["pending"].get("highest") or 0)
    assert game.submit({"do": "bid", "by": "Ann", "amount": highest + 50}, TABLE).accepted
    sync_api.expect(region).to_contain_text("Ann")  # "Highest bid: €60 by Ann"
    sync_api.expect(region).to_contain_text(str(highest + 50))


@pytest.mark.parametrize("served", ["sv"], indirect=True)
def test_each_colour_group_carries_its_letter(browser: Any, served: ServerHandle) -> None:
    ann = joined(browser, served, "sv", "player:Ann", "light")
    ann.goto(served.url + "/table")
    letters = set(ann.locator("ul.deedlist .grp-tag").all_inner_texts())
    assert letters == set(group_letters("sv").values())
    ann.goto(served.url + "/story")
    assert set(ann.locator(".grp-tag").all_inner_texts()) <= set(group_letters("sv").values())
    ann.goto(served.url + "/me")
    deed = ann.locator("article.deed header .grp").first
    assert deed.inner_text() == group_letters("sv")["brown"]


def test_group_colours_and_their_ink_meet_aa() -> None:
    """Every edition's group colour with the ink the phones put on it: at least 4.5:1
    for the deed's name, 3:1 for its letter... both are text, so 4.5 for all."""
    from companion.editions import edition_ids, load_edition
    from web_remote.present import ink_on

    weak = {}
    for edition_id in edition_ids():
        for group, info in load_edition(edition_id).group_info.items():
            colour = info.get("color")
            if colour and contrast(colour, ink_on(colour)) < 4.5:
                weak[f"{edition_id}/{group}"] = round(contrast(colour, ink_on(colour)), 2)
    assert weak == {}
