"""Turns presses, taps and keys into session commands, and session updates into UI state.

Other threads (the session's writer, hardware callbacks, the phone server) only call the
thread-safe `post_*` / `on_update` methods, which queue and wake the screen loop; every
change to the UI state happens on the loop's thread in `drain`.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from companion import net
from companion.config import WebConfig
from companion.game.api import JSON, GameSessionProtocol, Hold, Outcome, Source, Update
from companion.game.authority import table_source
from companion.game.limits import fresh_seed
from companion.game.pins import PinGuard
from companion.game.table.decision import about_anew, asked_anew
from companion.game.table.offers import OfferStore
from companion.game.table.records import Setup, seated, seats
from companion.game.table.view import TableView
from companion.inputs import entry
from companion.inputs.entry import acting_player
from companion.rules.commands import CloseAuction, Command, EndGame
from companion.screen import texts
from companion.screen.audio import SoundPlayer
from companion.screen.entry import EntryMixin
from companion.screen.log_lines import record_moves, resume_moves
from companion.screen.render import FIRSTS, Frame, setup_prompt, view_ahead
from companion.screen.screen_sounds import extra_sounds
from companion.screen.texts import text
from companion.screen.ui_state import (
    MESSAGE_S,
    BalanceAnim,
    Choice,
    Chooser,
    Message,
    PlayerStyle,
    UiState,
)
from companion.screen.views import settings as screen_settings
from companion.screen.views.board_info import board_info, edition_names
from companion.screen.views.endgame.history import networth_series
from companion.screen.views.house_rules import house_rule_states
from companion.screen.views.pin import PIN_S, pin_prompt
from companion.screen.views.prompt import (
    Action,
    build_prompt,
    prompt_inputs,
    square_choices,
    table_of,
)
from companion.screen.views.setup import SetupForm
from companion.screen.wakeups import FirstFrame
from companion.speech import settings as speech_settings
from companion.words import catalog as i18n
from companion.words.input_texts import input_text, pin_warning_said
from companion.words.refusals import describe_refusal
from companion.words.table_language import TableLanguage

log = logging.getLogger(__name__)
#: how long the right banker PIN (or the banker card) makes the screen the banker's
BANKER_S = 120.0
#: how long a press waits for its own update before the loop draws without it (the session
#: tells its listeners right after answering; this only bounds a stuck listener)
OWN_UPDATE_S = 1.0
#: journal entries read on resume for the recent moves (the screen lists fewer)
RESUME_ENTRIES = 20


#: the last state `has_game` was asked about (the very object) and its answer
_last_asked: tuple[Mapping[str, Any] | None, bool] = (None, False)


def has_game(state: Mapping[str, Any] | None) -> bool:
    """Whether `state` is a running (or finished) game rather than no game at all; the
    answer for the last state asked is kept (the loop asks about one state several times a
    press, before the first frame)."""
    global _last_asked
    seen, answer = _last_asked
    if state is not None and state is seen:
        return answer
    answer = state is not None and bool(state) and seated(state)  # no seat record built
    _last_asked = (state, answer)
    return answer


#: the last state whose edition was read (the very object) and its edition
_last_edition: tuple[Mapping[str, Any] | None, str] = (None, "")


def edition_of(state: Mapping[str, Any]) -> str:
    """The edition of a public state JSON (`Setup.of(state).edition`), the one of the last
    state asked kept: the loop reads it four to six times a press before its first frame
    (the language, the board's names, whether the recent moves go on)."""
    global _last_edition
    seen, edition = _last_edition
    if state is seen:
        return edition
    edition = Setup.of(state).edition
    _last_edition = (state, edition)
    return edition


def refusal_text(outcome: Outcome, state: Mapping[str, Any] | None) -> str:
    """A refused Outcome said in the screen's language (its code and params, square names
    and money from `state`'s edition); the English message when the facts are missing."""
    lang = texts.language()
    return describe_refusal(outcome.code, outcome.params, outcome.message, state, lang,
                            i18n.translator(lang).pgettext)


class Controller(EntryMixin):
    """The screen's brain: owns the UI state, talks to the session (dice entry, the
    encoder, square choices and hardware warnings: companion.screen.entry)."""

    def __init__(
        self,
        session: GameSessionProtocol | None,
        ui: UiState | None = None,
        sound: SoundPlayer | None = None,
        data_dir: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        language: str | None = None,
        remote_port: int | None = WebConfig.port,
    ) -> None:
        """`language`: the configured screen language; None or "" lets each edition speak
        its own (a language chosen on the setup screen wins over both). `remote_port`: the
        phone remote's configured port, for the join address shown while no remote runs (a
        screenshot); None: the remote is off."""
        self.session = session
        self.language = language or ""
        self._board_key: tuple[str, str] | None = None
        self.ui = ui or UiState()
        self.sound = sound
        self.data_dir = data_dir
        self.clock = clock
        self.settings = screen_settings.load(data_dir)
        #: the table's one language, the phones' too (companion.words.table_language)
        self.table_language = TableLanguage.at(data_dir) if data_dir is not None else \
            TableLanguage(None)
        self.table_language.configured = self.language
        if not self.table_language.chosen and isinstance(self.settings.language, str) \
                and self.settings.language:
            self.table_language.choose(self.settings.language)  # chosen before it was shared
        self.updates: queue.Queue[Update] = queue.Queue()
        #: updates queued by the listener (its thread's count) and applied (the loop's):
        #: the tickets of `first_frame`, a running loop's (None: nobody holds the listener)
        self._told, self.applied = 0, 0
        self.first_frame: FirstFrame | None = None
        #: the events of updates applied whose sounds wait for the frame that shows them
        self._held_sounds: list[list[JSON]] = []
        #: the work of an update applied that its first frame does not need (the recent
        #: moves' lines), done after that frame's flip (`finish_updates`)
        self._unfinished: list[Callable[[], None]] = []
        self.inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.wake: Callable[[], None] = lambda: None
        self.frame: Frame | None = None
        #: companion.screen.views.registration.CardRegistration when RFID readers are wired in
        self.cards: Any = None
        #: the table's one banker PIN guard (companion.game.pins), the phones' too; None:
        #: no banker PIN on this table (a screenshot), the banker's actions ask for none
        self.pins: PinGuard | None = None
        #: the readers' pump's `take_press`: a key or touch goes to the gesture a bank card
        #: started (its question, the amount) while one waits, as the panel's button would
        self.gestures: Callable[[str], bool] | None = None
        #: the table's voice for a warning (companion.speech.announcer.Announcer.warn): the
        #: warning's sentences in a language, said in the table's; None: no voice
        self.speak: Callable[[Callable[[str], list[str]]], None] | None = None
        #: the table's open offers (follow_offers), None: no phone can offer a trade
        self.offers: OfferStore | None = None
        self._remove_offers: Callable[[], None] | None = None
        #: the last state applied and its view: the decision a new one is compared with
        self._seen: tuple[Mapping[str, Any] | None, TableView | None] = (None, None)
        self.ui.now = clock()
        self.ui.volume, self.ui.muted = self.settings.volume, self.settings.muted
        self.ui.styles = {n: PlayerStyle(s.get("color"), s.get("token"))
                          for n, s in self.settings.styles.items()}
        # until a running screen or the phone remote says otherwise (a screenshot): where
        # phones would join, shown greyed out with "start companion run"
        self.ui.remote_placeholder = None if remote_port is None else \
            net.placeholder_url(remote_port)
        self.state: JSON | None = session.state() if session else None
        #: whether ui.networth holds the whole game (dealt in this process); a resumed game's
        #: curve is read from the journal off the loop's thread when its chart is needed
        self._networth_whole = True
        #: that read while it runs (tests join it)
        self.networth_job: threading.Thread | None = None
        self._apply_clock()
        self.refresh_table()
        if has_game(self.state):
            self.sync_language()
            self._resume_history()
            self._auction_clock(None, self.state or {})
        else:
            self.open_setup()
        self._remove_listener = session.lead(self.on_update) if session else None

    # --- thread-safe entry points ---------------------------------------------------------

    def on_update(self, update: Update) -> Hold | None:
        """The session's leading listener (its writer's thread, as soon as the change is
        journaled): queue the update and wake the loop; under a running loop, hand back
        the hold that returns once a frame shows it, so that the session's followers and
        its other listeners (the phones, the voice) come after the table's first frame
        (companion.screen.wakeups.FirstFrame)."""
        self._told += 1
        ticket, gate = self._told, self.first_frame
        self.updates.put(update)
        self.wake()
        if gate is None:
            return None
        return Hold(lambda: gate.wait(ticket), gate.loop_thread)

    def hold_writes(self) -> None:
        """On the phone remote's file writer, before it writes (web_remote's Persister: the
        net-worth chart's line of a move, the offers): until a flipped frame shows the
        game's version as it is now, bounded as the listeners' hold (FirstFrame), so that
        the files are written after the table's first frame, not beside it; at once when no
        loop draws."""
        gate, version = self.first_frame, getattr(self.session, "version", None)
        if gate is not None and isinstance(version, int):
            gate.wait_version(version)

    def post_button(self, button: str, source: str = "button") -> None:
        """A panel button pressed (hardware thread): handled on the loop's thread."""
        self.inbox.put(("button", (button, source)))
        self.wake()

    def post_pin_warning(self, wrong: int, where: str = "phone", wait: float = 0.0) -> None:
        """Wrong banker PINs were typed (the PIN guard's caller's thread): the table hears
        it wherever it was typed (and how long the next one waits), and sees one typed on
        a phone (one typed on this screen was shown there already: Controller.check_pin)."""
        self.say_warning(lambda lang: pin_warning_said(wrong, where, wait, lang))
        if where == "screen":
            return
        self.inbox.put(("message", (text("pin_warning", count=wrong), "warning")))
        self.wake()

    def follow_offers(self, offers: OfferStore) -> None:
        """Show the table's open offers (companion.game.table.offers): the screen says whom
        each waits for (companion.screen.views.waiting); the shared YES / NO never answer
        one, the receiver's phone or their bank card's own question does."""
        self.offers = offers
        self._remove_offers = offers.add_listener(self._offers_changed)
        self.refresh_table()

    def refresh_table(self, state: Mapping[str, Any] | None = None) -> None:
        """The session's typed view of the table as it stands (whom the screen waits for,
        the open offers); with `state` (an update's), the view the loop built ahead for a
        state equal to it with the same open offers (`render.first_ahead`, issue 28), when
        there is one, rather than the session's built now: they are built alike from equal
        inputs (`GameSession.table`), which the screen's offers are (the composition root
        gives the session and the screen the one store)."""
        table = getattr(self.session, "table", None)
        if not callable(table):
            self.ui.table = None
            return
        kept = view_ahead(state, self.offers) if state is not None and FIRSTS else None
        self.ui.table = kept if kept is not None else table()

    def _offers_changed(self) -> None:
        """The offers changed (any thread): shown on the loop's thread."""
        self.inbox.put(("offers", None))
        self.wake()

    def post_card_holder(self, player: str) -> None:
        """A player's bank card was tapped for a decision of theirs (reader thread)."""
        self.inbox.put(("card_holder", player))
        self.wake()

    def post_message(self, message: str, kind: str = "info") -> None:
        """A notice from another part (a reader warning, a refused tap)."""
        self.inbox.put(("message", (message, kind)))
        self.wake()

    def say_warning(self, sentences: Callable[[str], list[str]]) -> None:
        """Say a warning aloud (any thread): its sentences in the language the voice
        speaks, the table's."""
        if self.speak is not None:
            self.speak(sentences)

    def post_refusal(self, outcome: Outcome) -> None:
        """A command refused elsewhere (an RFID tap): said in the screen's language."""
        self.inbox.put(("refusal", outcome))
        self.wake()

    def close(self) -> None:
        """Stop listening to the session."""
        if self._remove_listener:
            self._remove_listener()
            self._remove_listener = None
        if self._remove_offers is not None:
            self._remove_offers()
            self._remove_offers = None

    # --- the loop's side ------------------------------------------------------------------

    def drain(self) -> bool:
        """Apply queued updates and inputs; True when something changed."""
        self.ui.now = self.clock()
        changed = False
        while True:
            try:
                update = self.updates.get_nowait()
            except queue.Empty:
                break
            self.apply_update(update)
            changed = True
        while True:
            try:
                kind, payload = self.inbox.get_nowait()
            except queue.Empty:
                break
            changed = True
            if kind == "button":
                self.press(*payload)
            elif kind == "offers":
                self.refresh_table()
            elif kind == "message":
                self.notify(*payload)
            elif kind == "refusal":
                self.refuse(payload)
            elif kind == "encoder":
                self.turn(payload)
            elif kind == "warning":
                self.warn(*payload)
            elif kind == "card_holder":
                self.hold_card(payload)
            elif kind == "networth":
                self._networth_read(*payload)
        return self.tick() or changed

    def tick(self) -> bool:
        """Time-driven changes of the screen: the PIN question closing by itself, the timed
        game's countdown reaching its end. The table's clocks themselves (the auction's
        gavel, the timed game's end) are the session writer's, with or without a screen."""
        changed = self._timed_game_over()
        self.ui.banker_free = self.pins is None or not self.pins.store.is_set
        if self.ui.pin is not None and self.ui.pin_until is not None and \
                self.ui.now >= self.ui.pin_until:
            self.ui.pin, self.ui.pin_until = None, None  # the PIN question closes by itself
            changed = True
        deadline = self.ui.auction_deadline
        if deadline is not None and self.ui.now >= deadline:
            self.ui.auction_deadline = None  # the session closes it: its update follows
            changed = True
        return changed

    def _timed_game_over(self) -> bool:
        """The timed game's countdown at its end: the session's writer ends the game and
        counts; the screen stops counting."""
        deadline = self.ui.clock_deadline
        if deadline is None or self.ui.now < deadline or not has_game(self.state):
            return False
        self.ui.clock_deadline = None
        return True

    def apply_update(self, update: Update) -> None:
        """A new state from the session: animate balances, log, sounds, auction clock. What
        only the regions drawn after the first frame read (the changes of cash beside the
        balances, the recent moves' lines) waits for `finish_updates` under a running loop
        on the game screen (right after the frame's flip: the result goes first)."""
        self.finish_updates()  # the update before this one first, in order
        self.applied += 1
        old = self.state if has_game(self.state) else None
        state = update.state  # the public state of this version, built once for every listener
        self.state = state
        now = self.ui.now
        if old is not None and edition_of(old) == edition_of(state):
            self._unfinished.append(partial(self._changes_of_cash, old, state, now))
        else:
            self.ui.anims.clear()
            self.ui.log.clear()
            self.ui.networth.clear()
        if first_kind(update.events) in ("game_started", "game_switched"):
            # dealt here: this process sees the whole curve; switched to: read it when needed
            self._networth_whole = first_kind(update.events) == "game_started"
        if has_game(state):
            self.ui.setup = None
        self.sync_language()
        if old is not None and self._seen[0] is not old:  # the first update since a start:
            # the view of the state shown so far is the screen's, until the line below
            self._seen = (old, table_of(old, self.ui))  # (`_reset_entry` compares with it)
        # the session's view of this version (the offers lapsed by its writer before this
        # update), before anything reads table_of: else a view of the state is built too
        self.refresh_table(state)
        # an undo strikes its move through; after the first frame, which does not show them
        self._unfinished.append(partial(record_moves, self.ui, update.events, state))
        # the game-over chart's sample: only the game-over screen, drawn whole, reads it
        self._unfinished.append(partial(self._networth_sample, update.events, state))
        if self.first_frame is None or table_of(state, self.ui).winner:
            self.finish_updates()  # no loop draws, or the game-over screen: drawn whole
        first = (update.events or [{}])[0].get("kind")
        if self.ui.message is not None and self.ui.message.kind == "undone" and \
                first != "undone":
            self.ui.message = None  # the "Undone" banner goes when the next move comes
        self._tell_story(state)
        self._want_networth()
        self._reset_entry(old, state)
        for event in update.events:
            if event.get("kind") == "bankrupt":
                self.notify(text("bankrupt_banner", player=event.get("player")))
        if self.sound is not None:
            self._held_sounds.append(update.events)
            if self.first_frame is None:  # no loop draws: nothing to come after
                self.play_held_sounds()
        self._auction_clock(old, state)
        self._apply_clock()
        if self.ui.overlay == "chooser":
            self.ui.overlay, self.ui.chooser = None, None
        self.clear_dice()

    def _changes_of_cash(self, old: Mapping[str, Any], state: Mapping[str, Any],
                         now: float) -> None:
        """Each balance that changed from `old` to `state`, shown beside it from `now`."""
        before = {p.name: p.cash for p in seats(old)}
        for player in seats(state):
            name, cash = player.name, player.cash
            if name in before and before[name] != cash:
                self.ui.anims[name] = BalanceAnim(before[name], cash, now)

    def finish_updates(self) -> bool:
        """The work of the updates applied that their first frame did not need (the loop's
        thread: after the flip, or before a frame that draws everything); True when there
        was some (what is shown changed)."""
        unfinished, self._unfinished = self._unfinished, []
        for work in unfinished:
            work()
        return bool(unfinished)

    def play_held_sounds(self) -> None:
        """The sounds of the updates applied so far (the loop's thread, right after the
        frame that shows them): an update's sound is handed to the player only once its
        first frame is on the screen, since the player's thread may open the audio device
        and load every sound then, tens of ms of a slow board's core beside the frame."""
        held, self._held_sounds = self._held_sounds, []
        for events in held:
            if self.sound is not None and not self.sound.play_events(events):
                for name in extra_sounds(events)[:1]:  # Mega events the mixer misses
                    self.sound.play(name)

    def _tell_story(self, state: Mapping[str, Any]) -> None:
        """At game over, the game's story from the journal (the game-over screen shows
        it); none while the game goes on."""
        self.ui.story = None
        if self.session is None or table_of(state, self.ui).winner is None:
            return
        try:
            self.ui.story = self.session.story()
        except Exception as exc:  # a story the screen cannot read must not stop the game
            log.warning("story unavailable: %s", exc)

    def _networth_sample(self, events: list[JSON], state: JSON) -> None:
        """One net-worth sample per command: an undo takes its command's sample back."""
        first = str((events or [{}])[0].get("kind"))
        if first == "undone":
            if len(self.ui.networth) > 1:
                self.ui.networth.pop()
            return
        self.ui.networth.append({p.name: p.net_worth for p in table_of(state, self.ui).players})

    def _reset_entry(self, old: Mapping[str, Any] | None, state: Mapping[str, Any]) -> None:
        """A new decision on the table ends the old one's choices: the square focused, the
        bus ride, the dialled bid, the UNDO confirmation. The decisions compared are the
        view's typed records (TableView.decision) of the state before and of this one."""
        self.ui.confirm_undo, self.ui.undo_target = False, None
        seen_state, seen = self._seen
        was = None if old is None else seen if seen_state is old else table_of(old, UiState())
        now = table_of(state, self.ui)
        self._seen = (state, now)
        before, after = (was.decision if was is not None else None), now.decision
        if asked_anew(before, after):
            self.ui.card_holder = None  # a card held the buttons for that decision only
        if about_anew(before, after):
            self.ui.bid_steps = 0
            self.ui.square_focus = None
        if after is not None or now.turn.number != (was.turn.number if was else 1):
            self.ui.bus_ride = False

    def _auction_clock(self, old: Mapping[str, Any] | None, state: Mapping[str, Any]) -> None:
        """The auction clock, as the session keeps it for the screen and every phone
        (companion.game.telling.news): it runs out `seconds_left` from this update (the
        state's, read when it was told; the view's record may have been read earlier),
        while someone holds the highest bid. An auction nobody bid in waits for its bidders
        (the session's gavel only falls after a bid): no deadline, so the screen neither
        ticks every second for it nor keys its prompt by it (the prompt shows the seconds
        with a bid only), and the NO that opens an auction finds its prompt built ahead."""
        decision = table_of(state, self.ui).decision
        clock = state.get("auction_clock") or {}
        if decision is None or not decision.auction or decision.bidder is None \
                or "seconds_left" not in clock:
            self.ui.auction_deadline = None
            return
        self.ui.auction_deadline = self.ui.now + float(clock["seconds_left"])

    def notify(self, message: str, kind: str = "info") -> None:
        """Show a banner for a while."""
        self.ui.message = Message(message, kind, self.ui.now + MESSAGE_S)

    def refuse(self, refusal: str | Outcome) -> None:
        """Show a refusal and play the refused sound: a screen text as it is, a refused
        Outcome in the screen's language (companion.words.refusals)."""
        message = refusal if isinstance(refusal, str) else refusal_text(refusal, self.state)
        self.notify(text("refused", message=message), "refused")
        if self.sound is not None:
            self.sound.play("refused")

    def submit(self, command: Command | JSON, source: str) -> Outcome | None:
        """Send a command from the table's shared inputs (panel, keys, touch) to the session,
        for the current player; another named player's decision is theirs to answer (their
        phone or bank card: companion.game.authority). A refusal becomes a red banner."""
        if self.session is None:
            self.refuse(text("no_session"))
            return None
        sender = table_source(self.state or {}, command, source, self.ui.card_holder)
        if isinstance(sender, str):
            self.refuse(text("own_input", player=sender))
            return None
        return self._send(command, sender)

    def hold_card(self, player: str) -> None:
        """A player's own bank card was tapped while a decision of theirs is on the table
        (a debt): the buttons answer it for them until it changes."""
        if self.ui.table is not None and self.ui.table.waiting_on == player:
            self.ui.card_holder = player
            self.notify(text("card_holds", player=player))

    def _send(self, command: Command | JSON, source: Source) -> Outcome:
        assert self.session is not None
        self._hold_nobody()
        outcome = self.session.submit(command, source)
        if not outcome.accepted:
            self.refuse(outcome)
        self.drain_updates(outcome.version if outcome.accepted else None)
        return outcome

    def _hold_nobody(self) -> None:
        """The loop's thread is about to wait on the session (a press sent before the
        frame of the one before it, a key burst): the updates applied so far hold the
        session's writer no longer, which would wait out the bound before this press."""
        if self.first_frame is not None:
            self.first_frame.shown(self.applied)

    def drain_updates(self, until: int | None = None) -> None:
        """Apply the updates the session has delivered; with `until`, first wait (up to
        OWN_UPDATE_S) for the update of that version, so that a press's own result is in
        the very next frame rather than in the one after."""
        seen = 0
        deadline = time.monotonic() + OWN_UPDATE_S
        while True:
            try:
                try:
                    update = self.updates.get_nowait()  # a press's own: told before answered
                except queue.Empty:
                    if until is None or seen >= until:
                        raise
                    self._hold_nobody()  # waiting, not drawing
                    update = self.updates.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return
            seen = max(seen, update.version)
            self.apply_update(update)

    # --- inputs ---------------------------------------------------------------------------

    def current_prompt(self) -> Any:
        """The prompt the panel buttons answer now: the one the last frame drew while what
        it was built from stays the same (`prompt_inputs`: a press answers what the screen
        shows, without building it again; a key typed after another in one burst, before
        a frame, finds the state or the entry changed and builds it anew)."""
        if self.ui.setup is not None or not has_game(self.state):
            return setup_prompt()
        assert self.state is not None
        frame = self.frame
        if frame is not None and frame.prompt is not None and frame.prompt_key is not None \
                and frame.prompt_key == prompt_inputs(self.state, self.ui):
            return frame.prompt
        return build_prompt(self.state, self.ui)

    def press(self, button: str, source: str = "button") -> None:
        """A panel button, a key or an on-screen button: do what the screen says it does."""
        self.ui.now = self.clock()
        if self.ui.pin is not None:  # the banker PIN is being asked: the buttons are its
            self._pin_press(button)
            return
        if self.cards is not None and self.cards.press(button, source):
            return  # a card registration run has the buttons, or the banker menu opened
        if button == "banker_menu":  # MENU held (no card registration on this screen)
            self.as_banker("banker_menu")
            return
        if source != "button" and self.gestures is not None and self.gestures(button):
            return  # a key or a touch for the gesture a card started: the readers' pump's
        if self.ui.overlay == "help":
            self.ui.overlay = None
            return
        if self.ui.overlay == "chooser" and self.ui.chooser is not None:
            self._chooser_press(button, source)
            return
        action = self.current_prompt().for_button(button)
        if action is None:
            other = self.ui.table.waiting_on if has_game(self.state) and \
                self.ui.table is not None else None
            self.refuse(text("own_input", player=other) if other is not None else
                        text("nothing_for_button", button=text(f"btn_{button}")))
            return
        self.do(action, source)

    def _chooser_press(self, button: str, source: str) -> None:
        chooser = self.ui.chooser
        assert chooser is not None
        if button in ("roll", "pass_go"):
            step = 1 if button == "roll" else -1
            chooser.focus = (chooser.focus + step) % max(1, len(chooser.choices))
        elif button == "yes":
            self.choose(chooser.focus, source)
        else:
            self.ui.overlay, self.ui.chooser = None, None

    def choose(self, index: int, source: str) -> None:
        """Pick entry `index` of the open chooser."""
        chooser = self.ui.chooser
        if chooser is None or not 0 <= index < len(chooser.choices):
            return
        choice = chooser.choices[index]
        self.ui.overlay, self.ui.chooser = None, None
        if choice.command is not None:
            self.submit(choice.command, source)
        elif choice.action:
            self.do(Action(None, choice.label, ui=choice.action), source)

    def do(self, action: Action, source: str) -> None:
        """Carry out one prompt action."""
        if action.command is not None:
            self.submit(action.command, source)
            return
        ui_action = action.ui or ""
        if ui_action.startswith("cards:") and self.cards is not None:
            self.as_banker(ui_action)  # "Register cards" in the banker menu
        elif ui_action == "undo":  # the table's UNDO asks first, naming the move
            self.ui.confirm_undo = True
            self.ui.undo_target = self._undo_target()
        elif ui_action in ("undo_now", "undo_keep"):
            self.ui.confirm_undo, self.ui.undo_target = False, None
            if ui_action == "undo_now":
                self._undo(source)
        elif ui_action in ("bus_ride", "bus_back"):
            self.ui.bus_ride, self.ui.square_focus = ui_action == "bus_ride", None
        elif ui_action.startswith("pick:"):
            self.pick_step(int(ui_action.split(":", 1)[1]))
        elif ui_action == "dial_take":
            self.dial_take(source)
        elif ui_action == "dial_back":  # the last die back on the dial, else no dial
            self.dial_back()
        elif ui_action == "go_by_device":  # PASS GO where the companion moves the tokens
            self.notify(text("go_by_device"))
        elif ui_action == "dice_back":  # the last die typed goes, to be typed again
            self.untype_die()
        elif ui_action == "menu":
            self.open_menu()
        elif ui_action == "help":
            self.ui.overlay = "help"
        elif ui_action == "house_rules":
            options = Setup.of(self.state or {}).options
            self.open_chooser(text("rules_title"), [Choice(line) for line in
                                                    house_rule_states(options)]
                              + [Choice(text("act_back"))])
        elif ui_action.startswith("choose:") and self.state is not None:
            self.open_squares(ui_action.split(":", 1)[1])
        elif ui_action == "confirm_bankrupt" and self.state is not None:
            table = table_of(self.state, self.ui)
            decision = table.decision
            who = acting_player(table)
            command = decision.command("bankrupt", who) if decision is not None else None
            if command is None:  # no longer on offer (the debt was paid meanwhile)
                self.refuse(text("nothing_for_button", button=text("btn_no")))
                return
            self.open_chooser(text("act_bankrupt"), [Choice(text("act_bankrupt"), command),
                                                     Choice(text("act_back"))])
        elif ui_action.startswith("sound:"):
            self._sound(ui_action.split(":", 1)[1])
        elif ui_action.startswith("voice:"):
            self._voice(ui_action.split(":", 1)[1])
        elif ui_action == "languages":  # the table's language, the phones' too
            self.open_chooser(text("language_title"), [
                Choice(name, action=f"language:{code}")
                for code, name in i18n.LANGUAGE_NAMES.items()] + [Choice(text("act_back"))])
        elif ui_action.startswith("language:"):
            self.table_language.choose(ui_action.split(":", 1)[1])
            self.sync_language()
            self.open_menu()
        elif ui_action == "new_game":
            self.open_setup()
        elif ui_action == "end_now":  # the banker menu's "End now and count": asks first
            self.open_chooser(text("end_now_title"), [
                Choice(text("menu_end_now"), action="end_now_yes"), Choice(text("act_back"))])
        elif ui_action == "sold":  # the banker's gavel: the highest bid wins now
            self.as_banker("sold")
        elif ui_action == "end_now_yes" and self.session is not None:
            self._send(EndGame(), Source("screen", banker=True))
        elif ui_action.startswith("setup_"):
            self._setup_action(ui_action)

    def _undo_target(self) -> JSON | None:
        """The entry UNDO would take back, for its question (None: not known)."""
        if self.session is None:
            return None
        try:
            return self.session.undo_target()
        except Exception as exc:  # the question falls back to "Undo the last move?"
            log.warning("cannot tell what undo would take back: %s", exc)
            return None

    def _undo(self, source: str) -> None:
        if self.session is None:
            self.refuse(text("no_session"))
            return
        # The table's own UNDO (panel button, touchscreen, keyboard) acts for the current
        # player, like every shared input: it takes back their own last move, while nobody
        # has acted after it; anyone else's move needs its sender or the banker's phone.
        current = table_of(self.state or {}, self.ui).current
        self._hold_nobody()
        outcome = self.session.undo(Source(source, player=current))
        if outcome.accepted:
            self.notify(text("undone"), "undone")
        else:
            self.refuse(outcome)
        self.drain_updates(outcome.version if outcome.accepted else None)

    def open_chooser(self, title: str, choices: list[Choice]) -> None:
        """Show a list to choose from."""
        self.ui.chooser = Chooser(title, choices)
        self.ui.overlay = "chooser"

    def open_menu(self) -> None:
        """The MENU button's list: building, mortgages, sound, help."""
        state = self.state or {}
        verbs = table_of(state, self.ui).verbs()  # what anyone may do now, as the table says
        choices = []
        for verb, msg in (("build", "menu_build"), ("sell_building", "menu_sell"),
                          ("mortgage", "menu_mortgage"), ("unmortgage", "menu_unmortgage")):
            if verb in verbs:
                choices.append(Choice(text(msg), action=f"choose:{verb}"))
        volume = text("settings_volume", volume=self.ui.volume)
        choices += [
            Choice(f"{text('settings_louder')} · {volume}", action="sound:up"),
            Choice(text("settings_quieter"), action="sound:down"),
            Choice(text("settings_unmute" if self.ui.muted else "settings_mute"),
                   action="sound:mute"),
            *self._voice_choices(),
            Choice(text("menu_rules"), action="house_rules"),
            Choice(text("menu_language", language=i18n.LANGUAGE_NAMES.get(
                texts.language(), texts.language())), action="languages"),
            Choice(text("menu_help"), action="help"),
        ]
        if table_of(state, self.ui).winner:
            choices.append(Choice(text("menu_new_game"), action="new_game"))
        choices.append(Choice(text("menu_close")))
        self.open_chooser(text("menu_title"), choices)

    def open_banker_menu(self, extra: tuple[Choice, ...] = ()) -> None:
        """The banker menu (MENU held, Shift+M, the banker card), once the banker PIN is
        typed: `extra` (Register cards) and "End now and count" above the menu's own."""
        self.open_menu()
        chooser = self.ui.chooser
        if chooser is None:
            return
        end_now = self.end_now_choice()
        chooser.choices[:0] = [*extra, *([end_now] if end_now is not None else [])]
        chooser.title = text("reg_banker_menu")

    def end_now_choice(self) -> Choice | None:
        """The banker menu's "End now and count" (None when no game runs): only the banker
        menu offers it, and the game ends by the banker's authority after a confirmation."""
        state = self.state or {}
        if not has_game(state) or table_of(state, self.ui).winner:
            return None
        return Choice(text("menu_end_now"), action="end_now")

    def open_squares(self, verb: str) -> None:
        """The square picker for a per-square verb (build, mortgage...)."""
        assert self.state is not None
        decision = table_of(self.state, self.ui).decision
        by = decision.player if decision is not None and \
            decision.kind in ("debt", "lift_mortgages") else None
        options = square_choices(self.state, self.ui, verb, by)
        if not options:
            self.refuse(text("choose_none"))
            return
        label = {"build": "act_build", "sell_building": "act_sell", "mortgage": "act_mortgage",
                 "unmortgage": "act_unmortgage"}.get(verb, "act_choose")
        self.open_chooser(text("choose_title", action=text(label)),
                          [Choice(lbl, cmd) for lbl, cmd in options] + [Choice(text("act_back"))])

    def _voice_choices(self) -> list[Choice]:
        """The table's voice (companion.speech): on or off, and its volume in steps."""
        voice = speech_settings.load(self.data_dir)
        return [Choice(text("settings_voice_off" if voice.on else "settings_voice_on"),
                       action="voice:toggle"),
                Choice(text("settings_voice_volume", volume=voice.volume),
                       action="voice:volume")]

    def _voice(self, what: str) -> None:
        """Change the voice's settings file; the announcer reads it again when it changed."""
        voice = speech_settings.load(self.data_dir)
        if what == "toggle":
            voice.on = not voice.on
        elif what == "volume":
            voice.volume = 20 if voice.volume >= 100 else min(100, voice.volume + 20)
        speech_settings.save(self.data_dir, voice)
        self.open_menu()

    def _sound(self, what: str) -> None:
        if what == "up":
            self.ui.volume = min(100, self.ui.volume + 10)
        elif what == "down":
            self.ui.volume = max(0, self.ui.volume - 10)
        elif what == "mute":
            self.ui.muted = not self.ui.muted
        if self.sound is not None:
            self.sound.set_volume(self.ui.volume / 100)
            self.sound.set_muted(self.ui.muted)
            self.sound.play("cash_in")
        self.settings.volume, self.settings.muted = self.ui.volume, self.ui.muted
        screen_settings.save(self.data_dir, self.settings)
        self.open_menu()

    # --- setup ----------------------------------------------------------------------------

    def open_setup(self) -> None:
        """Show the new-game form (in the language chosen last time, if any)."""
        chosen = self.table_language.chosen  # the table's, whoever dealt last
        self.ui.setup = SetupForm(editions=edition_names() or [("classic-eur", "")],
                                  language=chosen, fallback=self.language)
        self.ui.overlay, self.ui.chooser = None, None
        self.sync_language()

    # --- language -------------------------------------------------------------------------

    def ui_language(self) -> str:
        """The screen's language: the setup's choice, else the configured language, else the
        edition's own (the one on the setup form, or the game's)."""
        form = self.ui.setup
        if form is not None:
            chosen, edition = form.language, form.edition_id()
        else:
            chosen, edition = "", edition_of(self.state or {})
        return i18n.normalize_language(chosen or self.table_language.chosen or self.language
                                       or i18n.default_language(edition or None))

    def sync_language(self) -> bool:
        """Switch the screen to `ui_language()` (and the board's names with it); True when
        the language changed. Cheap when nothing changed: the loop calls it every frame."""
        lang = self.ui_language()
        changed = lang != texts.language()
        if changed:
            texts.use_language(lang)
            if self.ui.setup is not None:
                self.ui.setup.rename_defaults()
        if has_game(self.state):
            assert self.state is not None
            key = (edition_of(self.state), lang)
            if key != self._board_key:
                self._board_key = key
                self.ui.board = board_info(*key)
        return changed

    def _setup_action(self, action: str) -> None:
        form = self.ui.setup
        if form is None:
            return
        if action == "setup_next":
            form.move(1)
        elif action == "setup_change":
            if form.change(1):
                self.start_game()
        elif action == "setup_back":
            form.change(-1)
        elif action == "setup_start":
            self.start_game()

    def start_game(self) -> None:
        """Deal, once the banker PIN is typed: a new game is the banker's."""
        form = self.ui.setup
        if form is None:
            return
        problem = form.problem()
        if problem:
            self.refuse(problem)
            return
        self.as_banker("deal")

    def _deal(self) -> None:
        """Submit the form's new_game as the banker; remember colours, tokens and clock; a
        PIN typed on the form becomes the table's banker PIN (the old one was just typed)."""
        form = self.ui.setup
        if form is None:
            return
        if self.session is None:
            self.refuse(text("no_session"))
            return
        self.ui.styles = form.styles()
        self.settings.styles = {n: {"color": s.color or "", "token": s.token or ""}
                                for n, s in self.ui.styles.items()}
        self.settings.language = form.language
        screen_settings.save(self.data_dir, self.settings)
        self.table_language.choose(self.ui_language())  # kept whoever deals the next game
        if form.pin and self.pins is not None:
            self.pins.store.set(form.pin)
        outcome = self._send(form.new_game_command(fresh_seed()),
                             Source("screen", banker=True))
        if outcome.accepted:
            self.ui.setup = None

    # --- the banker's actions, behind the banker PIN ---------------------------------------

    def as_banker(self, then: str) -> None:
        """Do a banker action (`then`: "banker_menu", "deal" or a "cards:..." menu choice)
        once the banker PIN is typed; the banker card or the right PIN a moment ago stand
        for it, and a table without a banker PIN has nobody to ask."""
        pins = self.pins
        if self.ui.now < self.ui.banker_until or pins is None or not pins.store.is_set:
            self._banker_do(then)
            return
        self.ui.overlay, self.ui.chooser = None, None
        self.ui.pin, self.ui.pin_until = entry.PinEntry(then), self.ui.now + PIN_S

    def authorize_banker(self) -> None:
        """The banker card was tapped (or the right PIN typed): the banker's actions are the
        screen's for a while."""
        self.ui.banker_until = self.ui.now + BANKER_S

    def _banker_do(self, then: str) -> None:
        if then == "banker_menu":
            if self.cards is not None:
                self.cards.open_menu()
            else:
                self.open_banker_menu()
        elif then == "deal":
            self._deal()
        elif then == "sold" and table_of(self.state or {}, self.ui).move("close_auction"):
            self._send(CloseAuction(), Source("screen", banker=True))
        elif then.startswith("cards:") and self.cards is not None:
            self.cards.do(then)

    def pin_key(self, digit: str) -> None:
        """A digit key while the banker PIN is asked."""
        if self.ui.pin is not None:
            entry.type_pin(self.ui.pin, digit)
            self.ui.pin_until = self.ui.now + PIN_S

    def _pin_press(self, button: str) -> None:
        pin = self.ui.pin
        assert pin is not None
        action = pin_prompt(pin).for_button(button)
        self.ui.pin_until = self.ui.now + PIN_S
        what = action.ui if action is not None else None
        if what == "pin_add":
            entry.take_pin_dial(pin)
        elif what == "pin_next":
            entry.turn_pin(pin, 1)
        elif what == "pin_check":
            self.check_pin()
        elif what == "pin_close" or (what == "pin_back" and not entry.back_pin(pin)):
            self.ui.pin, self.ui.pin_until = None, None

    def check_pin(self) -> None:
        """Check the PIN typed with the table's PIN guard (the phones' throttle and back-off):
        right, the banker action it was asked for goes on; wrong or too soon, nothing
        changes and the screen says so (the banker is warned)."""
        pin = self.ui.pin
        if pin is None or self.pins is None:
            return
        typed = entry.pin_to_check(pin)
        if isinstance(typed, entry.Refusal):
            self.refuse(text("pin_short"))
            return
        verdict = self.pins.check(typed, where="screen")
        if verdict.right:
            self.ui.pin, self.ui.pin_until = None, None
            self.authorize_banker()
            self._banker_do(pin.then)
            return
        wait = int(verdict.wait + 0.999)
        if verdict.result == "wait":  # locked out for now: shown and said
            self.refuse(text("pin_wait", seconds=wait))
            self.say_warning(lambda lang: [input_text("pin_next_in", lang, seconds=wait)])
            return
        warning = self.pins.warning()
        said = text("pin_wrong", count=warning.wrong if warning is not None else 1)
        self.refuse(f"{said} · {text('pin_wait', seconds=wait)}" if wait else said)

    def _apply_clock(self) -> None:
        """The timed game's end as the session keeps it (the state's `clock`, rung by its
        writer), as a deadline on the loop's clock."""
        ends = ((self.state or {}).get("clock") or {}).get("ends_at")
        self.ui.clock_deadline = None if not isinstance(ends, int | float) else \
            self.clock() + (float(ends) - time.time())

    def type_text(self, chars: str) -> None:
        """Typed characters: a name or PIN on the setup form."""
        if self.ui.setup is not None:
            self.ui.setup.type(chars)

    def backspace(self) -> None:
        """Backspace on the setup form."""
        if self.ui.setup is not None:
            self.ui.setup.backspace()

    def tap(self, pos: tuple[int, int]) -> None:
        """A touch or click at `pos` on the last frame drawn."""
        spot = self.frame.hotspot_at(pos) if self.frame else None
        if spot is None:
            if self.ui.overlay == "help":
                self.ui.overlay = None
            return
        if spot.action == "button":
            self.press(str(spot.arg), "screen")
        elif spot.action == "choose":
            self.choose(int(spot.arg), "screen")
        elif spot.action == "close":
            self.ui.overlay, self.ui.chooser = None, None
        elif spot.action == "setup_line" and self.ui.setup is not None:
            self.ui.setup.focus = int(spot.arg)
            if self.ui.setup.change(1):
                self.start_game()
        elif spot.action == "square":
            self.tap_square(int(spot.arg), "screen")

    def _resume_history(self) -> None:
        """On resume: refill the recent moves from the journal's last page (the net-worth
        curve before this start is read when the game's chart needs it: `_want_networth`)."""
        if self.session is None or self.state is None:
            return
        try:
            entries = self.session.history(limit=RESUME_ENTRIES)
        except Exception as exc:  # a journal the screen cannot read must not stop the game
            log.warning("history unavailable: %s", exc)
            return
        resume_moves(self.ui, entries, self.state)
        self._networth_whole = False
        self._want_networth()
        self._tell_story(self.state)

    def _want_networth(self) -> None:
        """A finished game whose curve began before this process: read the whole curve from
        the journal on a thread (a long game replays for a while); drain() takes it."""
        table = table_of(self.state or {}, self.ui)
        if self._networth_whole or self.session is None or not table.winner \
                or (self.networth_job is not None and self.networth_job.is_alive()):
            return
        session, version = self.session, table.version

        def read() -> None:
            try:
                series = networth_series(session.history(limit=1_000_000))
            except Exception as exc:  # the chart keeps what this process saw
                log.warning("net-worth history unavailable: %s", exc)
                series = None
            self.inbox.put(("networth", (version, series)))
            self.wake()

        self.networth_job = threading.Thread(target=read, name="networth", daemon=True)
        self.networth_job.start()

    def _networth_read(self, version: int, series: list[dict[str, int]] | None) -> None:
        """The whole game's curve, read for `version`: kept when the table is still there,
        else read again."""
        if series is None:
            self._networth_whole = True
        elif version == table_of(self.state or {}, self.ui).version:
            self.ui.networth = series
            self._networth_whole = True
        else:
            self._want_networth()


def first_kind(events: list[JSON]) -> str | None:
    """The kind of an update's first event (None: no events)."""
    kind = (events or [{}])[0].get("kind")
    return kind if isinstance(kind, str) else None


__all__ = ["Controller", "has_game", "networth_series"]
