"""Where the companion keeps its saved games and settings (XDG conventions on Linux), and
how its small JSON files there are read and replaced (atomically)."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
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


class UnusableDataDir(ValueError):
    """The data directory asked for cannot be one (a file there); its message is one line
    saying what to do. `companion` prints it after the subcommand's name (companion/app/cli.py)."""


def data_dir_problem(data_dir: Path) -> str | None:
    """Why `data_dir` cannot be a data directory (one line saying what to do), or None.

    A missing one is fine (it is created when something is saved); a file there is not, and
    would otherwise surface as a raw errno message from deep inside the command."""
    if data_dir.exists() and not data_dir.is_dir():
        return f"the data directory {data_dir} is a file, not a directory: choose another " \
               "with --data-dir DIR"
    return None


def usable_data_dir(data_dir: Path) -> Path:
    """`data_dir` itself when it can be a data directory; UnusableDataDir when not."""
    problem = data_dir_problem(data_dir)
    if problem is not None:
        raise UnusableDataDir(problem)
    return data_dir


def default_config_file() -> Path:
    """The configuration file: $COMPANION_CONFIG, else the XDG config dir's config.toml."""
    explicit = os.environ.get("COMPANION_CONFIG")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / APP_DIR_NAME / "config.toml"


def trusted_file_problem(path: Path, what: str, sound: Callable[[Any], bool],
                         remedy: str) -> str | None:
    """Why a file the table's trust rests on (a PIN, the seats) cannot be trusted, in one
    line naming `what` and the `remedy`; None when it is absent or `sound` accepts its JSON.
    A damaged file must never read as an empty one."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{what} {path} cannot be read ({exc.strerror or exc})"
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return f"{what} {path} is damaged; nothing was changed. {remedy}"
    return None if sound(data) else f"{what} {path} is damaged; nothing was changed. {remedy}"


def read_json(path: Path, default: Any) -> Any:
    """The file's JSON, or `default` when it is missing or unreadable (never raises)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return default


def write_json(path: Path, data: Any, private: bool = False) -> None:
    """Replace the file atomically (write a temporary file, fsync, rename). The JSON is
    encoded in one call (`json.dumps`: the C encoder; `json.dump` streams through the
    pure-Python one, several times slower on a big file)."""
    replace_bytes(path, json.dumps(data, ensure_ascii=False, separators=(",", ":"))
                  .encode("utf-8"), private)


def replace_bytes(path: Path, data: bytes, private: bool = False) -> None:
    """Replace the file with `data` atomically: a power cut leaves the old file or the new
    one, never a part (a temporary file written and fsynced, then renamed over it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{threading.get_ident()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def append_bytes(path: Path, data: bytes, sync: bool = True) -> None:
    """Add `data` at the end of the file (created if missing) and fdatasync it (`sync`
    False: left to the kernel, for a file whose lines can be made again after a power cut,
    `sync_file` later): the cost is that of `data`, whatever the file's size. A power cut
    may leave the end of `data` torn, so a reader of an appended file must skip a broken
    last line."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
    try:
        fd = os.open(path, flags, 0o644)
    except FileNotFoundError:  # its folder first (once: not a mkdir a line)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, flags, 0o644)
    try:
        _write_all(fd, data)
        if sync:
            os.fdatasync(fd)
    finally:
        os.close(fd)


def sync_file(path: Path) -> None:
    """fdatasync a file written without it (`append_bytes(..., sync=False)`); a missing
    file is nothing to sync."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        os.fdatasync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
