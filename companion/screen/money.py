"""Amounts as the table reads them, from the edition's currency block in the state JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MINUS = "\u2212"  # a real minus sign, as wide as the plus


def group(amount: int, separator: str) -> str:
    """Digits in groups of three.

    >>> group(1234567, "\u202f")
    '1\u202f234\u202f567'
    >>> group(-1400, ".")
    '-1.400'
    """
    return f"{amount:,}".replace(",", separator)


def money(amount: int, currency: Mapping[str, Any] | None) -> str:
    """An amount in the edition's pattern: "€ 1.500", "2 400 kr", "1 500 ₽".

    >>> money(2400, {"pattern": "Kr {amount}", "group_separator": " "})
    'Kr 2 400'
    >>> money(-50, {"pattern": "€ {amount}", "group_separator": "."})
    '−€ 50'
    """
    cur = currency or {}
    digits = group(abs(amount), str(cur.get("group_separator", " ")))
    shown = str(cur.get("pattern", "{amount}")).replace("{amount}", digits)
    return MINUS + shown if amount < 0 else shown


def delta(amount: int, currency: Mapping[str, Any] | None) -> str:
    """A signed change without the symbol, for the balance animation: "+200", "−1 400".

    >>> delta(-1400, {"group_separator": " "})
    '−1 400'
    """
    digits = group(abs(amount), str((currency or {}).get("group_separator", " ")))
    return ("+" if amount >= 0 else MINUS) + digits
