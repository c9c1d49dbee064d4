"""The `companion` console command: one entry point, one module per subcommand.

Each subcommand lives in its own module exposing `main(argv: list[str]) -> int` (or the
function named after a colon, for commands that share a module); this table maps names to
modules so that the command starts fast and a subcommand's
dependencies (pygame, flask, serial) load only when it runs.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from companion.paths import UnusableDataDir

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("companion.app.run_cmd", "start the companion: screen, buttons, readers, phone remote"),
    "replay": ("companion.app.replay", "apply a table script and print the table or the state"),
    "state": ("companion.app.state_cmd", "print the saved game's state as JSON"),
    "undo": ("companion.app.undo_cmd", "undo the last command of the saved game"),
    "games": ("companion.app.games_cmd", "list the saved games"),
    "export": ("companion.app.export_cmd", "export the saved game as a table script"),
    "screenshot": ("companion.app.screenshot_cmd", "render the current game to a PNG"),
    "backup": ("companion.app.games_cmd:backup_main",
               "copy the saved games into a file, also while playing"),
    "restore": ("companion.app.games_cmd:restore_main",
                "put a backup back (the companion stopped)"),
    "tap": ("companion.app.tap_cmd", "tap an RFID tag into a running companion"),
    "doctor": ("companion.app.doctor", "check display, audio, GPIO, readers, memory, mDNS, "
               "hotspot"),
    "bench": ("tools.bench", "run the speed benchmarks (JSON with --json)"),
}


def usage() -> str:
    """The help text listing every subcommand."""
    width = max(len(name) for name in SUBCOMMANDS)
    lines = ["usage: companion COMMAND [ARGS]", "       companion --version", "",
             "commands:"]
    for name, (_module, summary) in SUBCOMMANDS.items():
        lines.append(f"  {name.ljust(width)}  {summary}")
    return "\n".join(lines)


def version() -> str:
    """The installed companion's version (its package's metadata): what an update, a
    rollback or `companion doctor` names, and what runs."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("table-companion")
    except PackageNotFoundError:  # a checkout run without installing it
        return "unknown (not installed)"


def main(argv: list[str] | None = None) -> int:
    """Dispatch to a subcommand's `main`; exit code 2 for a usage error."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in {"-h", "--help", "help"}:
        print(usage())
        return 0 if args else 2
    if args == ["--version"]:
        print(f"companion {version()}")
        return 0
    name, rest = args[0], args[1:]
    if name not in SUBCOMMANDS:
        print(f"companion: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module_name, _, function = SUBCOMMANDS[name][0].partition(":")
    if module_name.startswith("tools."):  # developer tools live in the checkout, not installed
        checkout = str(Path(__file__).resolve().parents[2])
        if checkout not in sys.path:
            sys.path.insert(0, checkout)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        print(f"companion: {name!r} is not available in this version yet", file=sys.stderr)
        return 2
    try:
        result: int = getattr(module, function or "main")(rest)
    except UnusableDataDir as exc:  # --data-dir FILE: one line, as `companion run` says it
        print(f"companion {name}: {exc}", file=sys.stderr)
        return 2
    return result
