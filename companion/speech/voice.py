"""The table's voice: espeak-ng (Debian's `espeak-ng`), one child process per sentence.

A sentence is handed to `say` and returns at once; the voice's own thread starts the
engine for it, feeds the text on its standard input (a name is never an argument) and
waits for it to finish, so the session's writer, the screen and a commit never wait for
speech. A child per sentence keeps nothing resident between announcements (an idle table
runs no engine) and lets each sentence pick its language; on a Pi Zero 2 W a sentence
costs its synthesis (docs/bench.md, `speech.*`).

Too many sentences waiting means the table has moved on: the oldest are dropped, at most
`BACKLOG` wait. With a `sink` folder the voice writes each sentence to a WAV file there
instead of playing it (the tests listen to those, and the bench times them).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import threading
from collections import deque
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

ENGINE = "espeak-ng"
#: the engine's voice for each of the seven languages
VOICES = {"en": "en", "sv": "sv", "fr": "fr", "de": "de", "nl": "nl", "pl": "pl", "ru": "ru"}
#: sentences waiting at most; older ones are dropped
BACKLOG = 6
#: words per minute (espeak-ng's default is 175: a little slower carries across a table)
RATE = 160
#: the longest one sentence may take to say before its child is stopped
TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Said:
    """One sentence the voice finished: its text, language, and the WAV it was written to
    (with a sink) or None (played)."""

    text: str
    lang: str
    wav: Path | None
    ok: bool


def engine_path() -> str | None:
    """Where espeak-ng is installed, or None."""
    return shutil.which(ENGINE)


def no_audio_device(dev: Path = Path("/dev/snd")) -> bool:
    """Linux without a sound device: playing would only fail (the sink still works)."""
    return sys.platform.startswith("linux") and not dev.exists()


def command(lang: str, volume: int, wav: Path | None, engine: str = ENGINE) -> list[str]:
    """The engine's command line for one sentence read from standard input (UTF-8).

    >>> command("sv", 80, None)
    ['espeak-ng', '-v', 'sv', '-s', '160', '-a', '80', '-b', '1', '--stdin']
    """
    args = [engine, "-v", VOICES.get(lang, "en"), "-s", str(RATE),
            "-a", str(max(0, min(200, int(volume)))), "-b", "1"]
    if wav is not None:
        args += ["-w", str(wav)]
    return args + ["--stdin"]


class Voice:
    """Says sentences on its own thread, one engine child each; `heard` lists what it said."""

    def __init__(self, sink: Path | None = None, engine: str | None = None) -> None:
        self.sink = sink
        self.engine = engine or engine_path()
        #: whether sentences can be said at all (an engine, and a device or a sink)
        self.available = self.engine is not None and (sink is not None
                                                      or not no_audio_device())
        self.heard: list[Said] = []
        self._waiting: deque[tuple[str, str, int]] = deque()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._busy = 0
        self._closed = False
        self._count = 0
        if self.engine is None:
            log.info("speech off: %s is not installed", ENGINE)

    def say(self, text: str, lang: str, volume: int = 100) -> bool:
        """Queue one sentence; False when it will not be said (no engine, closed, empty)."""
        text = " ".join(text.split())
        if not self.available or not text or volume <= 0:
            return False
        with self._cond:
            if self._closed:
                return False
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="speech",
                                                daemon=True)
                self._thread.start()
            while len(self._waiting) >= BACKLOG:
                dropped = self._waiting.popleft()
                log.info("speech: dropped %r (the table moved on)", dropped[0])
            self._waiting.append((text, lang, volume))
            self._cond.notify_all()
        return True

    def wait_said(self, count: int, timeout: float) -> bool:
        """Wait until `count` sentences were said in all (tests, the bench)."""
        with self._cond:
            return self._cond.wait_for(lambda: len(self.heard) >= count, timeout)

    def idle(self, timeout: float) -> bool:
        """Wait until nothing waits and nothing is being said."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._waiting and not self._busy,
                                       timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._waiting or self._closed)
                if self._closed:
                    return
                text, lang, volume = self._waiting.popleft()
                self._busy += 1
                self._count += 1
                number = self._count
            said = self._speak(text, lang, volume, number)
            with self._cond:
                self._busy -= 1
                self.heard.append(said)
                self._cond.notify_all()

    def _speak(self, text: str, lang: str, volume: int, number: int) -> Said:
        wav = None if self.sink is None else self.sink / f"{number:04d}-{lang}.wav"
        if wav is not None:
            wav.parent.mkdir(parents=True, exist_ok=True)
        args = command(lang, volume, wav, self.engine or ENGINE)
        try:
            with subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE) as child:
                _lower_priority(child.pid)
                try:
                    _out, err = child.communicate(text.encode("utf-8"), timeout=TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    child.kill()
                    _out, err = child.communicate()
                ok = child.returncode == 0
            if not ok:
                log.info("speech failed (%s): %s", child.returncode,
                         err.decode("utf-8", "replace").strip()[:200])
        except OSError as exc:
            log.info("speech failed: %s", exc)
            ok = False
        return Said(text, lang, wav, ok)

    def close(self) -> None:
        """Stop after the sentence being said; the waiting ones are dropped."""
        with self._cond:
            self._closed = True
            self._waiting.clear()
            self._cond.notify_all()
            thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(TIMEOUT_S)


def _lower_priority(pid: int) -> None:
    """The child below the companion, so synthesis never takes the screen's core."""
    try:
        os.setpriority(os.PRIO_PROCESS, pid, 5)
    except (OSError, AttributeError):  # gone already, or not a POSIX system
        pass
