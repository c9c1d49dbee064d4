"""The pure rules engine: no I/O, no clock, no global randomness.

>>> from companion.editions import load_edition
>>> r = new_game(load_edition("classic-eur"), {"do": "new_game", "edition": "classic-eur",
...              "players": ["Ann", "Bo"], "seed": 7})
>>> r2 = apply(r.state, {"do": "roll", "dice": [3, 4]})
>>> public_state(r2.state)["players"][0]["position"]
7
"""

from companion.rules.codes import Code, Rejection, RulesError
from companion.rules.commands import (
    Command,
    Verb,
    command_to_json,
    parse_command,
)
from companion.rules.edition import Edition, EditionError, SquareKind, parse_edition
from companion.rules.engine import Accepted, Result, apply, new_game
from companion.rules.events import Event, EventError, Events, event_from_json
from companion.rules.legal import legal_commands
from companion.rules.options import RuleOptions
from companion.rules.state import GameState, PendingKind
from companion.rules.view import net_worth, net_worths, public_state, restore, snapshot

__all__ = [
    "Accepted", "Code", "Command", "command_to_json", "Edition", "EditionError", "Event",
    "EventError", "Events", "GameState", "PendingKind", "event_from_json",
    "Rejection", "Result", "RuleOptions", "RulesError", "SquareKind", "Verb", "apply",
    "legal_commands", "net_worth", "net_worths", "new_game", "parse_command", "parse_edition",
    "public_state", "restore", "snapshot",
]
