"""Each explanation cites the rule that produced its amount (issue 24, item 6): per kind of
charge, the engine's money move is explained and its citation is the rulebook sentence
written for that rule (`{#topic}` in companion/data/rules/), in every language of the
classic and Mega books; station rent and built rent do not quote the unbuilt-lot rule, the
Birthday gift square does not quote Chance, and a card paying each player says "to"."""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import MEGA, arrange, ok, start

from companion.game.table.records import Setup
from companion.rules import view
from companion.rules.state import GameState
from companion.words import catalog as i18n
from companion.words.explaining import rulebook
from companion.words.explaining.why_words import citations, explain
from companion.words.move_words import Words

JSON = dict[str, Any]
ANN, BO = 0, 1
LANGS = sorted(i18n.LANGUAGE_NAMES)


def money(events: list[JSON], reason: str | None = None) -> JSON:
    """The first transfer of this reason (None: of any)."""
    found = [e for e in events
             if e["kind"] == "transfer" and reason in (None, e["reason"])]
    assert found, events
    return found[0]


def said(event: JSON, state: GameState, lang: str = "en") -> str:
    """The reason in words, spaces plain."""
    words = Words(Setup.of({"edition": state.edition.id, "options": state.options.to_json(),
                   "currency": i18n.edition_data(state.edition.id)["currency"],
                   **view.public_state(state)}), lang, i18n.translator(lang))
    text = explain(event, words)
    assert text is not None, event
    return text.replace(i18n.NBSP, " ")


def tagged(edition: str, lang: str, topic: str) -> str:
    """The sentence a book marks with a topic (the rule as written), found by hand."""
    for book in (edition, rulebook.GENERAL):
        for section in rulebook.rulebook(book, lang)[1]:
            for t, para, at in section.marks:
                if t == topic:
                    return section.paragraphs[para][at:].split(". ")[0].split(": ")[0]
    raise AssertionError(f"{edition}.{lang} marks no sentence {topic!r}")


def classic_charges() -> dict[str, tuple[GameState, JSON]]:
    """One money move of each kind on the classic board, by the sentence it must cite."""
    out: dict[str, tuple[GameState, JSON]] = {}
    g, ev = ok(arrange(start(), owners={3: BO}), {"do": "roll", "dice": [1, 2]})
    out["rent_lot"] = g, money(ev, "rent")
    g, ev = ok(arrange(start(), owners={1: BO, 3: BO}), {"do": "roll", "dice": [1, 2]})
    out["rent_group"] = g, money(ev, "rent")
    g, ev = ok(arrange(start(), owners={1: BO, 3: BO}, levels={1: 2, 3: 2}),
               {"do": "roll", "dice": [1, 2]})
    out["rent_buildings"] = g, money(ev, "rent")
    g, ev = ok(arrange(start(), owners={5: BO, 15: BO}), {"do": "roll", "dice": [2, 3]})
    out["rent_station"] = g, money(ev, "rent")
    g, ev = ok(arrange(start(), owners={12: BO}), {"do": "roll", "dice": [6, 6]})
    out["rent_utility"] = g, money(ev, "rent")
    g, ev = ok(arrange(start(), owners={1: ANN}, mortgaged=[1]),
               {"do": "unmortgage", "square": 1})
    out["mortgage_lift"] = g, money(ev)
    g, ev = ok(arrange(start(), jail=[ANN]), {"do": "pay_fine"})
    out["jail_fine"] = g, money(ev)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_each_kind_of_rent_and_fee_cites_its_own_rule(lang: str) -> None:
    assert rulebook.rulebook("classic-eur", lang)[0] == lang  # a book in the table's language
    quotes: dict[str, str] = {}
    for expected, (_state, event) in classic_charges().items():
        cited = rulebook.cite("classic-eur", lang, citations(event))
        assert cited is not None, (lang, expected)
        section, quote = cited
        assert quote.startswith(tagged("classic-eur", lang, expected)), (lang, expected, quote)
        assert quote in " ".join(section.paragraphs)
        quotes[expected] = quote
    # the complaint of the issue: station and built rent quoted the unbuilt-lot rule
    assert quotes["rent_station"] != quotes["rent_lot"]
    assert quotes["rent_buildings"] != quotes["rent_lot"]
    assert len(set(quotes.values())) == len(quotes)


@pytest.mark.parametrize("lang", LANGS)
def test_the_birthday_square_cites_the_square_not_chance(lang: str) -> None:
    assert rulebook.rulebook(MEGA, lang)[0] == lang
    g = arrange(start(edition=MEGA), position={ANN: 40})
    g.decks["bus_tickets"] = []
    g, ev = ok(g, {"do": "roll", "dice": [2, 3, 2]})
    gift = money(ev, "birthday_gift")
    cited = rulebook.cite(MEGA, lang, citations(gift))
    assert cited is not None
    section, quote = cited
    assert "squares" in section.topics and "cards" not in section.topics
    assert quote.startswith(tagged(MEGA, lang, "birthday"))


@pytest.mark.parametrize("lang", LANGS)
def test_mega_rents_cite_the_mega_rule(lang: str) -> None:
    # two lots of the three brown ones: all but one, double rent (the classic book has no
    # such rule); the whole group: triple, the Mega sentence, not the classic "twice"
    g, ev = ok(arrange(start(edition=MEGA), owners={1: BO, 3: BO}, position={ANN: 50}),
               {"do": "roll", "dice": [1, 3, 1]})
    rent = money(ev, "rent")
    assert rent["why"]["rule"] == "rent_all_but_one"
    cited = rulebook.cite(MEGA, lang, citations(rent))
    assert cited is not None and cited[1].startswith(tagged(MEGA, lang, "rent_all_but_one"))


def test_a_card_paying_each_player_says_to_each_player() -> None:
    from companion.editions import load_edition

    ed = load_edition("classic-eur")
    chance_at = next(s.index for s in ed.squares if s.kind.value == "chance")
    for card, direction, payer in (("chance-chairman", "to each player", True),
                                   ("chest-birthday", "from each player", False)):
        deck_at = chance_at if card.startswith("chance") else \
            next(s.index for s in ed.squares if s.kind.value == "community_chest")
        g = arrange(start(), position={ANN: (deck_at - 3) % 40})
        g, _ = ok(g, {"do": "roll", "dice": [1, 2]})
        g, ev = ok(g, {"do": "draw", "card": card})
        paid = money(ev, "card")
        assert (paid["from"] == "Ann") is payer
        text = said(paid, g)
        assert text.endswith(direction), text
        other = "from each player" if direction == "to each player" else "to each player"
        assert other not in text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("edition", ["classic-eur", MEGA])
def test_the_rules_page_has_every_section_the_reasons_link_to(lang: str, edition: str) -> None:
    """A Dutch Mega table's rules page has GO, jail, auctions and trading (Mega's book writes
    only its differences: the classic sections it leaves out follow), in the page's language,
    and every section a reason or a lesson can cite is on it."""
    from companion.words.explaining.lessons import SECTION
    from companion.words.explaining.why_words import TOPICS

    shown, sections = rulebook.rules_page(edition, lang, lang)
    assert shown == lang
    anchors = {t for s in sections for t in s.topics}
    assert {"go", "jail", "auctions", "trading"} <= anchors
    cited = {t for t in TOPICS.values()} | set(SECTION.values())
    for topic in cited:
        found = rulebook.section_about(edition, lang, topic, lang)
        if found is not None:
            assert found.anchor in anchors, (topic, found.anchor)


OWN_BOOKS = [(book.split(".")[0], book.split(".")[1])
             for book in sorted(p.stem for p in rulebook.RULES_DIR.glob("*.md"))
             if not book.startswith(("classic-eur.", "mega."))]


@pytest.mark.parametrize(("edition", "lang"), OWN_BOOKS)
def test_an_editions_own_book_cites_its_own_sentence_for_each_rent_and_fee(
        edition: str, lang: str) -> None:
    """A Swedish game quotes the Swedish rules (in kronor), each kind of rent its own
    sentence there: built rent and station rent are not the unbuilt lot's."""
    from companion.words.explaining.why_words import SENTENCES, TOPICS

    own = {id(s) for s in rulebook.rulebook(edition, lang, lang)[1]}
    quotes = {}
    for rule in ("rent_lot", "rent_houses", "rent_station", "rent_utility", "jail_fine",
                 "mortgage_lift"):
        topics = SENTENCES[rule] + (TOPICS.get(rule, "rent"),)
        cited = rulebook.cite(edition, lang, topics, lang)
        assert cited is not None, rule
        section, quote = cited
        assert id(section) in own, (rule, section.title)
        assert any(t == SENTENCES[rule][0] for t, _p, _at in section.marks), (rule, quote)
        quotes[rule] = quote
    assert len(set(quotes.values())) >= 5, quotes  # station and utility may share one
