"""Every word the table screen shows, by message id, so a catalog can replace them later.

The screen never writes English inline: it asks `text(msg_id, **fields)`. A later i18n
change swaps `CATALOG` for a gettext catalog of the configured language.
"""

from __future__ import annotations

ENGLISH: dict[str, str] = {
    # header and panels
    "turn": "Turn {number}",
    "whose_turn": "{player} to play",
    "dice": "Dice",
    "clock": "{time} left",
    "clock_over": "Time is up",
    "bank": "Bank",
    "houses_left": "Houses {houses} · Hotels {hotels}",
    "log_title": "Last moves",
    "log_empty": "Nothing yet",
    "remote_title": "Phones",
    "remote_off": "Phone remote off",
    "in_jail": "in jail ({turns}/3)",
    "jail_cards": "{count}× jail card",
    "bankrupt": "bankrupt",
    "net_worth": "worth {amount}",
    "bidding": "bidding",
    "passed": "passed",
    # buttons (the panel's and the screen's)
    "btn_roll": "ROLL",
    "btn_yes": "YES",
    "btn_no": "NO",
    "btn_pass_go": "PASS GO",
    "btn_undo": "UNDO",
    "btn_menu": "MENU",
    "act_roll": "Roll",
    "act_buy": "Buy",
    "act_decline": "No",
    "act_end_turn": "End turn",
    "act_draw": "Draw",
    "act_bid": "Bid {amount}",
    "act_pass": "Pass",
    "act_sold": "Sold!",
    "act_next_bidder": "Next bidder",
    "act_pay_fine": "Pay {amount}",
    "act_use_card": "Use card",
    "act_mortgage": "Mortgage",
    "act_unmortgage": "Lift mortgage",
    "act_sell": "Sell building",
    "act_build": "Build",
    "act_bankrupt": "Bankrupt",
    "act_pass_go": "Pass GO",
    "act_keep": "Keep",
    "act_accept": "Accept",
    "act_reject": "Reject",
    "act_undo": "Undo",
    "act_menu": "Menu",
    "act_close": "Close",
    "act_choose": "Choose",
    "act_next": "Next",
    "act_back": "Back",
    "act_start": "Deal & start",
    "act_change": "Change",
    "act_help": "Help",
    # prompts: the decision the device waits for
    "prompt_roll": "{player}: roll the dice",
    "prompt_roll_again": "{player}: doubles, roll again",
    "prompt_end_turn": "{player}: end your turn when ready",
    "prompt_buy": "{player}: buy {square} for {price}?",
    "prompt_auction": "Auction: {square}",
    "prompt_auction_bid": "Highest {amount} by {bidder}",
    "prompt_auction_none": "No bid yet",
    "prompt_auction_focus": "{player} bids next",
    "prompt_auction_time": "{seconds} s left",
    "prompt_auction_queue": "{count} more to auction",
    "prompt_draw": "{player}: draw a {deck} card",
    "prompt_debt": "{player} owes {amount} to {creditor}",
    "prompt_debt_help": "Mortgage or sell to raise the money, or go bankrupt",
    "prompt_roll_for_rent": "{player}: roll for the rent of {square} ({multiplier}× the dice)",
    "prompt_lift": "{player}: lift the mortgages now?",
    "prompt_building_auction": "Auction of one {building}",
    "prompt_place_building": "{player}: place the {building}",
    "prompt_jail": "{player} is in jail: pay {fine}, use a card or roll doubles",
    "prompt_trade": "{sender} offers {receiver} a trade",
    "prompt_trade_gives": "{player} gives {items}",
    "prompt_nothing": "Nothing",
    "prompt_game_over": "Game over",
    "prompt_winner": "{player} wins!",
    "prompt_dice_entry": "Dice entered: {dice}",
    "deck_chance": "Chance",
    "deck_community_chest": "Community Chest",
    "building_house": "house",
    "building_hotel": "hotel",
    "creditor_bank": "the bank",
    "jail_card": "jail card",
    # refusals and notices
    "refused": "Refused: {message}",
    "cannot_afford": "{player} cannot afford {square}: {price} needed, {cash} in hand",
    "no_session": "No game session: start one with `companion run`",
    "undone": "Undone",
    "nothing_to_undo": "Nothing to undo",
    "bankrupt_banner": "{player} is bankrupt",
    "remote_joined": "Phone remote: {url}",
    # game over
    "standings": "Standings",
    "place": "{place}.",
    "chart_title": "Net worth over the game",
    # menu, settings and help
    "menu_title": "Menu",
    "menu_build": "Build houses",
    "menu_sell": "Sell buildings",
    "menu_mortgage": "Mortgage",
    "menu_unmortgage": "Lift a mortgage",
    "menu_settings": "Sound",
    "menu_help": "Keys and buttons",
    "menu_close": "Close menu",
    "settings_volume": "Volume {volume} %",
    "settings_mute": "Mute",
    "settings_unmute": "Sound on",
    "settings_louder": "Louder",
    "settings_quieter": "Quieter",
    "choose_title": "{action}: choose a square",
    "help_title": "Keys and buttons",
    "help_roll": "R  ROLL: roll the dice / next player",
    "help_yes": "Y  YES: answer yes (buy, bid, draw)",
    "help_no": "N  NO: answer no (decline, pass)",
    "help_pass_go": "G  PASS GO: pay the salary",
    "help_undo": "U  UNDO: undo the last move",
    "help_menu": "M  MENU: build, mortgage, sound",
    "help_digits": "1–6  enter the physical dice",
    "help_help": "H  this help · Esc close",
    "help_touch": "On the touchscreen, tap the buttons at the bottom.",
    # setup
    "setup_title": "New game",
    "setup_resume": "Resume the saved game",
    "setup_edition": "Edition",
    "setup_players": "Players",
    "setup_player": "Player {number}",
    "setup_add_player": "Add a player",
    "setup_remove_player": "Remove the last player",
    "setup_rules": "House rules",
    "setup_pin": "Banker PIN",
    "setup_pin_unset": "none",
    "setup_on": "on",
    "setup_off": "off",
    "setup_names_problem": "Every player needs a name of their own",
    "token_car": "car",
    "token_hat": "hat",
    "token_dog": "dog",
    "token_ship": "ship",
    "token_boot": "boot",
    "token_iron": "iron",
    "token_thimble": "thimble",
    "token_cat": "cat",
    "setup_hint": "ROLL next line · YES change · NO back · type names on a keyboard",
    "rule_free_parking_pot": "Free Parking pot",
    "rule_double_salary_on_go": "Double salary on GO",
    "rule_auctions": "Auctions",
    "rule_no_rent_in_jail": "No rent while in jail",
    "rule_short_game": "Short game (hotel after 3 houses)",
    "rule_bank_only": "Bank only (no token tracking)",
    # log lines
    "log_transfer": "{payer} → {payee} {amount}",
    "log_bought": "{player} bought {square}",
    "log_rolled": "{player} rolled {dice}",
    "log_jailed": "{player} went to jail",
    "log_bankrupt": "{player} went bankrupt",
    "log_auction_won": "{player} won {square} for {amount}",
}

CATALOG: dict[str, str] = dict(ENGLISH)


def text(msg_id: str, **fields: object) -> str:
    """The current catalog's message `msg_id` with `fields` filled in.

    >>> text("prompt_buy", player="Bo", square="Götgatan", price="Kr 2 400")
    'Bo: buy Götgatan for Kr 2 400?'
    """
    template = CATALOG.get(msg_id) or ENGLISH[msg_id]
    return template.format(**fields) if fields else template


def use_catalog(catalog: dict[str, str]) -> None:
    """Switch language: ids missing from `catalog` fall back to English."""
    CATALOG.clear()
    CATALOG.update(ENGLISH)
    CATALOG.update(catalog)
