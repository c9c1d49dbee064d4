"""Write golden whole-game replays: bot games as table scripts plus their final state.

Run after a deliberate rule change, review the diff of tests/data/games/, and commit:
    .venv/bin/python scripts/make_golden.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.bots import Bots
from companion.game import apply_command, state_json
from companion.rules import Accepted, command_to_json

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "games"

#: (file stem, edition, players, seed, options)
GAMES = [
    ("classic-eur-4p", "classic-eur", ["Ann", "Bo", "Cy", "Dee"], 11, {}),
    ("classic-eur-2p-pot", "classic-eur", ["Ann", "Bo"], 5,
     {"free_parking_pot": True, "double_salary_on_go": True}),
    ("classic-eur-6p", "classic-eur", ["A", "B", "C", "D", "E", "F"], 3, {}),
]


def record(edition: str, players: list[str], seed: int, options: dict[str, object],
           cap: int = 20000) -> tuple[list[dict[str, object]], dict[str, object]]:
    """A bot game as script lines (dice and cards as resolved) and its final state JSON."""
    first = {"do": "new_game", "edition": edition, "players": players, "seed": seed,
             "options": options}
    r = apply_command(None, first)
    assert isinstance(r, Accepted)
    g = r.state
    lines: list[dict[str, object]] = [first]
    bots = Bots()
    for _ in range(cap):
        if g.winner >= 0:
            break
        cmd = command_to_json(bots.choose(g))
        r = apply_command(g, cmd)
        assert isinstance(r, Accepted), (cmd, r)
        for e in r.events:  # record what the device rolled and drew, as a table would
            if e["kind"] == "rolled" and cmd["do"] == "roll" and "dice" not in cmd:
                cmd["dice"] = e["dice"]
            if e["kind"] == "card" and cmd["do"] == "draw" and "card" not in cmd:
                cmd["card"] = e["card"]
        lines.append(cmd)
        g = r.state
    return lines, state_json(g, with_legal=False)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for stem, edition, players, seed, options in GAMES:
        lines, final = record(edition, players, seed, options)
        (OUT / f"{stem}.jsonl").write_text(
            "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), "utf-8")
        final["rejected"] = []
        (OUT / f"{stem}.expected.json").write_text(
            json.dumps(final, ensure_ascii=False, indent=1) + "\n", "utf-8")
        print(f"{stem}: {len(lines)} lines, winner {final['winner']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
