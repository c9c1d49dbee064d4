"""The next move worked out ahead (companion.game.ahead, issue 28): the same rows, events,
states and public JSON with and without forecasts; a forecast used only at the very state
it was made from, and only while a leading listener (the table's screen) is there."""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.bots import Bots
from companion.game.api import Hold, Source, Update
from companion.game.journal import Entry, Journal, RowText, row_text
from companion.game.replaying import snapshot_of
from companion.game.session import GameSession
from companion.game.table.offers import OfferStore
from companion.rules import Code, Rejection

TABLE = Source("script", banker=True)
BUTTON = Source("button", player="Ann")
NEW_GAME = {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo", "Cy"],
            "seed": 11}
ROLL = {"do": "roll", "by": "Ann"}
PAY = {"do": "pay", "from": "Bo", "to": "Cy", "amount": 1}
#: long enough that a writer that never settles fails the test rather than slowing it
SETTLE_S = 10.0


class FakeClock:
    """Wall-clock seconds that only move when the test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def no_hold(update: Update) -> Hold | None:
    """A leading listener that holds nothing (the table's screen is one)."""
    return None


def opened(path: Path, clock: FakeClock, forecasting: bool) -> GameSession:
    session = GameSession.open(path, clock=clock)
    session.auction_seconds = None  # no gavel on a clock the test does not move
    session.forecasting = forecasting
    session.lead(no_hold)
    return session


def exact(value: Any) -> str:
    """Byte for byte: the JSON text, keys in order as built."""
    return json.dumps(value)


def rows(session: GameSession) -> list[tuple[Any, ...]]:
    """The journal's rows as SQLite has them (every column: the texts, the time, the CRC)."""
    conn = sqlite3.connect(f"file:{session._journal.path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT * FROM entries ORDER BY seq").fetchall()
    finally:
        conn.close()


def counted_rows_made_ahead(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seqs of the entries given a row text made ahead (`Entry.written_as`)."""
    seqs: list[int] = []
    given = Entry.written_as

    def counted(entry: Entry, text: RowText) -> None:
        seqs.append(entry.seq)
        given(entry, text)

    monkeypatch.setattr(Entry, "written_as", counted)
    return seqs


@pytest.mark.parametrize("settle", [True, False])
def test_a_bot_game_is_the_same_with_and_without_forecasts(
        tmp_path: Path, settle: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each move sent once the writer worked out what it would ahead (hits), or at once,
    as a burst of keys, while the writer may be half way through (the forecasts of a
    state not all made: the request comes first). The journals' rows are the same bytes,
    CRCs included, whether or not their text was made ahead."""
    made_ahead = counted_rows_made_ahead(monkeypatch)
    clock = FakeClock()
    ahead = opened(tmp_path / "ahead", clock, True)
    ahead.ahead_after_s = 0.0  # at once: 600 moves
    plain = opened(tmp_path / "plain", clock, False)
    offers = {ahead: OfferStore(), plain: OfferStore()}  # a hit lapses them by its facts
    try:
        for session in (ahead, plain):
            session.keep_offers(offers[session])
            assert session.submit(NEW_GAME, TABLE).accepted
        bots = Bots()
        moves = 0
        while moves < 600:
            g = ahead.game_state()
            assert g is not None
            if g.winner >= 0:
                break
            if settle:
                assert ahead.ahead_settled(SETTLE_S)
            command = bots.choose(g)
            got, want = ahead.submit(command, TABLE), plain.submit(command, TABLE)
            assert (got.accepted, got.version, got.code, exact(got.events)) == \
                (want.accepted, want.version, want.code, exact(want.events)), command
            assert exact(ahead.state()) == exact(plain.state()), command
            assert ahead.table() == plain.table(), command
            after = ahead.game_state()
            assert after is not None
            assert exact(snapshot_of(after)) == exact(snapshot_of(plain.game_state()))
            assert offers[ahead].turn == offers[plain].turn == after.turn_number
            moves += 1
            clock.now += 1.0
        assert exact(ahead.history(limit=10_000)) == exact(plain.history(limit=10_000))
        assert rows(ahead) == rows(plain)
        assert len(rows(ahead)) == moves + 1
        ahead._journal.scan()  # every row's CRC checked
        made, used = ahead.ahead_counts()
        print(f"{moves} moves, {made} worked out ahead, {used} used, "
              f"{len(made_ahead)} rows written from their text made ahead")
        if settle:  # the bots press what the buttons send, most moves
            assert used > moves // 3, (made, used, moves)
            assert len(made_ahead) > moves // 3
        assert len(made_ahead) <= used
        assert plain.ahead_counts() == (0, 0)
    finally:
        ahead.close()
        plain.close()


def test_nothing_is_worked_out_ahead_without_a_screen(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as session:  # phones and scripts only: no lead
        assert session.submit(NEW_GAME, TABLE).accepted
        assert session.ahead_settled(SETTLE_S)
        assert session.submit(ROLL, BUTTON).accepted
        assert session.ahead_settled(SETTLE_S)
        assert session.ahead_counts() == (0, 0)


def poisoned(session: GameSession) -> None:
    """Every forecast kept now gives a refusal no engine gives: used, it shows."""
    for forecast in session._ahead._made:
        forecast.result = Rejection(Code.BAD_COMMAND, "poisoned")
        forecast.json = None


@pytest.fixture
def table(tmp_path: Path) -> Any:
    clock = FakeClock()
    session = opened(tmp_path, clock, True)
    assert session.submit({**NEW_GAME, "options": {"variant": "timed",
                                                   "time_limit_minutes": 30}}, TABLE).accepted
    assert session.submit(PAY, TABLE).accepted  # a move to undo
    assert session.ahead_settled(SETTLE_S)
    made, used = session.ahead_counts()
    assert made >= 1 and used == 0
    yield session, clock
    session.close()


def test_a_forecast_is_used_at_its_own_state(table: Any) -> None:
    session, _clock = table
    poisoned(session)
    out = session.submit(ROLL, BUTTON)
    assert not out.accepted and out.message == "poisoned"  # the forecast was the answer
    assert session.ahead_counts()[1] == 1


@pytest.mark.parametrize("between", ["phone", "undo_redo", "clock", "new_game"])
def test_a_forecast_is_never_used_after_another_change(table: Any, between: str) -> None:
    session, clock = table
    session.forecasting = False  # nothing worked out for the states in between
    poisoned(session)
    if between == "phone":
        assert session.submit(PAY, Source("phone", player="Bo")).accepted
    elif between == "undo_redo":
        assert session.undo(TABLE).accepted
        assert session.redo(TABLE).accepted
    elif between == "clock":
        clock.now += 30 * 60  # the timed game's end rings before the press
    else:
        assert session.submit(NEW_GAME, TABLE).accepted
    out = session.submit(ROLL, BUTTON)
    assert out.message != "poisoned"
    if between == "clock":
        assert not out.accepted and session.state()["winner"] is not None
    else:
        assert out.accepted, out
    assert session.ahead_counts()[1] == 0


def poisoned_rows(session: GameSession) -> None:
    """Every row text made ahead now names a command nobody sent: written, it shows (its
    CRC is its own, so the journal stays sound)."""
    for forecast in session._ahead._made:
        if forecast.row is not None:
            forecast.row = row_text({"do": "poisoned"}, forecast.row.events_json,
                                    forecast.row.version, forecast.rng)


@pytest.mark.parametrize("sent", ["the_same", "keys_in_another_order", "another_command"])
def test_a_row_made_ahead_is_written_only_for_its_own_command(
        table: Any, sent: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A forecast's row text is the row only when the command that comes is the forecast's
    to the byte: an equal command with its keys in another order (the engine's result is
    the forecast's, the row's text is not) and any other command get their own row."""
    session, _clock = table
    made_ahead = counted_rows_made_ahead(monkeypatch)
    poisoned_rows(session)
    command = {"the_same": ROLL, "keys_in_another_order": {"by": "Ann", "do": "roll"},
               "another_command": PAY}[sent]
    assert session.submit(command, BUTTON if sent != "another_command" else TABLE).accepted
    last = rows(session)[-1]
    session._journal.scan()  # the row's CRC is sound either way
    if sent == "the_same":  # the very row text made ahead was written
        assert json.loads(last[5]) == {"do": "poisoned"} and made_ahead == [last[0]]
        return
    assert made_ahead == []
    assert json.loads(last[5])["do"] == command["do"]
    assert list(json.loads(last[5]))[:2] == list(command)[:2]  # its own keys' order
    if sent == "keys_in_another_order":  # the forecast's engine result all the same
        assert session.ahead_counts()[1] == 1


def test_a_power_cut_after_a_row_made_ahead_resumes_at_that_row(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    """The files copied inside the screen's frame of a press whose row was written from
    its text made ahead (durable, the mark one behind): the copy opens at that row, every
    row's CRC sound, the row the one a session without forecasts writes."""
    made_ahead = counted_rows_made_ahead(monkeypatch)
    clock = FakeClock()
    data, plain_dir = tmp_path / "data", tmp_path / "plain"
    session = opened(data, clock, True)
    plain = opened(plain_dir, clock, False)
    me = threading.get_ident()
    try:
        for s in (session, plain):
            assert s.submit(NEW_GAME, TABLE).accepted
            assert s.submit(PAY, TABLE).accepted
        assert session.ahead_settled(SETTLE_S)

        def screen(update: Update) -> Hold:
            def the_power_goes() -> None:
                shutil.copytree(data, tmp_path / "cut")
            return Hold(the_power_goes, me)

        session.lead(screen)
        assert session.submit(ROLL, BUTTON).accepted
        assert plain.submit(ROLL, BUTTON).accepted
        assert made_ahead == [3]
        want = rows(plain)
    finally:
        session.close()
        plain.close()
    path = next((tmp_path / "cut" / "games").glob("*.journal"))
    journal = Journal.open(path, readonly=True)
    try:
        assert [seq for seq, _kind, _target in journal.scan()] == [1, 2, 3]
    finally:
        journal.close()
    with GameSession.open(tmp_path / "cut", clock=clock) as resumed:
        assert resumed._seq == 3 and resumed.version == want[-1][7]
        assert rows(resumed) == want


@pytest.mark.parametrize("switch", [None, False, True])
def test_a_teaching_step_planned_ahead_holds_only_while_the_teaching_is_unchanged(
        tmp_path: Path, switch: bool | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hit takes the teaching's step planned with its forecast (no plan at the commit);
    once the teaching was switched after the forecast (the state, and so the forecast,
    unchanged), the commit plans the step again: the view says what was switched."""
    from companion.game.telling.teaching import Teaching
    clock = FakeClock()
    session = opened(tmp_path, clock, True)
    try:
        first = {**NEW_GAME, "teaching": not switch} if switch is not None else NEW_GAME
        assert session.submit(first, TABLE).accepted
        assert session.ahead_settled(SETTLE_S)
        if switch is not None:
            assert session.set_teaching(switch, TABLE).accepted
            assert session.ahead_settled(SETTLE_S)
        session.forecasting = False  # nothing more worked out ahead: the calls are the commit's
        plans: list[int] = []
        plan = Teaching.plan

        def counted(self: Teaching, version: int, *args: Any, **kwargs: Any) -> Any:
            plans.append(version)
            return plan(self, version, *args, **kwargs)

        monkeypatch.setattr(Teaching, "plan", counted)
        assert session.submit(ROLL, BUTTON).accepted
        assert session.ahead_counts()[1] == 1  # the forecast was the result
        assert len(plans) == (0 if switch is None else 1)
        assert session.state()["teaching"]["on"] is (True if switch is None else switch)
    finally:
        session.close()


def test_a_press_that_comes_while_the_writer_works_ahead_in_a_timed_game_is_answered(
        tmp_path: Path) -> None:
    """A command queued while the writer works out a forecast, in a game with a clock (the
    timed game's end): the writer must take it at once, not stop on a negative wait (it
    did: the writer thread died and the table froze)."""
    from companion.game import session as session_module

    clock = FakeClock()
    session = opened(tmp_path, clock, True)
    session.ahead_after_s = 0.0  # works ahead at once after each request
    answered = threading.Event()
    outcomes: list[Any] = []
    work_ahead = session._work_ahead
    queued: list[bool] = []

    def with_a_press_meanwhile() -> bool:
        if not queued and session.version >= 1:  # the game is on, its clock armed
            queued.append(True)
            job = session_module._Job("command", TABLE, dict(PAY), None)
            job.done = session_module._Told(job, lambda out: (outcomes.append(out),
                                                                answered.set()))
            session._queue.put(job)  # as submit_nowait queues it, from inside the work
        return work_ahead()

    session._work_ahead = with_a_press_meanwhile  # type: ignore[method-assign]
    try:
        assert session.submit({**NEW_GAME, "options": {"variant": "timed",
                                                       "time_limit_minutes": 30}},
                              TABLE).accepted
        assert answered.wait(SETTLE_S), "the press queued during the work ahead was lost"
        assert outcomes[0].accepted, outcomes[0]
        assert session._writer.is_alive()
        assert session.submit(ROLL, BUTTON).accepted  # and the table goes on
    finally:
        session.close()


def test_a_forecast_s_state_wakes_no_other_thread_to_be_built(
        table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The public state of a command worked out ahead is built already: its commit hands
    the listeners' thread no view to build (a wake-up and its CPU inside the press's window,
    issue 28); whoever reads it first adds the session's extras, and every listener gets
    the state the session answers with. A command not worked out ahead still has its view
    built there while the writer waits for the disk."""
    from companion.game.session import PublicView

    session, _clock = table
    handed: list[Any] = []
    queue = session._notices

    class Watched:
        def put(self, item: Any) -> None:
            handed.append(item)
            queue.put(item)

        def get(self) -> Any:
            return queue.get()

    monkeypatch.setattr(session, "_notices", Watched())
    told: list[Update] = []
    heard = threading.Event()

    def listener(update: Update) -> None:
        told.append(update)
        heard.set()

    session.add_listener(listener)
    out = session.submit(ROLL, BUTTON)
    assert out.accepted and session.ahead_counts()[1] == 1  # the forecast's
    assert heard.wait(SETTLE_S)
    assert not any(isinstance(item, PublicView) for item in handed)
    state = told[0].state
    assert state == session.state() and "teaching" in state and "card_news" in state
    session.forecasting = False
    heard.clear()
    assert session.submit(PAY, Source("phone", player="Bo")).accepted  # not worked out
    assert heard.wait(SETTLE_S)
    assert any(isinstance(item, PublicView) for item in handed)
    assert told[-1].state == session.state()


def test_the_gavel_worked_out_ahead_is_the_bankers_still(tmp_path: Path) -> None:
    """In an auction with a bid the writer works the gavel out ahead (`ahead.gavel_of`), and
    the authority still decides who may send it: the highest bidder's phone is refused
    (only the banker closes an auction, or the table's clock) and takes nothing worked out
    ahead; the banker's gavel takes the result worked out ahead."""
    session = opened(tmp_path, FakeClock(), True)
    try:
        assert session.submit({"do": "new_game", "edition": "classic-eur", "players":
                               ["Ann", "Bo", "Cy"], "seed": 3}, TABLE).accepted
        for command in ({"do": "roll", "dice": [1, 2]}, {"do": "decline"}):
            assert session.submit(command, TABLE).accepted
        bo = Source("phone", player="Bo")
        assert session.submit({"do": "bid", "by": "Bo", "amount": 20}, bo).accepted
        assert session.ahead_settled(5.0)
        used = session.ahead_counts()[1]
        refused = session.submit({"do": "close_auction"}, bo)
        assert not refused.accepted and refused.code == "banker_only"
        assert session.ahead_counts()[1] == used
        assert session.state()["pending"]["kind"] == "auction"
        assert session.submit({"do": "close_auction"}, TABLE).accepted
        assert session.ahead_counts()[1] == used + 1  # the gavel worked out ahead
    finally:
        session.close()
