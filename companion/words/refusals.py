"""Every refusal said in the table's language: one sentence per code, filled with its params.

The engine refuses with a stable code, an English message and `params` holding the facts
(docs/table-script.md, "Rejection codes"); the session and the phone remote add codes of
their own. `describe_refusal` turns those into one sentence in any language, so that the
table screen (in the screen's language) and each phone (in its own) say the same thing. The
caller passes its own catalog's `pgettext`, because the screen and the phone remote keep
separate catalogs; the sentences are in companion/words/refusal_texts.py, extracted into
both.

Square names come from the edition in the asked language, amounts are written as the
edition writes its money. When a sentence needs a fact the refusal does not carry (or the
code is unknown, or a translation is broken), the engine's English message is shown
instead: never a raw template, never an exception.

>>> from companion.words import catalog as i18n
>>> state = {"edition": "sv", "currency": i18n.edition_data("sv")["currency"],
...          "squares": [{"index": 39, "id": "norrmalmstorg", "name": "Norrmalmstorg"}]}
>>> params = {"player": "Bo", "purpose": "buy", "square": 39, "needed": 8000, "cash": 1850}
>>> describe_refusal("insufficient_funds", params, "…", state, "sv",
...                  i18n.translator("sv").pgettext).replace(i18n.NBSP, " ")
'Bo har inte råd med Norrmalmstorg: Kr 8 000 behövs, Kr 1 850 i handen'
>>> describe_refusal("no_such_code", {}, "the engine's words", state, "ru",
...                  i18n.translator("ru").pgettext)
"the engine's words"
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from companion.game.table.records import Setup
from companion.rules.codes import Code
from companion.words import catalog as i18n
from companion.words.refusal_texts import SENTENCES

log = logging.getLogger(__name__)

#: a catalog's pgettext: (message context, English text) -> the text in its language
Gettext = Callable[[str, str], str]

#: the engine's codes (companion/rules/codes.py)
ENGINE_CODES: tuple[str, ...] = tuple(code.value for code in Code)
#: the game session's own codes (companion/game/session.py)
SESSION_CODES: tuple[str, ...] = (
    "stale_version", "nothing_to_undo", "nothing_to_redo", "not_allowed", "storage_error",
    "session_closed", "internal_error", "not_in_line", "before_game_start", "last_move",
    "result_kept",
)
#: the one authority table's own codes (companion/game/authority.py)
AUTHORITY_CODES: tuple[str, ...] = ("no_offer", "device_dice", "device_cards")
#: the phone remote's own codes (web_remote: refuse() and Refusal); bad_amount also the
#: table's amount entry (companion/inputs)
WEB_CODES: tuple[str, ...] = (
    "rate_limited", "bad_origin", "bad_csrf", "not_found", "bad_method", "too_large",
    "not_joined", "bad_join", "bad_json", "bad_version", "bad_request", "bad_amount",
    "banker_only",
    "spectator", "not_a_player", "empty_trade", "too_many", "no_proposal", "not_yours",
    "bad_pin", "no_tags", "no_games", "no_such_game", "bad_game", "cannot_resume", "refused",
)
#: every code with a sentence of its own
CODES: tuple[str, ...] = tuple(dict.fromkeys(ENGINE_CODES + SESSION_CODES + AUTHORITY_CODES
                                             + WEB_CODES))
#: what an insufficient_funds refusal was for, each with its sentence ("bid" names no square)
PURPOSES: tuple[str, ...] = ("buy", "build", "depot", "unmortgage", "jail_fine", "bid", "pay")
_WITH_SQUARE = frozenset({"buy", "build", "depot", "unmortgage"})


#: the refusals of the banker's "undo to here" that name the move picked ("seq")
_GOING_BACK = frozenset({"not_in_line", "before_game_start", "last_move"})


class _Missing(LookupError):
    """A fact the sentence needs is not in the refusal's params."""


def describe_refusal(code: str | None, params: Mapping[str, Any] | None, message: str | None,
                     state: Mapping[str, Any] | None, lang: str, gettext: Gettext) -> str:
    """The refusal `code` with its `params` as one sentence in `lang` (`gettext`: the pgettext
    of a catalog in `lang`; `state`: the public state JSON, for the edition's square names
    and money). Falls back to the English `message` when a needed param or the code is
    missing, and to the generic "Refused" sentence when there is no message either."""
    facts = dict(params or {})
    try:
        msg_id, fields = _sentence(str(code or ""), facts, state or {}, lang)
    except _Missing:
        msg_id, fields = None, {}
    except Exception:  # noqa: BLE001 - odd params (a string amount) must not break a screen
        log.exception("refusal %s: cannot read params %r", code, facts)
        msg_id, fields = None, {}
    if msg_id is None:
        return message or _say("refusal_refused", {}, gettext) or "Refused"
    return _say(msg_id, fields, gettext) or message or SENTENCES[msg_id].text.format(**fields)


def english(code: str | None, params: Mapping[str, Any] | None, message: str | None,
            state: Mapping[str, Any] | None) -> str:
    """The English form for logs: the engine's own message when there is one."""
    return message or describe_refusal(code, params, None, state, i18n.SOURCE_LANGUAGE,
                                       _identity)


def _identity(_context: str, text: str) -> str:
    """The source language's "catalog": the English text itself."""
    return text


def _say(msg_id: str, fields: Mapping[str, str], gettext: Gettext) -> str | None:
    """The sentence `msg_id` from the catalog, filled in; None when the translation is
    broken (a placeholder it does not have, braces left over)."""
    template = gettext(msg_id, SENTENCES[msg_id].text)
    try:
        said = template.format(**fields)
    except (KeyError, IndexError, ValueError):
        log.warning("refusal sentence %s: broken translation %r", msg_id, template)
        return None
    return said


def _sentence(code: str, params: dict[str, Any], state: Mapping[str, Any],
              lang: str) -> tuple[str | None, dict[str, str]]:
    """(message id, fields) for a code: its sentence with facts when the params have them.

    Raises _Missing when the code's sentence needs facts the params lack."""
    def player() -> str:
        return str(_need(params, "player"))

    def money(key: str) -> str:
        return i18n.format_money(int(_need(params, key)), state.get("currency"), lang)

    def square() -> str:
        return square_name(_need(params, "square"), state, lang)

    if code == "insufficient_funds":
        purpose = _need(params, "purpose")
        if purpose not in PURPOSES:
            raise _Missing("purpose")
        fields = {"player": player(), "needed": money("needed"), "cash": money("cash")}
        if purpose in _WITH_SQUARE:
            fields["square"] = square()
        return f"refusal_insufficient_funds_{purpose}", fields
    if code == "not_your_turn":
        who = player()  # the current player's turn, or another player's decision
        turn = who == params.get("current")
        return f"refusal_not_your_turn_{'turn' if turn else 'must'}", {"player": who}
    if code == "must_roll":
        again = "again" if params.get("again") else "first"
        return f"refusal_must_roll_{again}", {"player": player()}
    if code == "already_rolled":
        return "refusal_already_rolled_player", {"player": player()}
    if code in ("already_moved", "salary_paid", "in_jail", "result_kept"):
        return f"refusal_{code}_player", {"player": player()}
    if code == "not_past_go":
        start = square_name(_need(params, "start"), state, lang)
        return "refusal_not_past_go_square", {"start": start, "square": square()}
    if code == "game_over":
        return "refusal_game_over_player", {"player": player()}
    if code == "decision_pending":
        msg_id = f"refusal_decision_pending_{_need(params, 'pending')}"
        if msg_id not in SENTENCES:
            raise _Missing("pending")
        return msg_id, {}
    if code == "bid_too_low":
        return "refusal_bid_too_low_minimum", {"minimum": money("minimum")}
    if code in ("no_monopoly", "uneven", "group_mortgaged"):
        return f"refusal_{code}_square", {"square": square()}
    if code == "has_buildings":
        on = _need(params, "on")
        if on not in ("lot", "group", "depot"):
            raise _Missing("on")
        return f"refusal_has_buildings_{on}", {"square": square()}
    if code == "can_still_pay":
        return "refusal_can_still_pay_player", {"player": player(), "can": money("can"),
                                                "owed": money("owed")}
    if code in _GOING_BACK:
        return f"refusal_{code}_seq", {"seq": str(int(_need(params, "seq")))}
    msg_id = f"refusal_{code}"
    return (msg_id if msg_id in SENTENCES else None), {}


def _need(params: Mapping[str, Any], key: str) -> Any:
    """A param the sentence needs; _Missing when absent or null."""
    value = params.get(key)
    if value is None or value == "":
        raise _Missing(key)
    return value


def setup_square_name(square: Any, setup: Setup, lang: str) -> str:
    """A square (board index or id) named in `lang` as the setup's edition prints it there;
    a square the edition cannot name in `lang` keeps its printed name (the one the state's
    squares carry), as `square_name` says it from the state."""
    board = i18n.edition_data(setup.edition).get("squares") or [] if setup.edition else []
    index: int | None = None
    key: Any = None
    if isinstance(square, int) and not isinstance(square, bool):
        index = square
        key = board[square].get("id") if 0 <= square < len(board) else None
    elif isinstance(square, str):
        key = square
        index = next((i for i, sq in enumerate(board) if sq.get("id") == square), None)
    if key is not None and setup.edition:
        try:
            return i18n.localized_name(setup.edition, str(key), lang)
        except KeyError:
            pass
    printed = setup.printed_name(index) if index is not None else None
    if printed:
        return printed
    raise _Missing("square")


def square_name(square: Any, state: Mapping[str, Any], lang: str) -> str:
    """A square (board index or id) named in `lang` as the state's edition prints it there.

    The id comes from the state's squares, else from the edition's board; a square the
    edition cannot name in `lang` keeps the name the state gives it."""
    edition = str(state.get("edition") or "")
    listed = next((s for s in state.get("squares") or []
                   if square in (s.get("index"), s.get("id"))), None)
    key = (listed or {}).get("id")
    if key is None:
        board = i18n.edition_data(edition).get("squares") or []
        if isinstance(square, int) and not isinstance(square, bool) and 0 <= square < len(board):
            key = board[square].get("id")
        elif isinstance(square, str):
            key = square
    if key is not None and edition:
        try:
            return i18n.localized_name(edition, str(key), lang)
        except KeyError:
            pass
    if listed is not None and listed.get("name"):
        return str(listed["name"])
    raise _Missing("square")
