"""The decision the table is waiting for, and what each panel button does about it.

Pure: from the public state JSON and the UI state to a `Prompt`. What a button sends for
the game, and what else each player may do now, is the session's view of the table
(companion.game.table.view: `ui.table`, or built from the state when the screen has none
of its version; what each press sends is companion.game.table.buttons', one table for the
screen and a headless table alike); the decision waited for is its typed record
(`TableView.decision`, companion.game.table.decision), and a button sends only an answer
that record offers. This labels it and adds the screen's own answers (lists to choose
from, the dial, the UNDO question). The screen draws it; the controller turns a press into
its command.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.game.table.decision import Answer, Decision
from companion.game.table.offers import Goods
from companion.game.table.records import Currency
from companion.game.table.view import TableView
from companion.game.table.view import build as build_view
from companion.inputs import entry as flow
from companion.inputs.buttons import BUTTONS
from companion.inputs.entry import acting_player, dial_faces, dice_needed
from companion.inputs.picking import Pick
from companion.rules.commands import Command
from companion.screen import texts
from companion.screen.money import money
from companion.screen.texts import MESSAGES, text
from companion.screen.ui_state import BoardInfo, Same, UiState
from companion.screen.views.dice import entry_text, face_word
from companion.words import catalog as i18n
from companion.words.undo_questions import describe_undo

JSON = dict[str, Any]
#: the six buttons in the panel's order (companion.inputs.buttons: the one list)
PANEL_BUTTONS = BUTTONS
CHOOSABLE = ("build", "sell_building", "mortgage", "unmortgage")


@dataclass(frozen=True)
class Action:
    """One answer to the prompt: the panel button that gives it, and what it does.

    `command` is submitted to the session; otherwise `ui` names a screen action
    ("menu", "undo", "choose:<verb>", "confirm_bankrupt",
    "undo_now", "undo_keep", "bus_ride", "bus_back", "pick:<steps>", "dial_take",
    "dial_back", "go_by_device").
    """

    button: str | None
    label: str
    command: Command | JSON | None = None
    ui: str | None = None


@dataclass(frozen=True)
class Prompt:
    """The decision panel: a title, detail lines and the answers on offer."""

    title: str
    details: list[str] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    player: str | None = None
    refusal: str | None = None  # why the obvious answer is not on offer (can't afford)

    def for_button(self, button: str) -> Action | None:
        """The action a panel button triggers now, if any."""
        for action in self.actions:
            if action.button == button:
                return action
        return None


#: the last view found to show a state, and that state (the very objects): a frame asks
#: for the view of one state about fifteen times (issue 28)
_shown: tuple[TableView | None, Mapping[str, Any] | None] = (None, None)


def table_of(state: Mapping[str, Any], ui: UiState) -> TableView:
    """The session's view of the table for this state: the screen's (`ui.table`) when it
    is of this version, else the view of this state as the table layer builds it."""
    global _shown
    view = ui.table
    if view is not None:
        seen_view, seen_state = _shown
        if view is seen_view and state is seen_state:
            return view
        if view.shows(state):
            _shown = (view, state)
            return view
    return build_view(state)


def may(state: Mapping[str, Any], ui: UiState, do: str, by: str | None = None) -> bool:
    """Whether `by` (anyone, when None) may send `do` now, as the view of the table says
    (never a banker's correction)."""
    return table_of(state, ui).move(do, by, anyone=by is None) is not None


def square_name(state: Mapping[str, Any], ui: UiState, index: int | None) -> str:
    """A square's name: the board's when it is in the screen's language, else the state's,
    else the board's, else its number."""
    if index is None:
        return "?"
    if ui.board.localized and 0 <= index < len(ui.board.squares):
        return ui.board.squares[index].name
    deed = table_of(state, ui).deed(index)
    if deed is not None:
        return deed.name
    if 0 <= index < len(ui.board.squares):
        return ui.board.squares[index].name
    return f"#{index}"


def undo_question(state: Mapping[str, Any], ui: UiState) -> str:
    """The UNDO confirmation naming the move it takes back ("Undo: Ann bought Rue de la
    Paix?"), in the screen's language; "Undo the last move?" when that is not known."""
    lang = texts.language()
    return describe_undo(ui.undo_target, table_of(state, ui).setup, lang,
                         i18n.translator(lang).pgettext)


def build_prompt(state: Mapping[str, Any], ui: UiState) -> Prompt:
    """The decision panel for this state (the game must have started)."""
    if ui.confirm_undo:
        return Prompt(undo_question(state, ui), [text("prompt_undo_help")],
                      [Action("yes", text("act_undo"), ui="undo_now"),
                       Action("no", text("act_keep"), ui="undo_keep")])
    table = table_of(state, ui)
    winner = table.winner
    if winner:
        return Prompt(text("prompt_winner", player=winner), player=winner,
                      actions=[Action("undo", text("act_undo"), ui="undo"),
                               Action("menu", text("act_menu"), ui="menu")])
    decision = table.decision
    pick = flow.pick(table, ui, ui.board.size)
    if ui.dial is not None and rolling(state, ui):
        prompt = _dial(state, ui)
    elif pick is not None:
        prompt = _pick(state, ui, pick)
    elif decision is not None:
        prompt = _pending(state, ui, decision)
        other = table.waiting_on
        if other is not None and other != ui.card_holder:  # theirs: their phone or card
            prompt = Prompt(prompt.title, prompt.details, [], prompt.player)
    else:
        prompt = _turn(state, ui)
    actions = list(prompt.actions)
    taken = {a.button for a in actions}
    if "undo" not in taken:
        actions.append(Action("undo", text("act_undo"), ui="undo"))
    if "menu" not in taken:
        actions.append(Action("menu", text("act_menu"), ui="menu"))
    details = list(prompt.details) + _follow_ups(table, decision)
    if (ui.dice_entry or ui.speed_entry is not None) and ui.dial is None:
        last = ui.speed_entry if ui.speed_entry is not None else ui.dice_entry[-1]
        actions = [a for a in actions if a.button != "no"] + [  # NO: a wrong die typed goes
            Action("no", text("act_clear_face", face=face_word(last)), ui="dice_back")]
        needed = dice_needed(table, acting_player(table))
        details.append(text("prompt_dice_entry",
                            dice=entry_text(ui.dice_entry, ui.speed_entry, needed)))
        if needed > 2 and ui.speed_entry is None and len(ui.dice_entry) >= 2:
            details.append(text("prompt_speed_next"))
    return Prompt(prompt.title, details, actions, prompt.player, prompt.refusal)


def prompt_inputs(state: Mapping[str, Any], ui: UiState) -> tuple[Any, ...]:
    """All that `build_prompt(state, ui)` is made of: the state and the view of the table
    (the very objects), the board, the screen's language, the UI state's fields it reads
    (`PROMPT_READS`) and what it reads of the time (the auction's seconds left, whether
    the banker's gavel is the screen's). Equal inputs give an equal prompt, so a prompt
    drawn stays the one a press answers (`Controller.current_prompt`) while they stay; keys
    typed in one burst change the state or the entry, and with it the inputs (issue 28)."""
    deadline = ui.auction_deadline
    left = None if deadline is None else max(0, int(deadline - ui.now + 0.999))
    return (Same(state), Same(ui.table), Same(ui.board), texts.language(), ui.confirm_undo,
            ui.undo_target, ui.dial, tuple(ui.dice_entry), ui.speed_entry, ui.card_holder,
            ui.bus_ride, ui.square_focus, ui.bid_steps, left, ui.banker_now())


#: the UI state's fields `build_prompt` reads, all in `prompt_inputs` (with `now` through
#: the seconds left and `banker_now`, which reads `banker_free` and `banker_until` too);
#: tests/test_screen_prompt_reuse.py holds this module to reading no other
PROMPT_READS = ("table", "board", "confirm_undo", "undo_target", "dial", "dice_entry",
                "speed_entry", "card_holder", "bus_ride", "square_focus", "bid_steps",
                "auction_deadline", "now", "banker_now")


def rolling(state: Mapping[str, Any], ui: UiState) -> bool:
    """Whether a roll (a turn's or a utility rent's) is what the table may do now."""
    table = table_of(state, ui)
    return may(state, ui, "roll", acting_player(table))


def _follow_ups(table: TableView, decision: Decision | None) -> list[str]:
    """What happens by itself once the decision on top is settled (the speed die's
    Mr. Monopoly move and bus ticket), and the Mr. Monopoly turn's restriction."""
    out = []
    for step in decision.then if decision is not None else ():
        if step == "mr_monopoly":
            out.append(text("then_mr_monopoly"))
        elif step == "bus":
            out.append(text("then_bus"))
    if decision is None and table.turn.mr_monopoly:
        out.append(text("mr_monopoly_turn"))
    return out


def _dial(state: Mapping[str, Any], ui: UiState) -> Prompt:
    """Entering the physical dice with the encoder: turn to the face, YES takes it."""
    table = table_of(state, ui)
    who = acting_player(table)
    needed = dice_needed(table, who)
    slot = len(ui.dice_entry) if len(ui.dice_entry) < 2 else 2
    faces = dial_faces(slot)
    face = faces[(ui.dial or 0) % len(faces)]
    title = text("prompt_dial", player=who)
    details = [text("prompt_dice_entry", dice=entry_text(ui.dice_entry, ui.speed_entry, needed))]
    return Prompt(title, details, [Action("yes", text("act_take_face", face=face_word(face)),
                                          ui="dial_take"),
                                   Action("no", text("act_back" if ui.dice_entry or
                                                     ui.speed_entry is not None else
                                                     "act_cancel"), ui="dial_back")], who)


def _pick(state: Mapping[str, Any], ui: UiState, pick: Pick) -> Prompt:
    """Choosing a square: NO / PASS GO (or the dial, or a tap on the board) move the focus,
    YES takes it; a bus ride may be called off with ROLL."""
    name = square_name(state, ui, pick.focus)
    if pick.purpose == "bus":
        title = text("prompt_bus_ride", player=pick.by, square=name)
        yes = text("act_ride")
    elif pick.purpose == "auction":
        title = text("prompt_auction_square", player=pick.by, square=name)
        yes = text("act_auction_it")
    else:
        title = text("prompt_triple", player=pick.by, square=name)
        yes = text("act_go_there")
    actions = [Action("yes", yes, pick.command())]
    if len(pick.squares) > 1:
        actions += [Action("no", text("act_next"), ui="pick:1"),
                    Action("pass_go", text("act_previous"), ui="pick:-1")]
    if pick.purpose == "bus":
        actions.append(Action("roll", text("act_back"), ui="bus_back"))
    return Prompt(title, [text("prompt_pick_help")], actions, pick.by)


def _turn(state: Mapping[str, Any], ui: UiState) -> Prompt:
    table = table_of(state, ui)
    cur = table.current
    me = table.player(cur)
    jailed = me is not None and me.jailed
    cur_money = table.setup.currency
    actions: list[Action] = []
    details: list[str] = []
    press = table.press("roll")
    roll = press if press is not None and press["do"] == "roll" else None
    if press is not None:
        actions.append(Action("roll", text("act_roll" if roll else "act_end_turn"), press))
    if jailed and not roll:  # just sent to jail: the turn ends there
        title = text("prompt_jailed", player=cur)
    elif jailed:
        fine = int(table.setup.options.get("jail_fine", 50))
        pay = table.press("yes")
        card = table.press("no")
        title = _jail_title(table, cur, bool(pay))
        if pay:
            actions.append(Action("yes", text("act_pay_fine", amount=money(fine, cur_money)),
                                  pay))
        if card:
            actions.append(Action("no", text("act_use_card"), card))
    elif roll:
        title = text("prompt_roll_again" if table.turn.rolled else "prompt_roll", player=cur)
        if dice_needed(table, cur) > 2 and not (ui.dice_entry or ui.speed_entry is not None):
            details.append(text("prompt_speed_dice"))
    else:
        title = text("prompt_end_turn", player=cur)
    if may(state, ui, "use_bus_ticket", cur) and "yes" not in {a.button for a in actions}:
        actions.append(Action("yes", text("act_bus_ticket"), ui="bus_ride"))
    go = table.press("pass_go")
    if go:
        actions.append(Action("pass_go", text("act_pass_go"), go))
    elif not table.setup.options.get("bank_only") and not jailed:
        # the companion moves the tokens: the key says it pays the salary itself
        actions.append(Action("pass_go", text("act_go_by_device"), ui="go_by_device"))
    shown_card = card_text(state, ui)
    if shown_card:
        details.append(shown_card)
    return Prompt(title, details, actions, player=cur)


def _answered(decision: Decision, verb: str, label: str, gift: str | None = None,
              by: str | None = None) -> list[Action]:
    """The panel button giving the answer `verb` (of the decision's player, or `by`), as
    the decision offers it: none when it is not on offer or no button gives it."""
    answer = decision.answer(verb, by or decision.player, gift)
    command = answer.command() if answer is not None else None
    if answer is None or answer.button is None or command is None:
        return []
    return [Action(answer.button, label, command)]


def _chosen(decision: Decision, verb: str, button: str, label: str) -> list[Action]:
    """A button opening the list of squares an answer of the decision's player names
    (the controller's `choose:<verb>`); none when it is not on offer."""
    answer: Answer | None = decision.answer(verb, decision.player)
    return [Action(button, label, ui=f"choose:{verb}")] if answer is not None else []


def _pending(state: Mapping[str, Any], ui: UiState, decision: Decision) -> Prompt:
    kind, who = decision.kind, decision.player
    cur_money = table_of(state, ui).setup.currency
    if kind == "buy":
        return _buy(state, ui, decision)
    if decision.auction:
        return _auction(state, ui, decision)
    if kind == "birthday_gift":
        return _birthday(decision, cur_money)
    if kind == "draw" and decision.deck == "bus_tickets":
        return Prompt(text("prompt_take_ticket", player=who), [],
                      _answered(decision, "draw", text("act_take")), who)
    if kind == "draw":
        return Prompt(_draw_title(ui, who, decision.deck or ""), [],
                      _answered(decision, "draw", text("act_draw")), who)
    if kind == "debt":
        creditor = decision.creditor or text("creditor_bank")
        title = text("prompt_debt", player=who, creditor=creditor,
                     amount=money(decision.amount, cur_money))
        actions = _chosen(decision, "mortgage", "yes", text("act_mortgage")) + \
            _chosen(decision, "sell_building", "roll", text("act_sell"))
        if decision.answer("bankrupt", who) is not None:
            actions.append(Action("no", text("act_bankrupt"), ui="confirm_bankrupt"))
        return Prompt(title, [text("prompt_debt_help")], actions, who)
    if kind == "roll_for_rent":
        square = square_name(state, ui, decision.square)
        title = text("prompt_roll_for_rent", player=who, square=square,
                     multiplier=decision.multiplier) if decision.multiplier else \
            text("prompt_roll_for_rent_own", player=who, square=square)
        return Prompt(title, [], _answered(decision, "roll", text("act_roll")), who)
    if kind == "lift_mortgages":
        names = ", ".join(square_name(state, ui, s) for s in decision.squares)
        actions = _chosen(decision, "unmortgage", "yes", text("act_unmortgage")) + \
            _answered(decision, "decline", text("act_keep"))
        return Prompt(text("prompt_lift", player=who), [names], actions, who)
    if kind == "place_building":
        building = text(f"building_{decision.building or 'house'}")
        return Prompt(text("prompt_place_building", player=who, building=building), [],
                      _chosen(decision, "build", "yes", text("act_build")), who)
    return Prompt(kind, [], [], who)


def _birthday(decision: Decision, currency: Currency) -> Prompt:
    """The Birthday gift square: YES takes the money, NO a bus ticket."""
    who = decision.player
    amount = money(decision.amount, currency)
    actions = _answered(decision, "choose_gift", text("act_take_money", amount=amount),
                        gift="money") + \
        _answered(decision, "choose_gift", text("act_bus_ticket"), gift="bus_ticket")
    return Prompt(text("prompt_birthday", player=who, amount=amount), [], actions, who)


def _jail_title(table: TableView, player: str | None, pay: bool) -> str:
    """A jailed player's turn: pay the fine (when YES may), use a card or roll doubles."""
    fine = int(table.setup.options.get("jail_fine", 50))
    return text("prompt_jail" if pay else "prompt_jail_roll", player=player,
                fine=money(fine, table.setup.currency))


def _draw_title(ui: UiState, player: str | None, deck: str) -> str:
    """The question to draw a card of `deck`, the deck named as the board names it."""
    return text("prompt_draw", player=player, deck=ui.board.deck_names.get(deck)
                or _deck_text(deck))


def _buy_title(player: str | None, name: str, price: int, currency: Currency) -> str:
    """The question to buy a square at its price."""
    return text("prompt_buy", player=player, square=name, price=money(price, currency))


#: the kinds of square whose landing asks to draw a card of the deck of that name
CARD_SQUARES = ("chance", "community_chest")


@dataclass(frozen=True)
class Ahead:
    """Words a press may bring to the screen next (`likely_words`): a decision panel's
    title and details, or (with `turn`) the header's turn number and the totals a roll of
    `dice` dice may show."""

    title: str = ""
    details: tuple[str, ...] = ()
    turn: int | None = None
    totals: tuple[int, ...] = ()
    dice: int = 2
    #: the header's whose-turn words of each player, in their colour (name, colour)
    whose: tuple[tuple[str, tuple[int, int, int]], ...] = ()
    #: its hash, worked out once: the loop looks each guess up again on every state
    #: (`render.lay_ahead`), and the card words are the same objects all game long
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(
            (self.title, self.details, self.turn, self.totals, self.dice, self.whose)))

    def __hash__(self) -> int:
        return self._hash


#: the card words of the last board asked for (`card_words`): the board, and its words
_card_words: list[tuple[BoardInfo, tuple[Ahead, ...]]] = []


def card_words(board: BoardInfo) -> tuple[Ahead, ...]:
    """Every card's text as the prompt after the card words it (the board's translation,
    else the printed text), made once per board (the board changes with the edition or the
    language): `likely_words` gives them on every state, and the same objects each time make
    the loop's lookup of each (`render.lay_ahead`) a hash already known."""
    if _card_words and _card_words[0][0] is board:
        return _card_words[0][1]
    words = tuple(Ahead(details=(board.card_texts.get(card) or printed,))
                  for card, printed in board.printed_cards.items())
    _card_words[:] = [(board, words)]
    return words


def likely_words(state: Mapping[str, Any], ui: UiState,
                 colors: Mapping[str, tuple[int, int, int]] | None = None) -> list[Ahead]:
    """What a press may bring to the screen next, as `build_prompt` and the header word it
    (issue 28: laid out and rendered ahead while the table waits, so that a new prompt's
    first frame does not measure and render its words cold): the next turn's number and
    the roll's totals, whose turn it is in each player's colour (`colors`, the screen's),
    the titles `likely_titles` guesses, and the cards' texts as
    `card_text` says them (the details of the prompt after a card). A guess, never a rule: what it
    leaves out is drawn cold, as before, and what it adds is never shown."""
    table = table_of(state, ui)
    if table.winner or table.player(table.current) is None:
        return []
    dice = max(2, dice_needed(table, table.current))
    out = [Ahead(turn=table.turn.number + 1, totals=tuple(range(2, 6 * dice + 1)), dice=dice)]
    if colors:  # whose turn it is, in the header, for every player still in (`colors`)
        out.append(Ahead(whose=tuple((s.name, colors[s.name]) for s in table.players
                                     if not s.bankrupt and s.name in colors)))
    out += [Ahead(title) for title in likely_titles(state, ui)]
    out += card_words(ui.board)
    return out


def likely_titles(state: Mapping[str, Any], ui: UiState) -> list[str]:
    """The decision panels' titles a press may bring next, as `build_prompt` words them:
    when the current player is to roll, the questions of the squares two to twelve steps
    ahead (to buy one nobody owns, to draw a card), doubles, the turn's end and jail (a
    third double, the square, no double from jail); when the turn is to end, the next
    player's first question (to roll, or the jail's); while a decision waits, the turn
    going on once it is answered, and while a card is to be drawn, the roll for a
    utility's rent it may bring (`_card_rent_titles`)."""
    table = table_of(state, ui)
    cur = table.current
    me = table.player(cur)
    if me is None or table.winner:
        return []
    if table.decision is not None:  # answered, the turn goes on (or a card's rent roll)
        return _card_rent_titles(state, ui, table.decision) + [
            text(key, player=cur) for key in ("prompt_end_turn", "prompt_roll_again")]
    press = table.press("roll")
    if press is None or press["do"] != "roll":  # the turn ends: whose turn comes next
        seats = [s for s in table.players if not s.bankrupt]
        names = [s.name for s in seats]
        if cur not in names or len(seats) < 2:
            return []
        after = seats[(names.index(cur) + 1) % len(seats)]
        return [_jail_title(table, after.name, True), _jail_title(table, after.name, False)] \
            if after.jailed else [text("prompt_roll", player=after.name)]
    # the turn goes on, ends, or ends in jail (a third double, no double from jail)
    out = [text(key, player=cur) for key in ("prompt_end_turn", "prompt_roll_again",
                                             "prompt_jailed")]
    squares = ui.board.squares
    for steps in range(2, 13):
        if not squares:
            break
        index = (me.position + steps) % len(squares)
        kind = squares[index].kind
        deed = table.deed(index)
        if deed is not None and deed.owner is None and deed.price > 0:
            out.append(_buy_title(cur, square_name(state, ui, index), deed.price,
                                  table.setup.currency))
        elif kind in CARD_SQUARES:
            out.append(_draw_title(ui, cur, kind))
    return list(dict.fromkeys(out))


def _card_rent_titles(state: Mapping[str, Any], ui: UiState, decision: Decision) -> list[str]:
    """While a card is to be drawn: the roll for a utility's rent a card of the edition may
    send the drawer to ("pay ten times the dice", `BoardInfo.card_rent_dice`), for each
    utility another player owns, as `build_prompt` words it (issue 28: its title wraps onto
    two lines, about a millisecond laid out cold)."""
    if decision.kind != "draw" or not ui.board.card_rent_dice:
        return []
    table = table_of(state, ui)
    who = decision.player
    return [text("prompt_roll_for_rent", player=who, square=square_name(state, ui, sq.index),
                 multiplier=times)
            for sq in ui.board.squares if sq.kind == "utility"
            for deed in [table.deed(sq.index)]
            if deed is not None and deed.owner not in (None, who) and not deed.mortgaged
            for times in ui.board.card_rent_dice]


def _deck_text(deck: str) -> str:
    key = f"deck_{deck}"
    return text(key) if key in MESSAGES else deck


def card_text(state: Mapping[str, Any], ui: UiState) -> str:
    """The text of the card that is news (the view's `card`), in the screen's language when
    the edition prints it in it; "" once its effect is over."""
    card = table_of(state, ui).card
    if card is None:
        return ""
    return ui.board.card_texts.get(card.id) or card.text


def _buy(state: Mapping[str, Any], ui: UiState, decision: Decision) -> Prompt:
    who = decision.player
    cur_money = table_of(state, ui).setup.currency
    name = square_name(state, ui, decision.square)
    price = decision.price
    title = _buy_title(who, name, price, cur_money)
    actions = _answered(decision, "buy", text("act_buy"))
    refusal = None
    if not actions:
        seat = table_of(state, ui).player(who)
        cash = seat.cash if seat is not None else 0
        refusal = text("cannot_afford", player=who, square=name, price=money(price, cur_money),
                       cash=money(cash, cur_money))
    actions += _answered(decision, "decline", text("act_decline"))
    details = [refusal] if refusal else []
    return Prompt(title, details, actions, who, refusal)


def auction_player(state: Mapping[str, Any], ui: UiState | None = None) -> str | None:
    """Whom the panel's YES / NO bid or pass for in an auction, as the view of the table
    says (`decider`): the current player while they may still bid or pass, else nobody.
    Every other bidder answers on their phone or with their bank card
    (companion.screen.views.waiting): the shared buttons never decide for them."""
    return table_of(state, ui or UiState()).decider


def _auction(state: Mapping[str, Any], ui: UiState, decision: Decision) -> Prompt:
    cur_money = table_of(state, ui).setup.currency
    if decision.kind == "building_auction":
        item = text(f"building_{decision.building or 'house'}")
        title = text("prompt_building_auction", building=item)
    else:
        title = text("prompt_auction", square=square_name(state, ui, decision.square))
    bidder = decision.bidder
    details = [text("prompt_auction_bid", amount=money(decision.highest, cur_money),
                    bidder=bidder) if bidder else text("prompt_auction_none")]
    table = table_of(state, ui)
    focus = table.decider
    actions: list[Action] = []
    bid = table.press("yes", ui.bid_steps)  # the next step up, + the dial
    if bid is not None and decision.offers(bid):  # never the highest bidder's own
        actions.append(Action("yes", text("act_bid", amount=money(int(bid["amount"]),
                                                                  cur_money)), bid))
    actions += _answered(decision, "pass", text("act_pass"), by=focus)
    if decision.answer("close_auction") is not None and bidder and ui.banker_now():
        # the gavel is the banker's (after the PIN or the banker card; anyone's at a table
        # without a banker PIN), a screen action behind the banker's authority; else the
        # auction's clock on the session's writer closes it
        actions.append(Action("pass_go", text("act_sold"), ui="sold"))
    if ui.auction_deadline is not None and bidder:
        left = max(0, int(ui.auction_deadline - ui.now + 0.999))
        details.append(text("prompt_auction_time", seconds=left))
    if decision.queue:
        details.append(text("prompt_auction_queue", count=len(decision.queue)))
    return Prompt(title, [" · ".join(details)], actions, focus)


def offer_text(state: Mapping[str, Any], ui: UiState, goods: Goods) -> str:
    """"€ 200 + Rue Lecourbe + 1 jail card" for one side of a trade."""
    parts = []
    if goods.cash:
        parts.append(money(goods.cash, table_of(state, ui).setup.currency))
    parts += [square_name(state, ui, s) for s in goods.squares]
    if goods.cards:
        parts.append(text("jail_cards", count=goods.cards))
    return " + ".join(parts) or text("prompt_nothing")


def square_choices(state: Mapping[str, Any], ui: UiState, verb: str,
                   by: str | None = None) -> list[tuple[str, JSON]]:
    """(label, command) for every square the view of the table offers `verb` on (`by`'s
    only, when given), for the square picker."""
    out: list[tuple[str, JSON]] = []
    for move in table_of(state, ui).choices(verb, by):
        for square in move.squares:
            label = f"{move.by}: {square_name(state, ui, square)}"
            building = building_for(table_of(state, ui), verb, square)
            if building:
                label += f" · {text('building_' + building)}"
            out.append((label, move.command(square=square)))
    return out


def building_for(table: TableView, verb: str, square: int) -> str | None:
    """The building `build` would put on `square` (or `sell_building` take off it): house,
    hotel, skyscraper or a station's train depot; None for other verbs.

    >>> def on(*squares: dict[str, Any]) -> TableView:
    ...     return build_view({"squares": list(squares)})
    >>> building_for(on({"index": 6, "kind": "station", "depot": False}), "build", 6)
    'depot'
    >>> building_for(on({"index": 9, "kind": "lot", "hotel": True, "skyscraper": False}),
    ...              "build", 9)
    'skyscraper'
    >>> building_for(on({"index": 9, "kind": "lot", "hotel": True}), "sell_building", 9)
    'hotel'
    """
    if verb not in ("build", "sell_building"):
        return None
    sq = table.deed(square)
    if sq is not None and sq.kind == "station":
        return "depot"
    houses = sq.houses if sq is not None else 0
    if verb == "sell_building":
        if sq is not None and sq.skyscraper:
            return "skyscraper"
        return "hotel" if sq is not None and sq.hotel else "house"
    if sq is not None and sq.hotel:
        return "skyscraper"
    before_hotel = int(table.setup.options.get("houses_before_hotel", 4))
    return "hotel" if houses >= before_hotel else "house"
