"""What the table says aloud after a command: a few sentences from the one catalog.

Who pays whom how much and why, whose turn it is now, a card's text, an auction's bids
and close, a player jailed or bankrupt, the winner. The sentences are the news and the
move log's where they fit (companion.words), and companion.speech.texts' where speech
needs its own; amounts are spoken ("250 euros", "30000 kronor", "1500 złotych",
"21 рубль"), never written ("Kr 30 000"), so the engine reads them as the language says
them. Pure: events and the state in, sentences out.

>>> from companion.words import catalog as i18n
>>> state = {"edition": "classic-eur", "currency": {"code": "EUR"}, "current": "Bram",
...          "players": [{"name": "Anna", "position": 39}, {"name": "Bram", "position": 39}]}
>>> voice = spoken_for(state, "en")
>>> sentences([{"kind": "transfer", "from": "Bram", "to": "Anna", "amount": 250,
...             "reason": "rent"}], voice)
['Bram pays Anna 250 euros rent for Rue de la Paix']
>>> voice.money(1)
'1 euro'
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.game.table.records import Setup, Turn, seats
from companion.speech.texts import SPEECH
from companion.words import catalog as i18n
from companion.words.move_words import Words, event_line
from companion.words.news import headline

log = logging.getLogger(__name__)

#: event kinds told by the move log's own line (companion.words.move_words.event_line)
LOG_KINDS = frozenset({"jailed", "bankrupt", "winner", "bought", "card", "auction_started",
                       "three_doubles", "left_jail", "triple", "mr_monopoly"})
#: at most this many sentences for one command (a bankruptcy can move dozens of deeds)
MOST = 4


@dataclass(frozen=True)
class Spoken(Words):
    """How the voice says things: the move log's words, with amounts spoken; `state` is the
    state JSON the headline and a rent's square are still read from."""

    state: Mapping[str, Any] = field(default_factory=dict)

    def speak(self, msg_id: str, **fields: Any) -> str | None:
        """A speech-only message (companion.speech.texts) filled in; its English when the
        translation is broken; None when the fields fit neither."""
        message = SPEECH[msg_id]
        if message.plural is not None and message.count is not None:
            n = int(fields.get(message.count, 1))
            texts = [self.catalog.npgettext(msg_id, message.text, message.plural, n),
                     message.text if n == 1 else message.plural]
        else:
            texts = [self.catalog.pgettext(msg_id, message.text), message.text]
        for text in texts:
            try:
                return text.format(**fields)
            except (KeyError, IndexError, ValueError):
                log.warning("%s: cannot fill %r with %s", msg_id, text, sorted(fields))
        return None

    def money(self, amount: Any) -> str:
        """An amount as it is spoken: the digits whole (the engine reads them as a number
        of the language) and the currency's word in the form that count wants; a currency
        without a word is the number alone."""
        count = abs(int(amount or 0))
        code = str((self.setup.currency or {}).get("code") or "")
        msg_id = f"speech_money_{code}"
        said = self.speak(msg_id, count=count) if msg_id in SPEECH else None
        return said or str(count)


def spoken_for(state: Mapping[str, Any], lang: str) -> Spoken:
    """The voice's words for a state in a language (its catalog)."""
    return Spoken(Setup.of(state), lang, i18n.translator(lang), state=state)


def sentences(events: Iterable[Mapping[str, Any]], voice: Spoken,
              turn_changed: bool = False) -> list[str]:
    """The sentences one command's events call for, in order, at most `MOST`; with
    `turn_changed`, whose turn it is now comes last (the news' headline)."""
    said: list[str] = []
    events = list(events)
    for event in events:
        line = _sentence(event, events, voice)
        if line and line not in said:
            said.append(line)
    said = said[:MOST]
    if turn_changed:
        top = headline(Turn.of(voice.state), seats(voice.state), None, voice)
        if top is not None and top.text:
            said.append(top.text)
    return said


def _sentence(event: Mapping[str, Any], events: list[Mapping[str, Any]],
              voice: Spoken) -> str | None:
    kind = str(event.get("kind"))
    if kind == "transfer":
        return _payment(event, events, voice)
    if kind == "bid":
        return voice.speak("speech_bid", player=event.get("player"),
                           amount=voice.money(event.get("amount")))
    if kind == "auction_closed" and not event.get("winner"):
        return voice.speak("speech_auction_no_bid")
    if kind == "card":
        line = event_line(event, voice)
        return line.strip("“”\"") if line else None
    if kind in LOG_KINDS or kind == "auction_closed":
        return event_line(event, voice)
    return None


def _payment(event: Mapping[str, Any], events: list[Mapping[str, Any]],
             voice: Spoken) -> str | None:
    """Who pays whom how much and why."""
    payer, payee = event.get("from"), event.get("to")
    amount = voice.money(event.get("amount"))
    if not event.get("amount"):
        return None
    if payer is None or payer == "pot":
        return voice.speak("speech_bank_pays", payee=payee, amount=amount)
    if payee is None or payee == "pot":
        if any(e.get("kind") == "bought" and e.get("player") == payer for e in events):
            return None  # the purchase says it ("Anna bought Rue Lecourbe")
        return voice.speak("speech_pays_bank", payer=payer, amount=amount)
    if event.get("reason") == "rent":
        square = _rent_square(str(payer), events, voice)
        if square is not None:
            return voice.speak("speech_pays_rent", payer=payer, payee=payee, amount=amount,
                               square=voice.square(square))
    return voice.speak("speech_pays", payer=payer, payee=payee, amount=amount)


def _rent_square(payer: str, events: list[Mapping[str, Any]], voice: Spoken) -> Any:
    """The square rent is paid for: where the payer moved to in this command, else where
    the payer stands now."""
    moved = [e.get("to") for e in events if e.get("kind") == "moved"
             and e.get("player") == payer and e.get("to") is not None]
    if moved:
        return moved[-1]
    for player in voice.state.get("players") or []:
        if player.get("name") == payer:
            return player.get("position")
    return None
