"""The sentence of every refusal, by message id, in English (the source language).

companion.words.refusals picks one of these for a refusal's code and params and fills it in; the
table screen and the phones both say them (each in its own language, from the one catalog).
The ids are the gettext message contexts: "refusal_<code>" is the code's sentence without
facts, "refusal_<code>_<variant>" a sentence that names them. `python -m
companion.words.catalog update` extracts them into the one catalog per language (companion/locale).
Fields in braces are filled by companion.words.refusals: {player} a name, {square} a square in
the table's language, {needed} {cash} {minimum} {can} {owed} amounts in the edition's money.
"""

from __future__ import annotations

from companion.words.message import Message


def _t(msg_id: str, text: str) -> Message:
    """A refusal sentence (marker for extraction: keyword `_t:1c,2`)."""
    return Message(msg_id, text)


_SENTENCES: tuple[Message, ...] = (
    # --- the engine's codes (companion/rules/codes.py) ---
    _t("refusal_bad_command", "That command is not understood"),
    _t("refusal_unknown_player", "There is no such player in this game"),
    _t("refusal_unknown_square", "There is no such square on this board"),
    _t("refusal_unknown_card", "That card is not in the deck"),
    _t("refusal_game_over", "The game is over"),
    _t("refusal_game_over_player", "The game is over: {player} won"),
    _t("refusal_no_game", "No game has been started yet"),
    _t("refusal_not_your_turn", "It is not your turn to do that"),
    _t("refusal_not_your_turn_turn", "It is {player}'s turn"),
    # TRANSLATORS: a command for the decision on the table came from another player
    _t("refusal_not_your_turn_must", "{player} must do this"),
    _t("refusal_not_now", "That is not possible right now"),
    _t("refusal_decision_pending", "Answer the decision on the table first"),
    # TRANSLATORS: the decision_pending sentences name what the table waits for
    _t("refusal_decision_pending_buy", "First decide whether to buy the property"),
    _t("refusal_decision_pending_auction", "Finish the auction first"),
    _t("refusal_decision_pending_draw", "Draw the card first"),
    _t("refusal_decision_pending_debt", "Settle the debt first"),
    _t("refusal_decision_pending_roll_for_rent", "Roll the dice for the rent first"),
    _t("refusal_decision_pending_lift_mortgages",
       "First decide whether to lift the mortgages"),
    _t("refusal_decision_pending_building_auction", "Finish the building auction first"),
    _t("refusal_decision_pending_place_building", "Place the building won at auction first"),
    _t("refusal_decision_pending_choose_square", "Choose the square first"),
    _t("refusal_decision_pending_birthday_gift", "Choose the birthday gift first"),
    _t("refusal_decision_pending_mr_monopoly", "Mr. Monopoly moves on first"),
    _t("refusal_decision_pending_bus", "The bus ticket is taken first"),
    _t("refusal_must_roll", "Roll the dice first"),
    _t("refusal_must_roll_first", "{player} must roll the dice first"),
    _t("refusal_must_roll_again", "{player} threw doubles and must roll again"),
    _t("refusal_already_rolled", "The dice have been rolled already"),
    _t("refusal_already_rolled_player", "{player} has rolled already"),
    _t("refusal_bad_dice", "Those dice cannot be right: enter them again"),
    _t("refusal_insufficient_funds", "Not enough cash for that"),
    _t("refusal_insufficient_funds_buy",
       "{player} cannot afford {square}: {needed} needed, {cash} in hand"),
    _t("refusal_insufficient_funds_build",
       "{player} cannot afford to build on {square}: {needed} needed, {cash} in hand"),
    _t("refusal_insufficient_funds_depot",
       "{player} cannot afford a train depot on {square}: {needed} needed, {cash} in hand"),
    _t("refusal_insufficient_funds_unmortgage",
       "{player} cannot afford to lift the mortgage on {square}: {needed} needed, "
       "{cash} in hand"),
    _t("refusal_insufficient_funds_jail_fine",
       "{player} cannot afford the jail fine: {needed} needed, {cash} in hand"),
    _t("refusal_insufficient_funds_bid", "{player} cannot bid {needed}: only {cash} in hand"),
    _t("refusal_insufficient_funds_pay", "{player} has only {cash}: {needed} needed"),
    _t("refusal_not_owner", "That property belongs to someone else"),
    _t("refusal_not_ownable", "That square cannot be owned, built on or mortgaged"),
    _t("refusal_no_monopoly", "Building needs the whole colour group"),
    _t("refusal_no_monopoly_square", "Building on {square} needs the whole colour group"),
    _t("refusal_group_mortgaged", "A property of that group is mortgaged"),
    _t("refusal_group_mortgaged_square", "A property in the group of {square} is mortgaged"),
    _t("refusal_uneven", "Build and sell evenly across the group"),
    _t("refusal_uneven_square",
       "Build evenly: the other lots in the group of {square} need a building first"),
    _t("refusal_max_buildings", "That lot cannot take or give up another building"),
    _t("refusal_housing_shortage", "The bank has no such building left"),
    _t("refusal_has_buildings", "Sell the buildings of the group first"),
    _t("refusal_already_mortgaged", "That property is mortgaged already"),
    _t("refusal_not_mortgaged", "That property is not mortgaged"),
    _t("refusal_bid_too_low", "A bid must beat the highest bid"),
    _t("refusal_bid_too_low_minimum", "A bid must be at least {minimum}"),
    _t("refusal_already_passed", "That bidder has left this auction"),
    _t("refusal_not_in_jail", "Only a player in jail can do that"),
    _t("refusal_no_jail_card", "No Get Out of Jail Free card to use"),
    _t("refusal_not_in_debt", "Bankruptcy is declared only on a debt that is due"),
    _t("refusal_can_still_pay",
       "Selling buildings and mortgaging would still cover the debt"),
    _t("refusal_can_still_pay_player",
       "{player} can still raise {can} by selling buildings and mortgaging, enough for the "
       "{owed} owed"),
    _t("refusal_same_player", "That needs two different players"),
    _t("refusal_bankrupt_player", "That player is out of the game"),
    _t("refusal_bad_option", "Unknown house rule, or a value it cannot take"),
    _t("refusal_bad_edition", "Unknown edition"),
    _t("refusal_bad_players", "Too few or too many players, or two with the same name"),
    _t("refusal_bad_name", "A player's name must be 1 to 24 letters, digits or signs, without "
       "control characters"),
    _t("refusal_no_bus_ticket", "No bus ticket to use now"),
    _t("refusal_unreachable", "That square cannot be reached that way"),
    _t("refusal_mr_monopoly_turn", "Wait until the Mr. Monopoly turn is over"),
    # TRANSLATORS: a game where the companion rolls: it moves the tokens and pays at GO
    _t("refusal_device_moves", "The companion moves the tokens and pays the salary at GO "
       "itself: only the banker can correct a move"),
    # TRANSLATORS: bank-only play: one square told per roll, doubles give another
    _t("refusal_already_moved", "This roll's move was told already: doubles give another "
       "move (enter the dice with the square)"),
    _t("refusal_already_moved_player", "{player} has moved this turn already: doubles give "
       "another move (enter the dice with the square)"),
    _t("refusal_not_past_go", "That move does not pass GO"),
    # TRANSLATORS: {start} and {square} are squares of the board
    _t("refusal_not_past_go_square", "A move from {start} to {square} does not pass GO"),
    _t("refusal_salary_paid", "The salary for this move was paid already"),
    _t("refusal_salary_paid_player", "{player} has had the salary for this move: tell the "
       "square the token reached"),
    _t("refusal_in_jail", "Leave jail first: pay the fine, use a card or roll the dice"),
    _t("refusal_in_jail_player", "{player} is in jail: pay the fine, use a card or roll "
       "(doubles move the token out)"),
    # --- the game session's codes (companion/game/session.py) ---
    _t("refusal_stale_version", "The table has changed: look again"),
    _t("refusal_nothing_to_undo", "Nothing to undo"),
    _t("refusal_nothing_to_redo", "Nothing to redo"),
    # TRANSLATORS: the banker's "undo to here"; {seq} is the number of the move picked
    _t("refusal_last_move", "That is the last move: there is nothing after it to take back"),
    _t("refusal_last_move_seq",
       "Move #{seq} is the last move: there is nothing after it to take back"),
    _t("refusal_not_in_line", "That move is not in play now"),
    _t("refusal_not_in_line_seq", "Move #{seq} is not in play now: it was taken back"),
    _t("refusal_before_game_start", "That move was before this game began"),
    _t("refusal_before_game_start_seq",
       "Move #{seq} was before this game began: start a new game instead"),
    _t("refusal_not_allowed", "Only the banker or whoever sent it can undo that"),
    # TRANSLATORS: the table chose at setup whether it rolls its own dice / uses its own deck
    _t("refusal_device_dice", "This table rolls with the companion: entering dice is only for "
       "a table that chose its own dice at setup"),
    _t("refusal_device_cards", "This table draws the cards on the companion: naming a card is "
       "only for a table that chose its own deck at setup"),
    # TRANSLATORS: a result seen is a result kept: an undo that would let a player try again
    _t("refusal_result_kept", "A result seen is kept: only the banker can undo the "
       "companion's dice or a card drawn"),
    _t("refusal_result_kept_player", "{player} received money in that move: only the banker "
       "or {player} can undo it"),
    _t("refusal_storage_error", "The game could not be saved: nothing changed"),
    _t("refusal_session_closed", "The game session is closed"),
    _t("refusal_internal_error", "Something went wrong inside the companion: nothing changed"),
    # --- the phone remote's own codes (web_remote) ---
    _t("refusal_rate_limited", "Too many requests: wait a moment"),
    _t("refusal_bad_origin", "This request did not come from the remote's pages"),
    _t("refusal_bad_csrf", "The page is out of date: reload it and try again"),
    _t("refusal_not_found", "There is no such page"),
    _t("refusal_bad_method", "That is not allowed here"),
    _t("refusal_too_large", "That request is too large"),
    _t("refusal_not_joined", "Scan the code on the table to join"),
    _t("refusal_bad_join", "This join link was used or has expired: scan the code again"),
    _t("refusal_bad_json", "The request must be a JSON object"),
    _t("refusal_bad_version", "Say which version of the table you saw"),
    _t("refusal_bad_request", "That request is not understood"),
    # (bad_amount is also the table's own amount entry: companion/inputs)
    _t("refusal_bad_amount", "Enter a whole amount within range"),
    _t("refusal_banker_only", "Only the banker can do that"),
    _t("refusal_spectator", "Spectators watch: they cannot play"),
    _t("refusal_not_a_player", "You are not a player of this game"),
    _t("refusal_empty_trade", "A trade must exchange something"),
    _t("refusal_too_many", "You have too many open proposals"),
    _t("refusal_no_proposal", "That proposal is no longer open"),
    _t("refusal_no_offer", "Only an open offer can be accepted: this trade was not offered"),
    _t("refusal_not_yours", "You can only answer your own trades"),
    _t("refusal_bad_pin", "Choose a PIN of 4 to 12 digits"),
    _t("refusal_no_tags", "No RFID reader is connected to this companion"),
    _t("refusal_no_games", "Saved games are not available here"),
    _t("refusal_no_such_game", "There is no such saved game"),
    _t("refusal_bad_game", "That saved game is damaged"),
    _t("refusal_cannot_resume", "That saved game cannot be opened"),
    # any other refusal (a code this version does not know, and no message with it)
    _t("refusal_refused", "Refused"),
)
#: every refusal sentence by message id
SENTENCES: dict[str, Message] = {m.id: m for m in _SENTENCES}
