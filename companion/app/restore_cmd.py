"""`companion restore FILE`: see companion.app.backup_cmd."""

from __future__ import annotations

from companion.app.backup_cmd import restore_main


def main(argv: list[str]) -> int:
    """Put a backup back (stop the companion first)."""
    return restore_main(argv)
