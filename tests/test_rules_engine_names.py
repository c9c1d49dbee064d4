"""Player names are 1 to 24 printable characters: the engine refuses others at new_game, so
the screen, the phones and table scripts all get the same clear refusal (issue: faults)."""

from __future__ import annotations

import pytest

from companion.game.applying import apply_command
from companion.rules import Rejection
from companion.words import catalog as i18n
from companion.words.refusals import describe_refusal


@pytest.mark.parametrize("name", ["x" * 25, "Ann\n", "\ud800", "Bo\x00", " Cy", "\u202eevil"])
def test_a_bad_name_is_refused_clearly(name: str) -> None:
    r = apply_command(None, {"do": "new_game", "edition": "classic-eur",
                             "players": ["Ann", name] if name != "Ann\n" else [name, "Bo"]})
    assert isinstance(r, Rejection) and r.code.value == "bad_name"
    for lang in i18n.LANGUAGES:
        said = describe_refusal(r.code.value, r.params, r.message, None, lang,
                                i18n.translator(lang).pgettext)
        assert "24" in said and said != r.message or lang == "en", (lang, said)


def test_good_names_in_any_script_are_taken() -> None:
    names = ["Åsa", "Zoë", "Łucja", "Дмитрий", "x" * 24]
    r = apply_command(None, {"do": "new_game", "edition": "classic-eur", "players": names})
    assert not isinstance(r, Rejection)


def test_an_empty_name_is_no_name() -> None:
    r = apply_command(None, {"do": "new_game", "edition": "classic-eur", "players": ["Ann", ""]})
    assert isinstance(r, Rejection) and r.code.value == "bad_command"
