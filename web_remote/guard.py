"""Is a phone's command well-formed, and does it act for the phone's own player: checked
before the session sees it.

Who may send which verb is the one table's (companion.game.authority.RIGHTS), which the
session checks for every source; here a player's name is filled in where the command
names who acts (a payment's payer, a trade's receiver accepting an open offer), another
player's name is refused, and spectators never act. Amounts must be whole, positive and
within reason, squares must exist. The engine still decides whether the command is allowed
by the rules now. The table is read from the session's typed view of it
(companion.game.table.view: its players and deeds), not from the state JSON's dicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.game.authority import BANKER_VERBS, RIGHTS, actor_field
from companion.game.limits import MAX_NOTE, note_problem
from companion.game.table.view import TableView
from companion.rules.engine import MAX_NAME, valid_name
from web_remote.i18n import _, current_language
from web_remote.present import square_names

JSON = dict[str, Any]

#: every verb the phone API accepts: the engine's vocabulary, as the one table of who may
#: send what has it (companion.game.authority.RIGHTS); the session checks who may
VERBS = frozenset(RIGHTS)
#: the largest amount anybody may type: far above any real payment, far below nonsense
MAX_AMOUNT = 100_000
MAX_COUNT = 5
MAX_CARDS = 4
#: a player's name: long enough for "Grandmother Ingrid", short enough for every screen


class Refusal(Exception):  # noqa: N818 - a refusal is a value returned to the phone
    """A command the web layer refuses before the game sees it; nothing changed."""

    def __init__(self, code: str, message: str, status: int = 400,
                 english: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.english = english  # the English for logs, when it says more than `message`


@dataclass(frozen=True)
class Identity:
    """Who holds this phone: role is player, banker or spectator."""

    role: str
    player: str | None = None
    banker: bool = False
    device: str = ""

    @property
    def can_act(self) -> bool:
        """Players and the banker act; spectators only watch."""
        return self.banker or (self.role == "player" and self.player is not None)


def _whole(value: Any, name: str, low: int, high: int, code: str = "bad_amount") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refusal(code, _("%(field)s must be a whole number", field=name))
    if not low <= value <= high:
        raise Refusal(code, _("%(field)s must be between %(low)d and %(high)d",
                              field=name, low=low, high=high))
    return value


def square_index(ref: Any, table: TableView, board_size: int) -> int:
    """The board index of a square reference (index, or an ownable square's id), or a
    refusal."""
    if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref < board_size:
        return ref
    deed = table.deed_by_id(ref) if isinstance(ref, str) and ref else None
    if deed is not None:
        return deed.index
    raise Refusal("unknown_square", _("There is no square %(square)s on this board.",
                                      square=repr(ref)[:40]))


def _party(value: Any, table: TableView, field: str) -> str:
    if isinstance(value, str) and (table.player(value) is not None or value in ("bank", "pot")):
        return value
    raise Refusal("unknown_player", _("%(field)s: %(name)s is not playing.", field=field,
                                      name=repr(value)[:40]))


def check_offer(offer: Any, owner: str, table: TableView, board_size: int,
                field: str) -> JSON:
    """One side of a trade, normalized: cash, squares (indices owned by `owner`), cards."""
    if offer is None:
        offer = {}
    if not isinstance(offer, dict) or set(offer) - {"cash", "squares", "cards"}:
        raise Refusal("bad_command", _("%(field)s must list cash, squares and cards.",
                                       field=field))
    cash = _whole(offer.get("cash", 0), f"{field}.cash", 0, MAX_AMOUNT)
    cards = _whole(offer.get("cards", 0), f"{field}.cards", 0, MAX_CARDS)
    raw = offer.get("squares", [])
    if not isinstance(raw, list) or len(raw) > board_size:
        raise Refusal("bad_command", _("%(field)s must list cash, squares and cards.",
                                       field=field))
    squares = sorted({square_index(s, table, board_size) for s in raw})
    for s in squares:
        deed = table.deed(s)
        if deed is None or deed.owner != owner:
            names = square_names(table, current_language())
            raise Refusal("not_owner", _("%(name)s does not own %(square)s.", name=owner,
                                         square=names.get(s, str(s))))
    seat = table.player(owner)
    held = seat.jail_cards if seat is not None else 0
    if cards > held:
        raise Refusal("no_jail_card", _("%(name)s holds only %(count)d jail cards.",
                                        name=owner, count=held))
    return {"cash": cash, "squares": squares, "cards": cards}


def authorize(command: Any, who: Identity, table: TableView, board_size: int) -> JSON:
    """The command as it will be submitted, or a Refusal saying why not (`table`: the
    view of the table the phone acted on)."""
    if not who.can_act:
        raise Refusal("spectator", _("Spectators can only watch."), 403)
    if not isinstance(command, dict):
        raise Refusal("bad_command", _("A command must be a JSON object."))
    verb = command.get("do")
    if not isinstance(verb, str) or verb not in VERBS:
        raise Refusal("bad_command", _("Unknown command %(verb)s.", verb=repr(verb)[:40]))
    if note_problem(command) is not None:  # the session refuses it too, in English only
        raise Refusal("bad_command", _("A note may hold at most %(count)d characters, and no "
                                       "control characters.", count=MAX_NOTE))
    out = dict(command)
    if verb == "end_game":  # by agreement: the timed game's end is the table clock's
        out = {"do": "end_game"}
    if verb == "new_game":
        check_names(out.get("players"))
    if not who.banker:
        me = who.player
        if table.player(me) is None:
            raise Refusal("not_a_player", _("You are not a player of this game."), 403)
        if verb in BANKER_VERBS:
            raise Refusal("banker_only", _("Only the banker can do that."), 403)
        field = actor_field(verb)  # the payer of `pay`, the receiver of a `trade`
        if out.get(field, me) != me:
            raise Refusal("not_yours", _("You can only act for yourself."), 403)
        out[field] = me
    for field in ("by",):
        if field in out and out[field] is not None and table.player(out[field]) is None:
            raise Refusal("unknown_player", _("%(field)s: %(name)s is not playing.",
                                              field=field, name=repr(out[field])[:40]))
    if verb == "pay":
        out["from"] = _party(out.get("from"), table, "from")
        out["to"] = _party(out.get("to"), table, "to")
    if "amount" in out or verb in ("bid", "pay"):
        out["amount"] = _whole(out.get("amount"), "amount", 1, MAX_AMOUNT)
    if "count" in out:
        out["count"] = _whole(out["count"], "count", 1, MAX_COUNT, "bad_command")
    if "square" in out:
        out["square"] = square_index(out["square"], table, board_size)
    if "dice" in out and not _dice_as_shown(out["dice"]):
        raise Refusal("bad_command", _("Enter the dice as they show: two white dice and, "
                                       "in Mega, the speed die."))
    if verb == "trade":
        a = _party(out.get("from"), table, "from")
        b = _party(out.get("to"), table, "to")
        out["give"] = check_offer(out.get("give"), a, table, board_size, "give")
        out["take"] = check_offer(out.get("take"), b, table, board_size, "take")
    return out


def _dice_as_shown(dice: Any) -> bool:
    """Whether a command's entered dice are a short list of faces (pips or Mega's speed
    die's names), which the engine then judges."""
    return isinstance(dice, list) and len(dice) <= 3 and all(
        isinstance(d, int | str) and not isinstance(d, bool) and len(str(d)) <= 12
        for d in dice)


def check_names(names: Any) -> list[str]:
    """Players' names for a new game, or a refusal: each 1 to MAX_NAME printable characters
    (no control, format or lone surrogate characters, which break screens and journals)."""
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise Refusal("bad_players", _("List the players' names."))
    for name in names:
        if not valid_name(name):  # the engine's rule, said here in the phone's language
            raise Refusal("bad_players", _(
                "A player's name must be 1 to %(count)d letters, digits or signs, with no "
                "control characters: %(name)s", count=MAX_NAME,
                name=repr(name[:MAX_NAME])))
    return names
