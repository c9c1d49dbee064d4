"""The pending decision as a typed record of the table layer (companion.game.table.decision,
`TableView.decision`, issue 25): every kind the engine waits for gives one, saying who is
asked, what, and the answers with the command each sends; the engine accepts each of
those commands, and a choice the record does not offer cannot be built from it nor shown
on a button of the screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.applying import state_json
from companion.game.session import GameSession
from companion.game.table.decision import ANSWERS, Decision
from companion.game.table.view import TableView, build
from companion.inputs import entry
from companion.rules import Accepted, GameState, apply
from companion.rules.state import (
    FOLLOW_UPS,
    AuctionPending,
    BirthdayGiftPending,
    BuildingAuctionPending,
    BuyPending,
    ChooseSquarePending,
    DebtPending,
    DrawPending,
    LiftMortgagesPending,
    Pending,
    PendingKind,
    PlaceBuildingPending,
    RollForRentPending,
)
from companion.screen.controller import Controller
from companion.screen.ui_state import UiState
from companion.screen.views.prompt import build_prompt
from tests.rules_helpers import MEGA, arrange, start

BANKER = Source("script", banker=True)


def _classic() -> GameState:
    return start(("Ann", "Bo", "Cy"))


#: one decision of every kind the engine waits for, on a board where it has answers:
#: (id, the game before, the decision put on top)
CASES: list[tuple[str, Any, Pending]] = [
    ("buy", _classic, BuyPending(0, 1)),
    ("auction", _classic, AuctionPending(1)),
    ("auction_bid", _classic, AuctionPending(1, 20, 1)),
    ("building_auction", lambda: arrange(_classic(), owners={1: 1, 3: 1}),
     BuildingAuctionPending("house", 0, -1, (), 50)),
    ("draw", _classic, DrawPending(0, "chance")),
    ("debt", lambda: arrange(_classic(), owners={6: 1}), DebtPending(1, 400, 0, "rent")),
    ("debt_broke", lambda: arrange(_classic(), cash={2: 0}), DebtPending(2, 400, -1, "tax")),
    ("roll_for_rent", _classic, RollForRentPending(0, 12, 10)),
    ("lift_mortgages", lambda: arrange(_classic(), owners={37: 0, 39: 0},
                                       mortgaged=[37, 39]), LiftMortgagesPending(0, (37, 39))),
    ("place_building", lambda: arrange(_classic(), owners={1: 1, 3: 1}),
     PlaceBuildingPending(1, "house")),
    ("triple", lambda: start(edition=MEGA), ChooseSquarePending(0, "triple")),
    ("auction_square", lambda: start(edition=MEGA), ChooseSquarePending(0, "auction", 20)),
    ("birthday_gift", lambda: start(edition=MEGA), BirthdayGiftPending(0, 20, 100)),
    ("bus_ticket", lambda: start(edition=MEGA), DrawPending(0, "bus_tickets")),
]


def _waiting(case: tuple[str, Any, Pending]) -> tuple[GameState, dict[str, Any], TableView]:
    _, game, pending = case
    g = game().copy()
    g.pending.append(pending)
    state = state_json(g)
    return g, state, build(state)


@pytest.fixture(params=CASES, ids=[c[0] for c in CASES])
def waiting(request: pytest.FixtureRequest) -> tuple[GameState, dict[str, Any], TableView]:
    return _waiting(request.param)


def _decision(view: TableView) -> Decision:
    decision = view.decision
    assert decision is not None
    return decision


def _a_choice(answer: Any) -> dict[str, Any]:
    """A choice the answer offers: its first square, its lowest bid."""
    return {"square": answer.squares[0] if answer.squares else None, "amount": answer.low}


def test_every_kind_the_engine_waits_for_is_covered() -> None:
    kinds = {p.kind for _, _, p in CASES}
    assert kinds | {p.kind for p in (FOLLOW_UPS[0](0), FOLLOW_UPS[1](0))} == set(PendingKind)
    assert set(ANSWERS) == {k.value for k in kinds}


def test_each_kind_gives_a_record_of_who_is_asked_what(
        waiting: tuple[GameState, dict[str, Any], TableView]) -> None:
    g, state, view = waiting
    decision = _decision(view)
    raw = state["pending"]
    top = g.pending[-1]
    assert decision.kind == top.kind.value == raw["kind"]
    assert decision.player == raw["player"]
    assert decision.player == (g.players[top.player].name if top.player >= 0 else None)
    # who is asked: the one who answers, or every bidder still in but the highest
    assert decision.asked == tuple(a.player for a in view.asked if a.what == decision.kind)
    if decision.auction:
        assert decision.player is None and decision.bidder not in decision.asked
        assert set(decision.asked) <= set(raw["bidders"]) - set(raw["passed"])
    else:
        assert decision.asked == (raw["player"],)
    # its facts are the state's
    assert decision.square == raw.get("square")
    assert decision.price == raw.get("price", 0) and decision.amount == raw.get("amount", 0)
    assert decision.deck == raw.get("deck") and decision.building == raw.get("building")
    assert decision.creditor == raw.get("creditor") and decision.purpose == raw.get("for")
    assert decision.squares == tuple(raw.get("squares") or ())
    assert decision.highest == raw.get("highest", 0) and decision.bidder == raw.get("bidder")
    assert decision.queue == tuple(raw.get("queue") or ())
    assert decision.answers, "every case above has an answer on offer"


def test_the_answers_are_the_engines_offers_that_answer_it(
        waiting: tuple[GameState, dict[str, Any], TableView]) -> None:
    _, state, view = waiting
    decision = _decision(view)
    verbs = ANSWERS[decision.kind]
    expected = [(e["do"], e.get("by")) for e in state["legal"]
                if e["do"] in verbs and not e.get("correction")
                and (decision.auction or e.get("by") == decision.player)
                and not (e["do"] == "bid" and e.get("by") == decision.bidder)]
    assert [(a.do, a.by) for a in decision.answers] == expected
    for answer in decision.answers:
        assert answer.do in verbs
        if answer.button is not None:  # the panel's button sends this very answer
            assert view.buttons[answer.button] is not None
            assert decision.offers(view.press(answer.button))
            assert decision.for_button(answer.button) is answer


def test_the_engine_accepts_every_command_the_record_builds(
        waiting: tuple[GameState, dict[str, Any], TableView]) -> None:
    g, _, view = waiting
    decision = _decision(view)
    for answer in decision.answers:
        command = answer.command(**_a_choice(answer))
        assert command is not None and decision.offers(command)
        result = apply(g, command)
        assert isinstance(result, Accepted), (command, result)


def test_a_choice_the_record_does_not_offer_cannot_be_built(
        waiting: tuple[GameState, dict[str, Any], TableView]) -> None:
    _, state, view = waiting
    decision = _decision(view)
    size = len(state["squares"]) + 60  # past every square of any board
    for answer in decision.answers:
        choice = _a_choice(answer)
        if answer.squares:
            assert answer.command() is None  # a square must be named
            off = next(s for s in range(size) if s not in answer.squares)
            assert answer.command(square=off) is None
            assert not decision.offers({"do": answer.do, "by": answer.by, "square": off})
        else:
            assert answer.command(square=1) is None
        if answer.low is not None:
            assert answer.command(square=choice["square"]) is None  # a bid needs an amount
            assert answer.command(square=choice["square"], amount=answer.low - 1) is None
            if answer.high is not None:
                assert answer.command(amount=answer.high + 1) is None
                assert not decision.offers({"do": "bid", "by": answer.by,
                                            "amount": answer.high + 1})
        else:
            assert answer.command(square=choice["square"], amount=10) is None
    # someone else's answer, a verb that is no answer, an unknown player, a gift not offered
    for answer in decision.answers:
        if answer.by is not None and not decision.auction:
            forged = {"do": answer.do, "by": "Mallory", **{
                k: v for k, v in _a_choice(answer).items() if v is not None}}
            assert not decision.offers(forged)
    assert decision.command("end_turn", decision.player) is None
    assert decision.command("buy", "Mallory") is None
    assert not decision.offers({"do": "choose_gift", "by": decision.player, "gift": "yacht"})
    if decision.bidder is not None:  # the highest bidder is not offered to outbid themselves
        assert decision.answer("bid", decision.bidder) is None
        assert not decision.offers({"do": "bid", "by": decision.bidder,
                                    "amount": decision.highest + 10})


def test_the_screen_offers_on_its_buttons_only_what_the_record_offers(
        waiting: tuple[GameState, dict[str, Any], TableView]) -> None:
    _, state, view = waiting
    decision = _decision(view)
    holder = decision.player  # their bank card lets the panel answer for them
    for ui in (UiState(), UiState(card_holder=holder), UiState(bid_steps=3)):
        ui.table = view
        prompt = build_prompt(state, ui)
        sent = [a.command for a in prompt.actions if a.command is not None]
        assert all(decision.offers(c) for c in sent), sent
        for action in prompt.actions:  # a list to choose from is opened only for an answer
            if action.ui and action.ui.startswith("choose:"):
                assert decision.answer(action.ui.split(":", 1)[1], decision.player)
    ui = UiState(card_holder=holder)
    ui.table = view
    shown = build_prompt(state, ui)
    assert any(a.command is not None or (a.ui or "").startswith(("choose:", "pick:", "sold",
                                                                 "confirm_bankrupt"))
               for a in shown.actions), "the decision shows an answer to its player"


def test_the_inputs_read_the_decision() -> None:
    _, _, triple = _waiting(CASES[10])
    decision = _decision(triple)
    pick = entry.pick(triple, entry.Entry())
    assert pick is not None and pick.purpose == "triple" and pick.by == decision.player
    answer = decision.answer("choose_square", decision.player)
    assert answer is not None and sorted(pick.squares) == sorted(answer.squares)
    e = entry.Entry()
    off = next(s for s in range(200) if s not in answer.squares)
    assert isinstance(entry.choose_square(triple, e, off), entry.Refusal)  # not on offer
    _, _, rent = _waiting(CASES[7])
    assert entry.acting_player(rent) == "Ann" and entry.roller(rent)[1] is not None
    _, _, auction = _waiting(CASES[1])
    assert entry.turn_bid(auction, entry.Entry(), 2) and not entry.turn_bid(rent,
                                                                             entry.Entry(), 2)


@pytest.fixture
def session(tmp_path: Path) -> Iterator[GameSession]:
    with GameSession.open(tmp_path) as game:
        assert game.submit({"do": "new_game", "edition": "classic-eur",
                            "players": ["Ann", "Bo", "Cy"], "seed": 3}, BANKER).accepted
        yield game


def _to_an_auction(session: GameSession) -> None:
    """Ann rolls onto an unowned deed and declines it: the bank auctions it."""
    assert session.submit({"do": "roll", "by": "Ann", "dice": [1, 2]}, BANKER).accepted
    decision = session.table().decision
    assert decision is not None and decision.kind == "buy"
    assert session.submit({"do": "decline", "by": "Ann"}, BANKER).accepted


def test_built_once_per_version_when_first_read(session: GameSession) -> None:
    view = session.table()
    assert "decision" not in vars(view)  # nobody asked yet
    assert view.decision is None  # a fresh turn: nothing pending
    assert session.submit({"do": "roll", "by": "Ann", "dice": [1, 2]}, BANKER).accepted
    after = session.table()
    assert after.decision is not None and after.decision is session.table().decision
    assert after.decision.kind == "buy" and after.decision.asked == ("Ann",)
    assert view.decision is None  # the old version keeps its own


def test_the_auction_clock_is_on_the_record_once_someone_bids(session: GameSession) -> None:
    _to_an_auction(session)
    decision = session.table().decision
    assert decision is not None and decision.auction and decision.clock is None
    assert session.submit({"do": "bid", "by": "Bo", "amount": 20},
                          Source("phone", player="Bo")).accepted
    decision = session.table().decision
    assert decision is not None and decision.bidder == "Bo" and decision.highest == 20
    assert decision.clock is not None and 0 < decision.clock.seconds_left <= 30
    assert "Bo" not in decision.asked and decision.answer("bid", "Bo") is None


def _settle(screen: Controller, session: GameSession) -> None:
    """The screen applies every update up to the session's version (waited for, bounded)."""
    screen.drain_updates(session.version)
    assert screen.state is not None and screen.state["version"] == session.version


def test_the_screen_resets_its_entry_when_the_decision_changes(session: GameSession) -> None:
    screen = Controller(session, language="en", clock=lambda: 100.0)
    try:
        _to_an_auction(session)
        _settle(screen, session)
        screen.ui.bid_steps, screen.ui.card_holder = 3, "Ann"
        assert session.submit({"do": "pass", "by": "Cy"}, Source("phone", player="Cy")).accepted
        _settle(screen, session)  # the same auction, the same highest bid: the dial stays
        assert screen.ui.bid_steps == 3 and screen.ui.card_holder == "Ann"
        assert session.submit({"do": "bid", "by": "Bo", "amount": 20},
                              Source("phone", player="Bo")).accepted
        _settle(screen, session)  # a new highest bid: the dial starts again from it
        assert screen.ui.bid_steps == 0 and screen.ui.card_holder == "Ann"
        assert screen.ui.auction_deadline is not None
        assert session.submit({"do": "close_auction"}, BANKER).accepted
        _settle(screen, session)  # the decision is over: the card held the buttons for it only
        assert screen.ui.card_holder is None and screen.ui.auction_deadline is None
    finally:
        screen.close()


def test_the_screen_and_a_headless_table_drop_a_held_card_with_its_decision(
        session: GameSession) -> None:
    """One rule for both faces (companion.game.table.decision.asked_anew): a bank card
    holds the panel's buttons for its owner's decision, and only for that one."""
    from companion.inputs.actions import CardHolds
    from companion.screen.headless import HeadlessTable

    for command in ({"do": "roll", "by": "Ann", "dice": [1, 2]}, {"do": "buy", "by": "Ann"},
                    {"do": "mortgage", "by": "Ann", "square": 3},
                    {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [3]},
                     "take": {"cash": 10}}):
        assert session.submit(command, BANKER).accepted, command
    decision = session.table().decision
    assert decision is not None and decision.kind == "lift_mortgages"
    assert decision.player == "Bo" != session.table().current  # theirs, on their own input
    screen = Controller(session, language="en", clock=lambda: 100.0)
    headless = HeadlessTable(session)
    try:
        screen.hold_card("Bo")
        headless.handle(CardHolds("Bo"))
        assert screen.ui.card_holder == headless.card_holder == "Bo"
        assert session.submit({"do": "decline", "by": "Bo"},
                              Source("phone", player="Bo")).accepted
        _settle(screen, session)
        while headless.state.get("version") != session.version:
            headless.apply_update(headless.updates.get(timeout=10))
        assert session.table().decision is None
        assert screen.ui.card_holder is None and headless.card_holder is None
    finally:
        screen.close()
        headless.close()


@pytest.mark.parametrize("multiplier", [0, 10])
def test_a_roll_for_rent_prompt_names_a_multiplier_only_when_the_card_gives_one(
        multiplier: int) -> None:
    """A card's "ten times the dice" is said; a fresh roll for the utility's own rent (the
    house rule, multiplier 0 in the record) names no multiplier instead of "0× the dice"."""
    _, state, view = _waiting(("roll_for_rent", _classic,
                               RollForRentPending(0, 12, multiplier)))
    assert _decision(view).multiplier == multiplier
    title = build_prompt(state, UiState()).title
    assert title.startswith("Ann: roll for the rent of ")
    assert ("×" in title) is bool(multiplier)
    assert (f"({multiplier}× the dice)" in title) is bool(multiplier)


def test_a_decision_built_in_one_step_is_the_record_its_init_makes() -> None:
    """`decision_of` and `Answer.of` set the fields without the dataclass's __init__
    (issue 28's thirteenth round): every field as the __init__ sets it, equal, printed
    alike, still frozen."""
    import dataclasses

    from companion.game.table.decision import Answer

    state = {"current": "Ann", "pending": {"kind": "debt", "player": "Ann", "amount": 70,
                                           "creditor": "Bo", "squares": [1, 3]},
             "waiting": [{"kind": "buy"}],
             "legal": [{"do": "mortgage", "by": "Ann", "squares": [1, 3]},
                       {"do": "declare_bankruptcy", "by": "Ann"}]}
    decision = build(state).decision
    assert decision is not None
    again = Decision(**{f.name: getattr(decision, f.name)
                        for f in dataclasses.fields(Decision)})
    assert decision == again and repr(decision) == repr(again)
    assert (decision.amount, decision.creditor, decision.squares, decision.then) == \
        (70, "Bo", (1, 3), ("buy",))
    answer = decision.answers[0]
    made = Answer(**{f.name: getattr(answer, f.name) for f in dataclasses.fields(Answer)})
    assert answer == made and repr(answer) == repr(made) and hash(answer) == hash(made)
    assert (answer.do, answer.by, answer.squares) == ("mortgage", "Ann", (1, 3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.do = "x"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        decision.kind = "x"  # type: ignore[misc]
    other = build({**state, "pending": {**state["pending"], "amount": 80}}).decision
    assert other is not None and other.amount == 80 and other != decision
