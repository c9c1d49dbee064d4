"""Short labels for the board's squares ("Whitechapel Road" -> "Whit."), drawn on the map's
cells at 1280x720 and above; the editions print no short names, so they are derived here:
the first word that is not a generic street word, cut to four letters and a full stop."""

from __future__ import annotations

import re

#: words that name no place of their own ("Rue de la Paix" is "Paix"), in the seven languages
GENERIC = frozenset("""
    the of road street avenue square place lane station
    rue de la le les du des d l boulevard quai gare avenue place
    straat laan plein weg van het station
    gatan vägen torget allén plan
    strasse straße platz weg bahnhof der die das am an
    ulica aleja plac al ul dworzec
    улица проспект площадь переулок бульвар вокзал
""".split())
#: how many letters a shortened word keeps
LETTERS = 4


def short_label(name: str) -> str:
    """The square's short label: its first distinctive word, at most four letters and a full
    stop ("Dorpsstraat, Ons Dorp" -> "Dorp.", "Rue de la Paix" -> "Paix", "Go" -> "Go").

    >>> short_label("Whitechapel Road"), short_label("Rue de la Paix"), short_label("Go")
    ('Whit.', 'Paix', 'Go')
    """
    words = [w for w in re.split(r"[\s,'’/()«»\"]+", name) if w]
    if not words:
        return ""
    word = next((w for w in words if _distinctive(w)), words[0])
    word = word.strip(".-")
    return word if len(word) <= LETTERS + 1 else word[:LETTERS].rstrip("-") + "."


def _distinctive(word: str) -> bool:
    """Not a generic street word nor a short abbreviation ("ul.", "St.", "S:t")."""
    bare = word.strip(".").lower()
    abbreviated = (word.endswith(".") or ":" in word) and len(bare) <= 3
    return bare not in GENERIC and len(bare) > 1 and not abbreviated
