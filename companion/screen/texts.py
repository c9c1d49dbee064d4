"""Every word the table screen shows, by message id, in the table's language.

The screen never writes words inline: it asks `text(msg_id, **fields)`, which looks the
message up in the gettext catalog of the screen's language (`use_language`; the controller
picks the setup's choice, else the edition's language). The messages below are the English
source texts; `python -m companion.words.catalog update` extracts them (the markers `_t` and `_n`,
with the id as the message context) into companion/locale/companion.pot.
"""

from __future__ import annotations

from companion.words import catalog as i18n
from companion.words.explaining.lesson_texts import LESSONS
from companion.words.explaining.why_texts import WHY
from companion.words.input_texts import REGISTRATION, WARNINGS
from companion.words.log_texts import LINES
from companion.words.message import Message, _n, _t

_MESSAGES: tuple[Message, ...] = (
    # header and panels
    _t("turn", "Turn {number}"),
    _t("whose_turn", "{player} to play"),
    _t("dice", "Dice"),
    _t("clock", "{time} left"),
    _t("clock_over", "Time is up"),
    _t("bank", "Bank"),
    _t("houses_left", "Houses {houses} · Hotels {hotels}"),
    _t("log_title", "Last moves"),
    _t("log_empty", "Nothing yet"),
    _t("remote_title", "Phones"),
    _t("remote_off", "Phone remote off"),
    # the table's own Wi-Fi (companion/screen/views/wifi.py), before the phone remote's code
    _t("wifi_title", "Scan to join the table's Wi-Fi"),
    _t("wifi_short", "The table's Wi-Fi"),
    _t("wifi_network", "Wi-Fi: {ssid}"),
    _t("wifi_password", "Password: {passphrase}"),
    _t("wifi_password_label", "Password"),
    _t("in_jail", "in jail ({turns}/3)"),
    _n("jail_cards", "{count} jail card", "{count} jail cards", "count"),
    _t("bankrupt", "bankrupt"),
    _n("bus_tickets", "{count} bus ticket", "{count} bus tickets", "count"),
    _t("bank_mega", "Skyscrapers {skyscrapers} · Depots {depots}"),
    _t("bank_tickets", "Bus tickets left: {count}"),
    # TRANSLATORS: the speed die's faces (Mega edition)
    _t("speed_bus", "bus"),
    _t("speed_mr_monopoly", "Mr. Monopoly"),
    _t("net_worth", "worth {amount}"),
    _t("bidding", "bidding"),
    _t("passed", "passed"),
    # buttons (the panel's and the screen's)
    _t("btn_roll", "ROLL"),
    _t("btn_yes", "YES"),
    _t("btn_no", "NO"),
    _t("btn_pass_go", "PASS GO"),
    _t("btn_undo", "UNDO"),
    _t("btn_menu", "MENU"),
    _t("act_roll", "Roll"),
    _t("act_buy", "Buy"),
    _t("act_decline", "No"),
    _t("act_end_turn", "End turn"),
    _t("act_draw", "Draw"),
    _t("act_bid", "Bid {amount}"),
    _t("act_pass", "Pass"),
    _t("act_sold", "Sold!"),
    _t("act_pay_fine", "Pay {amount}"),
    _t("act_use_card", "Use card"),
    _t("act_mortgage", "Mortgage"),
    _t("act_unmortgage", "Lift mortgage"),
    _t("act_sell", "Sell building"),
    _t("act_build", "Build"),
    _t("act_bankrupt", "Bankrupt"),
    _t("act_pass_go", "Pass GO"),
    # TRANSLATORS: the PASS GO key where the companion moves the tokens (a short label)
    _t("act_go_by_device", "GO: automatic"),
    _t("go_by_device", "The companion moves the tokens and pays the salary at GO itself"),
    _t("act_keep", "Keep"),
    _t("act_undo", "Undo"),
    _t("act_menu", "Menu"),
    _t("act_close", "Close"),
    _t("act_choose", "Choose"),
    _t("act_next", "Next"),
    _t("act_back", "Back"),
    _t("act_start", "Deal & start"),
    _t("act_change", "Change"),
    _t("act_help", "Help"),
    _t("act_previous", "Previous"),
    _t("act_cancel", "Cancel"),
    _t("act_take", "Take"),
    # TRANSLATORS: {face} is a die face: a number, "bus" or "Mr. Monopoly"
    _t("act_take_face", "Take {face}"),
    # TRANSLATORS: NO while the physical dice are typed: the last die typed goes; {face} is
    # that die's face (a number, "bus" or "Mr. Monopoly")
    _t("act_clear_face", "Clear the {face}"),
    _t("act_take_money", "Take {amount}"),
    _t("act_bus_ticket", "Bus ticket"),
    _t("act_ride", "Ride"),
    _t("act_go_there", "Go there"),
    _t("act_auction_it", "Auction it"),
    # prompts: the decision the device waits for
    _t("prompt_roll", "{player}: roll the dice"),
    _t("prompt_roll_again", "{player}: doubles, roll again"),
    _t("prompt_end_turn", "{player}: end your turn when ready"),
    _t("prompt_buy", "{player}: buy {square} for {price}?"),
    _t("prompt_auction", "Auction: {square}"),
    _t("prompt_auction_bid", "Highest {amount} by {bidder}"),
    _t("prompt_auction_none", "No bid yet"),
    _n("prompt_auction_time", "{seconds} second left", "{seconds} seconds left", "seconds"),
    _n("prompt_auction_queue", "{count} more square to auction",
       "{count} more squares to auction", "count"),
    _t("prompt_draw", "{player}: draw a {deck} card"),
    _t("prompt_debt", "{player} owes {amount} to {creditor}"),
    _t("prompt_debt_help", "Mortgage or sell to raise the money, or go bankrupt"),
    _t("prompt_roll_for_rent", "{player}: roll for the rent of {square} ({multiplier}× the dice)"),
    #: a fresh roll for a utility's own rent (the house rule): its multiplier is the deed's
    _t("prompt_roll_for_rent_own", "{player}: roll for the rent of {square}"),
    _t("prompt_lift", "{player}: lift the mortgages now?"),
    _t("prompt_building_auction", "Auction of one {building}"),
    _t("prompt_place_building", "{player}: place the {building}"),
    _t("prompt_jail", "{player} is in jail: pay {fine}, use a card or roll doubles"),
    # TRANSLATORS: in jail with no fine to pay now (the rules allow it before the first
    # rolls only, or the money is short): a card or doubles
    _t("prompt_jail_roll", "{player} is in jail: use a card or roll doubles"),
    _t("prompt_jailed", "{player} goes to jail: the turn ends"),
    _t("prompt_trade", "{sender} offers {receiver} a trade"),
    _t("prompt_trade_gives", "{player} gives {items}"),
    # decisions that belong to someone other than the current player: the shared buttons
    # never take them (companion.screen.views.waiting); "tap your card": their bank card
    _t("waiting_trade", "Waiting for {player}: accept on your phone or tap your card"),
    # TRANSLATORS: {players} is one name or several joined by ", ".
    _t("waiting_debt", "Waiting for {player}: raise the money on your phone or tap your card"),
    _t("card_holds", "{player}'s card: the buttons answer for {player} now"),
    _t("waiting_bid", "Waiting for {players}: bid or pass on your phone or tap your card"),
    _t("prompt_nothing", "Nothing"),
    _t("prompt_game_over", "Game over"),
    _t("prompt_winner", "{player} wins!"),
    _t("prompt_dice_entry", "Dice entered: {dice}"),
    _t("prompt_speed_dice", "Three dice: two white ones and the speed die"),
    _t("prompt_speed_next", "speed die: 1–3, B bus, M Mr. Monopoly"),
    _t("prompt_dial", "{player}: turn the dial to each die"),
    _t("prompt_undo_help", "YES undoes it, NO keeps it"),
    _t("prompt_triple", "{player}: triple! Go to {square}?"),
    _t("prompt_auction_square", "{player}: the bank auctions {square}?"),
    _t("prompt_bus_ride", "{player}: ride the bus to {square}?"),
    _t("prompt_pick_help", "NO next square · PASS GO previous · or tap the board"),
    _t("prompt_take_ticket", "{player}: take a bus ticket"),
    _t("prompt_birthday", "{player}: birthday gift! {amount} or a bus ticket?"),
    _t("then_mr_monopoly", "Then Mr. Monopoly moves on"),
    _t("then_bus", "Then a bus ticket"),
    _t("mr_monopoly_turn", "Mr. Monopoly turn: nobody else builds or trades"),
    _t("deck_chance", "Chance"),
    _t("deck_community_chest", "Community Chest"),
    _t("creditor_bank", "the bank"),
    # refusals and notices
    _t("refused", "Refused: {message}"),
    # TRANSLATORS: shown on the table screen when a phone typed a wrong banker PIN
    _t("pin_title", "Banker PIN"),
    _t("pin_help", "Type it, or turn the knob to a digit and press YES; ROLL checks it"),
    _t("pin_add", "Add {digit}"),
    _t("pin_next", "Next digit"),
    _t("pin_check", "Check PIN"),
    _t("pin_short", "A banker PIN has 4 to 12 digits"),
    _t("cannot_afford", "{player} cannot afford {square}: {price} needed, {cash} in hand"),
    _t("no_session", "No game session"),
    _t("nothing_for_button", "{button} does nothing now"),
    _t("choose_none", "Nothing to choose"),
    _t("undone", "Undone"),
    _t("nothing_to_undo", "Nothing to undo"),
    _t("bankrupt_banner", "{player} is bankrupt"),
    _t("remote_joined", "Phone remote: {url}"),
    # TRANSLATORS: a banner on the table screen when a phone joined the table
    _t("phone_joined", "A phone joined"),
    _t("remote_not_running", "Phones: start companion run"),
    # game over
    _t("standings", "Standings"),
    _t("place", "{place}."),
    _t("chart_title", "Net worth over the game"),
    # the game's story at game over (companion.game.telling.story); {time} is hours:minutes
    _t("story_time", "Time played {time} · Turns: {turns}"),
    _t("story_rent", "Most rent: {square}, {amount} to {player}"),
    _t("story_landed", "Landed on most: {square} ({count}×)"),
    # TRANSLATORS: {amount} is what the trade moved: cash and deeds at their price
    _t("story_trade", "Biggest trade: {giver} ⇄ {receiver}, {amount}"),
    _t("story_auctions", "Auctions held: {count}"),
    # menu, settings and help
    _t("menu_title", "Menu"),
    _t("menu_build", "Build houses"),
    _t("menu_sell", "Sell buildings"),
    _t("menu_mortgage", "Mortgage"),
    _t("menu_unmortgage", "Lift a mortgage"),
    _t("menu_settings", "Sound"),
    _t("menu_help", "Keys and buttons"),
    _t("menu_rules", "House rules"),
    # TRANSLATORS: the menu item that changes the table's language; {language} in itself
    _t("menu_language", "Language: {language}"),
    _t("language_title", "The table's language (the phones' too)"),
    _t("menu_close", "Close menu"),
    _t("menu_new_game", "New game"),
    _t("menu_end_now", "End now and count"),
    # TRANSLATORS: in the board's centre, under the square the player to move stands on
    _t("centre_owned", "Owner {owner} · rent {rent}"),
    _t("centre_for_sale", "For sale: {price}"),
    _t("end_now_title", "End the game now and count everyone's wealth?"),
    _t("settings_volume", "Volume {volume} %"),
    _t("pot", "Free Parking: {amount}"),
    _t("settings_mute", "Mute"),
    _t("settings_unmute", "Sound on"),
    _t("settings_louder", "Louder"),
    _t("settings_quieter", "Quieter"),
    _t("choose_title", "{action}: choose a square"),
    _t("help_title", "Keys and buttons"),
    _t("help_roll", "R  ROLL: roll the dice / next player"),
    _t("help_yes", "Y  YES: answer yes (buy, bid, draw)"),
    _t("help_no", "N  NO: answer no (decline, pass)"),
    _t("help_pass_go", "G  PASS GO: the salary (bank-only play; else it is automatic)"),
    _t("help_undo", "U  UNDO: undo the last move"),
    _t("help_menu", "M  MENU: build, mortgage, sound"),
    _t("help_banker", "M held or Shift+M  banker menu: end now, cards"),
    _t("help_digits", "1–6  enter the dice (a table with its own dice)"),
    _t("help_speed", "1–3 B M  then the speed die: 1–3, bus, Mr. Monopoly"),
    _t("help_dial", "Dial  dice, bids, lists, squares; YES takes"),
    _t("help_help", "H  this help · Esc close"),
    _t("help_touch", "On the touchscreen, tap the buttons at the bottom."),
    # setup
    _t("setup_title", "New game"),
    _t("setup_resume", "Resume the saved game"),
    _t("setup_edition", "Edition"),
    _t("setup_language", "Language"),
    # TRANSLATORS: the language line's value when the edition decides; {language} is the
    # edition's language in itself ("Svenska").
    _t("setup_language_auto", "{language} (edition)"),
    _t("setup_players", "Players"),
    _t("setup_player", "Player {number}"),
    _t("setup_add_player", "Add a player"),
    _t("setup_remove_player", "Remove the last player"),
    _t("setup_rules", "House rules"),
    _t("setup_pin", "Banker PIN"),
    _t("setup_timed", "Timed game"),
    _n("setup_minutes", "{minutes} minute", "{minutes} minutes", "minutes"),
    _t("setup_pin_unset", "none"),
    _t("setup_on", "on"),
    _t("setup_off", "off"),
    _t("setup_names_problem", "Every player needs a name of their own"),
    # TRANSLATORS: {edition} is the edition's name; {min} and {max} are numbers of players
    _n("setup_players_problem", "{edition} is for {min} to {max} player",
       "{edition} is for {min} to {max} players", "max"),
    _t("token_car", "car"),
    _t("token_hat", "hat"),
    _t("token_dog", "dog"),
    _t("token_ship", "ship"),
    _t("token_boot", "boot"),
    _t("token_iron", "iron"),
    _t("token_thimble", "thimble"),
    _t("token_cat", "cat"),
    _t("setup_hint", "ROLL next line · YES change · NO back · type names on a keyboard"),
    _t("rule_free_parking_pot", "Free Parking pot"),
    _t("rule_double_salary_on_go", "Double salary on GO"),
    _t("rule_auctions", "Auctions"),
    _t("rule_no_rent_in_jail", "No rent while in jail"),
    _t("rule_short_game", "Short game (hotel after 3 houses)"),
    _t("rule_bank_only", "Bank only (no token tracking)"),
    _t("rule_speed_die", "Speed die"),
    _t("rule_physical_dice", "Our own dice (typed in)"),
    _t("rule_physical_deck", "Our own Chance and Chest cards"),

    # house rules in force, shown on the board and in the menu
    # TRANSLATORS: {rules} is a list of the house rules below, joined by " · ".
    _t("house_rules", "House rules: {rules}"),
    _t("house_rules_none", "No house rules: the rulebook's rules"),
    _t("rules_title", "House rules in force"),
    _t("rule_state", "{rule}: {state}"),
    _t("hr_free_parking_pot", "Free Parking pot"),
    _t("hr_double_salary_on_go", "double salary on GO"),
    _t("hr_no_auctions", "no auctions"),
    _t("hr_no_rent_in_jail", "no rent from jail"),
    _n("hr_houses_before_hotel", "hotel after {houses} house", "hotel after {houses} houses",
       "houses"),
    _t("hr_bank_only", "bank only"),
    _n("hr_time_limit", "{minutes}-minute game", "{minutes}-minute game", "minutes"),
    # card registration (companion.screen.views.registration): the banker menu's "Register cards"
    _t("reg_menu", "Register cards"),
    _t("reg_banker_menu", "Banker menu"),
    _t("reg_title", "Register cards"),
    _t("reg_kind_deeds", "All deeds in board order"),
    _t("reg_kind_chance", "Chance cards"),
    _t("reg_kind_community_chest", "Community Chest cards"),
    _t("reg_kind_bus_tickets", "Bus tickets"),
    _t("reg_kind_bank_cards", "Bank cards"),
    _t("reg_kind_banker", "Banker card"),
    # the run's own sentences (tap, registered, asking...) are the inputs' (input_texts)
    _t("reg_progress", "{position}/{total}"),
    _t("reg_hint", "Tap each card on the reader · NO skip · UNDO back · MENU stop"),
    _t("reg_close_hint", "Any button closes"),
    _t("reg_act_skip", "Skip"),
    _t("reg_act_back", "Back"),
    _t("reg_act_stop", "Stop"),
    _t("reg_act_move", "Move it"),
    _t("reg_act_keep", "Keep it"),
    _t("reg_unknown_tag", "Unknown card (tag {tag}): register it in the banker menu (hold MENU)"),
    # who may answer (companion.game.authority): the table's buttons act for the current
    # player; another player's bid, trade or debt is theirs to answer
    _t("own_input", "Waiting for {player}: answer on your phone or tap your bank card"),
    # TRANSLATORS: the menu entry that switches the table's spoken announcements off / on
    _t("settings_voice_off", "Voice off"),
    _t("settings_voice_on", "Voice on"),
    # TRANSLATORS: the menu entry that changes the spoken announcements' volume (in steps)
    _t("settings_voice_volume", "Voice volume {volume} %"),
)
#: the run's sentences of card registration, the hardware's and the banker PIN's warnings are
#: the inputs' (companion.words.input_texts), said alike by the voice and the log
MESSAGES: dict[str, Message] = ({m.id: m for m in _MESSAGES} | LINES | WHY | LESSONS
                                | REGISTRATION | WARNINGS)
#: the English source texts by id (the singular of counted messages)
ENGLISH: dict[str, str] = {m.id: m.text for m in MESSAGES.values()}

_language = i18n.SOURCE_LANGUAGE


def text(msg_id: str, **fields: object) -> str:
    """Message `msg_id` in the screen's language with `fields` filled in.

    >>> use_language("en")
    'en'
    >>> text("prompt_buy", player="Bo", square="Götgatan", price="Kr 2 400")
    'Bo: buy Götgatan for Kr 2 400?'
    >>> text("jail_cards", count=2)
    '2 jail cards'
    """
    message = MESSAGES[msg_id]
    if message.plural is not None and message.count is not None:
        count = fields.get(message.count, 1)
        n = count if isinstance(count, int) else 1
        template = i18n.translator(_language).npgettext(message.id, message.text,
                                                        message.plural, n)
    else:
        key = (_language, msg_id)
        found = _templates.get(key)
        if found is None:
            found = _templates[key] = i18n.translator(_language).pgettext(message.id,
                                                                          message.text)
        template = found
    return template.format(**fields) if fields else template


#: each message without a count as a language's catalog has it, by (language, id): looked
#: up once (issue 28: the texts of a press's first frame, a dozen, each through gettext's
#: Python); the catalogs are loaded once per language and never change
_templates: dict[tuple[str, str], str] = {}


def use_language(lang: str) -> str:
    """Speak `lang` from now on (unknown codes give English); returns the code in use."""
    global _language
    _language = i18n.normalize_language(lang)
    return _language


def language() -> str:
    """The screen's language now."""
    return _language
