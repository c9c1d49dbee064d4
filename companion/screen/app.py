"""The screen loop: open the display (KMS/DRM on a Pi, a window on a desktop), then sleep
until an input, a session update or an animation frame is due, and redraw only then (the
sleep itself: companion.screen.wakeups).
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from companion.game.table.records import version_of
from companion.screen.controller import Controller
from companion.screen.render import (
    FIRSTS,
    FRAMES_AHEAD,
    draw_first_ahead,
    first_ahead,
    forget_firsts,
    keep_forecast_panel,
    keep_panel_ahead,
    lay_ahead,
    render,
)
from companion.screen.views.board_map import player_colors
from companion.screen.views.dice import SPEED_KEYS
from companion.screen.views.prompt import Ahead, likely_words
from companion.screen.wakeups import DisplayLoss, FirstFrame, InputWaiter, leave_on_x_break

log = logging.getLogger(__name__)

KEY_BUTTONS = {"r": "roll", "y": "yes", "n": "no", "g": "pass_go", "u": "undo", "m": "menu"}
FRAME_MS = 16  # animation frames at about 60 Hz
#: how long M is held for the banker menu: the panel's default `[buttons] hold_seconds`
MENU_HOLD_S = 1.0
#: how many of the titles a press may bring next have their panels kept whole ahead
#: (`render.keep_panel_ahead`): the first guesses (the turn going on, the next roll), not
#: the squares ahead, whose panels pushed the recurring ones out of PANELS
PANELS_AHEAD = 3
IDLE_WAKE_MS = 1000  # even when idle, look at the stop flag once a second


@dataclass(frozen=True)
class DisplaySpec:
    """How to open the screen: fullscreen or a window of `size` (None: native / 800x480)."""

    size: tuple[int, int] | None = None
    fullscreen: bool = False


def choose_video_driver() -> str | None:
    """KMS/DRM when no desktop runs (a Pi console), else SDL's choice; None if forced."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return None
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        if os.path.exists("/dev/dri/card0") or os.path.exists("/dev/dri/card1"):
            return "kmsdrm"
        return "offscreen-none"
    return None


#: SDL's hint for how a window's pixels reach the screen: "1" through a GL texture (SDL
#: then loads Mesa's GL, and with Debian's Mesa the whole driver file linked to LLVM: about
#: 90 MB more in a window), "0" through the video driver's own framebuffer (X11's shared
#: memory). KMS/DRM has no framebuffer of its own in SDL 2: there it must stay GL (GLES via
#: EGL/GBM), or SDL opens no display at all.
FRAMEBUFFER_HINT = "SDL_FRAMEBUFFER_ACCELERATION"
#: the value `prefer_plain_framebuffer` or `_gles_on_kms` set (None: it set nothing; the
#: user's own stays)
_hint_set_here: str | None = None
#: the renderer that draws a KMS/DRM window's pixels (the hint's value may name one). Left
#: to itself SDL takes its first, "opengl" (desktop GL), whose GL 1 functions the GLES-only
#: libraries the Pi has (libGLESv2, no libGL.so.1) lack: it draws nothing and says nothing,
#: a black screen with the companion running (seen on the card image in QEMU)
KMS_RENDERER = "opengles2"


def prefer_plain_framebuffer() -> bool:
    """Before the display opens: ask SDL for the driver's own framebuffer (no GL) unless the
    environment already says how, or the display will be KMS/DRM; True when it set it."""
    global _hint_set_here
    if FRAMEBUFFER_HINT in os.environ or choose_video_driver() == "kmsdrm" or \
            os.environ.get("SDL_VIDEODRIVER", "").lower() == "kmsdrm":
        return False
    os.environ[FRAMEBUFFER_HINT] = _hint_set_here = "0"
    return True


def _gles_on_kms() -> None:
    """On KMS/DRM: SDL draws the window's pixels with GL ES 2 (KMS_RENDERER), unless the
    environment already says how."""
    global _hint_set_here
    if FRAMEBUFFER_HINT not in os.environ:
        os.environ[FRAMEBUFFER_HINT] = _hint_set_here = KMS_RENDERER


def _drop_our_hint() -> bool:
    """Take back the hint `prefer_plain_framebuffer` set (a driver that needs GL); True when
    there was one."""
    global _hint_set_here
    if _hint_set_here is None or os.environ.get(FRAMEBUFFER_HINT) != _hint_set_here:
        return False
    del os.environ[FRAMEBUFFER_HINT]
    _hint_set_here = None
    return True


def drop_our_hints() -> None:
    """Take back what this process put into the environment for SDL (the framebuffer hint,
    a driver it chose), before it starts itself again: the new one chooses as a fresh start
    does, and takes a hint left in the environment for the user's own."""
    _drop_our_hint()
    if _driver_set_here is not None and os.environ.get("SDL_VIDEODRIVER") == _driver_set_here:
        del os.environ["SDL_VIDEODRIVER"]


#: the video driver `open_display` put into the environment (None: it set none)
_driver_set_here: str | None = None
#: SDL's drivers that draw where nobody sees: chosen on purpose (SDL_VIDEODRIVER, the
#: tests) they are a screen, fallen back to by SDL they mean there is no display
INVISIBLE_DRIVERS = ("offscreen", "dummy")
#: why the last `open_display` found no display (None: it found one, or was not asked)
_why_none: str | None = None


def why_no_display() -> str:
    """Why `open_display` returned None, in a few words for the start's one line."""
    return _why_none or "no display"


def open_display(spec: DisplaySpec) -> pygame.Surface | None:
    """The display surface, or None when this machine has no display to draw on (then
    `why_no_display` says why; the caller says it once)."""
    global _why_none, _driver_set_here
    _why_none = None
    driver = choose_video_driver()
    if driver == "offscreen-none":
        _why_none = "no desktop (DISPLAY, WAYLAND_DISPLAY) and no KMS/DRM card in /dev/dri"
        return None
    if driver:
        os.environ["SDL_VIDEODRIVER"] = _driver_set_here = driver
    forced = bool(os.environ.get("SDL_VIDEODRIVER"))
    try:
        surface = _open(spec)
        if not forced and pygame.display.get_driver() in INVISIBLE_DRIVERS:
            # SDL fell back to drawing in memory (a desktop that is gone): nobody sees it
            _why_none = f"no display answers (SDL fell back to {pygame.display.get_driver()})"
            pygame.display.quit()
            return None
        return surface
    except pygame.error as exc:
        pygame.display.quit()
        if _drop_our_hint():  # this driver draws only through GL: let SDL use it
            log.info("no plain framebuffer (%s): SDL draws through GL", exc)
            try:
                return _open(spec)
            except pygame.error as again:
                exc = again
                pygame.display.quit()
        _why_none = f"the display did not open: {exc}"
        return None


def close_display(leave: Callable[[], None]) -> None:
    """Shut SDL's display down now, the run's parts closed, rather than in pygame's handler
    at the interpreter's exit: there a display whose X server went away at the same moment
    as the stop (a shutdown stopping both, a `pkill` of the two) kept the process waiting
    for an X event forever, at 90 % CPU (companion.screen.wakeups.leave_on_x_break). Here
    a connection found broken, before or during the shutdown, calls `leave` instead, which
    ends the process (os._exit, its logs flushed, with the run's exit code)."""
    if not pygame.display.get_init():
        return
    if leave_on_x_break(leave) and DisplayLoss.any_lost():
        leave()  # already marked dead: Xlib would not even call the handler again
    pygame.display.quit()


def _open(spec: DisplaySpec) -> pygame.Surface:
    pygame.display.init()
    kms = pygame.display.get_driver() in ("kmsdrm", "KMSDRM")
    if kms:
        _drop_our_hint()
        _gles_on_kms()
    if kms or spec.fullscreen:
        surface = pygame.display.set_mode(spec.size or (0, 0), pygame.FULLSCREEN)
    else:
        surface = pygame.display.set_mode(spec.size or (800, 480), pygame.RESIZABLE)
    pygame.display.set_caption("Table Companion")
    if kms:
        pygame.mouse.set_visible(False)
    return surface


class ScreenLoop:
    """Draw frames for a controller on a display; redraw on change only."""

    def __init__(self, controller: Controller, surface: pygame.Surface,
                 waiter: InputWaiter | None = None) -> None:
        """`waiter`: how to sleep until input (default: the one for SDL's video driver)."""
        self.controller = controller
        self.surface = surface
        self.stop = threading.Event()
        self.woken = threading.Event()
        driver, wm_info = pygame.display.get_driver(), pygame.display.get_wm_info()
        self.waiter = waiter or InputWaiter.for_driver(driver, wm_info)
        #: the X server going away ends the loop, not the process (None: not watched)
        self.display_loss = DisplayLoss.watch(driver, wm_info)
        self.frames = 0
        #: the next frame is drawn whole (the first, after the window changed or was
        #: exposed); else only the regions that changed (companion.screen.render)
        self.whole = True
        #: the controller's count of updates applied when the last frame was drawn: a frame
        #: after newer ones shows their result first (render's `result_first`)
        self.drawn_applied = 0
        #: the last frame left regions for the next one (the result went first), or the
        #: work of an update done after its first frame changed what is shown: the loop
        #: draws again at once, without sleeping
        self.follow_up = False
        #: holds the session's other listeners until a frame shows their update
        #: (companion.screen.wakeups.FirstFrame); installed on the controller while `run` runs
        self.first_frame = FirstFrame()
        #: when M went down and is still held (the banker menu once held MENU_HOLD_S)
        self.menu_down: float | None = None
        #: called on every pass of the loop, after the first frame (the composition root
        #: feeds the service watchdog there); None: nothing
        self.on_pass: Callable[[], None] | None = None
        #: the titles of the prompts a press may bring next, still to lay out ahead, and
        #: the state they were guessed from (`_read_ahead`)
        self.ahead: list[Ahead] = []
        self.ahead_of: object = None
        #: the titles of those whose panels the screen drew once, to keep whole after the
        #: words (`render.keep_panel_ahead`)
        self.panels_ahead: list[str] = []
        #: the states the session worked out ahead of the state shown, whose decision
        #: panels are still to keep (`render.keep_forecast_panel`), and the state they
        #: were asked for
        self.forecasts: list[Any] = []
        self.forecasts_of: object = None
        #: the state for which the state its UNDO would bring was asked, while the UNDO
        #: question was open (`_undo_ahead`)
        self.undo_ahead_of: object = None
        #: the first of those, whose first frames' headers are still to draw ahead
        #: (`render.draw_first_ahead`)
        self.frames_ahead: list[Any] = []
        #: Python's cyclic collector was switched off by the loop (`_collector_waits`)
        self.collector_held = False
        controller.wake = self._post_wake
        # a running screen shows the phone remote as it is (its address, or "off"): the
        # placeholder is for screenshots taken without a running companion
        controller.ui.remote_placeholder = None

    def _post_wake(self) -> None:
        """Wake the loop from another thread."""
        self.woken.set()
        self.waiter.wake()

    @property
    def lost(self) -> str | None:
        """Why the display went away while the loop ran (None: it did not)."""
        loss = self.display_loss
        return loss.why if loss is not None and loss.lost.is_set() else None

    def _display_gone(self) -> bool:
        loss = self.display_loss
        return loss is not None and loss.lost.is_set()

    def request_stop(self) -> None:
        """Ask the loop to end (from any thread)."""
        self.stop.set()
        self._post_wake()

    def draw(self) -> None:
        """Render and flip one frame."""
        controller = self.controller
        self.first_frame.drawing()  # how long a frame takes here: the hold's bound
        controller.ui.now = controller.clock()
        controller.sync_language()
        applied = controller.applied  # the updates this frame shows
        last, self.whole = (None if self.whole else controller.frame), False
        # a new result on a frame with nothing pending goes first: the decision panel (and
        # the dice) alone, the rest of the update's work and regions right after the flip
        first = applied != self.drawn_applied and last is not None and not last.pending
        if not first:
            controller.finish_updates()
        frame = controller.frame = render(controller.state, controller.ui, self.surface, last,
                                          result_first=first)
        if frame.dirty is None:
            pygame.display.flip()
        elif frame.dirty:  # only what changed reaches the screen
            pygame.display.update(frame.dirty)
        self._collector_goes()  # on the screen: the collector's turn may come
        self.frames += 1
        self.drawn_applied = applied
        # the phones' turn now (their listener, the voice, the remote's files)
        self.first_frame.shown(applied, version_of(controller.state or {}))
        controller.play_held_sounds()  # and the sounds of what it shows
        finished = controller.finish_updates()  # what the first frame did not need
        self.follow_up = bool(frame.pending) or finished

    def timeout_ms(self) -> int:
        """How long the loop may sleep before the picture changes by itself."""
        frame = self.controller.frame
        if self.follow_up:  # the rest of a move's frame: at once
            return 0
        if frame is None or frame.animating:
            return FRAME_MS
        deadline = self.controller.ui.next_change()
        if self.menu_down is not None:  # M held: wake when it becomes the banker menu
            held = self.menu_down + MENU_HOLD_S
            deadline = held if deadline is None else min(deadline, held)
        if deadline is None:
            return IDLE_WAKE_MS
        wait = (deadline - self.controller.clock()) * 1000
        return max(1, min(IDLE_WAKE_MS, int(wait) + 1))

    def run(self) -> None:
        """Until stopped: wait for an event (with a timeout), handle it, redraw if needed."""
        dirty = True
        self.first_frame.loop_thread = threading.get_ident()
        self.controller.first_frame = self.first_frame
        try:
            while not self.stop.is_set():
                if dirty:
                    self.draw()
                self._collector_goes()  # nothing to draw after all
                if self._display_gone():  # no more SDL on a dead connection
                    return
                if self.on_pass is not None:
                    self.on_pass()  # the service watchdog: the loop turns
                timeout = self.timeout_ms()
                if timeout and self._read_ahead():
                    timeout = 0  # one laid out: a key come meanwhile first, then the next
                events = self.wait_events(timeout)
                self._collector_waits()  # a press's work and its frame first
                if self._display_gone():
                    return
                dirty = self.handle_all(events)
                dirty = self.menu_held() or dirty
                dirty = self.controller.drain() or dirty
                frame = self.controller.frame
                due = frame is not None and frame.next_change is not None \
                    and frame.next_change <= self.controller.clock()
                if frame is not None and (frame.animating or due):
                    dirty = True
                dirty = self.follow_up or dirty  # the rest of a move's frame
        finally:
            self._collector_goes()
            self.controller.first_frame = None
            self.first_frame.close()
            self.waiter.close()

    def _collector_waits(self) -> None:
        """The loop woke (a key, a touch, a button, an update): Python's cyclic collector
        is off until this pass's frame is flipped, or the pass ends without one
        (`_collector_goes`), so that a collection due meanwhile, on any thread (the
        session's writer and listeners allocate beside the loop), runs after the frame
        instead of between a press and its first flip (issue 28: a young generation's pass
        costs 0.1-0.6 ms here, a middle one's 1-5 ms). Left alone when something else
        switched it off."""
        if not self.collector_held and gc.isenabled():
            gc.disable()
            self.collector_held = True

    def _collector_goes(self) -> None:
        """The collector on again, if the loop switched it off (`_collector_waits`)."""
        if self.collector_held:
            self.collector_held = False
            gc.enable()

    def _read_ahead(self) -> bool:
        """While the table waits on a settled game screen: lay out one of the words a press
        may bring next (`likely_words`, guessed once per state; `render.lay_ahead`),
        so that the press's first frame finds its words measured and rendered (issue 28:
        a new prompt's words cost up to 1.5 ms of a first frame here); first, the decision
        panels of the states the session worked out ahead (`render.keep_forecast_panel`, issue 28's
        thirteenth round). True when one was laid out (the loop looks for input, then
        comes back for the next). After the forecasts' panels, the header the first frames
        of the first FRAMES_AHEAD forecasts would draw whole, drawn into a picture of its
        area (`render.draw_first_ahead`, issue 28's fifteenth round)."""
        c = self.controller
        frame, state = c.frame, c.state
        if frame is None or frame.screen != "game" or frame.animating or self.follow_up \
                or state is None or c.ui.setup is not None:
            return False
        try:
            if self.ahead_of is not state:
                self.ahead_of = state
                self.ahead = likely_words(state, c.ui, player_colors(state, c.ui))
                self.panels_ahead = [words.title for words in self.ahead
                                     if words.title][:PANELS_AHEAD]
            size = self.surface.get_size()
            if self.forecasts_of is not state:  # the session's next states, once worked out
                found = self._ahead_states(state)
                if found is not None:
                    self.forecasts_of, self.forecasts = state, list(found)
                    self.frames_ahead = list(found[:FRAMES_AHEAD])
                    forget_firsts()  # those of the states before: past
            if c.ui.confirm_undo and self.undo_ahead_of is not state:  # its YES is next
                self.undo_ahead_of = state
                undone = self._undo_ahead(state)
                if undone is not None:
                    built = first_ahead(undone, c.ui, c.offers, state)
                    self.frames_ahead.insert(0, undone)  # its header next
                    if keep_forecast_panel(undone, c.ui, size) or built:
                        return True
            while self.forecasts:  # their first frames' inputs and panels first: the very
                forecast = self.forecasts.pop(0)  # prompts a press brings
                built = first_ahead(forecast, c.ui, c.offers, state)
                if keep_forecast_panel(forecast, c.ui, size) or built:
                    return True
            while self.frames_ahead:  # then the likeliest first frames' headers, drawn
                forecast = self.frames_ahead.pop(0)
                kept = next((k for k in FIRSTS if k.state is forecast), None)  # the
                # likeliest guess of the session's extras only: each costs CPU ahead
                if kept is not None and draw_first_ahead(kept, c.ui, self.surface, frame):
                    return True
            while self.ahead:
                if lay_ahead(self.ahead.pop(0), size):
                    return True
            while self.panels_ahead:  # then the panels drawn once, whole (issue 28)
                if keep_panel_ahead(self.panels_ahead.pop(0), size):
                    return True
        except Exception:  # a guess: what it misses is drawn cold, as before
            log.exception("laying out the next prompts ahead failed")
            self.ahead, self.panels_ahead, self.forecasts = [], [], []
            self.frames_ahead = []
            self.forecasts_of = state
        return False

    def _ahead_states(self, state: Any) -> list[Any] | None:
        """The states the session worked out ahead of `state` (`GameSession.ahead_states`),
        [] when it has none to give; None while they are not there yet (the session wakes
        the loop when they are)."""
        ask = getattr(self.controller.session, "ahead_states", None)
        if ask is None:
            return []
        found: list[Any] | None = ask(version_of(state), self._post_wake)
        return found

    def _undo_ahead(self, state: Any) -> Any:
        """The state the table's UNDO would bring from `state` (`GameSession.undo_ahead`),
        built ahead while its question is open; None when the session gives none."""
        ask = getattr(self.controller.session, "undo_ahead", None)
        return ask(version_of(state)) if ask is not None else None

    def wait_events(self, timeout_ms: int) -> list[pygame.event.Event]:
        """Input events, waiting up to `timeout_ms` for one or for a wake from a thread
        (asleep in the waiter between looks, companion.screen.wakeups)."""
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            events = pygame.event.get()
            if events or self.woken.is_set() or self.stop.is_set() or self._display_gone():
                self.woken.clear()
                return events
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            self.waiter.wait(left)

    def handle_all(self, events: list[pygame.event.Event]) -> bool:
        """Every event of a batch, in order (keys typed in a burst arrive in one batch: none
        may be left out); True when any may change the picture."""
        dirty = False
        for event in events:
            dirty = self.handle(event) or dirty
        return dirty

    def menu_held(self) -> bool:
        """M held down for MENU_HOLD_S: the banker menu (behind the banker PIN), as the
        panel's MENU held; True when it opened."""
        if self.menu_down is None or self.controller.clock() < self.menu_down + MENU_HOLD_S:
            return False
        self.menu_down = None
        self.controller.press("banker_menu", "keyboard")
        return True

    def handle(self, event: pygame.event.Event) -> bool:
        """One pygame event; True when it may change the picture."""
        c = self.controller
        if event.type == pygame.KEYUP and pygame.key.name(event.key) == "m":
            self.menu_down = None  # let go before the hold: the menu it opened stays
            return False
        if event.type == pygame.QUIT:
            self.stop.set()
            return False
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED, pygame.VIDEOEXPOSE):
            self.surface = pygame.display.get_surface() or self.surface
            self.whole = True
            return True
        if event.type == pygame.FINGERDOWN:
            w, h = self.surface.get_size()
            c.tap((int(event.x * w), int(event.y * h)))
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not getattr(
                event, "touch", False):
            c.tap(event.pos)
            return True
        if event.type == pygame.TEXTINPUT and c.ui.setup is not None and c.ui.pin is None \
                and self._typing():
            c.type_text(event.text)
            return True
        if event.type == pygame.KEYDOWN:
            return self.key(event)
        return False

    def _typing(self) -> bool:
        """Whether keys type into the setup form (a name or the PIN has the focus)."""
        setup = self.controller.ui.setup
        if setup is None:
            return False
        line = setup.focused()
        return bool(line.startswith("player:") or line == "pin")

    def key(self, event: pygame.event.Event) -> bool:
        """Keyboard: the panel's buttons, digits for dice (B and M for the speed die's bus
        and Mr. Monopoly while a roll takes it) or the banker PIN, H help, arrows in lists;
        M held (or Shift+M) the banker menu, as the panel's MENU held."""
        c = self.controller
        name = pygame.key.name(event.key)
        setup = c.ui.setup
        if c.ui.pin is not None:  # the banker PIN: digits, Enter checks, Backspace deletes
            digit = name.strip("[]")
            if len(digit) == 1 and digit.isdigit():
                c.pin_key(digit)
            else:
                button = {"return": "roll", "enter": "roll", "backspace": "no",
                          "escape": "menu"}.get(name, KEY_BUTTONS.get(name))
                if button is not None:
                    c.press(button, "keyboard")
            return True
        if name == "escape":
            c.ui.overlay, c.ui.chooser = None, None
            return True
        if setup is not None and c.ui.overlay is None:
            if name in ("down", "tab"):
                setup.move(1)
            elif name == "up":
                setup.move(-1)
            elif name in ("right", "return"):
                if setup.change(1):
                    c.start_game()
            elif name == "left":
                setup.change(-1)
            elif name == "backspace":
                c.backspace()
            elif self._typing():
                return True  # the letter arrives as TEXTINPUT
            elif name in KEY_BUTTONS:
                c.press(KEY_BUTTONS[name], "keyboard")
            elif name == "h":
                c.ui.overlay = "help"
            return True
        if name in SPEED_KEYS and c.ui.overlay is None and c.speed_key(SPEED_KEYS[name]):
            return True
        if name == "m" and getattr(event, "mod", 0) & pygame.KMOD_SHIFT:
            c.press("banker_menu", "keyboard")  # Shift+M: the banker menu at once
            return True
        if name == "m":  # the menu now; held on, the banker menu (menu_held)
            self.menu_down = c.clock()
        if name in KEY_BUTTONS:
            c.press(KEY_BUTTONS[name], "keyboard")
        elif name == "h":
            c.ui.overlay = None if c.ui.overlay == "help" else "help"
        elif name in "123456" and len(name) == 1:
            c.dice_digit(int(name), "keyboard")
        elif name in ("down", "right") and c.ui.chooser is not None:
            c.press("roll", "keyboard")
        elif name in ("up", "left") and c.ui.chooser is not None:
            c.press("pass_go", "keyboard")
        elif name == "return" and c.ui.chooser is not None:
            c.press("yes", "keyboard")
        else:
            return False
        return True
