"""The table's one language: chosen at setup (on the screen or the banker's phone), kept in
`<data_dir>/table_language.json` whoever deals the next game, and read by the screen and
every phone that has not picked a language of its own.

Before anybody chooses, the table speaks the configured screen language (`[screen]
language`), else the edition's own (companion.words.catalog.default_language). One object
per data folder in a process, so the screen's thread and the phones' threads see a choice at
once, without reading the file again.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> table = TableLanguage.at(folder)
>>> table.resolve("mega"), table.choose("nl"), table.resolve("mega")
('fr', True, 'nl')
>>> TableLanguage.at(folder) is table, TableLanguage(folder).chosen
(True, 'nl')
>>> table.choose("xx")
False
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import ClassVar

from companion.paths import read_json, write_json
from companion.words.catalog import LANGUAGES, default_language

FILE_NAME = "table_language.json"
log = logging.getLogger(__name__)


class TableLanguage:
    """The language a table speaks, shared by its screen and its phones."""

    _shared: ClassVar[dict[Path, TableLanguage]] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, data_dir: Path | None) -> None:
        """`data_dir` None: a table that keeps nothing (a screenshot, a test)."""
        self.path = Path(data_dir) / FILE_NAME if data_dir is not None else None
        saved = read_json(self.path, {}) if self.path is not None else {}
        chosen = saved.get("language") if isinstance(saved, dict) else None
        #: the table's choice ("" before any)
        self.chosen: str = chosen if chosen in LANGUAGES else ""
        #: the configured screen language, the table's until somebody chooses ("": none)
        self.configured: str = ""
        self._lock = threading.Lock()

    @classmethod
    def at(cls, data_dir: Path) -> TableLanguage:
        """The one object of this data folder in this process."""
        key = Path(data_dir).resolve()
        with cls._shared_lock:
            found = cls._shared.get(key)
            if found is None:
                found = cls._shared[key] = cls(key)
            return found

    def choose(self, lang: str) -> bool:
        """Make `lang` the table's language (kept across games and restarts); False, and
        nothing changed, for a language the table does not speak."""
        if lang not in LANGUAGES:
            return False
        with self._lock:
            if lang != self.chosen and self.path is not None:
                try:
                    write_json(self.path, {"language": lang})
                except OSError as exc:  # a full card: spoken now, forgotten at a restart
                    log.warning("cannot keep the table's language: %s", exc)
            self.chosen = lang
        return True

    def spoken(self) -> str:
        """The table's choice, else the configured language; "" when the table has
        neither (each edition speaks its own, and a phone its browser's)."""
        return self.chosen or (self.configured if self.configured in LANGUAGES else "")

    def resolve(self, edition: str | None = None) -> str:
        """The language the table speaks now: its choice, else the configured one, else
        the edition's own."""
        return self.spoken() or default_language(edition or None)
