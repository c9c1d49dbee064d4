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
    _t("offer_nothing", "nothing"),
    _n("offer_jail_cards", "{count} jail card", "{count} jail cards", "count"),
    # TRANSLATORS: an amount set with the knob, or with ROLL (more) and PASS GO (less)
    _t("enter_amount", "{player} pays {payee} {amount}: turn the knob or press ROLL (more) "
       "and PASS GO (less), YES to pay. NO cancels."),
    _t("enter_bid", "{player} bids {amount}: turn the knob or press ROLL (more) and PASS GO "
       "(less), YES to bid. NO passes."),
)
#: the inputs' sentences by code
INPUT_TEXTS: dict[str, Message] = {m.id: m for m in _TEXTS}


def input_text(code: str, lang: str, **fields: object) -> str:
    """The sentence of `code` in `lang` with `fields` filled in."""
    message = INPUT_TEXTS[code]
    catalog = i18n.translator(i18n.normalize_language(lang))
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
