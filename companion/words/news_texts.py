"""The news the table tells each person, in English (the source language), by message id:
what just happened to them ("You paid Ann € 8 rent"), whose turn it is, doubles, jail, the
card drawn and by whom.

companion.words.news says these from the typed events of the journal (the phones' Me and
Table pages, the table screen's card). They are extracted into the one catalog per language
(companion/locale) that the screen and the phones read. The phrasings need no grammatical
case of a name: in Russian and Polish a name stays in the nominative ("Ходит: Аня"). Fields
in braces: {player} {payer} {payee} names, {amount} money as the edition writes it, {square}
a square, {card} a card's text, {deck} a deck's name.
"""

from __future__ import annotations

from companion.words.message import Message, _t

_NEWS: tuple[Message, ...] = (
    # TRANSLATORS: the headline of every phone: whose turn it is ("Now playing: Ann")
    _t("news_turn", "Now playing: {player}"),
    _t("news_your_turn", "Your turn"),
    _t("news_roll_again", "Doubles: {player} rolls again"),
    _t("news_your_roll_again", "Doubles: roll again"),
    _t("news_in_jail", "In jail: {player}"),
    _t("news_you_in_jail", "You are in jail"),
    _t("news_you_jailed", "You went to jail"),
    _t("news_game_over", "Game over: {player} wins"),
    # TRANSLATORS: the card drawn, above its text: "Cleo drew Chance"
    _t("news_card", "{player} drew {deck}"),
    _t("news_you_paid", "You paid {payee} {amount}"),
    _t("news_you_paid_rent", "You paid {payee} {amount} rent"),
    _t("news_paid_you", "{payer} paid you {amount}"),
    _t("news_paid_you_rent", "{payer} paid you {amount} rent"),
    _t("news_you_paid_bank", "You paid the bank {amount}"),
    _t("news_bank_paid_you", "The bank paid you {amount}"),
    _t("news_you_paid_pot", "You paid {amount} into the pot"),
    _t("news_pot_paid_you", "You took {amount} from the pot"),
    _t("news_you_won", "You won {square} at auction for {amount}"),
    _t("news_you_won_building", "You won a building at auction for {amount}"),
)
#: every news sentence by message id
NEWS: dict[str, Message] = {m.id: m for m in _NEWS}
