"""The in-app rulebooks (companion/data/rules/, what the phones and the screen show) say the
mortgage rules the engine plays (issue 27): a lot is mortgaged once its own buildings are
sold, the rest of its group keeping theirs (rule 4, every edition: option
mortgage_strips_only_lot), and a mortgaged deed received and kept costs the 10 % again when
lifted later (rule 3, Sweden too). Each phrase below is written by hand per book."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.editions import load_edition
from companion.words.explaining import rulebook

RULES = Path(__file__).resolve().parent.parent / "companion" / "data" / "rules"

#: book -> (the lot's own buildings, the whole-group wording it replaced)
OWN_LOT: dict[str, tuple[str, str]] = {
    "classic-eur.en": ("once its own buildings are sold", "buildings in its group"),
    "classic-eur.de": ("sobald seine eigenen Gebäude verkauft sind", "Gebäude in seiner Gruppe"),
    "classic-eur.fr": ("une fois ses propres constructions vendues", "dans son groupe peut"),
    "classic-eur.nl": ("zodra de gebouwen op die grond zelf zijn verkocht",
                       "gebouwen in zijn groep"),
    "classic-eur.pl": ("gdy sprzedasz jej własne budynki", "budynków w swojej grupie"),
    "classic-eur.ru": ("когда проданы её собственные постройки", "построек в своей группе"),
    "classic-eur.sv": ("när dess egna byggnader är sålda", "byggnader i sin grupp"),
    "classic-en.en": ("once its own buildings are sold", "buildings in its group"),
    "ch.en": ("once its own buildings are sold", "buildings in its group"),
    "ch.de": ("sobald seine eigenen Gebäude verkauft sind", "Gebäude in seiner Gruppe"),
    "ch.fr": ("une fois ses propres bâtiments vendus", "bâtiment dans son groupe"),
    "sv.en": ("once its own buildings are sold", "buildings in its group"),
    "sv.sv": ("när dess egna byggnader är sålda", "byggnader i sin grupp"),
}
#: book -> how it says a received mortgaged deed, kept, costs the 10 % again when lifted
KEPT_LIFTED_LATER: dict[str, str] = {
    "classic-eur.en": "keep it mortgaged and later pay the value plus 10 % again",
    "classic-eur.de": "später kostet die Rückzahlung den Wert plus erneut 10 %",
    "classic-eur.fr": "payer plus tard la valeur plus encore 10 %",
    "classic-eur.nl": "later de waarde plus opnieuw 10 % betalen",
    "classic-eur.pl": "później zapłacić wartość plus ponownie 10 %",
    "classic-eur.ru": "позже заплатить стоимость плюс снова 10 %",
    "classic-eur.sv": "senare betala värdet plus 10 % igen",
    "classic-en.en": "lifting it later costs the value plus 10 % again",
    "ch.en": "another 10 % then",
    "ch.de": "dann nochmals 10 %",
    "ch.fr": "encore 10 % alors",
    "sv.en": "if kept and lifted later the value plus 10 % again",
    "sv.sv": "löser han den senare betalar han värdet plus 10 % igen",
}


def mortgages(book: str) -> str:
    """The book's mortgages section as one line of words, its `{#topic}` marks left out."""
    text = (RULES / f"{book}.md").read_text(encoding="utf-8")
    section = text.split("{#mortgages}", 1)[1].split("\n## ", 1)[0]
    return " ".join(re.sub(r"\{#[^}]*\}", "", section).split())


def test_every_edition_plays_the_lot_rule_the_books_now_say() -> None:
    for book in OWN_LOT:
        edition = load_edition(book.split(".")[0])
        assert edition.defaults.mortgage_strips_only_lot, book


@pytest.mark.parametrize("book", sorted(OWN_LOT))
def test_a_lot_is_mortgaged_once_its_own_buildings_are_sold(book: str) -> None:
    said = mortgages(book)
    own, group = OWN_LOT[book]
    assert own in said, said
    assert group not in said, said


@pytest.mark.parametrize("book", sorted(KEPT_LIFTED_LATER))
def test_a_received_deed_kept_costs_the_interest_again_when_lifted(book: str) -> None:
    said = mortgages(book)
    assert KEPT_LIFTED_LATER[book] in said, said
    if book.startswith("sv."):  # only a player's own mortgage is lifted at its value alone
        assert re.search(r"(own mortgage|sin egen inteckning) senare|own mortgage later",
                         said), said


@pytest.mark.parametrize("book", sorted(OWN_LOT))
def test_the_mortgage_marks_still_lead_to_their_sentences(book: str) -> None:
    edition, lang = book.split(".")
    sections = rulebook.rulebook(edition, lang)[1]
    section = next(s for s in sections if "mortgages" in s.topics)
    marks = {t: section.paragraphs[p][at:] for t, p, at in section.marks}
    assert "mortgage_lift" in marks and "10 %" in marks["mortgage_lift"], marks
