"""The sentences only the table's voice says, in English (the source language), by message
id; the rest (whose turn, a card's text, an auction won) are the news and the move log's.

Amounts are spoken, not written: "{count} kronor" with the count in plain digits, the
currency word in the plural form the language wants for that count (Polish and Russian
have three), so the engine reads the number as a number of that language. Extracted into
the one catalog per language (companion/locale) like every other sentence.
"""

from __future__ import annotations

from companion.words.message import Message, _n, _t

_SPEECH: tuple[Message, ...] = (
    # TRANSLATORS: spoken aloud at the table: "Bram pays Anna 250 euros rent for Kalverstraat"
    _t("speech_pays_rent", "{payer} pays {payee} {amount} rent for {square}"),
    # TRANSLATORS: spoken aloud: one player pays another ("Bram pays Anna 50 euros")
    _t("speech_pays", "{payer} pays {payee} {amount}"),
    # TRANSLATORS: spoken aloud: a player pays the bank or the Free Parking pot
    _t("speech_pays_bank", "{payer} pays {amount} to the bank"),
    # TRANSLATORS: spoken aloud: the bank pays a player (salary, a card)
    _t("speech_bank_pays", "The bank pays {payee} {amount}"),
    # TRANSLATORS: spoken aloud: a bid in an auction
    _t("speech_bid", "{player} bids {amount}"),
    # TRANSLATORS: spoken aloud: an auction closed without any bid
    _t("speech_auction_no_bid", "The auction closes without a bid"),
    # TRANSLATORS: an amount spoken aloud in euros: the count is said as a number
    _n("speech_money_EUR", "{count} euro", "{count} euros", "count"),
    # TRANSLATORS: an amount spoken aloud in Swedish kronor
    _n("speech_money_SEK", "{count} krona", "{count} kronor", "count"),
    # TRANSLATORS: an amount spoken aloud in Polish złoty (three forms in Polish)
    _n("speech_money_PLN", "{count} zloty", "{count} zlotys", "count"),
    # TRANSLATORS: an amount spoken aloud in Swiss francs
    _n("speech_money_CHF", "{count} franc", "{count} francs", "count"),
)

#: every spoken-only message, by id
SPEECH: dict[str, Message] = {m.id: m for m in _SPEECH}
