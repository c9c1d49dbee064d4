"""What the input controller asks the screen program to do, and helpers over the state JSON.

The controller is pure: it turns (input event, public state) into a list of these actions.
The screen program (or companion.inputs.pump.InputPump) carries them out: Submit goes to
`session.submit`, Undo to `session.undo`, OpenMenu, Show, PassOn and CardHolds to the screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.game.api import JSON, Source
from companion.game.table.records import Setup
from companion.game.table.view import Move, TableView
from companion.rules.commands import Command
from companion.words.catalog import format_money
from companion.words.input_texts import input_text


@dataclass(frozen=True)
class Submit:
    """Submit `command` (a typed record, or a move's command JSON) to the session with
    `source`; with `expect_version`, only while the table is still at that version (an
    answer to the question asked there)."""

    command: Command | JSON
    source: Source
    expect_version: int | None = None


@dataclass(frozen=True)
class Undo:
    """Undo the last command (after the table confirmed)."""

    source: Source


@dataclass(frozen=True)
class OpenMenu:
    """Open a menu on the screen: "main" or "banker".

    authorized: the banker card opened it; a held MENU button still needs the banker's PIN.
    """

    menu: str
    source: Source
    authorized: bool = False


@dataclass(frozen=True)
class Show:
    """A prompt, notice or warning for the screen (and phones).

    code: stable identifier for translations and tests; level: prompt (waits for an
    answer), notice (informative), warning (hardware trouble; active=False clears it).
    """

    code: str
    message: str
    level: str = "notice"
    data: dict[str, Any] = field(default_factory=dict)
    active: bool = True
    #: its sentence in the catalog (companion.words.input_texts), said with `data` in each
    #: face's language; "" when `message` is all there is (a reader's own warning)
    sentence: str = ""


def say(code: str, sentence: str = "", level: str = "notice",
        data: dict[str, Any] | None = None, **fields: Any) -> Show:
    """A Show of the inputs' sentence (`sentence`, else `code`) with `fields`: in English
    for the log, its fields for every face to say it in its own language."""
    sentence = sentence or code
    return Show(code, input_text(sentence, "en", **fields), level, {**(data or {}), **fields},
                sentence=sentence)


@dataclass(frozen=True)
class PassOn:
    """A panel button (or the knob: button "knob", `steps` detents) nothing in hardware/
    is waiting for: the table screen's mapping (companion.screen.views.prompt and its dial)
    decides what it does, so every button has one meaning."""

    button: str
    held: bool = False
    steps: int = 0


@dataclass(frozen=True)
class CardHolds:
    """A player's own bank card was tapped for a decision of theirs on the table that only
    their own input answers (a debt, mortgages to lift): the shared buttons answer it for
    them while it stands (companion.game.authority.table_source's card holder)."""

    player: str


Action = Submit | Undo | OpenMenu | Show | PassOn | CardHolds


def offered(table: TableView, verb: str, by: str | None = None) -> Move | None:
    """The move `verb` the table's view offers `by` (one that names nobody too), or, when
    `by` is None, whoever it names; the banker's move corrections are not the table's
    inputs to send (companion.game.table.view.TableView.move)."""
    if by is None:
        return table.move(verb, anyone=True)
    return table.move(verb, by) or table.move(verb, None)


def money(state: JSON, amount: int) -> str:
    """An amount as the table's edition writes it (the words layer's one formatter).

    >>> money({"currency": {"pattern": "€ {amount}", "group_separator": "."}}, 1500)
    '€\\xa01.500'
    """
    return format_money(amount, Setup.of(state).currency)
