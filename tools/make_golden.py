"""Write golden whole-game replays: bot games as table scripts plus their final state.

Run after a deliberate rule change, review the diff of tests/data/games/, and commit:
    .venv/bin/python tools/make_golden.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from companion.bots import Bots
from companion.game.applying import apply_command, state_json
from companion.rules import Accepted, command_to_json

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "games"

#: (file stem, edition, players, seed, options, end the game by agreement after N commands)
GAMES: list[tuple[str, str, list[str], int, dict[str, object], int]] = [
    ("classic-eur-4p", "classic-eur", ["Ann", "Bo", "Cy", "Dee"], 11, {}, 0),
    ("classic-eur-2p-pot", "classic-eur", ["Ann", "Bo"], 5,
     {"free_parking_pot": True, "double_salary_on_go": True}, 0),
    ("classic-eur-6p", "classic-eur", ["A", "B", "C", "D", "E", "F"], 3, {}, 0),
    ("classic-eur-short", "classic-eur", ["Ann", "Bo", "Cy", "Dee"], 2, {"variant": "short"}, 0),
    ("classic-eur-timed", "classic-eur", ["Ann", "Bo", "Cy"], 4, {"variant": "timed"}, 400),
    ("classic-en-3p", "classic-en", ["Ann", "Bob", "Cat"], 7, {}, 0),
    ("sv-4p", "sv", ["Anna", "Björn", "Cilla", "David"], 8, {}, 0),
    ("sv-short", "sv", ["Anna", "Björn", "Cilla"], 9, {"variant": "short"}, 0),
    ("ch-4p", "ch", ["Anne", "Beat", "Chloé", "Dario"], 10, {}, 0),
    ("pl-3p-capital", "pl", ["Ania", "Bartek", "Celina"], 12, {}, 300),
    ("ru-monopolist-4p", "ru-monopolist", ["Аня", "Борис", "Вера", "Глеб"], 13, {}, 0),
    # speed die (triples, Mr. Monopoly, bus), bus tickets ridden and expired, skyscrapers,
    # depots, rebalanced groups, Birthday gift and Auction squares
    ("mega-4p", "mega", ["Ann", "Bo", "Cy", "Dee"], 15, {}, 0),
]


def record(edition: str, players: list[str], seed: int, options: dict[str, object],
           end_after: int = 0, cap: int = 20000,
           ) -> tuple[list[dict[str, object]], dict[str, object]]:
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
        if end_after and len(lines) >= end_after:
            timed = options.get("variant") == "timed"
            cmd: dict[str, Any] = {"do": "end_game", "reason": "time" if timed else "agreement"}
        else:
            cmd = command_to_json(bots.choose(g))
        r = apply_command(g, cmd)
        assert isinstance(r, Accepted), (cmd, r)
        for e in r.events_json():  # record what the device rolled and drew, as a table would
            if e["kind"] == "rolled" and cmd["do"] == "roll" and "dice" not in cmd:
                cmd["dice"] = e["dice"]
            if e["kind"] == "card" and cmd["do"] == "draw" and "card" not in cmd:
                cmd["card"] = e["card"]
        lines.append(cmd)
        g = r.state
    return lines, state_json(g, with_legal=False)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for stem, edition, players, seed, options, end_after in GAMES:
        lines, final = record(edition, players, seed, options, end_after)
        (OUT / f"{stem}.jsonl").write_text(
            "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), "utf-8")
        final["rejected"] = []
        (OUT / f"{stem}.expected.json").write_text(
            json.dumps(final, ensure_ascii=False, indent=1) + "\n", "utf-8")
        print(f"{stem}: {len(lines)} lines, winner {final['winner']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
