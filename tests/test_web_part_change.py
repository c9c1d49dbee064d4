"""A live part sent as a change of the one the stream sent before (web_remote.part_change):
made whole again it is the part itself, whatever changed where, in UTF-16 code units as the
phone's JavaScript counts them; a change of another text is refused, never misapplied."""

from __future__ import annotations

import json
import random

from web_remote.part_change import SAVES_AT_LEAST, applied, change, units

PAGE = ('<div class="part" data-version="41" data-player="Ann">'
        '<p class="headline">Bo&#39;s turn</p>' + "<article>deed · € 200</article>" * 40
        + "<form>Pay someone</form></div>")


def js_length(text: str) -> int:
    """The text's length as JavaScript counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def test_a_page_changed_at_its_top_goes_as_that_change() -> None:
    after = PAGE.replace('"41"', '"42"').replace("Bo&#39;s turn", "Your turn")
    sent = change(units(PAGE), after, units(after))
    assert "html" not in sent
    assert sent["of"] == js_length(PAGE)
    assert len(json.dumps(sent)) < len(after) // 10
    assert applied(PAGE, sent) == after


def test_the_first_part_and_a_small_one_go_whole() -> None:
    assert change(None, PAGE, units(PAGE)) == {"html": PAGE}
    small = '<div class="part" data-version="1">a</div>'
    other = small.replace("a<", "b<")
    assert change(units(small), other, units(other)) == {"html": other}
    assert applied(None, {"html": PAGE}) == PAGE


def test_any_change_made_whole_again() -> None:
    rng = random.Random(28)
    alphabet = ["a", "é", "€", "·", "\u00a0", "🐶", "𝄞", "<", ">", "\n"]
    for _ in range(400):
        before = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 900)))
        after = list(before)
        for _ in range(rng.randrange(0, 4)):  # a few edits anywhere: replace, insert, cut
            at = rng.randrange(0, len(after) + 1)
            cut = rng.randrange(0, 20)
            after[at:at + cut] = [rng.choice(alphabet) for _ in range(rng.randrange(0, 20))]
        text = "".join(after)
        sent = change(units(before), text, units(text))
        assert applied(before, sent) == text
        if "mid" in sent:  # offsets in UTF-16 units, within the text sent before
            assert sent["of"] == js_length(before)
            assert sent["head"] + sent["tail"] <= sent["of"]
            saved = js_length(text) - js_length(sent["mid"])
            assert saved >= SAVES_AT_LEAST


def test_a_change_of_another_text_is_refused() -> None:
    after = PAGE.replace('"41"', '"42"')
    sent = change(units(PAGE), after, units(after))
    assert applied(None, sent) is None  # nothing kept: the stream starts again
    assert applied(PAGE + "x", sent) is None  # another text than the change's
    assert applied(PAGE, {**sent, "head": sent["of"], "tail": 1}) is None
    assert applied(PAGE, {**sent, "mid": None}) is None
    assert applied(PAGE, {"version": 3}) is None
