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
