"""The session's listener that speaks: each accepted command's sentences, to the voice.

Listeners run on the session's writer thread after the commit, so `on_update` only
queues the update; the announcer's own thread builds the state, the sentences
(companion.speech.spoken) and hands them to the voice (companion.speech.voice), which
says them in a child process. A warning the screen shows is said the same way (`warn`):
given as its sentences in a language (companion.words.input_texts: a reader lost, a stuck
button, a wrong banker PIN), it is said in the table's language, as the screen shows it.
Settings (on/off, volume, quiet hours) are read again whenever `speech.json` changed.
Where the voice cannot say anything (no espeak-ng, no sound device: `Voice.available`,
fixed when it starts) no sentence is made and an update is not handed to the thread at all
(a tenth to a fifth of a millisecond of a move here, issue 28).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.game.api import GameSessionProtocol, Update
from companion.speech import settings as speech_settings
from companion.speech.spoken import sentences, spoken_for
from companion.speech.voice import Voice
from companion.words import catalog as i18n
from companion.words.table_language import TableLanguage

log = logging.getLogger(__name__)


def local_hour() -> int:
    """The hour of the table's clock (quiet hours are local)."""
    return time.localtime().tm_hour


#: a warning's sentences in a language (the language in, the sentences out)
WarningSentences = Callable[[str], Sequence[str]]


@dataclass(frozen=True)
class _Note:
    """A warning to say, or a marker the announcer's thread sets when it reaches it."""

    text: str | WarningSentences = ""
    reached: threading.Event | None = None


class Announcer:
    """Listens to a session and says what happens in the table's language."""

    def __init__(self, session: GameSessionProtocol, voice: Voice,
                 data_dir: Path | None = None, language: Callable[[], str] | None = None,
                 hour: Callable[[], int] = local_hour) -> None:
        """`language`: a language to speak instead of the table's (tests); by default the
        table's one language (companion.words.table_language: chosen at setup or on the
        banker page, else the configured screen language, else the edition's)."""
        self.session, self.voice, self.data_dir = session, voice, data_dir
        self.language, self.hour = language, hour
        #: the table's one language (companion.words.table_language), found once: finding
        #: it resolves the data folder's path, a tenth of a millisecond a move here (issue
        #: 28); the object is the one a choice on the screen or a phone changes, so a
        #: choice is heard from the next sentence on
        self._table_language = TableLanguage.at(data_dir) if data_dir is not None else None
        self.settings = speech_settings.load(data_dir)
        #: the settings' file, looked at once an update (its path made once)
        self._settings_file = None if data_dir is None else \
            os.fspath(data_dir / speech_settings.FILE_NAME)
        self._stamp = self._settings_stamp()
        self._updates: queue.Queue[Update | _Note | None] = queue.Queue()
        #: the last version whose sentences were handed to the voice
        self.version = 0
        self._told = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="announcer", daemon=True)
        self._thread.start()
        self._remove: Callable[[], None] | None = session.add_listener(self.on_update)

    def on_update(self, update: Update) -> None:
        """Session listener (the listeners' thread): only queue it; where the voice can
        say nothing, only note that its version was reached (`settle`)."""
        if not self.voice.available:
            with self._told:
                self.version = max(self.version, update.version)
                self._told.notify_all()
            return
        self._updates.put(update)

    def warn(self, text: str | WarningSentences) -> None:
        """Say a warning the screen shows: a sentence already in the table's language, or
        its sentences in any language (said in the table's, read on the announcer's
        thread)."""
        self._updates.put(_Note(text))

    def settle(self, version: int, timeout: float = 10.0) -> bool:
        """Wait until the update of `version` (and every one before) was turned into
        sentences and handed to the voice (tests, the bench)."""
        with self._told:
            return self._told.wait_for(lambda: self.version >= version, timeout)

    def said_warnings(self, timeout: float = 10.0) -> bool:
        """Wait until every warning handed over so far was handed to the voice."""
        done = threading.Event()
        self._updates.put(_Note(reached=done))
        return done.wait(timeout)

    def _run(self) -> None:
        while True:
            item = self._updates.get()
            if item is None:
                return
            try:
                if isinstance(item, _Note):
                    if item.reached is not None:
                        item.reached.set()
                    elif item.text and self.voice.available:
                        lang = self._lang(self.session.state())
                        said = [item.text] if isinstance(item.text, str) else \
                            [t for t in item.text(lang) if t]
                        self._say(said, lang)
                else:
                    self._announce(item)
            except Exception:  # speech must never stop the table: log and go on
                log.exception("speech: could not announce")
            if isinstance(item, Update):
                with self._told:
                    self.version = max(self.version, item.version)
                    self._told.notify_all()

    def _announce(self, update: Update) -> None:
        if not self.voice.available or not self._speaks():
            return
        state = update.state
        lang = self._lang(state)
        turn = any(e.get("kind") in ("turn", "undone", "redone") for e in update.events)
        said = sentences(update.events, spoken_for(state, lang), turn_changed=turn)
        self._say(said, lang, checked=True)

    def _say(self, said: list[str], lang: str, checked: bool = False) -> None:
        """Hand the sentences to the voice, unless it is quiet now (`checked`: the caller
        has just asked, reading the settings' file once for the update)."""
        if not checked and (not self.voice.available or not self._speaks()):
            return
        for text in said:
            self.voice.say(text, lang, self.settings.volume)

    def _settings_stamp(self) -> float | None:
        """The settings file's modification time (None: no file), as
        `speech_settings.stamp` says it, from the path made once."""
        if self._settings_file is None:
            return None
        try:
            return os.stat(self._settings_file).st_mtime_ns / 1e9
        except OSError:
            return None

    def _speaks(self) -> bool:
        stamp = self._settings_stamp()
        if stamp != self._stamp:
            self._stamp = stamp
            self.settings = speech_settings.load(self.data_dir)
        return self.settings.speaks_at(self.hour())

    def _lang(self, state: Mapping[str, object]) -> str:
        chosen = self.language() if self.language is not None else ""
        if chosen:
            return i18n.normalize_language(chosen)
        edition = state.get("edition")
        edition_id = edition if isinstance(edition, str) else None
        if self._table_language is not None:
            return self._table_language.resolve(edition_id)
        return i18n.default_language(edition_id)

    def close(self) -> None:
        """Stop listening, finish the announcer's thread, and close the voice."""
        if self._remove is not None:
            self._remove()
            self._remove = None
        self._updates.put(None)
        self._thread.join(10.0)
        self.voice.close()
