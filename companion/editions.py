"""Load editions from the data files shipped in companion/data/editions (cached)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from companion.rules.edition import Edition, EditionError, parse_edition

#: the edition a new game starts from unless the table picks another (listed first)
DEFAULT_EDITION = "classic-eur"


def edition_ids() -> list[str]:
    """Every edition shipped with the companion."""
    folder = resources.files("companion") / "data" / "editions"
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir()
                  if p.name.endswith(".json"))


def player_limits(edition_id: str) -> tuple[int, int]:
    """(fewest, most) players the edition allows, as its data says (the engine refuses a
    new_game outside them); the classic (2, 8) for an edition that is not shipped.

    >>> player_limits("sv"), player_limits("classic-eur"), player_limits("no-such")
    ((2, 6), (2, 8), (2, 8))
    """
    try:
        edition = load_edition(edition_id)
    except EditionError:
        return 2, 8
    return edition.min_players, edition.max_players


@cache
def load_edition(edition_id: str) -> Edition:
    """The named edition, validated; raises EditionError for an unknown or broken one."""
    if edition_id not in edition_ids():
        raise EditionError(f"unknown edition {edition_id!r} (known: {', '.join(edition_ids())})")
    path = resources.files("companion") / "data" / "editions" / f"{edition_id}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise EditionError(f"{edition_id}: not valid JSON: {exc}") from None
    return parse_edition(data)


@cache
def group_letters(edition_id: str) -> dict[str, str]:
    """A letter for each colour group of streets, A, B, C... in board order: the group told
    apart without its colour, the same on the phones and the table screen ({} for an
    edition that is not shipped).

    >>> group_letters("classic-eur")["brown"], group_letters("classic-eur")["dark_blue"]
    ('A', 'H')
    """
    try:
        edition = load_edition(edition_id)
    except EditionError:
        return {}
    lots = [group for group, members in edition.groups.items()
            if edition.squares[members[0]].kind.value == "lot"]
    return {group: chr(ord("A") + n) for n, group in enumerate(lots)}
