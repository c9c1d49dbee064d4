"""The rulebook a board falls back to quotes that board's own amounts (issue 24 item 4): a
Dutch table on the Swedish board reads the classic rules in Dutch, and their salary,
starting money and jail fine in kronor as the Swedish board pays them, never the euro of
the classic book's own board; the same for every board and language, on the rules page,
in a reason's quoted rule and in a lesson's section."""

from __future__ import annotations

import pytest

from companion.editions import edition_ids
from companion.words import catalog as i18n
from companion.words.explaining import rulebook

NOT_EURO = [e for e in edition_ids() if i18n.edition_data(e)["currency"].get("code") != "EUR"]
AMOUNTS = ("start_cash", "salary", "jail_fine")


def shown(edition: str, amount: str, lang: str) -> str:
    data = i18n.edition_data(edition)
    return i18n.format_money(int(data[amount]), data["currency"], lang)


def page_text(edition: str, lang: str) -> str:
    _lang, sections = rulebook.rules_page(edition, lang, lang)
    return "\n".join(" ".join((s.title, *s.paragraphs)) for s in sections)


def test_the_boards_that_are_not_in_euros() -> None:
    assert {"sv", "pl", "ru-monopolist", "ch"} <= set(NOT_EURO)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("edition", NOT_EURO)
def test_a_boards_rules_page_names_no_euro(edition: str, lang: str) -> None:
    text = page_text(edition, lang)
    assert "€" not in text and "{money:" not in text
    assert "euro" not in text.casefold()
    chosen, _sections = rulebook.rulebook(edition, lang, lang)
    if chosen == lang and rulebook.available(edition) and lang in rulebook.available(edition):
        return  # the board's own book: its amounts are its own words
    for amount in AMOUNTS:  # the classic book, with this board's amounts
        assert shown(edition, amount, lang) in text, amount


@pytest.mark.parametrize("lang", ["nl", "de", "ru", "fr"])
def test_the_swedish_boards_fallback_quotes_kronor_in_reasons_and_lessons(lang: str) -> None:
    """The quote under a jail fine's reason and the salary's section, in kronor."""
    cited = rulebook.cite("sv", lang, ("jail_fine", "jail"), lang)
    assert cited is not None
    _section, quote = cited
    assert shown("sv", "jail_fine", lang) in quote and "€" not in quote
    go = rulebook.section_about("sv", lang, "go", lang)
    assert go is not None and shown("sv", "salary", lang) in " ".join(go.paragraphs)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_classic_board_still_reads_its_euros(lang: str) -> None:
    text = page_text("classic-eur", lang)
    for amount in AMOUNTS:
        assert shown("classic-eur", amount, lang) in text
    mega = page_text("mega", lang)  # Mega's book and the classic sections it leaves out
    assert shown("mega", "salary", lang) in mega and "{money:" not in mega


def test_a_book_amount_the_board_lacks_is_an_error_not_a_blank() -> None:
    with pytest.raises(ValueError, match="no amount"):
        rulebook.amounts("{money:dragon_tax}", "sv", "en")
