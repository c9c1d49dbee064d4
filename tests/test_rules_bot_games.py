"""Whole bot games end exactly as recorded: 20 seeds on each of four editions.

A guard for speed work on the engine (companion/rules) and the bots: a faster engine must
end every game in the same state, after the same turns and commands. The recorded
fingerprints (tests/data/bot_games.json: turns, commands, capped, and a hash of the final
`snapshot`) change only when a rule or a bot's policy is meant to change; then rewrite them
with `PYTHONPATH=. python tests/test_rules_bot_games.py --write` and say why in the commit.
A game a bot cannot finish (a refused bot command) is recorded as such, with a hash of the
refusal, so that it too stays the same until it is fixed.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from companion.bots import play_bot_game
from companion.rules.view import snapshot

RECORDED = Path(__file__).parent / "data" / "bot_games.json"
EDITIONS = ("classic-eur", "mega", "ru-monopolist", "sv")
SEEDS = range(20)


def fingerprint(edition: str, seed: int) -> str:
    """Turns, commands, capped and the final snapshot's hash of one bot game."""
    try:
        g, turns, commands, capped = play_bot_game(seed, edition=edition)
    except RuntimeError as exc:  # a bot command refused: the game cannot go on
        return "refused " + hashlib.sha256(str(exc).encode()).hexdigest()[:16]
    blob = json.dumps(snapshot(g), sort_keys=True, separators=(",", ":"))
    return f"{turns} {commands} {int(capped)} " + hashlib.sha256(blob.encode()).hexdigest()[:16]


def all_fingerprints() -> dict[str, str]:
    """Every game's fingerprint, by "edition/seed"."""
    return {f"{e}/{s}": fingerprint(e, s) for e in EDITIONS for s in SEEDS}


@pytest.mark.parametrize("edition", EDITIONS)
def test_bot_games_end_as_recorded(edition: str) -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    played = {f"{edition}/{s}": fingerprint(edition, s) for s in SEEDS}
    assert played == {k: recorded[k] for k in played}
    assert sum(not v.startswith("refused") for v in played.values()) >= len(SEEDS) - 2


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    RECORDED.write_text(json.dumps(all_fingerprints(), indent=1, sort_keys=True) + "\n",
                        encoding="utf-8")
