"""The table speaks what happens (issue 30): the sentences come from the one catalog in
each of the seven languages, amounts are spoken as the language says them, the voice is
heard (espeak-ng's audio, written to WAV files by the voice's test sink: non-silent and
as long as the sentence), and the session's writer never waits for it."""

from __future__ import annotations

import array
import os
import stat
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_fakes import open_real_session, play

from companion.speech import announcer as announcer_module
from companion.speech import settings as speech_settings
from companion.speech.announcer import Announcer
from companion.speech.spoken import Spoken, sentences, spoken_for
from companion.speech.voice import BACKLOG, Voice, engine_path
from companion.words import catalog as i18n

LANGS = ("en", "sv", "fr", "de", "nl", "pl", "ru")
needs_engine = pytest.mark.skipif(engine_path() is None,
                                  reason="espeak-ng is not installed (test.sh does it)")
RENT = [{"kind": "rolled", "player": "Bram", "dice": [1, 2], "double": False},
        {"kind": "moved", "player": "Bram", "from": 0, "to": 3},
        {"kind": "transfer", "from": "Bram", "to": "Anna", "amount": 250, "reason": "rent"}]


def voice_for(lang: str, code: str = "EUR", edition: str = "classic-eur") -> Spoken:
    state = {"edition": edition, "currency": {"code": code}, "current": "Anna",
             "players": [{"name": "Anna", "position": 0}, {"name": "Bram", "position": 3}]}
    return spoken_for(state, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_who_pays_whom_how_much_and_why_in_each_language(lang: str) -> None:
    voice = voice_for(lang)
    said = sentences(RENT, voice, turn_changed=True)
    square = voice.square(3)
    rent = said[0]
    assert "Bram" in rent and "Anna" in rent and square in rent and "250" in rent
    assert "{" not in rent and "€" not in rent  # spoken, never written
    assert said[-1] == voice.say("news_turn", player="Anna")  # whose turn: the headline's
    english = sentences(RENT, voice_for("en"))[0]
    assert english == "Bram pays Anna 250 euros rent for Rue Lecourbe"
    if lang != "en":
        assert rent != english  # translated, not the source text


@pytest.mark.parametrize(("lang", "code", "amount", "word"), [
    ("sv", "SEK", 1, "1 krona"), ("sv", "SEK", 30000, "30000 kronor"),
    ("pl", "PLN", 1, "1 złoty"), ("pl", "PLN", 3, "3 złote"), ("pl", "PLN", 5, "5 złotych"),
    ("pl", "PLN", 22, "22 złote"), ("pl", "PLN", 1500, "1500 złotych"),
    ("ru", "PLN", 21, "21 злотый"), ("ru", "SEK", 2, "2 кроны"), ("ru", "SEK", 11, "11 крон"),
    ("ru", "CHF", 1500, "1500 франков"), ("de", "CHF", 1, "1 Franken"),
    ("fr", "EUR", 1, "1 euro"), ("fr", "EUR", 2, "2 euros"), ("en", "M", 1500, "1500"),
])
def test_amounts_are_spoken_in_the_plural_form_the_language_wants(
        lang: str, code: str, amount: int, word: str) -> None:
    assert voice_for(lang, code).money(amount) == word


def test_the_written_amount_would_not_do() -> None:
    """What the screen writes ("Kr 30 000") is not what the voice says."""
    state = {"currency": i18n.edition_data("sv")["currency"]}
    written = i18n.format_money(30000, state["currency"], "sv")
    assert written.replace("\xa0", " ") == "Kr 30 000"
    assert spoken_for(state, "sv").money(30000) == "30000 kronor"


def test_a_card_an_auction_and_a_purchase_are_said() -> None:
    voice = voice_for("en")
    said = sentences([
        {"kind": "card", "player": "Anna", "deck": "chance", "card": "", "text": "Go to jail"},
        {"kind": "bid", "player": "Bram", "amount": 120},
        {"kind": "auction_closed", "square": 3, "winner": "Bram", "amount": 120},
    ], voice)
    assert said == ["Go to jail", "Bram bids 120 euros", "Bram won Rue Lecourbe for 120 euros"]
    bought = sentences([{"kind": "transfer", "from": "Anna", "to": None, "amount": 60,
                         "reason": "buy"}, {"kind": "bought", "player": "Anna", "square": 3}],
                       voice)
    assert bought == ["Anna bought Rue Lecourbe"]  # not also "Anna pays 60 euros"
    assert sentences([{"kind": "auction_closed", "square": 3, "winner": None, "amount": 0}],
                     voice) == ["The auction closes without a bid"]


# --- heard ---------------------------------------------------------------------------------


def loudness(path: Path) -> tuple[float, float]:
    """A WAV file's length in seconds and the RMS of its 16-bit samples (0..32767)."""
    with wave.open(str(path), "rb") as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1
        frames = wav.readframes(wav.getnframes())
        seconds = wav.getnframes() / wav.getframerate()
    samples = array.array("h", frames)
    rms = (sum(s * s for s in samples) / max(1, len(samples))) ** 0.5
    return seconds, rms


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    session = open_real_session(tmp_path / "game", ("Anna", "Bram"))
    yield session
    session.close()


@needs_engine
@pytest.mark.parametrize("lang", LANGS)
def test_the_table_is_heard_in_each_language(lang: str, game: Any, tmp_path: Path) -> None:
    voice = Voice(sink=tmp_path / "heard")
    announcer = Announcer(game, voice, tmp_path / "game", language=lambda: lang)
    try:
        play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy", "by": "Anna"},
             {"do": "end_turn"}, {"do": "roll", "dice": [1, 2]})
        assert announcer.settle(game.state()["version"], 30) and voice.idle(60)
    finally:
        announcer.close()
    words = spoken_for(game.state(), lang)
    rent = sentences(RENT[:2] + [{"kind": "transfer", "from": "Bram", "to": "Anna",
                                  "amount": 4, "reason": "rent"}], words)[0]
    texts = [said.text for said in voice.heard]
    assert rent in texts  # "Bram pays Anna 4 euros rent for Rue Lecourbe", in `lang`
    assert words.say("news_turn", player="Bram") in texts
    for said in voice.heard:
        assert said.ok and said.lang == lang and said.wav is not None
        seconds, rms = loudness(said.wav)
        assert rms > 300, (said.text, rms)  # not silence
        per_word = seconds / len(said.text.split())
        assert 0.12 < per_word < 1.5, (said.text, seconds)  # as long as the sentence


def test_the_writer_never_waits_for_the_voice(game: Any, tmp_path: Path) -> None:
    """An engine stuck on its first sentence: the game goes on, the backlog stays short,
    and the voice says what is left once the engine goes again."""
    gate = tmp_path / "gate"
    os.mkfifo(gate)
    engine = tmp_path / "stuck-engine"
    engine.write_text(f"#!/bin/sh\ncat >/dev/null\nread line < {gate}\n", encoding="utf-8")
    engine.chmod(engine.stat().st_mode | stat.S_IXUSR)
    voice = Voice(sink=tmp_path / "heard", engine=str(engine))
    announcer = Announcer(game, voice, tmp_path / "game", language=lambda: "en")
    try:
        play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy", "by": "Anna"})
        assert announcer.settle(game.state()["version"])
        for amount in range(1, 13):  # twelve more payments while the engine is stuck
            play(game, {"do": "pay", "from": "Anna", "to": "Bram", "amount": amount})
        assert announcer.settle(game.state()["version"])
        assert voice.heard == []  # the first sentence is still being said
        release = os.open(gate, os.O_RDWR)  # never blocks; each stuck engine reads a line
        os.write(release, b"go\n" * 4 * BACKLOG)
        assert voice.wait_said(1, 10)
        assert voice.idle(10)
    finally:
        announcer.close()
        if "release" in locals():
            os.close(release)
    assert 1 < len(voice.heard) <= BACKLOG + 1  # the oldest waiting ones were dropped


def test_off_and_quiet_hours_say_nothing(game: Any, tmp_path: Path) -> None:
    data = tmp_path / "game"
    speech_settings.save(data, speech_settings.SpeechSettings(on=False))
    voice = Voice(sink=tmp_path / "heard", engine="/bin/true")
    announcer = Announcer(game, voice, data, language=lambda: "en", hour=lambda: 23)
    try:
        play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy", "by": "Anna"})
        assert announcer.settle(game.state()["version"]) and voice.idle(10)
        assert voice.heard == []
        speech_settings.save(data, speech_settings.SpeechSettings(on=True, quiet_from=22,
                                                                  quiet_until=7))
        os.utime(data / speech_settings.FILE_NAME, ns=(1, 1))  # a new stamp, surely
        play(game, {"do": "end_turn"})
        assert announcer.settle(game.state()["version"]) and voice.idle(10)
        assert voice.heard == []  # 23:00 is in the quiet hours
        speech_settings.save(data, speech_settings.SpeechSettings(on=True, volume=40))
        os.utime(data / speech_settings.FILE_NAME, ns=(2, 2))
        play(game, {"do": "roll", "dice": [1, 2]})
        assert announcer.settle(game.state()["version"]) and voice.idle(10)
        assert [s.text for s in voice.heard] == ["Bram pays Anna 4 euros rent for Rue Lecourbe"]
    finally:
        announcer.close()


def test_broken_settings_give_the_defaults(tmp_path: Path) -> None:
    (tmp_path / speech_settings.FILE_NAME).write_text('{"on": "x", "volume": "loud"}')
    assert speech_settings.load(tmp_path) == speech_settings.SpeechSettings()
    (tmp_path / speech_settings.FILE_NAME).write_text('[1, 2]')
    assert speech_settings.load(tmp_path) == speech_settings.SpeechSettings()


def test_a_warning_the_screen_shows_is_said(game: Any, tmp_path: Path) -> None:
    voice = Voice(sink=tmp_path / "heard", engine="/bin/true")
    announcer = Announcer(game, voice, tmp_path / "game", language=lambda: "en")
    try:
        announcer.warn("RFID reader  unplugged")
        assert announcer.said_warnings() and voice.idle(10)
    finally:
        announcer.close()
    assert [(s.text, s.lang) for s in voice.heard] == [("RFID reader unplugged", "en")]


def test_the_voice_speaks_the_tables_language(game: Any, tmp_path: Path) -> None:
    """The language chosen for the table (setup, banker page) is the one spoken."""
    from companion.words.table_language import TableLanguage

    data = tmp_path / "game"
    TableLanguage.at(data).choose("de")
    voice = Voice(sink=tmp_path / "heard", engine="/bin/true")
    announcer = Announcer(game, voice, data)
    try:
        play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy", "by": "Anna"},
             {"do": "end_turn"}, {"do": "roll", "dice": [1, 2]})
        assert announcer.settle(game.state()["version"]) and voice.idle(10)
    finally:
        announcer.close()
    assert {s.lang for s in voice.heard} == {"de"}
    assert "Bram zahlt Anna 4 Euro Miete für Rue Lecourbe" in [s.text for s in voice.heard]


def test_a_language_chosen_during_the_game_is_spoken_from_the_next_move(
        game: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The announcer finds the table's language once (not a path resolved every move,
    issue 28), and still speaks a choice made later, on the screen or a phone, from the
    next move on; the configured language too, before anybody chooses."""
    from companion.words.table_language import TableLanguage

    data = tmp_path / "game"
    table = TableLanguage.at(data)
    table.configured = "sv"
    voice = Voice(sink=tmp_path / "heard", engine="/bin/true")
    announcer = Announcer(game, voice, data)
    found: list[Path] = []
    at = TableLanguage.at.__func__  # type: ignore[attr-defined]

    def counted(cls: type[TableLanguage], folder: Path) -> TableLanguage:
        found.append(folder)
        return at(cls, folder)  # type: ignore[no-any-return]

    monkeypatch.setattr(TableLanguage, "at", classmethod(counted))
    try:
        play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy", "by": "Anna"})
        assert announcer.settle(game.state()["version"]) and voice.idle(10)
        heard = len(voice.heard)
        assert heard and {s.lang for s in voice.heard} == {"sv"}
        table.choose("de")
        play(game, {"do": "end_turn"}, {"do": "roll", "dice": [1, 2]})
        assert announcer.settle(game.state()["version"]) and voice.idle(10)
        assert len(voice.heard) > heard and {s.lang for s in voice.heard[heard:]} == {"de"}
    finally:
        announcer.close()
    assert found == []  # the one object was found when the announcer started


def test_a_voice_that_can_say_nothing_makes_no_sentence(
        game: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No engine or no sound device: the announcer makes no sentence of a move (nor reads
    the state or the settings' file for it), and is still settled at every version; a
    voice that can speak, the same moves, is handed their sentences."""
    made: list[str] = []
    real = spoken_for

    def counting(state: Any, lang: str) -> Any:
        made.append(lang)
        return real(state, lang)

    monkeypatch.setattr(announcer_module, "spoken_for", counting)
    mute = Voice(sink=tmp_path / "heard", engine="/bin/true")
    mute.available = False  # as without espeak-ng or /dev/snd
    announcer = Announcer(game, mute, tmp_path / "game", language=lambda: "en")
    try:
        for amount in (1, 2, 3):
            play(game, {"do": "pay", "from": "Anna", "to": "Bram", "amount": amount})
        assert announcer.settle(game.state()["version"], 10)
        announcer.warn("A card reader is lost")
        assert announcer.said_warnings(10)
    finally:
        announcer.close()
    assert made == [] and mute.heard == []
    speaking = Voice(sink=tmp_path / "heard2", engine="/bin/true")
    assert speaking.available
    announcer = Announcer(game, speaking, tmp_path / "game", language=lambda: "en")
    try:
        play(game, {"do": "pay", "from": "Anna", "to": "Bram", "amount": 4})
        assert announcer.settle(game.state()["version"], 10)
    finally:
        announcer.close()
    assert made == ["en"]
