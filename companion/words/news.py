"""The news addressed to people, in one place for the phones and the table screen: the
headline (whose turn, doubles, jail, the winner), the card that is news with its drawer,
and what happened to one person that they have not seen yet ("You paid Ann € 8 rent",
"Dan paid you € 8"; which items a player has seen, companion.game.telling.seen).

Built from the typed events of the journal (companion.rules.events) and the state JSON;
said in the caller's language through its catalog (companion.words.move_words.Words), with
the sentences of companion/words/news_texts.py.

>>> from companion.words import catalog as i18n
>>> from companion.game.table.records import Setup
>>> state = {"edition": "classic-eur", "currency": {"pattern": "€ {amount}"},
...          "current": "Dan", "players": [{"name": "Ann"}, {"name": "Dan"}]}
>>> item = {"key": "7:0", "seq": 7, "event":
...     {"kind": "transfer", "from": "Dan", "to": "Ann", "amount": 8, "reason": "rent"}}
>>> words = Words(Setup.of(state), "en", i18n.translator("en"))
>>> my_news([item], "Ann", words).lines
(('7:0', 'Dan paid you €\\xa08 rent'),)
>>> my_news([item], "Dan", words).lines
(('7:0', 'You paid Ann €\\xa08 rent'),)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from companion.game.table.records import DrawnCard, Seat, Turn
from companion.rules.events import (
    AuctionClosed,
    Event,
    EventError,
    Jailed,
    Transfer,
    event_from_json,
)
from companion.words import catalog as i18n
from companion.words.move_words import Words

#: how many news lines a phone shows at most
NEWS_SHOWN = 6
#: the lines a `NewsLines` keeps: 8 players' shown lines in two languages and two voices
#: (the page's and the phone's own), with room for the moves since
NEWS_LINES_KEPT = 1024


@dataclass(frozen=True)
class Headline:
    """The line every phone shows on top: whose turn (or the winner), and whether it is
    the reader's own turn; `jail` when the reader sits in jail (shown prominently)."""

    text: str
    mine: bool = False
    jail: str = ""


def headline(turn: Turn, players: Sequence[Seat], player: str | None,
             words: Words) -> Headline | None:
    """Whose turn it is and what it owes ("Doubles: roll again"), or who won, from the
    table view's `turn` and `players`; None with no game."""
    if not players:
        return None
    winner = turn.winner
    if winner:
        return Headline(words.say("news_game_over", player=winner) or str(winner))
    current = turn.current
    again = turn.roll_again
    mine = current == player and player is not None
    if mine:
        text = words.say("news_your_roll_again" if again else "news_your_turn")
    else:
        text = words.say("news_roll_again" if again else "news_turn", player=current)
    me = next((p for p in players if p.name == player), None) if player is not None else None
    jail = (words.say("news_you_in_jail") or "") if me is not None and me.jailed else ""
    return Headline(text or str(current), mine, jail)


@dataclass(frozen=True)
class CardNews:
    """The card that is news: "Cleo drew Chance" and its text in the caller's language."""

    title: str
    text: str
    player: str


def card_news(card: DrawnCard | None, winner: str | None, words: Words) -> CardNews | None:
    """The card that is news now (the table view's `card`), with its drawer, in the words'
    language and edition; None once its effect is over (no card), and at game over (a
    `winner`)."""
    if card is None or not card.id or winner:
        return None
    edition = words.setup.edition
    deck, text = card.deck, card.text
    try:
        text = i18n.localized_name(edition, card.id, words.lang)
        deck = i18n.localized_name(edition, deck, words.lang)
    except KeyError:
        pass
    player = card.player or ""
    title = words.say("news_card", player=player, deck=deck) or f"{player}: {deck}"
    return CardNews(title, text, player)


@dataclass(frozen=True)
class MyNews:
    """A player's news not seen yet, as their phone shows it: the newest `lines` as (key,
    sentence), newest first; how many `earlier` moves hold more of it (History has them),
    and the keys of those (`earlier_keys`: seen once the phone has shown that they are
    there)."""

    lines: tuple[tuple[str, str], ...] = ()
    earlier: int = 0
    earlier_keys: tuple[str, ...] = ()


class NewsLines:
    """The news lines said before, each kept with what it was said from (the item's key
    and event, the player, the words' setup, language and catalog) and handed out again
    while those are equal. After most moves every player's Me page is drawn again, and its
    news said again with it: reading each line's event back from its JSON and saying it was
    about a third of a page's work outside its template in plain Python (issue 28, Pi Zero
    2 W). The words' kind is part of a line's key: the phone's own voice says the same
    item with its amounts spoken (companion.speech.spoken.Spoken), on the same page. The
    least recently used go first past `kept`; safe from any thread."""

    def __init__(self, kept: int = NEWS_LINES_KEPT) -> None:
        self._kept = kept
        self._lock = threading.Lock()
        self._lines: OrderedDict[tuple[str, str, str, type], tuple[Any, ...]] = OrderedDict()

    def line(self, item: Mapping[str, Any], player: str, words: Words) -> str | None:
        """`item` said as news for `player` in `words` (None: not news of theirs, or an
        event that cannot be read)."""
        key = (str(item.get("key")), player, words.lang, type(words))
        event = item.get("event")
        with self._lock:
            kept = self._lines.get(key)
            if kept is not None and kept[0] == event and kept[1] is words.catalog \
                    and kept[2] is words.square_name and kept[3] == words.setup:
                self._lines.move_to_end(key)
                return cast(str | None, kept[4])
        said = _item_said(item, player, words)
        with self._lock:
            self._lines[key] = (event, words.catalog, words.square_name, words.setup, said)
            self._lines.move_to_end(key)
            while len(self._lines) > self._kept:
                self._lines.popitem(last=False)
        return said


def _item_said(item: Mapping[str, Any], player: str, words: Words) -> str | None:
    """One news item read from its event's JSON and said for `player` (None: not news of
    theirs, or unreadable)."""
    try:
        event = event_from_json(item.get("event"))
    except EventError:
        return None
    return _said(event, player, words)


def my_news(items: Sequence[Mapping[str, Any]], player: str, words: Words,
            shown: int = NEWS_SHOWN, kept: NewsLines | None = None) -> MyNews:
    """What happened to `player` that they have not seen yet (`items`: the session's news
    items of theirs, newest first, {"key", "seq", "event"}): money paid and received,
    jail, auctions won, the newest `shown` of them said, the rest counted by move (`kept`:
    the lines said before, handed out again)."""
    lines: list[tuple[str, str]] = []
    earlier: dict[str, Any] = {}
    for item in items:
        key = str(item.get("key"))
        if len(lines) >= shown:  # only counted: not read (a player's unseen news may be long)
            earlier[key] = item.get("seq")
            continue
        line = kept.line(item, player, words) if kept is not None \
            else _item_said(item, player, words)
        if line:
            lines.append((key, line))
    said = {key.split(":", 1)[0] for key, _line in lines}
    moves = {str(seq) for seq in earlier.values()} - said  # a move partly said is not earlier
    return MyNews(tuple(lines), len(moves), tuple(earlier))


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
