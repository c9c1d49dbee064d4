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

from companion.words import catalog as i18n
from companion.words.message import Message, _t

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
#: sentences the screen's words hold already (companion/screen/texts.py), said here under
#: their own ids: one translation each (tests/test_consent.py keeps them equal)
SHARED: tuple[Message, ...] = (
    Message("prompt_nothing", "Nothing"),
    Message("jail_cards", "{count} jail card", "{count} jail cards", "count"),
    Message("speed_bus", "bus"),
    Message("speed_mr_monopoly", "Mr. Monopoly"),
    Message("bankrupt_banner", "{player} is bankrupt"),
)
#: the inputs' sentences by id
INPUT_TEXTS: dict[str, Message] = {m.id: m for m in _TEXTS + SHARED}


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
