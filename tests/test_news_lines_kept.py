"""A player's news lines said once and handed out again (companion.words.news.NewsLines):
after most moves every Me page is drawn again and its news said again with it; each line is
read back from its event's JSON only when what it is said from changed."""

from __future__ import annotations

from typing import Any

import pytest

from companion.game.table.records import Setup
from companion.rules.events import event_from_json
from companion.speech.spoken import spoken_for
from companion.words import catalog as i18n
from companion.words import news
from companion.words.move_words import Words
from companion.words.news import NewsLines, my_news

STATE: dict[str, Any] = {"edition": "classic-eur", "currency": {"pattern": "€ {amount}",
                                                                 "code": "EUR"},
                         "current": "Dan", "players": [{"name": "Ann"}, {"name": "Dan"}]}


def rent(key: str, amount: int, payer: str = "Dan") -> dict[str, Any]:
    seq = int(key.split(":")[0])
    return {"key": key, "seq": seq, "event": {"kind": "transfer", "from": payer, "to": "Ann",
                                               "amount": amount, "reason": "rent"}}


def words(lang: str = "en", state: dict[str, Any] | None = None) -> Words:
    return Words(Setup.of(state or STATE), lang, i18n.translator(lang))


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every event read back from its JSON by the news."""
    read: list[Any] = []
    def counted(data: Any) -> Any:
        read.append(data)
        return event_from_json(data)

    monkeypatch.setattr(news, "event_from_json", counted)
    return read


def test_lines_are_read_once_and_said_as_without_keeping(reads: list[Any]) -> None:
    items = [rent("9:0", 20), rent("7:0", 8)]
    kept = NewsLines()
    first = my_news(items, "Ann", words(), kept=kept)
    assert first == my_news(items, "Ann", words())  # the same lines as said afresh
    assert first.lines == (("9:0", "Dan paid you €\xa020 rent"),
                           ("7:0", "Dan paid you €\xa08 rent"))
    reads.clear()
    again = my_news([rent("11:0", 5), *items], "Ann", words(), kept=kept)
    assert again.lines[1:] == first.lines
    assert reads == [rent("11:0", 5)["event"]]  # only the new item was read


def test_what_a_line_is_said_from_changes_it(reads: list[Any]) -> None:
    kept = NewsLines()
    item = rent("7:0", 8)
    assert kept.line(item, "Ann", words()) == "Dan paid you €\xa08 rent"
    assert kept.line(item, "Dan", words()) == "You paid Ann €\xa08 rent"  # the reader
    assert kept.line(item, "Ann", words("nl")) == my_news([item], "Ann", words("nl")).lines[0][1]
    # the same key in another game (a switched-to file's seq 7): its own event
    assert kept.line(rent("7:0", 300, "Bo"), "Ann", words()) == "Bo paid you €\xa0300 rent"
    # the same event with money written otherwise (another edition's currency)
    dollars = dict(STATE, currency={"pattern": "${amount}", "code": "USD"})
    assert kept.line(item, "Ann", words("en", dollars)) == "Dan paid you $8 rent"
    # the phone's own voice says the same item with its amount spoken, not the page's line
    voice = spoken_for(STATE, "en")
    assert kept.line(item, "Ann", voice) == my_news([item], "Ann", voice).lines[0][1]
    assert kept.line(item, "Ann", voice) != kept.line(item, "Ann", words())
    reads.clear()
    kept.line(item, "Ann", voice)
    assert reads == []


def test_a_line_that_is_no_news_of_the_reader_is_kept_as_none(reads: list[Any]) -> None:
    kept = NewsLines()
    unreadable = {"key": "8:0", "seq": 8, "event": {"kind": "no such event"}}
    assert kept.line(rent("7:0", 8), "Cleo", words()) is None
    assert kept.line(unreadable, "Ann", words()) is None
    reads.clear()
    assert kept.line(rent("7:0", 8), "Cleo", words()) is None
    assert kept.line(unreadable, "Ann", words()) is None
    assert reads == []


def test_only_the_newest_lines_are_kept() -> None:
    kept = NewsLines(kept=4)
    for seq in range(1, 11):
        kept.line(rent(f"{seq}:0", seq), "Ann", words())
    assert len(kept._lines) == 4
    assert [k[0] for k in kept._lines] == ["7:0", "8:0", "9:0", "10:0"]
