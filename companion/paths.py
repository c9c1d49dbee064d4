"""Where the companion keeps its saved games and settings (XDG conventions on Linux), and
how its small JSON files there are read and replaced (atomically)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

APP_DIR_NAME = "table-companion"


def default_data_dir() -> Path:
    """The data directory: $COMPANION_DATA_DIR, else $XDG_DATA_HOME/table-companion.

    >>> import os; os.environ["COMPANION_DATA_DIR"] = "/tmp/x"; str(default_data_dir())
    '/tmp/x'
    >>> del os.environ["COMPANION_DATA_DIR"]
    """
    explicit = os.environ.get("COMPANION_DATA_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_DIR_NAME


def default_config_file() -> Path:
    """The configuration file: $COMPANION_CONFIG, else the XDG config dir's config.toml."""
    explicit = os.environ.get("COMPANION_CONFIG")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / APP_DIR_NAME / "config.toml"


def read_json(path: Path, default: Any) -> Any:
    """The file's JSON, or `default` when it is missing or unreadable (never raises)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return default


def write_json(path: Path, data: Any, private: bool = False) -> None:
    """Replace the file atomically (write a temporary file, fsync, rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{threading.get_ident()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, separators=(",", ":"))
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
