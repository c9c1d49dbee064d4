"""A phone's own voice in a real browser (Debian's chromium through Playwright): Ann ticks
"Read my news aloud", Bo pays her rent, and her phone says it, in the table's language,
with the amount spoken as the language says it; after a reload (or any page opened anew,
which the browser treats as not touched yet) the line waits for her first tap instead of
being refused by the browser, and it is said once; with the voice off nothing is said.

What the phone says is heard through `speechSynthesis.speak`, wrapped by an init script
that keeps each utterance's text, language and the browser's answer. The real speak is still
called, so the answer is chromium's own: "not-allowed" when the page may not speak (no tap
on it yet), else "start"/"end", or "synthesis-failed" on a machine without a speech engine
(this one: chromium found the utterance allowed and went on to a voice there is none of)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import ARGS, CHROMIUM, PHONE, TABLE, expect, sync_api
from web_fakes import joined, open_real_session, text

from companion.speech.spoken import spoken_for
from companion.words.table_language import TableLanguage
from web_remote import create_app, join_url, serve
from web_remote.serving import ServerHandle

EAR = """
(() => {
  window.heard = [];
  const synth = window.speechSynthesis;
  if (!synth) return;
  const speak = synth.speak.bind(synth);
  const answer = (said, value) => {
    said.answer = value;
    console.log("heard " + JSON.stringify(said));
  };
  synth.speak = (utterance) => {
    const said = { text: utterance.text, lang: utterance.lang, answer: "" };
    window.heard.push(said);
    utterance.addEventListener("start", () => { if (!said.answer) answer(said, "start"); });
    utterance.addEventListener("end", () => answer(said, "end"));
    utterance.addEventListener("error", (e) => answer(said, "error:" + e.error));
    speak(utterance);
  };
  // what the test waits for without asking the page (Playwright's every question to a page
  // counts as a tap on it): the live stream connected, the #wake button shown or hidden
  document.addEventListener("DOMContentLoaded", () => {
    const wake = document.getElementById("wake");
    new MutationObserver(() => {
      console.log(wake && !wake.hidden ? "wake shown" : "wake hidden");
    }).observe(wake, { attributes: true, attributeFilter: ["hidden"] });
    new MutationObserver(() => {
      if (document.body.dataset.live === "1") console.log("live");
    }).observe(document.body, { attributes: true, attributeFilter: ["data-live"] });
  });
})();
"""
REFUSED = "error:not-allowed"
WAIT = 20_000  # ms: generous, the machine is shared


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    session = open_real_session(tmp_path / "game", ("Ann", "Bo", "Cy"))
    TableLanguage.at(tmp_path / "game").choose("sv")  # the table speaks Swedish
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


def heard(page: Any) -> list[dict[str, str]]:
    out: list[dict[str, str]] = page.evaluate("window.heard")
    return out


def answered(page: Any, text: str) -> None:
    """Wait until an utterance holding `text` has the browser's answer."""
    page.wait_for_function("(text) => window.heard.some((h) => h.text.includes(text) && h.answer)",
                           arg=text, timeout=WAIT)


def rent_said(game: Any, payer: str) -> str:
    """Ann's newest news, `payer`'s rent, as the voice says it in Swedish: the amount in
    words ("4 euro"), not as written ("€ 4")."""
    event = next(i["event"] for i in game.news("Ann") if i["event"].get("reason") == "rent"
                 and i["event"].get("from") == payer)
    voice = spoken_for(game.state(), "sv")
    return f"{payer} betalade dig {voice.money(event['amount'])} i hyra"


@pytest.mark.skipif(not os.path.exists(CHROMIUM),
                    reason="Debian's chromium is not installed (test.sh does it)")
def test_the_phone_says_its_news_in_the_table_language_and_waits_for_a_tap(
        browser: Any, server: ServerHandle, game: Any) -> None:
    context = browser.new_context(**PHONE)
    context.add_init_script(EAR)
    ann = context.new_page()
    ann.goto(join_url(server.app, server.url, fresh=True))
    ann.click("button[name=who][value='player:Ann']")
    ann.wait_for_selector("body[data-live='1']")
    assert ann.evaluate("document.documentElement.lang") == "sv"
    ann.check("input[data-speak-news]")  # a tap: this page may speak from now on

    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"},
         {"do": "roll", "dice": [1, 2]})  # Bo lands on Ann's lot and pays her rent
    said = rent_said(game, "Bo")
    expect(ann.locator("[data-news=mine] li", has_text="Bo betalade dig")).to_have_count(1)
    answered(ann, said)
    bo = [h for h in heard(ann) if said in h["text"]]
    assert len(bo) == 1 and bo[0]["lang"] == "sv" and bo[0]["answer"] != REFUSED, heard(ann)
    assert not any("€" in h["text"] for h in heard(ann)), heard(ann)

    # the phone is put away and taken out again: the page loads anew, its voice still on,
    # but the browser lets a page speak only once it was touched, so until the last line
    # below is said, the test only listens to the page (its console), never asks it
    said_now: list[str] = []
    ann.on("console", lambda message: said_now.append(message.text))
    with ann.expect_console_message(lambda m: m.text == "live", timeout=WAIT):
        ann.reload()
    with ann.expect_console_message(lambda m: m.text == "wake shown" or
                                    m.text.startswith("heard "), timeout=WAIT):
        play(game, {"do": "end_turn"}, {"do": "roll", "dice": [1, 2]})  # Cy pays Ann rent
        said = rent_said(game, "Cy")  # now: once seen on the page, it is no longer news
    assert not [text for text in said_now if text.startswith("heard ")], said_now  # refused
    wake = ann.locator("#wake")
    expect(wake).to_be_visible()
    expect(ann.locator("[data-news=mine] li", has_text="Cy betalade dig")).to_have_count(1)
    expect(ann.locator("input[data-speak-news]")).to_be_checked()
    wake.click()
    answered(ann, said)
    cy = [h for h in heard(ann) if said in h["text"]]
    assert len(cy) == 1 and cy[0]["lang"] == "sv" and cy[0]["answer"] != REFUSED, heard(ann)
    expect(wake).to_be_hidden()
    assert not any(h["answer"] == REFUSED for h in heard(ann)), heard(ann)

    # the voice off: the next news is shown, not said
    ann.uncheck("input[data-speak-news]")
    count = len(heard(ann))
    play(game, {"do": "end_turn"}, {"do": "roll", "dice": [2, 3]}, {"do": "buy"},
         {"do": "end_turn"}, {"do": "roll", "dice": [2, 3]})  # Bo pays Ann rent again
    key = game.news("Ann")[0]["key"]
    expect(ann.locator(f"[data-news=mine] li[data-key='{key}']")).to_have_count(1)
    ann.wait_for_function("(v) => Number(document.body.dataset.shown) >= v",
                          arg=game.state()["version"], timeout=WAIT)
    assert len(heard(ann)) == count, heard(ann)[count:]
    context.close()


def test_the_spoken_lines_are_sent_only_to_a_phone_whose_voice_is_on(
        game: Any, tmp_path: Path) -> None:
    """The spoken words cost a second rendering of the news: only ?say=1 (app.js, voice
    on) has them."""
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468"})
    ann = joined(app, "Ann")
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"},
         {"do": "roll", "dice": [1, 2]})
    said = rent_said(game, "Bo")
    quiet = text(ann.client.get("/me?partial=1"))
    assert "Bo betalade dig" in quiet and "data-say" not in quiet
    loud = text(ann.client.get("/me?partial=1&say=1"))
    assert f'data-say="{said}">Bo betalade dig €' in loud, loud  # shown as written
    app.extensions["web_remote"].close()
