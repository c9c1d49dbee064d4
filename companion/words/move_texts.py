"""What each move did, in English (the source language), by message id: the sentences of the
phone remote's list of the latest moves.

companion.words.move_words picks one of these for a journal entry (its command, with the
facts companion.words.move_facts reads from its events) and fills it in, in the phone's
language from the one catalog per language (companion/locale, docs/phone-remote.md
"Languages"). The ids are the gettext message contexts: "move_<verb>" for a command,
"move_<verb>_<variant>" where the words differ (a test fails when a verb of the engine has
none); "move_line_*" are the lines said under a move about what else happened, beside the
table screen's own (companion/words/log_texts.py). Fields in braces: {player} {payer}
{payee} {giver} {receiver} {creditor} names, {square} a square in the phone's language,
{amount} money as the edition writes it, {dice} the dice ("3 + 4", "2 + 5 + bus"), {card} a
card's text, {edition} the edition's name, {players} the players' names, {what} what one
side of a trade gave, {move} a whole sentence, {count} how many.
"""

from __future__ import annotations

from companion.words.message import Message, _n, _t

_MOVES: tuple[Message, ...] = (
    # when the command is not known (or its facts are missing)
    _t("move_last", "A move at the table"),
    _t("move_last_player", "{player} made a move"),
    # TRANSLATORS: {players} is a list of names ("Ann, Bo, Cy")
    _t("move_new_game", "New game of {edition}: {players}"),
    _t("move_roll", "{player} rolled {dice}"),
    # TRANSLATORS: the banker took back every move after move number {seq} in one step
    _t("move_undo_to", "Back to move #{seq}"),
    _t("move_roll_moved", "{player} rolled {dice} and moved to {square}"),
    _t("move_buy", "{player} bought {square} for {amount}"),
    _t("move_decline", "{player} did not buy {square}"),
    # TRANSLATORS: the new owner of mortgaged deeds chose not to lift the mortgages now
    _t("move_decline_kept_mortgages", "{player} kept the mortgages"),
    _t("move_bid", "{player} bid {amount}"),
    _t("move_pass", "{player} passed in the auction"),
    _t("move_close_auction_won", "{player} won {square} at auction for {amount}"),
    _t("move_close_auction_won_house", "{player} won a house at auction for {amount}"),
    _t("move_close_auction_won_hotel", "{player} won a hotel at auction for {amount}"),
    _t("move_close_auction_won_skyscraper",
       "{player} won a skyscraper at auction for {amount}"),
    _t("move_close_auction", "The auction ended without a bid"),
    _t("move_draw_chance", "{player} drew a Chance card"),
    _t("move_draw_community_chest", "{player} drew a Community Chest card"),
    _t("move_draw_bus_tickets", "{player} took a bus ticket"),
    # TRANSLATORS: end_turn; {player} is the player whose turn begins
    _t("move_end_turn", "{player}'s turn"),
    # TRANSLATORS: bank-only play: the token was moved by hand
    _t("move_land", "{player} moved to {square}"),
    _t("move_pass_go", "{player} passed GO and collected {amount}"),
    _t("move_pay", "{payer} paid {amount} to {payee}"),
    _t("move_pay_bank", "{payer} paid {amount} to the bank"),
    _t("move_pay_pot", "{payer} paid {amount} into the Free Parking pot"),
    _t("move_pay_from_bank", "The bank paid {amount} to {payee}"),
    _t("move_build_house", "{player} built a house on {square} for {amount}"),
    _n("move_build_houses", "{player} built {count} house on {square} for {amount}",
       "{player} built {count} houses on {square} for {amount}", "count"),
    _t("move_build_hotel", "{player} built a hotel on {square} for {amount}"),
    _t("move_build_skyscraper", "{player} built a skyscraper on {square} for {amount}"),
    _t("move_build_depot", "{player} built a train depot on {square} for {amount}"),
    _t("move_sell_building", "{player} sold a building on {square} for {amount}"),
    _n("move_sell_buildings", "{player} sold {count} building on {square} for {amount}",
       "{player} sold {count} buildings on {square} for {amount}", "count"),
    _t("move_mortgage", "{player} mortgaged {square} for {amount}"),
    _t("move_unmortgage", "{player} lifted the mortgage on {square} for {amount}"),
    _t("move_pay_fine", "{player} paid {amount} to leave jail"),
    _t("move_use_card", "{player} used a Get Out of Jail Free card"),
    _t("move_trade", "{giver} and {receiver} traded"),
    _t("move_bankrupt", "{player} declared bankruptcy"),
    _t("move_auction_building_house", "The bank put a house up for auction"),
    _t("move_auction_building_hotel", "The bank put a hotel up for auction"),
    _t("move_auction_building_skyscraper", "The bank put a skyscraper up for auction"),
    _t("move_claim_rent", "{player} claimed the rent"),
    _t("move_end_game", "The game was ended and counted"),
    _t("move_use_bus_ticket", "{player} rode the bus to {square}"),
    _t("move_choose_square", "{player} went to {square}"),
    _t("move_choose_square_auction", "{player} put {square} up for auction"),
    _t("move_choose_gift_money", "{player} took {amount} as a birthday gift"),
    _t("move_choose_gift_bus_ticket", "{player} took a bus ticket as a birthday gift"),
    # an undo or redo of the move in {move}
    _t("move_undone", "Taken back: {move}"),
    _t("move_redone", "Done again: {move}"),
    # TRANSLATORS: the banker's correction of a move (a token put on a square, a salary)
    _t("move_correction", "Correction: {move}"),
    # TRANSLATORS: the banker's phone (or card) made the move for the player it names
    _t("move_by_banker", "{move} (by the banker)"),
    # what else happened, said under the move
    # TRANSLATORS: a card's text as drawn, in quotation marks
    _t("move_line_card", "“{card}”"),
    _t("move_line_winner", "{player} wins the game"),
    _t("move_line_auction_started", "{square} goes up for auction"),
    _t("move_line_left_jail", "{player} is out of jail"),
    _t("move_line_debt", "{player} owes {amount} to {creditor}"),
    _t("move_line_debt_bank", "{player} owes {amount} to the bank"),
    _t("move_line_three_doubles", "{player} rolled three doubles"),
    _t("move_line_deeds", "{giver}'s deeds went to {receiver}"),
    # TRANSLATORS: one side of a trade: "Ann → Bo: € 100, Rue Lecourbe, 1 jail card"
    _t("move_line_trade", "{giver} → {receiver}: {what}"),
    _n("move_line_jail_cards", "{count} Get Out of Jail Free card",
       "{count} Get Out of Jail Free cards", "count"),
)
#: every move sentence and line by message id
MOVES: dict[str, Message] = {m.id: m for m in _MOVES}
