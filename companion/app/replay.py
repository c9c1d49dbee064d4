"""`companion replay SCRIPT [--json] [--data-dir DIR]`: apply a table script.

Without --data-dir the script is applied in memory and the final table printed (or the
state JSON with --json). With --data-dir the script goes through the durable game session.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.game.applying import apply_command, state_json
from companion.game.limits import InputTooComplex, loads_bounded
from companion.rules import Accepted, GameState, Rejection
from companion.words.table_text import render_table


class ScriptError(ValueError):
    """A line of a table script that is not a JSON command object."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def read_script(text: str) -> list[tuple[int, dict[str, Any]]]:
    """(line number, command) for every non-blank line; raises ScriptError on a malformed one.

    >>> read_script('{"do": "roll"}\\n\\n{"do": "end_turn"}\\n')
    [(1, {'do': 'roll'}), (3, {'do': 'end_turn'})]
    """
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = loads_bounded(raw)
        except json.JSONDecodeError as exc:
            raise ScriptError(number, f"not valid JSON ({exc.msg})") from None
        except (InputTooComplex, UnicodeError) as exc:
            raise ScriptError(number, f"not a command: {exc}") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("do"), str):
            raise ScriptError(number, 'a command must be a JSON object with a "do" field')
        out.append((number, obj))
    return out


def replay_lines(
    lines: list[tuple[int, dict[str, Any]]], state: GameState | None = None
) -> tuple[GameState | None, list[dict[str, Any]]]:
    """Apply commands in memory; the final state and the refused lines."""
    rejected: list[dict[str, Any]] = []
    for number, command in lines:
        result = apply_command(state, command)
        if isinstance(result, Rejection):
            rejected.append({"line": number, "code": result.code.value,
                             "message": result.message, "params": result.params})
        else:
            assert isinstance(result, Accepted)
            state = result.state
    return state, rejected


def main(argv: list[str]) -> int:
    """Entry point of `companion replay`."""
    parser = argparse.ArgumentParser(prog="companion replay", description=__doc__)
    parser.add_argument("script", help="a table script (JSON Lines), or - for standard input")
    parser.add_argument("--json", action="store_true", help="print the final state as JSON")
    parser.add_argument("--data-dir", type=Path, help="apply durably to the saved game there")
    args = parser.parse_args(argv)
    try:
        text = sys.stdin.read() if args.script == "-" else Path(args.script).read_text("utf-8")
    except OSError as exc:
        print(f"companion replay: cannot read {args.script}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"companion replay: {args.script} is not UTF-8 text", file=sys.stderr)
        return 2
    try:
        lines = read_script(text)
    except ScriptError as exc:
        print(f"companion replay: {args.script}: {exc}", file=sys.stderr)
        return 2
    if args.data_dir is not None:
        from companion.app.script_cli import replay_durably
        from companion.paths import usable_data_dir

        code: int = replay_durably(lines, usable_data_dir(args.data_dir))
        return code
    state, rejected = replay_lines(lines)
    if state is None:
        print("companion replay: the script starts no game (no new_game line accepted)",
              file=sys.stderr)
        for r in rejected:
            print(f"line {r['line']}: {r['code']}: {r['message']}", file=sys.stderr)
        return 1
    if args.json:
        out = state_json(state)
        out["rejected"] = rejected
        print(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        print(render_table(state))
        for r in rejected:
            print(f"refused line {r['line']}: {r['message']} ({r['code']})")
    return 0
