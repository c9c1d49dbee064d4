"""News addressed to people (companion.game.telling.news, companion.words.news): the card that is
news carries its drawer's name and lasts until the token moves on, the turn passes or the
game ends (kept by the session, derived again after an undo or a restart); each phone says
whose turn it is, doubles, jail, and what money moved to or from its own player."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

from flask import Flask
from web_fakes import TABLE, joined, open_real_session, play

from companion.game.session import GameSession
from companion.game.table.records import DrawnCard, Setup, Turn, seats
from companion.words import catalog as i18n
from companion.words.move_words import Words
from companion.words.news import card_news, headline, my_news


def page_text(phone: Any, path: str, lang: str = "en") -> str:
    """The page's visible text, one space between words."""
    phone.client.set_cookie("lang", lang)
    html = phone.client.get(path).get_data(as_text=True)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).replace("\u00a0", " ").split())


def test_the_card_is_news_with_its_drawer_until_the_turn_ends(tmp_path: Path) -> None:
    game = open_real_session(tmp_path / "game", ("Ann", "Bo"))
    try:
        play(game, {"do": "roll", "dice": [3, 4]}, {"do": "draw", "card": "chance-dividend"})
        card = game.state()["card_news"]
        assert card["player"] == "Ann" and card["id"] == "chance-dividend"
        play(game, {"do": "end_turn"})
        assert game.state()["card_news"] is None
        assert game.state()["last_card"]["id"] == "chance-dividend"  # the engine still has it
        assert game.undo(TABLE).accepted  # the turn's end taken back: the card is news again
        assert game.state()["card_news"]["player"] == "Ann"
    finally:
        game.close()
    with GameSession.open(tmp_path / "game") as again:  # a restart derives it again
        assert again.state()["card_news"]["id"] == "chance-dividend"


def test_a_draw_redone_then_undone_again_is_no_longer_news(tmp_path: Path) -> None:
    game = open_real_session(tmp_path / "game", ("Ann", "Bo"))
    try:
        play(game, {"do": "roll", "dice": [3, 4]}, {"do": "draw", "card": "chance-dividend"})
        assert game.undo(TABLE).accepted and game.redo(TABLE).accepted
        assert game.state()["card_news"]["id"] == "chance-dividend"
        assert game.undo(TABLE).accepted  # the redone draw taken back again
        assert game.state()["card_news"] is None
    finally:
        game.close()
    with GameSession.open(tmp_path / "game") as again:  # and after a restart
        assert again.state()["card_news"] is None


def test_the_cards_own_decisions_keep_it_news(tmp_path: Path) -> None:
    game = open_real_session(tmp_path / "game", ("Ann", "Bo"))
    try:
        play(game, {"do": "roll", "dice": [3, 4]}, {"do": "draw", "card": "chance-utility"})
        assert game.state()["card_news"]["id"] == "chance-utility"
        pending = game.state()["pending"]
        if pending and pending["kind"] == "buy":
            play(game, {"do": "decline"})
        assert game.state()["card_news"] is not None  # the card's own decisions follow it
    finally:
        game.close()


def test_rent_tells_payer_and_payee_on_their_phones(app: Flask, game: Any) -> None:
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"})
    play(game, {"do": "roll", "dice": [1, 2]})  # Bo pays Ann's rent at Rue Lecourbe
    ann, bo = joined(app, "Ann"), joined(app, "Bo")
    assert "Bo paid you € 4 rent" in page_text(ann, "/me")
    assert "You paid Ann € 4 rent" in page_text(bo, "/me")
    assert "Bo betalade dig € 4 i hyra" in page_text(ann, "/me", "sv")
    said = page_text(ann, "/me", "ru")
    assert "Вам платят € 4 ренты, плательщик: Bo" in said
    assert "Ходит: Bo" in said


def test_each_phone_says_whose_turn_doubles_and_jail(app: Flask, game: Any) -> None:
    ann, bo = joined(app, "Ann"), joined(app, "Bo")
    assert "Your turn" in page_text(ann, "/me")
    assert "Now playing: Ann" in page_text(bo, "/me")
    play(game, {"do": "roll", "dice": [2, 2]})
    if game.state()["pending"]:
        play(game, {"do": "decline" if game.state()["pending"]["kind"] == "buy" else "draw"})
    assert "Doubles: roll again" in page_text(ann, "/me")
    assert "Doubles: Ann rolls again" in page_text(bo, "/me")
    ann_html = ann.client.get("/me").get_data(as_text=True)
    assert 'class="headline mine"' in ann_html


def test_jail_is_said_prominently(app: Flask, game: Any) -> None:
    play(game, {"do": "roll", "dice": [3, 4]}, {"do": "draw", "card": "chance-jail"})
    ann = joined(app, "Ann")
    html = ann.client.get("/me").get_data(as_text=True)
    assert 'class="jail-news"' in html and "You are in jail" in html
    assert "You went to jail" in page_text(ann, "/me")
    assert "Ann drew Chance" in page_text(ann, "/me")  # the card, with its drawer


def test_the_card_is_gone_at_game_over(app: Flask, game: Any) -> None:
    play(game, {"do": "roll", "dice": [3, 4]}, {"do": "draw", "card": "chance-dividend"})
    bo = joined(app, "Bo")
    assert "Ann drew Chance" in page_text(bo, "/me")
    play(game, {"do": "end_game"})
    said = page_text(bo, "/me")
    assert "Ann drew" not in said and "Your turn" not in said
    assert "Game over:" in said


def test_a_phone_says_the_newest_unseen_news_and_counts_the_earlier_moves() -> None:
    state = {"currency": {"pattern": "€ {amount}"}, "players": [{"name": "Ann"},
                                                               {"name": "Bo"}]}
    words = Words(Setup.of(state), "en", i18n.translator("en"))
    items = [{"key": f"{seq}:0", "seq": seq,
              "event": {"kind": "transfer", "from": "Bo", "to": "Ann", "amount": seq,
                        "reason": "rent"}} for seq in range(20, 10, -1)]  # newest first
    said = my_news(items, "Ann", words, shown=3)
    assert [text for _key, text in said.lines] == [
        "Bo paid you €\u00a020 rent", "Bo paid you €\u00a019 rent", "Bo paid you €\u00a018 rent"]
    assert said.earlier == 7  # moves 17 to 11, on the History page
    assert said.earlier_keys == tuple(f"{seq}:0" for seq in range(17, 10, -1))
    assert my_news([], "Ann", words).lines == ()
    assert my_news(items, "Bo", words, shown=1).lines == (("20:0", "You paid Ann €\u00a020 rent"),)


def test_the_headline_at_game_over_names_the_winner() -> None:
    state = {"players": [{"name": "Ann"}], "winner": "Ann", "current": "Ann",
             "turn": {"doubles": 1, "must_roll": True}}
    said = headline(Turn.of(state), seats(state), "Ann",
                    Words(Setup.of(state), "en", i18n.translator("en")))
    assert said is not None and said.text == "Game over: Ann wins" and not said.mine


def test_a_refused_trade_names_the_square(app: Flask, game: Any) -> None:
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"})  # Ann owns Rue Lecourbe
    bo = joined(app, "Bo")
    out = bo.post("/api/trades", {"version": game.version, "to": "Ann",
                                  "give": {"squares": [3]}, "take": {}})
    assert out.status_code >= 400
    assert "Bo does not own Rue Lecourbe." in out.get_json()["message"]


def test_the_history_says_an_auction_was_paid_by_its_close(app: Flask, game: Any) -> None:
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "decline"},
         {"do": "bid", "by": "Bo", "amount": 20}, {"do": "pass", "by": "Cy"},
         {"do": "pass", "by": "Ann"})
    said = page_text(joined(app, "Ann"), "/history")
    assert "Bo the bank € 20 auction" in said
    # the row's reason opens on why (the highest bid), then "Sent by": not Ann, who passed
    assert "won at auction with the highest bid, € 20" in said
    assert re.search(r"€ 20 auction .*?highest bid, € 20 .*?” the auction's close", said)


def test_the_worth_chart_is_read_by_turns(app: Flask, game: Any) -> None:
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"})
    svg = joined(app, "Ann").client.get("/worth.svg").get_data(as_text=True)
    assert ">Turn 2<" in svg and ">v" not in svg


def test_a_dutch_phone_reads_the_card_in_dutch(app: Flask, game: Any) -> None:
    play(game, {"do": "roll", "dice": [3, 4]}, {"do": "draw", "card": "chance-dividend"})
    dutch = i18n.localized_name("classic-eur", "chance-dividend", "nl")
    assert dutch != game.state()["card_news"]["text"]
    bo = joined(app, "Bo")
    assert dutch in page_text(bo, "/me", "nl")
    assert dutch in page_text(bo, "/table", "nl")


def test_a_russian_or_english_phone_at_a_french_table_reads_its_own_card(app: Flask,
                                                                          game: Any) -> None:
    play(game, {"do": "roll", "dice": [3, 4]}, {"do": "draw", "card": "chance-dividend"})
    assert game.state()["edition"] == "classic-eur"
    bo = joined(app, "Bo")
    said = page_text(bo, "/me", "ru")
    assert "Банк выплачивает вам дивиденды: € 50." in said
    assert "La banque" not in said
    assert "The bank pays you a dividend of € 50." in page_text(bo, "/table", "en")


def test_the_screen_reads_the_card_in_the_tables_language() -> None:
    from companion.screen.ui_state import UiState
    from companion.screen.views.board_info import board_info
    from companion.screen.views.prompt import card_text

    state = {"edition": "classic-eur", "card_news": {
        "id": "chance-dividend", "player": "Ann", "deck": "chance",
        "text": "La banque vous verse un dividende de € 50."}}
    assert card_text(state, UiState(board=board_info("classic-eur", "ru"))) == \
        "Банк выплачивает вам дивиденды: € 50."
    assert card_text(state, UiState(board=board_info("classic-eur", "fr"))) == \
        "La banque vous verse un dividende de € 50."


def test_the_banker_lists_saved_games_in_the_phones_language(tmp_path: Path) -> None:
    from companion.game.api import SavedGame
    from web_remote.views.banker import game_label

    with_turn = {"players": ["Ann", "Bo"], "edition": "classic-eur", "turn": 34}
    from web_remote import create_app
    session = open_real_session(tmp_path / "g", ("Ann", "Bo"))
    try:
        app = create_app(session, tmp_path / "g", {"banker_pin": "2468"})
        with app.test_request_context(headers={"Cookie": "lang=ru"}):
            from flask import g
            g.lang = "ru"
            label = game_label(SavedGame.of(with_turn))
        app.extensions["web_remote"].close()
    finally:
        session.close()
    assert "Ход 34" in label and "turn" not in label and "classic-eur" not in label


def test_a_russian_phone_at_a_swedish_table_reads_the_swedish_rules(tmp_path: Path) -> None:
    from web_remote import create_app
    session = open_real_session(tmp_path / "sv", ("Åsa", "Bo"), edition="sv")
    try:
        app = create_app(session, tmp_path / "sv", {"banker_pin": "2468"})
        åsa = joined(app, "Åsa")
        åsa.client.set_cookie("lang", "ru")
        html = åsa.client.get("/rules").get_data(as_text=True)
        app.extensions["web_remote"].close()
    finally:
        session.close()
    assert '<section class="rule" lang="en"' in html and "Goal" in html  # readable
    assert "Svensk utgåva" not in html and "Правила" in html  # the page speaks Russian


def test_the_card_news_is_said_from_the_views_card_record() -> None:
    """The card that is news is said from the table view's DrawnCard in the words' language
    and edition (its printed text only where the edition has no name for it); none at
    game over and none without a card."""
    card = DrawnCard("chance-dividend", "chance", "printed", "Ann")
    words = Words(Setup("classic-eur", None, {}), "sv", i18n.translator("sv"))
    said = card_news(card, None, words)
    assert said is not None and said.player == "Ann" and "Ann" in said.title
    assert said.text == i18n.localized_name("classic-eur", "chance-dividend", "sv") != "printed"
    assert i18n.localized_name("classic-eur", "chance", "sv") in said.title
    assert card_news(card, "Bo", words) is None and card_news(None, None, words) is None
    unknown = card_news(DrawnCard("no-such-card", "chance", "printed", None), None, words)
    assert unknown is not None and unknown.text == "printed" and unknown.player == ""


def test_the_headline_is_said_from_the_views_turn_and_seats() -> None:
    """Doubles to roll again, the reader's own turn and their jail come from the Turn and
    Seat records; no players, no headline."""
    state = {"players": [{"name": "Ann", "in_jail": True}, {"name": "Bo"}], "current": "Ann",
             "turn": {"doubles": 1, "must_roll": True}}
    words = Words(Setup.of(state), "en", i18n.translator("en"))
    turn = Turn.of(state)
    assert turn.roll_again and not Turn.of({**state, "turn": {"doubles": 1}}).roll_again
    mine = headline(turn, seats(state), "Ann", words)
    theirs = headline(turn, seats(state), "Bo", words)
    assert mine is not None and mine.mine and mine.jail
    assert theirs is not None and not theirs.mine and not theirs.jail and "Ann" in theirs.text
    assert mine.text != theirs.text
    assert headline(turn, (), "Ann", words) is None
