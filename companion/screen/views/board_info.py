"""The board the map draws, read from the edition's data file (outside the renderer).

The state JSON lists only ownable squares and no colours; the map also needs every
square's kind and the colour groups' colours, which the edition data has.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from companion.screen.theme import GROUP_COLORS, parse_hex
from companion.screen.ui_state import BoardInfo, SquareInfo
from companion.words import catalog as i18n


def edition_names() -> list[tuple[str, str]]:
    """(id, display name) of every shipped edition: the default edition first, then by id."""
    from companion.editions import DEFAULT_EDITION

    folder = resources.files("companion") / "data" / "editions"
    out = []
    first = DEFAULT_EDITION + ".json"
    for entry in sorted(folder.iterdir(), key=lambda e: (e.name != first, e.name)):
        if entry.name.endswith(".json"):
            data = json.loads(entry.read_text(encoding="utf-8"))
            out.append((str(data.get("id", entry.name[:-5])), str(data.get("name", ""))))
    return out


@cache
def board_info(edition_id: str, lang: str | None = None) -> BoardInfo:
    """The board of an edition, named in `lang` when the edition's "localized" block has it
    (else as the edition prints it); an empty BoardInfo (40 plain squares) if unknown."""
    path = resources.files("companion") / "data" / "editions" / f"{edition_id}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return BoardInfo()
    local = (data.get("localized") or {}).get(lang or "") or {}

    def name(sq: dict[str, Any]) -> str:
        # the one lookup of the phones too: the edition's name in `lang`, else for GO,
        # Chance and the like the catalog's (companion.words.square_texts), else printed
        if lang and sq.get("id"):
            try:
                return i18n.localized_name(edition_id, str(sq["id"]), lang)
            except KeyError:
                pass
        return str(sq.get("name", ""))

    squares = tuple(
        SquareInfo(i, name(sq), str(sq.get("kind", "")), sq.get("group"))
        for i, sq in enumerate(data.get("squares") or [])
    )
    colors = {name: parse_hex(str(g.get("color", "")), GROUP_COLORS.get(name, (150, 150, 150)))
              for name, g in (data.get("groups") or {}).items()}
    deck_names = local.get("decks") or {}
    decks = {name: str(deck_names.get(name) or d.get("name", name))
             for name, d in (data.get("decks") or {}).items()}
    cards = {str(k): str(v) for k, v in (local.get("cards") or {}).items()}
    from companion.editions import group_letters

    printed = {str(card.get("id")): str(card.get("text") or "")
               for d in (data.get("decks") or {}).values() for card in d.get("cards") or []
               if isinstance(card, dict) and card.get("id")}
    rent_dice = sorted({int(card["dice_multiplier"]) for d in (data.get("decks") or {}).values()
                        for card in d.get("cards") or []
                        if isinstance(card, dict) and card.get("dice_multiplier")})
    return BoardInfo(squares, colors, decks, cards, printed, localized=bool(local) or bool(lang),
                     group_letters=group_letters(edition_id), card_rent_dice=tuple(rent_dice))
