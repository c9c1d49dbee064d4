"""The pages' templates compiled once per install, not on every start.

Jinja compiles a template to Python the first time a page needs it: 164 ms of CPU here for
the 24 templates, parts/me.html alone 50 ms, so the first phones to open their pages after
a start waited for it (on a Pi Zero 2 W, seconds). The compiled code is kept in the data
directory (`cache/templates`, left out of backups: companion.game.backup) and read back at
the next start, checked against each template's source (5 ms here for all 24), and
`companion run` loads them all before it serves (`warm`, companion.app.wiring.WebRemote),
before the screen's first frame: the first start after an install or an upgrade compiles
them then (about 2-8 s on a Pi Zero 2 W, once), every later start reads them back. Loaded
on a thread beside the start instead, that compile fell into the first presses' frames.
A damaged file (a power cut while it was written) is compiled again and written anew; a
folder that cannot be written only means compiling on every start, as before.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from jinja2 import Environment, FileSystemBytecodeCache
from jinja2.bccache import Bucket

log = logging.getLogger(__name__)

#: where in the data directory the compiled templates are kept
FOLDER = Path("cache") / "templates"


class TemplateCache(FileSystemBytecodeCache):
    """Jinja's cache of compiled templates in a folder, never failing a page: a file it
    cannot read is compiled again, a file it cannot write is only not kept."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception as exc:  # truncated or garbage: Jinja reads it with pickle/marshal
            log.warning("a compiled page template was damaged (%s): compiled again", exc)
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError as exc:  # the folder went, the card is full: the next start compiles
            log.warning("a compiled page template could not be kept: %s", exc)


def keep_compiled(env: Environment, data_dir: Path) -> None:
    """Keep `env`'s compiled templates in `data_dir`'s cache folder (made here)."""
    folder = Path(data_dir) / FOLDER
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        log.warning("the page templates are compiled on every start: %s", exc)
        return
    env.bytecode_cache = TemplateCache(str(folder))


def warm(env: Environment) -> int:
    """Load every template now (from the cache, else compiled and kept), so no phone's
    first page waits for it; how many there are."""
    started = time.process_time()
    names = env.list_templates()
    for name in names:
        env.get_template(name)
    log.info("the page templates loaded: %d, %.0f ms of CPU", len(names),
             (time.process_time() - started) * 1000)
    return len(names)

