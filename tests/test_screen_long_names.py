"""Legible for eight players with long names at 800x480 (issue 24, item 7): whose turn is
said at 16 px at least and whole ("Wilhelmina van Oranje is aan de b…" at 12 px was the
complaint), nothing else under 16 px, and nothing cut in the middle of a word, in the seven
languages. A waiting trade's details (companion.screen.views.waiting) are left out: they
are the one view still allowed 14 px."""

from __future__ import annotations

import pygame
import pytest
from fixtures.screen.scenarios import LANGUAGES, SCENARIOS, crowd, scenario

from companion.screen import texts, theme
from companion.screen.painter import ELLIPSIS, DrawnText, Painter
from companion.screen.render import render
from companion.screen.views.panels import fitted_name

pytestmark = pytest.mark.usefixtures("screen_in_english")

SIZE = (800, 480)
#: the longest names a table types, one per language
LONG = {"en": "Maximilian Wolfgang Ross", "sv": "Åsa-Märta Gustafsdotterö",
        "fr": "Marie-Bénédicte Châteauw", "de": "Wolfgang Müller-Lüdensch",
        "nl": "Wilhelmina van Oranje", "pl": "Zdzisława Brzęczyszczyk",
        "ru": "Александра Константинова"}


def cut_mid_word(shown: DrawnText) -> bool:
    """Whether a text was cut short inside a word (an ellipsis after half a word)."""
    if shown.drawn == shown.text or not shown.drawn.endswith(ELLIPSIS):
        return False
    kept = shown.drawn[:-len(ELLIPSIS)]
    rest = shown.text[len(kept):]
    return bool(kept) and bool(rest) and not rest[0].isspace() and rest[0] not in "·,;:"


def frames(language: str) -> list[tuple[str, list[DrawnText]]]:
    """Every game view and the crowded tables, the player to move with a long name."""
    texts.use_language(language)
    out = []
    shown = [(name, *scenario(name, language)) for name in SCENARIOS if name != "trade"]
    shown += [(f"{base}x{count}", *crowd(base, language, count))
              for base in ("turn", "mega_bus") for count in (5, 6, 7, 8)]
    for name, state, ui in shown:
        if state is not None and state.get("players") and "x" in name:
            state["players"][1]["name"] = LONG[language]
            state["current"] = LONG[language]
        out.append((name, render(state, ui, pygame.Surface(SIZE)).texts))
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_whose_turn_is_whole_and_large_with_a_long_name(language: str) -> None:
    for name, drawn in frames(language):
        if "x" not in name:
            continue
        header = [t for t in drawn if LONG[language] in t.text and t.box.y < 40]
        assert header, (name, [t.text for t in drawn][:4])
        assert all(t.size >= theme.READABLE and t.drawn == t.text for t in header), \
            [(t.text, t.drawn, t.size) for t in header]


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_under_16_px_and_nothing_cut_mid_word(language: str) -> None:
    small, cut = [], []
    for name, drawn in frames(language):
        small += [(name, t.text, t.size) for t in drawn if t.size < theme.READABLE]
        cut += [(name, t.text, t.drawn) for t in drawn if cut_mid_word(t)]
    assert small == []
    assert cut == []


def test_a_name_gives_up_whole_words_and_the_check_can_fail() -> None:
    p = Painter(pygame.Surface(SIZE), 1.0, 1.0)
    assert fitted_name(p, "Wilhelmina van Oranje 3", 1000) == "Wilhelmina van Oranje 3"
    assert fitted_name(p, "Wilhelmina van Oranje 3", 190) == "Wilhelmina v. O. 3"
    assert fitted_name(p, "Wilhelmina van Oranje 3", 140) == "Wilhelmina 3"
    half = DrawnText("Wilhelmina", "Wilhel" + ELLIPSIS, pygame.Rect(0, 0, 1, 1),
                     pygame.Rect(0, 0, 1, 1), 16, False, 16)
    whole = DrawnText("Wilhelmina van", "Wilhelmina" + ELLIPSIS, pygame.Rect(0, 0, 1, 1),
                      pygame.Rect(0, 0, 1, 1), 16, False, 16)
    assert cut_mid_word(half) and not cut_mid_word(whole)
