"""Short labels for the board's squares ("Whitechapel Road" -> "Whit."), drawn on the map's
cells at 1280x720 and above; the editions print no short names, so they are derived here:
the first word that is not a generic street word, cut to four letters and a full stop, or
fewer where the cell is too narrow for four at the size read from a metre."""

from __future__ import annotations

import re
from collections.abc import Callable

#: words that name no place of their own ("Rue de la Paix" is "Paix"), in the seven languages
GENERIC = frozenset("""
    the of road street avenue square place lane station
    rue de la le les du des d l boulevard quai gare avenue place
    straat laan plein weg van het station
    gatan vägen torget allén plan
    strasse straße platz weg bahnhof der die das am an
    ulica aleja aleje plac al ul dworzec
    улица проспект площадь переулок бульвар вокзал
""".split())
#: how many letters a shortened word keeps
LETTERS = 4


def short_label(name: str, fits: Callable[[str], bool] | None = None) -> str:
    """The square's short label: its first distinctive word, at most four letters and a full
    stop ("Dorpsstraat, Ons Dorp" -> "Dorp.", "Rue de la Paix" -> "Paix", "Go" -> "Go"), a
    word in capitals written as a name ("START" -> "Start"); with `fits`, cut shorter (never
    under two letters) until `fits` accepts it.

    >>> short_label("Whitechapel Road"), short_label("Rue de la Paix"), short_label("Go")
    ('Whit.', 'Paix', 'Go')
    >>> short_label("Champs-Élysées", fits=lambda label: len(label) <= 4), short_label("START")
    ('Cha.', 'Start')
    """
    words = [w for w in re.split(r"[\s,'’/()«»\"]+", name) if w]
    if not words:
        return ""
    word = next((w for w in words if _distinctive(w)), words[0])
    word = word.strip(".-")
    if word.isupper() and len(word) > 3:  # "START", not an initialism such as "ГУМ"
        word = word.capitalize()
    labels = [word] if len(word) <= LETTERS + 1 else []
    labels += [word[:n].rstrip("-") + "." for n in range(min(LETTERS, len(word) - 1), 1, -1)]
    if not labels:
        return word
    return next((label for label in labels if fits is None or fits(label)), labels[-1])


def _distinctive(word: str) -> bool:
    """Not a generic street word nor a short abbreviation ("ul.", "St.", "S:t")."""
    bare = word.strip(".").lower()
    abbreviated = (word.endswith(".") or ":" in word) and len(bare) <= 3
    return bare not in GENERIC and len(bare) > 1 and not abbreviated
