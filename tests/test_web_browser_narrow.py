"""Phones from 360 to 430 px wide in a real browser (Debian's chromium through Playwright),
eight players with long Dutch names on the Mega board part way through a game (issue 24,
item 7): no page wider than the phone, no word broken across lines (a heading a letter per
line, "Nettovermogen" cut in two), no character the phone's fonts may lack (emoji drawn as
empty boxes), and in an auction the bid and pass buttons above the fold of a 740 px screen.
With $COMPANION_SCREENSHOTS set, the 360 px pages are kept there (docs/screenshots)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_language_walk import played
from test_web_browser import ARGS, CHROMIUM, PHONE, TABLE, sync_api
from web_fakes import open_real_session

from companion.words.table_language import TableLanguage
from web_remote import create_app, join_url, serve
from web_remote.serving import ServerHandle

NAMES = ("Wilhelmina van Oranje", "Maximiliaan de Vries", "Anna", "Bram van den Berg",
         "Cornelis Janssen", "Dirk", "Femke Verhoeven", "Geertruida Smit")
WIDTHS = (360, 390, 430)
PAGES = ("me", "table", "history", "rules", "worth")
HEIGHT = 740

#: what a page shows that a phone cannot: words broken over two lines, boxes wider than the
#: screen, characters outside the fonts every phone has (emoji, pictographs)
PROBLEMS = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + 1) out.push(['page wider', width,
      document.documentElement.scrollWidth]);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, details:not([open]) > :not(summary)')) continue;
    const style = getComputedStyle(parent);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    if (parent.closest('.scroll')) continue;  // a table that scrolls sideways on purpose
    const text = node.textContent;
    for (const ch of text) {
      const code = ch.codePointAt(0);
      if (code >= 0x1F000 || (code >= 0x2600 && code <= 0x27BF))
        out.push(['glyph', ch, text.trim().slice(0, 40)]);
    }
    const re = /[\\p{L}\\p{N}][\\p{L}\\p{N}'’.]{3,}/gu;  // a break after a hyphen is no break
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const range = document.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0)
        .map(r => Math.round(r.top)));
      if (lines.size > 1) out.push(['word broken', m[0], text.trim().slice(0, 40)]);
      const box = range.getBoundingClientRect();
      if (box.width && box.right > width + 1)
        out.push(['word off screen', m[0], Math.round(box.right)]);
    }
  }
  return out.slice(0, 20);
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def mid_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerHandle]:
    """A Dutch Mega table of eight, played part way by the bots, served."""
    data = tmp_path_factory.mktemp("mega-nl")
    session = played(data, "mega", NAMES, seed=7)
    TableLanguage.at(data).choose("nl")
    handle = serve(create_app(session, data, {"banker_pin": "2468"}), "127.0.0.1", 0,
                   threads=16)
    yield handle
    handle.stop()
    session.close()


def open_phone(browser: Any, server: ServerHandle, who: str, width: int) -> Any:
    """A phone `width` px wide, joined as `who`, its live stream connected."""
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": HEIGHT}})
    page = context.new_page()
    page.goto(join_url(server.app, server.url, fresh=True))
    page.click(f"button[name=who][value='{who}']")
    page.wait_for_selector("body[data-live='1']")
    return page


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_fits_a_narrow_phone_whole_words_and_glyphs(
        browser: Any, mid_game: ServerHandle, width: int) -> None:
    state = mid_game.app.extensions["web_remote"].session.state()
    alive = [p["name"] for p in state["players"] if not p.get("bankrupt")]
    page = open_phone(browser, mid_game, f"player:{alive[WIDTHS.index(width)]}", width)
    try:
        found = {}
        for name in PAGES:
            page.goto(f"{mid_game.url}/{name}")
            page.wait_for_selector("body[data-live='1']")
            found[name] = page.evaluate(PROBLEMS)
            if width == 360:
                shots = _screenshots()
                if shots is not None:
                    page.screenshot(path=str(shots / f"phone-360-{name}.png"))
        assert found == {name: [] for name in PAGES}
    finally:
        page.context.close()


def _screenshots() -> Path | None:
    import os

    folder = os.environ.get("COMPANION_SCREENSHOTS")
    return Path(folder) if folder else None


def test_the_check_sees_a_letter_stack(browser: Any, mid_game: ServerHandle) -> None:
    page = open_phone(browser, mid_game, "spectator", 360)
    try:
        page.goto(f"{mid_game.url}/table")
        page.wait_for_selector("body[data-live='1']")
        page.evaluate("""() => { const p = document.createElement('p');
            p.style.width = '20px'; p.style.overflowWrap = 'anywhere';
            p.textContent = 'Buskaartjes'; document.querySelector('main').prepend(p); }""")
        assert any(kind == "word broken" for kind, *_rest in page.evaluate(PROBLEMS))
    finally:
        page.context.close()


def test_in_an_auction_the_bids_are_above_the_fold_at_360_px(browser: Any,
                                                             tmp_path: Path) -> None:
    session = open_real_session(tmp_path / "game", NAMES)
    TableLanguage.at(tmp_path / "game").choose("nl")
    for command in ({"do": "roll", "dice": [1, 2]}, {"do": "decline"}):
        assert session.submit(command, TABLE).accepted
    handle = serve(create_app(session, tmp_path / "game", {"banker_pin": "2468"}),
                   "127.0.0.1", 0, threads=16)
    try:
        page = open_phone(browser, handle, f"player:{NAMES[1]}", 360)
        buttons = page.evaluate("""() => [...document.querySelectorAll('section.pending button')]
            .map(b => [b.textContent.trim(), b.getBoundingClientRect().bottom])""")
        assert buttons and {label for label, _ in buttons} >= {"Bieden", "Passen"}
        assert all(bottom <= HEIGHT for _label, bottom in buttons), buttons
        assert page.evaluate(PROBLEMS) == []
        shots = _screenshots()
        if shots is not None:
            page.screenshot(path=str(shots / "phone-360-auction.png"))
        page.context.close()
    finally:
        handle.stop()
        session.close()
