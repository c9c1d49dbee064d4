"""A message of the table's words: its id (the gettext message context), English text and,
for a counted message, the plural and the field holding the count.

The markers `_t` and `_n` make the messages Babel extracts (keywords `_t:1c,2` and
`_n:1c,2,3`); companion.screen.texts and the message lists the screen and the phones share
(log_texts, refusal_texts, undo_texts, move_texts, news_texts, ...) are written with them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Message:
    """One screen message: its id, English text, and for a counted message the plural and
    the name of the field that holds the count."""

    id: str
    text: str
    plural: str | None = None
    count: str | None = None


def _t(msg_id: str, text: str) -> Message:
    """A message (marker for extraction: keyword `_t:1c,2`)."""
    return Message(msg_id, text)


def _n(msg_id: str, singular: str, plural: str, count: str) -> Message:
    """A counted message whose form depends on the field `count` (keyword `_n:1c,2,3`)."""
    return Message(msg_id, singular, plural, count)
