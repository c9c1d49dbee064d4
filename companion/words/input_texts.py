"""What the table's own inputs ask and say while a gesture is under way (a bank card tapped,
an offer put to its receiver, an amount dialled), by the code of the inputs' `Show`
(companion.inputs.actions): one sentence per code in the one catalog, which the screen, a
headless table's log and the phones all say in their language (`input_text`).

>>> input_text("tap_cancelled", "en")
'Cancelled.'
>>> input_text("card_tapped_pay", "sv", player="Bo")[:7]
'Bos kor'
"""

from __future__ import annotations

import math

from companion.words import catalog as i18n
from companion.words.message import Message, _n, _t

_TEXTS: tuple[Message, ...] = (
    # TRANSLATORS: a bank card was tapped while nothing else was asked (bank-only play)
    _t("card_tapped_land", "{player}'s card: tap a deed to land there, or another player's "
       "card to pay them. NO cancels."),
    # TRANSLATORS: a bank card was tapped while nothing else was asked
    _t("card_tapped_pay", "{player}'s card: tap another player's card to pay them. "
       "NO cancels."),
    _t("tap_cancelled", "Cancelled."),
    # TRANSLATORS: a bank card tapped while a trade offered on a phone waits for its owner
    _t("offer_asked", "{sender} offers {receiver} a trade: {sender} gives {give}, {receiver} "
       "gives {take}. {receiver}: YES or your card again accepts. NO cancels."),
    _t("offer_gone", "That offer is no longer open."),
    # TRANSLATORS: an amount set with the knob, or with ROLL (more) and PASS GO (less)
    _t("enter_amount", "{player} pays {payee} {amount}: turn the knob or press ROLL (more) "
       "and PASS GO (less), YES to pay. NO cancels."),
    _t("enter_bid", "{player} bids {amount}: turn the knob or press ROLL (more) and PASS GO "
       "(less), YES to bid. NO passes."),
    # TRANSLATORS: physical dice entered on the panel, one at a time
    _t("enter_die", "Die {number} of {count}: {face}. Turn the knob or press ROLL to change it, "
       "YES takes it, NO goes back."),
    _t("enter_speed_die", "The speed die: {face}. Turn the knob or press ROLL to change it, "
       "YES takes it, NO goes back."),
    _t("dice_cancelled", "Dice entry cancelled."),
    # TRANSLATORS: a square chosen with the knob after a bus ticket was tapped (Mega)
    _t("pick_ride", "Ride to {square}? Turn the knob to change, YES chooses, NO cancels; or "
       "tap its deed."),
    _t("pick_go", "Go to {square}? Turn the knob to change, YES chooses, NO cancels; or tap "
       "its deed."),
    _t("not_reachable", "Tap the deed of a square on offer, or use the knob."),
    _t("salary_not_now", "{player}'s salary cannot be paid now."),
    _t("cannot_bid", "{player} cannot bid now."),
    _t("cannot_pass", "{player} cannot pass now."),
    _t("amount_not_now", "No amount is being entered."),
    _t("bad_amount", "{amount} is not possible."),
    _t("card_unassigned", "Bank card {number} belongs to nobody in this game."),
    _t("not_your_turn", "It is {player}'s decision."),
    # TRANSLATORS: a bank card tapped while another decision of the game comes first
    _t("answer_first", "{player} decides first: on their phone, or with their own bank card."),
    _t("unknown_square", "That deed is not on this board."),
    _t("land_not_now", "A deed tapped after a bank card lands there only in bank-only play."),
    _t("deed_for_sale", "{square}: for sale, {price}."),
    _t("deed_owned", "{square}: owned by {owner}, rent {rent}."),
    _t("deed_owned_mortgaged", "{square}: owned by {owner}, mortgaged."),
    _t("wrong_deck", "That card is from the other deck."),
    _t("card_not_now", "No card is to be drawn now."),
    _t("ticket_not_now", "No bus ticket can be used now."),
    _t("input_error", "That input could not be handled."),
)
#: guided card registration (companion.inputs.registration and its registrar): what the
#: screen's run, the banker page and the log say about each tap
_REGISTRATION: tuple[Message, ...] = (
    # TRANSLATORS: {name} is a deed, a card's text, "bank card 2" or "the banker card".
    _t("reg_tap", "Tap the card for {name}"),
    # TRANSLATORS: the registration's prompt with its progress (the banker page, the log)
    _t("reg_tap_of", "Tap the card for {name} ({position} of {total})"),
    _t("reg_bank_card", "bank card {number}"),
    # TRANSLATORS: a bank card registered to a player ("Bo's bank card (2)")
    _t("reg_players_bank_card", "{player}'s bank card ({number})"),
    _t("reg_banker_card", "the banker card"),
    _t("reg_registered", "✓ {name} registered"),
    _t("reg_moved", "✓ {name} registered (it was {was})"),
    _t("reg_kept", "Kept as {was}: tap another card"),
    _t("reg_same_card", "That card is already {was}: tap another one"),
    _t("reg_skipped", "{name} skipped"),
    _t("reg_back", "Back one card"),
    _t("reg_asking", "That card is {was}. Make it {name}?"),
    _t("reg_finished", "All cards registered"),
    _t("reg_stopped", "Card registration stopped"),
    # TRANSLATORS: a registration run asked for cards the board has not (bus tickets on a
    # classic board)
    _t("reg_kind_missing", "This board has no cards of that kind to register."),
    # TRANSLATORS: a tag typed on the banker page with a meaning not understood; the
    # words after the colon are typed as they are
    _t("reg_bad_meaning", "Not a card meaning: write banker, bank:N, deed:<square> or "
       "<deck>:<card>."),
)
#: the warnings the table shows and says: the panel's buttons and the RFID readers
#: (by the code of their HardwareWarning, companion.inputs.events), the Pi's power
#: (companion.power), wrong banker PINs (companion.game.pins)
_WARNINGS: tuple[Message, ...] = (
    # hardware warnings; {button} is a panel button's name, {source} a reader
    _t("warn_button_stuck", "{button} button stuck: check it"),
    _t("warn_button_chatter", "{button} button chatters: check its wiring"),
    _t("warn_reader_unplugged", "RFID reader unplugged: {source}"),
    _t("warn_reader_silent", "RFID reader silent: {source}"),
    # TRANSLATORS: an RFID reader's program failed; the companion opens it again by itself
    _t("warn_reader_error", "RFID reader failed, restarting it: {source}"),
    # TRANSLATORS: a configured RFID reader could not be opened at the start
    _t("warn_reader_unavailable", "RFID reader cannot be opened: {source}"),
    _t("warn_under_voltage", "Power supply too weak: use the Pi's own power supply"),
    _t("warn_throttled", "The Pi is too hot and slows down: give it air"),
    _t("pin_wrong", "Wrong banker PIN, nothing changed ({count} wrong so far)"),
    _t("pin_wait", "The table checks no PIN for {seconds} s"),
    _t("pin_warning", "A wrong banker PIN was typed on a phone ({count} so far)"),
    # TRANSLATORS: spoken after wrong banker PINs: how long until the next PIN is checked
    _n("pin_next_in", "The next banker PIN is checked in {seconds} second",
       "The next banker PIN is checked in {seconds} seconds", "seconds"),
)
#: sentences the screen's words hold already (companion/screen/texts.py), said here under
#: their own ids: one translation each (tests/test_consent.py keeps them equal)
SHARED: tuple[Message, ...] = (
    Message("prompt_nothing", "Nothing"),
    Message("jail_cards", "{count} jail card", "{count} jail cards", "count"),
    Message("speed_bus", "bus"),
    Message("speed_mr_monopoly", "Mr. Monopoly"),
    Message("bankrupt_banner", "{player} is bankrupt"),
    Message("btn_roll", "ROLL"),
    Message("btn_yes", "YES"),
    Message("btn_no", "NO"),
    Message("btn_pass_go", "PASS GO"),
    Message("btn_undo", "UNDO"),
    Message("btn_menu", "MENU"),
)
#: the registration's and the warnings' sentences by id (the screen's words include them)
REGISTRATION: dict[str, Message] = {m.id: m for m in _REGISTRATION}
WARNINGS: dict[str, Message] = {m.id: m for m in _WARNINGS}
#: the inputs' sentences by id
INPUT_TEXTS: dict[str, Message] = {m.id: m for m in _TEXTS + SHARED} | REGISTRATION | WARNINGS


def input_text(code: str, lang: str, **fields: object) -> str:
    """The sentence of `code` in `lang` with `fields` filled in."""
    message = INPUT_TEXTS[code]
    catalog = i18n.translator(i18n.normalize_language(lang))
    face = fields.get("face")
    if isinstance(face, str) and f"speed_{face}" in INPUT_TEXTS:  # the speed die's faces
        fields = {**fields, "face": input_text(f"speed_{face}", lang)}
    if message.plural is not None and message.count is not None:
        count = fields.get(message.count, 1)
        template = catalog.npgettext(message.id, message.text, message.plural,
                                     count if isinstance(count, int) else 1)
    else:
        template = catalog.pgettext(message.id, message.text)
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English one
        return message.text.format(**fields)


def warning_text(code: str, lang: str, source: str = "", message: str = "") -> str:
    """A hardware warning (a HardwareWarning's or the power watch's code) in `lang`: the
    button named as the panel prints it in that language, a reader by its name; a code
    the catalog does not know keeps the hardware's own message (a log line, never a
    sentence of the table).

    >>> warning_text("button_stuck", "de", "roll")
    'Taste WÜRFELN klemmt: bitte prüfen'
    >>> warning_text("fan_on_fire", "nl", "fan", "The fan is on fire")
    'The fan is on fire'
    """
    key = f"warn_{code}"
    if key not in WARNINGS:
        return message or f"{code}: {source}"
    button = input_text(f"btn_{source}", lang) if f"btn_{source}" in INPUT_TEXTS else source
    return input_text(key, lang, button=button, source=source)


def pin_warning_said(wrong: int, where: str, wait: float, lang: str) -> list[str]:
    """What the table says after a wrong banker PIN, in `lang`: how many were typed (on a
    phone, or at the screen's banker menu) and, while the door it was typed at waits, how
    long until the next one is checked.

    >>> pin_warning_said(3, "phone", 1.2, "en")[1]
    'The next banker PIN is checked in 2 seconds'
    """
    said = [input_text("pin_wrong" if where == "screen" else "pin_warning", lang, count=wrong)]
    seconds = math.ceil(wait)
    if seconds > 0:
        said.append(input_text("pin_next_in", lang, seconds=seconds))
    return said
