"""The words of the recent-moves lines, shared by the table screen and the phone remote.

companion.words.move_words says an engine event in one of these lines ("Ann → Bank € 200",
"Ann bought Rue Lecourbe"): the table screen's "Last moves" panel shows them
(companion.screen.log_lines) and the phone remote's Table page adds them under each move of
its "Latest" list. `python -m companion.words.catalog update` extracts them into the one
catalog per language (companion/locale) that both read. The ids are the gettext
message contexts. Fields in braces: {player} {payer} {payee} names, {square} a square in the
table's language, {amount} money as the edition writes it, {building} one of the
building_* words.
"""

from __future__ import annotations

from companion.words.message import Message, _t

_LINES: tuple[Message, ...] = (
    # TRANSLATORS: the bank as a payer or payee in "{payer} → {payee} {amount}"
    _t("log_bank", "Bank"),
    # TRANSLATORS: the Free Parking pot as a payer or payee (a house rule)
    _t("log_pot", "Pot"),
    _t("log_transfer", "{payer} → {payee} {amount}"),
    # TRANSLATORS: a payment of rent, as "{payer} → {payee} {amount}" says any payment
    _t("log_rent", "{payer} → {payee} {amount} rent"),
    _t("log_bought", "{player} bought {square}"),
    _t("log_jailed", "{player} went to jail"),
    _t("log_bankrupt", "{player} went bankrupt"),
    _t("log_auction_won", "{player} won {square} for {amount}"),
    _t("log_triple", "{player} rolled a triple"),
    _t("log_mr_monopoly", "{player}: Mr. Monopoly"),
    _t("log_mr_monopoly_stays", "Mr. Monopoly stays: {player}"),
    _t("log_bus_ticket", "{player} took a bus ticket"),
    _t("log_no_bus_ticket", "No bus ticket left for {player}"),
    _t("log_bus_ticket_used", "{player} rode the bus to {square}"),
    _t("log_tickets_expired", "All other bus tickets expired"),
    _t("log_chose_square", "{player} went to {square}"),
    _t("log_chose_auction", "{player} put {square} up for auction"),
    _t("log_auction_square_stays", "{player} stays: no rent to pay"),
    _t("log_built", "{player} built on {square}: {building}"),
    _t("log_sold_building", "{player} sold on {square}: {building}"),
    _t("log_rebalanced", "{player} evened out a group"),
    _t("building_house", "house"),
    _t("building_hotel", "hotel"),
    _t("building_skyscraper", "skyscraper"),
    _t("building_depot", "train depot"),
)
#: every recent-moves word by message id
LINES: dict[str, Message] = {m.id: m for m in _LINES}
