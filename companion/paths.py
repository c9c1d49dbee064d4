"""Where the companion keeps its saved games and settings (XDG conventions on Linux)."""

from __future__ import annotations

import os
from pathlib import Path

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
