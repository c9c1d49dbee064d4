"""Helpers for rule tests: start games, apply commands, arrange boards by hand."""

from __future__ import annotations

from typing import Any

from companion.editions import load_edition
from companion.game.applying import apply_command
from companion.rules import Accepted, GameState, Rejection, apply

CLASSIC = "classic-eur"
MEGA = "mega"


def start(players: tuple[str, ...] = ("Ann", "Bo", "Cy"), seed: int = 1,
          edition: str = CLASSIC, **options: Any) -> GameState:
    """A fresh game."""
    r = apply_command(None, {"do": "new_game", "edition": edition, "players": list(players),
                             "seed": seed, "options": options})
    assert isinstance(r, Accepted), r
    return r.state


def ok(state: GameState, *commands: dict[str, Any]) -> tuple[GameState, list[dict[str, Any]]]:
    """Apply commands that must be accepted; the final state and all events."""
    events: list[dict[str, Any]] = []
    for c in commands:
        r = apply(state, c)
        assert isinstance(r, Accepted), f"{c} refused: {r}"
        assert r.state.version == state.version + 1
        state = r.state
        events.extend(r.events_json())
    return state, events


def refused(state: GameState, command: dict[str, Any], code: str) -> Rejection:
    """Apply a command that must be refused with `code`."""
    r = apply(state, command)
    assert isinstance(r, Rejection), f"{command} was accepted"
    assert r.code.value == code, f"{command}: {r.code.value} ({r.message}), expected {code}"
    assert r.message
    return r


def arrange(state: GameState, **changes: Any) -> GameState:
    """A copy of the state with owners/levels/cash set by hand (tests only).

    owners={square: player index}, levels={square: level}, mortgaged=[squares],
    cash={player: amount}, position={player: square}, jail=[players],
    jail_cards={player: [card ids]}, bus_tickets={player: [ticket ids]} (taken from the pile),
    depots=[stations].
    """
    g = state.copy()
    for sq, who in changes.get("owners", {}).items():
        g.set_owner(sq, who)
    for sq, level in changes.get("levels", {}).items():
        g.set_level(sq, level)
        houses, hotels, skyscrapers = g.buildings_at(level)
        g.bank_houses -= houses
        g.bank_hotels -= hotels
        g.bank_skyscrapers -= skyscrapers
    for sq in changes.get("mortgaged", []):
        g.set_mortgaged(sq, True)
    for who, amount in changes.get("cash", {}).items():
        g.wp(who).cash = amount
    for who, sq in changes.get("position", {}).items():
        g.wp(who).position = sq
    for who in changes.get("jail", []):
        g.wp(who).in_jail = True
        g.wp(who).position = g.edition.jail_index
    for who, cards in changes.get("jail_cards", {}).items():
        g.wp(who).jail_cards = list(cards)
        for card in cards:
            g.wdeck(g.edition.cards[card].deck).remove(card)
    for who, tickets in changes.get("bus_tickets", {}).items():
        g.wp(who).bus_tickets = tuple(tickets)
        for ticket in tickets:
            g.wdeck("bus_tickets").remove(ticket)
    if "depots" in changes:
        g.depots = tuple(sorted(changes["depots"]))
    return g


def transfers(events: list[dict[str, Any]]) -> list[tuple[Any, Any, int, str]]:
    """(from, to, amount, reason) of every transfer event."""
    return [(e["from"], e["to"], e["amount"], e["reason"]) for e in events
            if e["kind"] == "transfer"]


def edition(edition_id: str = CLASSIC) -> Any:
    """The loaded edition."""
    return load_edition(edition_id)
