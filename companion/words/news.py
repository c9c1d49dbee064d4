"""The news addressed to people, in one place for the phones and the table screen: the
headline (whose turn, doubles, jail, the winner), the card that is news with its drawer,
and what the last round did to one person ("You paid Ann € 8 rent", "Dan paid you € 8").

Built from the typed events of the journal (companion.rules.events) and the state JSON;
said in the caller's language through its catalog (companion.words.move_words.Words), with
the sentences of companion/words/news_texts.py.

>>> from companion.words import catalog as i18n
>>> state = {"edition": "classic-eur", "currency": {"pattern": "€ {amount}"},
...          "current": "Dan", "players": [{"name": "Ann"}, {"name": "Dan"}]}
>>> entry = {"kind": "command", "events": [
...     {"kind": "transfer", "from": "Dan", "to": "Ann", "amount": 8, "reason": "rent"}]}
>>> words = Words(state, "en", i18n.translator("en"))
>>> news_for([entry], "Ann", words)
['Dan paid you €\\xa08 rent']
>>> news_for([entry], "Dan", words)
['You paid Ann €\\xa08 rent']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules.events import (
    AuctionClosed,
    Event,
    EventError,
    GameStarted,
    Jailed,
    Transfer,
    Turn,
    event_from_json,
)
from companion.words import catalog as i18n
from companion.words.move_words import Words

#: how many news lines a phone shows at most
NEWS_SHOWN = 6


@dataclass(frozen=True)
class Headline:
    """The line every phone shows on top: whose turn (or the winner), and whether it is
    the reader's own turn; `jail` when the reader sits in jail (shown prominently)."""

    text: str
    mine: bool = False
    jail: str = ""


def headline(state: Mapping[str, Any], player: str | None, words: Words) -> Headline | None:
    """Whose turn it is and what it owes ("Doubles: roll again"), or who won; None with no
    game."""
    if not state.get("players"):
        return None
    winner = state.get("winner")
    if winner:
        return Headline(words.say("news_game_over", player=winner) or str(winner))
    current = state.get("current")
    turn = state.get("turn") or {}
    again = bool(turn.get("doubles")) and bool(turn.get("must_roll"))
    mine = current == player and player is not None
    if mine:
        text = words.say("news_your_roll_again" if again else "news_your_turn")
    else:
        text = words.say("news_roll_again" if again else "news_turn", player=current)
    me: Mapping[str, Any] = next((p for p in state.get("players") or []
                                  if p.get("name") == player), {})
    jail = (words.say("news_you_in_jail") or "") if me.get("in_jail") else ""
    return Headline(text or str(current), mine, jail)


@dataclass(frozen=True)
class CardNews:
    """The card that is news: "Cleo drew Chance" and its text in the caller's language."""

    title: str
    text: str
    player: str


def card_news(state: Mapping[str, Any], words: Words) -> CardNews | None:
    """The card that is news now (the session's "card_news"), with its drawer; None once
    its effect is over, and at game over."""
    card = state.get("card_news")
    if not isinstance(card, Mapping) or not card.get("id") or state.get("winner"):
        return None
    edition = str(state.get("edition") or "")
    deck = str(card.get("deck") or "")
    text = str(card.get("text") or "")
    try:
        text = i18n.localized_name(edition, str(card["id"]), words.lang)
        deck = i18n.localized_name(edition, deck, words.lang)
    except KeyError:
        pass
    player = str(card.get("player") or "")
    title = words.say("news_card", player=player, deck=deck) or f"{player}: {deck}"
    return CardNews(title, text, player)


def _typed(entry: Mapping[str, Any]) -> list[Event]:
    out = []
    for data in entry.get("events") or []:
        if isinstance(data, Mapping) and data.get("kind") not in ("undone", "redone"):
            try:
                out.append(event_from_json(data))
            except EventError:
                continue
    return out


def news_for(entries: Sequence[Mapping[str, Any]], player: str, words: Words,
             shown: int = NEWS_SHOWN) -> list[str]:
    """What the last round did to `player`, newest first: money paid and received, jail,
    auctions won (`entries`: the session's history, oldest first, with "undone" marks).
    A round reaches back to the turn before the player's last one began, so news stays
    until every other player has had a turn."""
    players = [p for p in words.state.get("players") or [] if not p.get("bankrupt")]
    rounds = max(2, len(players) + 1)
    out: list[str] = []
    turns = 0
    for entry in reversed(entries):
        if entry.get("kind", "command") not in ("command", "redo") or entry.get("undone"):
            continue
        events = _typed(entry)
        lines = [line for line in (_said(event, player, words) for event in events) if line]
        out.extend(reversed(lines))
        turns += sum(1 for e in events if isinstance(e, Turn))
        if turns >= rounds or len(out) >= shown or any(isinstance(e, GameStarted)
                                                        for e in events):
            break
    return out[:shown]


def _said(event: Event, player: str, words: Words) -> str | None:
    """One event as news for `player`, or None when it does not concern them."""
    if isinstance(event, Transfer):
        return _money(event, player, words)
    if isinstance(event, Jailed) and event.player == player:
        return words.say("news_you_jailed")
    if isinstance(event, AuctionClosed) and event.winner == player:
        amount = words.money(event.amount)
        if event.square is not None:
            return words.say("news_you_won", square=words.square(event.square), amount=amount)
        return words.say("news_you_won_building", amount=amount)
    return None


def _money(event: Transfer, player: str, words: Words) -> str | None:
    """A payment as its payer or payee hears it."""
    amount = words.money(event.amount)
    rent = event.reason == "rent"
    if event.from_ == player and event.to == player:
        return None
    if event.from_ == player:
        if event.to is None:
            return words.say("news_you_paid_bank", amount=amount)
        if event.to == "pot":
            return words.say("news_you_paid_pot", amount=amount)
        return words.say("news_you_paid_rent" if rent else "news_you_paid", payee=event.to,
                         amount=amount)
    if event.to == player:
        if event.from_ is None:
            return words.say("news_bank_paid_you", amount=amount)
        if event.from_ == "pot":
            return words.say("news_pot_paid_you", amount=amount)
        return words.say("news_paid_you_rent" if rent else "news_paid_you",
                         payer=event.from_, amount=amount)
    return None
