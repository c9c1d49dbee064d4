"""Amounts as the table reads them, from the edition's currency block in the state JSON.

The edition's own written form decides (`companion.words.catalog.format_money`); the screen's
language matters only for a currency block without a pattern.
"""

from __future__ import annotations

from companion.game.table.records import Currency
from companion.screen import texts
from companion.words import catalog as i18n


def money(amount: int, currency: Currency) -> str:
    """An amount in the edition's written form: "€ 1.500", "Kr 2 400", "М1500".

    >>> money(2400, {"pattern": "Kr {amount}", "group_separator": " "}).replace("\xa0", " ")
    'Kr 2 400'
    >>> money(-50, {"pattern": "€ {amount}", "group_separator": "."}).replace("\xa0", " ")
    '−€ 50'
    """
    return i18n.format_money(amount, currency, texts.language())


def delta(amount: int, currency: Currency) -> str:
    """A signed change without the symbol, for the balance animation: "+200", "−1 400".

    >>> delta(-1400, {"group_separator": " "}).replace("\xa0", " ")
    '−1 400'
    """
    return i18n.signed_amount(amount, currency)
