"""The UNDO question for every command, by message id, in English (the source language).

companion.words.undo_questions picks one of these for the command an undo would take back (the
journal entry the session's `undo_target()` gives: its command and events) and fills it in;
the table screen asks it before undoing and the banker's phone before its Undo button acts,
each in its own language from the one catalog per language (companion/locale), which
`python -m companion.words.catalog update` extracts them into.
The ids are the gettext message contexts: "undo_<verb>" for a command, "undo_<verb>_<variant>"
where the words differ. Fields in braces are filled by companion.words.undo_questions: {player}
{payer} {payee} {giver} {receiver} names, {square} a square in the table's language,
{amount} money as the edition writes it, {dice} the dice ("3 + 4", "2 + 5 + bus").
"""

from __future__ import annotations

from companion.words.message import Message


def _t(msg_id: str, text: str) -> Message:
    """An undo question (marker for extraction: keyword `_t:1c,2`)."""
    return Message(msg_id, text)


_QUESTIONS: tuple[Message, ...] = (
    # when the command is not known (or its facts are missing)
    _t("undo_last", "Undo the last move?"),
    _t("undo_last_player", "Undo {player}'s last move?"),
    # TRANSLATORS: {dice} is the dice thrown, e.g. "3 + 4" or "2 + 5 + bus"
    _t("undo_roll", "Undo {player}'s roll ({dice})?"),
    # TRANSLATORS: the speed die's faces inside {dice} (Mega edition)
    _t("undo_face_bus", "bus"),
    _t("undo_face_mr_monopoly", "Mr. Monopoly"),
    _t("undo_buy", "Undo: {player} bought {square}?"),
    _t("undo_decline", "Undo: {player} declined {square}?"),
    # TRANSLATORS: the new owner of mortgaged deeds chose not to lift the mortgages now
    _t("undo_decline_kept_mortgages", "Undo: {player} kept the mortgages?"),
    _t("undo_bid", "Undo {player}'s bid of {amount}?"),
    _t("undo_pass", "Undo: {player} passed in the auction?"),
    _t("undo_close_auction_won", "Undo: {player} won {square} for {amount}?"),
    _t("undo_close_auction", "Undo the end of the auction?"),
    _t("undo_draw_chance", "Undo: {player} drew a Chance card?"),
    _t("undo_draw_community_chest", "Undo: {player} drew a Community Chest card?"),
    _t("undo_draw_bus_tickets", "Undo: {player} took a bus ticket?"),
    # TRANSLATORS: undoing end_turn; {player} is the player whose turn began
    _t("undo_end_turn", "Undo passing the dice to {player}?"),
    # TRANSLATORS: bank-only play: the token was moved by hand
    _t("undo_land", "Undo: {player} moved to {square}?"),
    _t("undo_pass_go", "Undo {player}'s GO salary of {amount}?"),
    _t("undo_pay", "Undo the payment of {amount} from {payer} to {payee}?"),
    _t("undo_pay_bank", "Undo {payer}'s payment of {amount} to the bank?"),
    _t("undo_pay_pot", "Undo {payer}'s payment of {amount} into the Free Parking pot?"),
    _t("undo_pay_from_bank", "Undo the bank's payment of {amount} to {payee}?"),
    _t("undo_build", "Undo: {player} built on {square} for {amount}?"),
    _t("undo_sell_building", "Undo: {player} sold buildings on {square} for {amount}?"),
    _t("undo_mortgage", "Undo: {player} mortgaged {square}?"),
    _t("undo_unmortgage", "Undo: {player} lifted the mortgage on {square}?"),
    _t("undo_pay_fine", "Undo: {player} paid the jail fine?"),
    _t("undo_use_card", "Undo: {player} used a Get Out of Jail Free card?"),
    _t("undo_trade", "Undo the trade between {giver} and {receiver}?"),
    _t("undo_bankrupt", "Undo {player}'s bankruptcy?"),
    _t("undo_auction_building_house", "Undo the auction of a house?"),
    _t("undo_auction_building_hotel", "Undo the auction of a hotel?"),
    _t("undo_auction_building_skyscraper", "Undo the auction of a skyscraper?"),
    _t("undo_claim_rent", "Undo: {player} claimed the rent?"),
    _t("undo_end_game", "Undo the end of the game?"),
    # TRANSLATORS: the banker had taken back every move after move number {seq} at once
    _t("undo_undo_to", "Undo going back to move #{seq}, and bring those moves back?"),
    _t("undo_new_game", "Undo the new game and bring back the previous one?"),
    _t("undo_use_bus_ticket", "Undo: {player} rode the bus to {square}?"),
    _t("undo_choose_square", "Undo: {player} went to {square}?"),
    _t("undo_choose_square_auction", "Undo: {player} put {square} up for auction?"),
    _t("undo_choose_gift_money", "Undo: {player} took {amount} as a birthday gift?"),
    _t("undo_choose_gift_bus_ticket", "Undo: {player} took a bus ticket as a birthday gift?"),
)
#: every undo question by message id
QUESTIONS: dict[str, Message] = {m.id: m for m in _QUESTIONS}
