"""Draw one frame from the public state JSON and the UI state; no I/O, no engine objects.

`render` returns a `Frame` saying what was drawn (texts with their boxes, touch targets,
the prompt whose buttons are live) and whether the picture is still moving. Given the frame
drawn last on the same surface, it redraws on the game screen only the regions whose
inputs changed (`Frame.dirty` says where; issue 28): a move mostly changes the decision
panel, the recent moves and the board, seldom the player cards or the header, never the
phones' corner. Asked for the result first (`result_first`: the first frame after an
update), it draws only the regions that tell the result (`FIRST`: the decision panel with
its buttons, the header when the dice changed) and the banner, and leaves the other
regions as they were, named in `Frame.pending` (without even asking whether they changed:
the next frame, right after the flip, compares them and draws those that did, and is never
itself split).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import pygame

from companion.game.table.offers import OfferStore
from companion.game.table.records import DrawnCard
from companion.game.table.view import TableView
from companion.game.table.view import build as build_view
from companion.screen import theme
from companion.screen.layout import GameLayout, scales
from companion.screen.painter import (
    AHEAD,
    PANELS,
    DrawnText,
    Hotspot,
    Kept,
    Painter,
    PartStore,
    still_rendered,
)
from companion.screen.texts import language, text
from companion.screen.ui_state import DELTA_SHOWN_S, Same, UiState
from companion.screen.views.board_map import draw_board, player_colors
from companion.screen.views.endgame.gameover import draw_game_over
from companion.screen.views.overlays import draw_chooser, draw_help
from companion.screen.views.panels import (
    _bare,
    _draw_prompt,
    _panel_key,
    banner_box,
    clock_warns,
    draw_banner,
    draw_buttons,
    draw_header,
    draw_header_roll,
    draw_log,
    draw_players,
    draw_prompt,
    format_clock,
    header_left,
    keep_prompt_ahead,
    lay_header_whose,
    lay_header_words,
    lay_prompt_title,
)
from companion.screen.views.pin import draw_pin
from companion.screen.views.prompt import (
    Action,
    Ahead,
    Prompt,
    build_prompt,
    prompt_inputs,
    table_of,
)
from companion.screen.views.registration import draw_registration
from companion.screen.views.setup import draw_setup
from companion.screen.views.wifi import draw_phones


@dataclass
class Frame:
    """What one render drew."""

    texts: list[DrawnText] = field(default_factory=list)
    hotspots: list[Hotspot] = field(default_factory=list)
    prompt: Prompt | None = None
    #: what the game's prompt was built from (`prompt_inputs`; None: the setup's): a later
    #: frame or a press with the same inputs takes `prompt` as it is
    prompt_key: tuple[Any, ...] | None = None
    animating: bool = False
    next_change: float | None = None
    screen: str = "game"  # "setup", "game", "game_over"
    #: the parts of the surface this render changed; None: all of it (a whole redraw)
    dirty: list[pygame.Rect] | None = None
    #: the game screen's regions as drawn (a later render redraws those whose key changed)
    regions: dict[str, Region] = field(default_factory=dict)
    #: what a later render must share with this one to redraw only some regions
    shape: tuple[Any, ...] | None = None
    #: the banner as drawn: what it said and where (None: none)
    banner: tuple[Any, pygame.Rect] | None = None
    #: the pixels the banner covers, as they were before it was drawn over them (its box
    #: and a copy): the frame the banner leaves puts them back instead of drawing again
    #: every region under it (`_draw_game`)
    under: tuple[pygame.Rect, pygame.Surface] | None = None
    #: the regions which this frame left as they were, changed or not yet compared (the
    #: result went first): the next frame must compare them and draw those that changed;
    #: their entries in `regions` (keys, texts, touch targets) are still those on the screen
    pending: frozenset[str] = frozenset()

    def hotspot_at(self, pos: tuple[int, int]) -> Hotspot | None:
        """The touch target under `pos`; later (overlay) targets win."""
        for spot in reversed(self.hotspots):
            if spot.rect.collidepoint(pos):
                return spot
        return None


@dataclass
class Region:
    """One region of the game screen as drawn: what it was drawn from (`key`), the part of
    the surface it owns (`area`: its rect and a margin, which no other region's touches),
    and the texts and touch targets it drew."""

    key: tuple[Any, ...]
    area: pygame.Rect
    texts: list[DrawnText]
    hotspots: list[Hotspot]


def setup_prompt() -> Prompt:
    """The setup screen's buttons."""
    return Prompt(text("setup_title"), [], [
        Action("roll", text("act_next"), ui="setup_next"),
        Action("yes", text("act_change"), ui="setup_change"),
        Action("no", text("act_back"), ui="setup_back"),
        Action("pass_go", text("act_start"), ui="setup_start"),
        Action("menu", text("act_help"), ui="help"),
    ])


#: the regions that tell a move's result, drawn first (`render`'s `result_first`); the
#: header among them only when its dice changed (`_tells_result`)
FIRST = ("prompt", "header")


def render(state: Mapping[str, Any] | None, ui: UiState, surface: pygame.Surface,
           last: Frame | None = None, result_first: bool = False) -> Frame:
    """Draw everything for `state` (None: no game yet, the setup form) on `surface`; with
    `last`, the frame drawn last on this very surface (its pixels still there), the game
    screen redraws only the regions whose inputs changed. With `result_first` as well (the
    first frame after an update), only the regions that tell the result and the banner are
    drawn now, the other changed ones are left for the next frame (`Frame.pending`); a
    `last` with regions pending is never followed by a split frame."""
    sx, sy = scales(surface.get_size())
    p = Painter(surface, sx, sy)
    frame = Frame()
    # the prompt of the last frame, when it was built from the same inputs (a frame that
    # only follows the first one, a change of the screen's own that leaves the panel)
    last_prompt, last_key = (last.prompt, last.prompt_key) if last is not None else (None, None)
    game_screen = state is not None and ui.setup is None and \
        not table_of(state, ui).winner
    if not game_screen or ui.overlay is not None or ui.pin is not None:
        last = None  # only the game screen, with nothing over it, is drawn in regions
    if last is None:
        surface.fill(theme.BACKGROUND)
    if state is None or ui.setup is not None:
        frame.screen = "setup"
        if ui.setup is not None:
            layout = draw_setup(p, ui.setup)
            draw_phones(p, layout.remote, ui)
            frame.prompt = setup_prompt()
            draw_buttons(p, layout.buttons, frame.prompt)
    else:
        colors = player_colors(state, ui)
        frame.prompt_key = prompt_inputs(state, ui)
        frame.prompt = last_prompt if last_prompt is not None and \
            last_key == frame.prompt_key else prompt_ahead(frame.prompt_key) or \
            build_prompt(state, ui)
        if table_of(state, ui).winner:
            frame.screen = "game_over"
            over = draw_game_over(p, state, ui, colors)
            draw_buttons(p, over.buttons, frame.prompt)
        else:
            _draw_game(p, state, ui, colors, frame, last, result_first)
    if ui.overlay == "help":
        draw_help(p)
    elif ui.overlay == "chooser" and ui.chooser is not None:
        draw_chooser(p, ui.chooser)
    elif ui.overlay == "registration" and ui.chooser is not None:
        draw_registration(p, ui.chooser)  # card registration (companion.screen.views.registration)
    if ui.pin is not None:
        draw_pin(p, ui.pin)  # the banker PIN, over everything (companion.screen.views.pin)
    if ui.pin is not None:  # above the PIN's box, which hides the game's own banner
        draw_banner(p, p.rect(6, 2, 788, 34), ui)
    elif frame.screen != "game":
        draw_banner(p, p.rect(6, 380, 788, 36), ui, upward=True)
    if frame.screen != "game" or ui.overlay is not None or ui.pin is not None:
        frame.shape = None  # something over the regions: the next frame is whole again
    frame.texts = p.texts
    frame.hotspots = p.hotspots
    frame.animating = ui.animating()
    frame.next_change = ui.next_change()
    return frame


def _draw_game(p: Painter, state: Mapping[str, Any], ui: UiState,
               colors: dict[str, theme.Color], frame: Frame, last: Frame | None,
               result_first: bool = False) -> None:
    """The game screen, region by region: each one again only when its key differs from
    `last`'s (every one without `last`), the banner over them; with `result_first`, the
    regions that tell the result only, the others pending (their keys are not even made:
    the next frame compares them, after the flip)."""
    surface = p.surface
    size = surface.get_size()
    game = game_layout(size)
    prompt = frame.prompt
    assert prompt is not None
    # each region: its rect, what it is drawn from (made when asked), how it is drawn
    regions: dict[str, tuple[pygame.Rect, Callable[[], tuple[Any, ...]],
                             Callable[[], None]]] = {
        "header": (game.header, lambda: _header_key(state, ui, colors),
                   lambda: draw_header(p, game.header, state, ui, colors)),
        "players": (game.players, lambda: _players_key(state, ui, colors),
                    lambda: draw_players(p, game.players, state, ui, colors)),
        "board": (game.board, lambda: _board_key(state, ui),
                  lambda: draw_board(p, game.board, state, ui)),
    }
    if ui.wifi is None:
        regions["log"] = (game.log, lambda: _log_key(ui), lambda: draw_log(p, game.log, ui))
        regions["phones"] = (game.remote, lambda: _phones_key(ui),
                             lambda: draw_phones(p, game.remote, ui))
    else:  # until a phone is on the table's Wi-Fi its code takes the side column
        side = game.log.union(game.remote)
        regions["phones"] = (side, lambda: _phones_key(ui), lambda: draw_phones(p, side, ui))
    regions["prompt"] = (game.prompt, lambda: (prompt, colors.get(str(prompt.player))),
                         lambda: draw_prompt(p, game, prompt, colors))
    areas, overlapping = _areas(size, ui.wifi is None, regions, p.px(2))
    frame.shape = (Same(surface), size, language(), tuple(areas))
    if last is not None and (last.shape != frame.shape or overlapping):
        last = None
        surface.fill(theme.BACKGROUND)
    message = ui.message
    said = (message.text, message.kind) if message is not None and message.until > ui.now \
        else None
    box = banner_box(p, game.banner, ui, upward=True)
    frame.banner = None if box is None else (said, box)
    keys: dict[str, tuple[Any, ...]] = {}

    def key(name: str) -> tuple[Any, ...]:
        found = keys.get(name)
        if found is None:
            found = keys[name] = regions[name][1]()
        return found

    def changed(name: str) -> bool:  # what it shows changed (not only a banner over it)
        return last is None or name not in last.regions or last.regions[name].key != key(name)

    dirty: list[pygame.Rect] = []
    banner: set[str] = set()  # regions under a banner shown, gone or changed
    forced: set[str] = set()  # of them, those a banner left: painted again in this frame
    old = last.banner if last is not None else None
    under = last.under if last is not None else None
    if old is not None and old != frame.banner and under is not None and under[0] == old[1]:
        # what the banner covered, as it was: no region under it is drawn again for it (a
        # banner that goes, after an undo or a refusal, cost the next press's first frame
        # the players' cards, the board and the phones' corner, 1.5-2 ms here, issue 28)
        surface.blit(under[1], under[0])
        dirty.append(under[0])
    elif last is not None and last.banner != frame.banner:
        gone = [b[1] for b in (last.banner, frame.banner) if b is not None]
        banner = {name for name, area in areas.items() if any(area.colliderect(b) for b in gone)}
        if last.banner is not None:  # the gaps between the regions under it too
            surface.fill(theme.BACKGROUND, last.banner[1])
            dirty.append(last.banner[1])
            forced = {name for name, area in areas.items()
                      if area.colliderect(last.banner[1])}
    first: set[str] = set()
    if result_first and last is not None and not last.pending:
        first = {name for name in FIRST if name in regions and name in last.regions
                 and _tells_result(name, last.regions[name].key, key(name))
                 and (changed(name) or name in banner)}
    if first:  # the result now, the rest on the next frame
        redraw = first | forced | {name for name in regions if last is None
                                   or name not in last.regions}
        # the others are compared on the next frame, after the flip (a banner gone, which
        # paints some again now: compared now, those left are those that changed)
        frame.pending = frozenset(name for name in regions if name not in redraw and (
            changed(name) if forced or name in FIRST else True))
    else:
        redraw = {name for name in regions if changed(name)} | banner
    for name, (rect, _key, draw) in regions.items():
        area = areas[name]
        if name not in redraw and last is not None and name in last.regions:
            kept = last.regions[name]
            p.texts += kept.texts
            p.hotspots += kept.hotspots
            frame.regions[name] = kept
            continue
        texts, spots = len(p.texts), len(p.hotspots)
        words = header_left(last.regions[name].texts, rect, p) if name == "header" and \
            last is not None and name not in banner and name in last.regions and \
            _same_turn(last.regions[name].key, key(name)) else None
        ahead = _drawn_ahead(name, key(name), area, surface) if words is None and \
            last is not None and name in AHEAD_REGIONS and REGIONS_AHEAD.items else None
        if ahead is not None:  # drawn ahead (`draw_first_ahead`): its pixels as they are
            picture, _at, kept_texts, kept_spots = ahead  # (a header of the same turn is
            surface.blit(picture, area)  # not drawn ahead: its right side only, below)
            dirty.append(area)
            p.texts += kept_texts
            p.hotspots += kept_spots
            frame.regions[name] = Region(key(name), area, p.texts[texts:], p.hotspots[spots:])
            continue
        if words is not None:  # a roll or the clock: the header's right side only
            p.texts += words
            dirty.append(draw_header_roll(p, rect, state, ui).clip(area))
            frame.regions[name] = Region(key(name), area, p.texts[texts:], p.hotspots[spots:])
            continue
        if last is not None:
            if name in COVERS:  # its own ground over its rect: only the margin around
                _fill_around(surface, area, rect)
            else:
                surface.fill(theme.BACKGROUND, area)
            dirty.append(area)
        draw()
        frame.regions[name] = Region(key(name), area, p.texts[texts:], p.hotspots[spots:])
    if box is not None and (last is None or frame.banner != last.banner
                            or any(a.colliderect(box) for a in dirty)):
        frame.under = _under_banner(surface, box, dirty, last if last is not None
                                    and frame.banner == last.banner else None)
        draw_banner(p, game.banner, ui, upward=True)  # the header stays readable
        if last is not None:
            dirty.append(box)
    elif box is not None and last is not None:  # the same banner over the same pixels
        frame.under = last.under
    frame.dirty = None if last is None else dirty


def _under_banner(surface: pygame.Surface, box: pygame.Rect, dirty: list[pygame.Rect],
                  same: Frame | None) -> tuple[pygame.Rect, pygame.Surface] | None:
    """What the banner about to be drawn in `box` covers (`Frame.under`), before it does:
    a new banner's, a copy of the box (the old banner's pixels put back, or the regions
    under it drawn again: `_draw_game`); the same banner drawn again over regions drawn
    anew (`same`: the frame that drew it last), its copy with only what was drawn since
    (`dirty`) taken again, since the rest of the box shows the banner itself."""
    if not surface.get_rect().contains(box):
        return None
    kept = same.under if same is not None else None
    if kept is None or kept[0] != box:
        return box, surface.subsurface(box).copy()
    picture = kept[1]
    for rect in dirty:
        part = rect.clip(box)
        if part.width > 0 and part.height > 0:
            picture.blit(surface, part.move(-box.x, -box.y), part)
    return box, picture


#: the regions whose drawing paints its own ground over the whole of its rect (the header's
#: panel; the decision panel, drawn on the screen's ground or blitted kept; the board, its
#: ring copied on the ground, `board_map._on_ground`): redrawn in a
#: frame, only the margin around the rect is filled first (issue 28's eleventh round: the
#: fill of a first frame's areas under them, 25-60 µs here, SDL's streaming stores)
COVERS = frozenset({"header", "prompt", "board"})


def _fill_around(surface: pygame.Surface, area: pygame.Rect, rect: pygame.Rect) -> None:
    """Fill `area` but `rect` (inside it) with the screen's ground: the strips around."""
    inner = rect.clip(area)
    if not inner.width or not inner.height:
        surface.fill(theme.BACKGROUND, area)
        return
    for strip in (pygame.Rect(area.x, area.y, area.width, inner.y - area.y),
                  pygame.Rect(area.x, inner.bottom, area.width, area.bottom - inner.bottom),
                  pygame.Rect(area.x, inner.y, inner.x - area.x, inner.height),
                  pygame.Rect(inner.right, inner.y, area.right - inner.right, inner.height)):
        if strip.width > 0 and strip.height > 0:
            surface.fill(theme.BACKGROUND, strip)


#: how many words laid out ahead are remembered (painter.AHEAD)
AHEAD_KEPT = 256
#: the scratch surface they are drawn on (one at a time) and the layout they are drawn in
#: there, for the window's size (`_scratch_for`)
_scratch: list[tuple[tuple[int, int], pygame.Surface, GameLayout]] = []


def lay_ahead(words: Ahead, size: tuple[int, int]) -> bool:
    """Lay out and render `words` a press may bring next (`views.prompt.likely_words`: a
    decision panel's title and details, the header's turn and roll totals) for a window of
    `size`, on a scratch surface, as the frame that may show them draws them, so that this
    frame finds their measurements, lines and glyphs kept (the painter's caches) instead
    of asking freetype for them between the press and the flip (issue 28). False when
    they were laid out already and their glyphs are still kept (nothing done): a guess
    whose glyphs the guesses after it pushed out of the painter's store is laid out again
    (in the bench's game a prompt's title then came cold at the tail, 0.3-0.5 ms)."""
    key = (words, size, language())
    kept = AHEAD.pop(key, None)
    if kept is not None and still_rendered(kept):
        AHEAD[key] = kept  # the latest last: what is guessed again and again stays
        return False
    surface, game = _scratch_for(size)
    sx, sy = scales(size)
    p = Painter(surface, sx, sy)
    p.ahead = True
    if words.turn is not None:
        lay_header_words(p, game.header, words.turn, words.totals, words.dice)
    if words.whose:
        lay_header_whose(p, game.header, words.whose)
    if words.title or words.details:
        lay_prompt_title(p, game, words.title, words.details)
    AHEAD[key] = tuple(p.laid)
    while len(AHEAD) > AHEAD_KEPT:
        del AHEAD[next(iter(AHEAD))]
    return True


def keep_panel_ahead(title: str, size: tuple[int, int]) -> bool:
    """Keep the decision panel the screen drew last with `title` (a title a press may
    bring next, `views.prompt.likely_titles`) in PANELS for a window of `size`, drawn on
    the scratch surface on the screen's ground, when the screen drew it once and did not
    keep it (`panels.keep_prompt_ahead`): its next showing is then one blit rather than
    drawn anew and copied in the first frame (issue 28). False: nothing done."""
    if not title:
        return False
    surface, game = _scratch_for(size)  # the panel paints the screen's ground itself
    sx, sy = scales(size)
    # kept with its texts and touch targets where the screen shows it (its area's corner:
    # the panel's rect clipped to the window, as `Painter.part` finds it)
    shown = game_layout(size).prompt.clip(pygame.Rect((0, 0), size)).topleft
    return keep_prompt_ahead(Painter(surface, sx, sy), game, title, shown_at=shown)


def _scratch_for(size: tuple[int, int]) -> tuple[pygame.Surface, GameLayout]:
    """The scratch surface `lay_ahead` draws on for a window of `size`, and the layout it
    draws in there: the header where it is, the decision panel moved up to the top (what
    is kept of a text does not depend on where its box is), so that the surface is as
    tall as the panel rather than the window (0.37 MB at 800x480 instead of 1.5, 2 MB at
    1920x1080 instead of 8)."""
    if not _scratch or _scratch[0][0] != size:
        game = game_layout(size)
        up = -game.prompt.y
        moved = replace(game, prompt=game.prompt.move(0, up),
                        prompt_title=game.prompt_title.move(0, up),
                        prompt_detail=game.prompt_detail.move(0, up),
                        buttons=game.buttons.move(0, up))
        height = max(game.header.bottom, moved.prompt.bottom, moved.prompt_title.bottom,
                     moved.prompt_detail.bottom, moved.buttons.bottom, 1)
        _scratch[:] = [(size, pygame.Surface((size[0], height)), moved)]
    return _scratch[0][1], _scratch[0][2]


#: the game screen's layout by the window's size
_layouts: dict[tuple[int, int], GameLayout] = {}
#: the regions' areas by the window's size and whether the log has its own corner, and
#: whether any two of them overlap
_areas_kept: dict[tuple[tuple[int, int], bool], tuple[dict[str, pygame.Rect], bool]] = {}


def game_layout(size: tuple[int, int]) -> GameLayout:
    """The game screen's layout for a window of `size` (made once per size: every frame
    asks, the first after a press too; its rects are read, never changed in place)."""
    found = _layouts.get(size)
    if found is None:
        found = _layouts[size] = GameLayout.for_size(size)
    return found


def _areas(size: tuple[int, int], log: bool, regions: Mapping[str, tuple[pygame.Rect, Any, Any]],
           margin: int) -> tuple[dict[str, pygame.Rect], bool]:
    """Each region's area (its rect and `margin` around it, on the surface: a rect sent to
    the display must lie on it, SDL's X11 framebuffer moves one with a negative corner
    elsewhere) and whether any two overlap; made once per size and arrangement."""
    found = _areas_kept.get((size, log))
    if found is None:
        whole = pygame.Rect((0, 0), size)
        areas = {name: rect.inflate(2 * margin, 2 * margin).clip(whole)
                 for name, (rect, _k, _d) in regions.items()}
        found = _areas_kept[(size, log)] = (areas, _overlapping(list(areas.values())))
    return found


def _tells_result(name: str, was: tuple[Any, ...], key: tuple[Any, ...]) -> bool:
    """Whether region `name`, drawn from `was` before and from `key` now, tells the result
    of a move: the decision panel (what is asked now, and the buttons that answer it)
    always, the header when the dice in it changed (its key's third part)."""
    if name == "prompt":
        return True
    return name == "header" and bool(was[2] != key[2])


def _same_turn(was: tuple[Any, ...], key: tuple[Any, ...]) -> bool:
    """Whether two header keys (`_header_key`) show the same turn's number and the same
    player in the same colour: then only the dice and the clock may differ, which
    `draw_header_roll` draws over the header kept."""
    return bool(was[0] == key[0] and was[1] == key[1] and was[3] == key[3])


def _overlapping(areas: list[pygame.Rect]) -> bool:
    """Whether any two regions' areas touch (a window so small that the margins meet):
    then every frame is drawn whole."""
    return any(a.colliderect(b) for i, a in enumerate(areas) for b in areas[i + 1:])


def _header_key(state: Mapping[str, Any], ui: UiState,
                colors: dict[str, theme.Color]) -> tuple[Any, ...]:
    """What draw_header shows: the turn, whose it is (in their colour), the dice, the timed
    game's clock as it reads now and in its colour."""
    table = table_of(state, ui)
    current = table.current or ""
    clock: tuple[str, bool] | None = None
    if ui.clock_deadline is not None:
        remaining = ui.clock_deadline - ui.now
        clock = (format_clock(remaining) if remaining > 0 else "", clock_warns(remaining))
    return (table.turn.number, current, tuple(table.turn.dice), colors.get(current), clock)


def _players_key(state: Mapping[str, Any], ui: UiState,
                 colors: dict[str, theme.Color]) -> tuple[Any, ...]:
    """What draw_players shows: each player's card but where their token stands, whose
    turn or decision it is, the winner, the colours, the currency, the changes of cash
    still shown beside a balance."""
    table = table_of(state, ui)
    seats = tuple((s.name, s.cash, s.jailed, s.bankrupt, s.jail_cards, s.jail_turns,
                   s.net_worth, s.bus_tickets) for s in table.players)
    changes = tuple(sorted((name, a.old, a.new) for name, a in ui.anims.items()
                           if ui.now - a.start < DELTA_SHOWN_S and a.new != a.old))
    return (seats, table.current, table.winner, table.turn.pending_player,
            tuple(colors.items()), repr(table.setup.currency), changes)


def _board_key(state: Mapping[str, Any], ui: UiState) -> tuple[Any, ...]:
    """What draw_board is drawn from: this very state and view of the table (any move
    redraws it), the board, the players' styles, the square being chosen, the card held."""
    return (Same(state), Same(ui.table), Same(ui.board), tuple(ui.styles.items()),
            ui.bus_ride, ui.square_focus, ui.card_holder)


def _log_key(ui: UiState) -> tuple[Any, ...]:
    """What draw_log shows: the recent moves as they read now, the hardware warnings."""
    return (tuple((e.text, e.color, e.move, e.undone, e.why) for e in ui.log), ui.last_move,
            tuple(ui.warnings.items()))


def _phones_key(ui: UiState) -> tuple[Any, ...]:
    """What the phones' corner shows: the join address (or its placeholder), the Wi-Fi."""
    return (ui.remote_url, ui.remote_placeholder, ui.wifi)


# --- the decision panels of the next moves the session worked out ahead (issue 28) --------
# While the table waits, the screen draws the panel each state worked out ahead
# (`GameSession.ahead_states`, companion.game.ahead) would show and keeps it in PANELS, so
# the press that brings that state finds it (one blit). Such a state is no move and nothing
# of it is shown: a panel is kept by everything it shows (`views.panels._panel_key`), so one
# built from a state or UI state the real update does not bring is never found (CPU and a
# place in the store, never a wrong pixel).


def ui_after_move(ui: UiState, table: TableView | None = None,
                  auction_deadline: float | None = None) -> UiState:
    """The screen's UI state as a move's update leaves it for the decision panel: no view
    of the table yet (the state's own is built; `table`: that view), no UNDO question, no
    dice typed, no dial, no bid steps, no square chosen, no bus ride, the auction's
    deadline `auction_deadline` (none: no bid holds the clock, or it is not known ahead)
    (a copy)."""
    return replace(ui, table=table, confirm_undo=False, undo_target=None, dice_entry=[],
                   speed_entry=None, dial=None, bid_steps=0, square_focus=None,
                   bus_ride=False, auction_deadline=auction_deadline)


@dataclass(slots=True)
class FirstAhead:
    """What the first frame of a state worked out ahead builds before it draws, built
    while the table waits (`first_ahead`, issue 28's fourteenth round): the view of the
    table (`TableView`, its records the frame reads built) and the decision panel's prompt
    (`build_prompt` with the UI state as the update leaves it, `ui_after_move`). Found
    only by what each is made of, so that a forecast that does not come, or comes with
    other content (the session's extras at the commit: a teaching lesson, the card that is
    news; a clock; other open offers; another UI state), is never used."""

    #: the forecast's public JSON, the very object
    state: Mapping[str, Any]
    #: what the view and the prompt were built from: a shallow copy of it with the
    #: session's extras guessed (`first_ahead`): an update's state is this forecast's only
    #: when equal to it, key for key (the same objects compare at once); the prompt's key
    #: holds it by identity until an update's state is found equal (`view_ahead`), then
    #: that state
    content: dict[str, Any]
    #: the open offers' generation the view was built with (-1: the screen follows none)
    offers: int
    view: TableView
    #: `prompt_inputs` of the state and the UI state after a move with `view`, and the
    #: prompt built from them
    prompt_key: tuple[Any, ...]
    prompt: Prompt
    colors: dict[str, theme.Color]
    #: the UI state the prompt was built with (`ui_after_move` with `view`)
    after: UiState | None = None
    #: keys the commit adds with a value of its own time (`_clock_extras`): left out of
    #: `content`, and of an update's state when it is compared with it (`view_ahead`)
    loose: tuple[str, ...] = ()


#: the states worked out ahead of the state shown, with what their first frame builds
#: (`first_ahead`); at most FIRSTS_KEPT, the oldest forgotten first
FIRSTS: list[FirstAhead] = []
FIRSTS_KEPT = 10  # four forecasts at most and an UNDO's state, two guesses of the extras each


def first_ahead(state: Mapping[str, Any], ui: UiState, offers: OfferStore | None,
                shown: Mapping[str, Any]) -> bool:
    """Build ahead, for `state` (a forecast's public JSON, `GameSession.ahead_states`,
    worked out ahead of the state `shown`), what the first frame of the update that brings
    it would build before drawing: the view of the table with the open offers of `offers`
    (as the session builds it, `GameSession.table`) and its records the frame reads, and
    the prompt with the UI state as the update leaves it; kept in FIRSTS. The forecast
    holds the session's extras as its commit would add them (the card that is news; the
    teaching table's lessons when they could be planned, `GameSession._ahead_extras`);
    what it lacks (the clocks, an unplanned teaching) is guessed (`_extras_guessed`), and
    an update whose state differs from every guess in anything finds nothing. False when
    kept already (nothing done)."""
    generation = offers.generation if offers is not None else -1
    built = False
    for extras in _extras_guessed(state, shown, ui):
        built = _first_ahead({**state, **extras}, state, ui, offers, generation,
                             shown) or built
    return built


def _extras_guessed(state: Mapping[str, Any], shown: Mapping[str, Any],
                    ui: UiState) -> list[dict[str, Any]]:
    """What the session may add to `state` at its commit that `state` lacks, guessed from
    the state `shown` (its keys `state` lacks): as they are there, and, when `shown` has
    news among them (a teaching lesson, the card that is news: from a session that does
    not give them with its forecasts), the same without it (a move after the news mostly
    ends it). Never the auction clock: the commit adds none to a state with no auction
    open, and one of its own time to a state with one (`_clock_extras`)."""
    extras = {k: v for k, v in shown.items() if k not in state and k != AUCTION_CLOCK}
    quiet = dict(extras)
    teaching = quiet.get("teaching")
    if isinstance(teaching, Mapping) and teaching.get("lessons"):
        quiet["teaching"] = {**teaching, "lessons": []}
    card = table_of(shown, ui).card  # the card that is news, as the view reads it
    if card is not None:  # the extra it is read from: none after the news
        for name, value in extras.items():
            if DrawnCard.of({name: value}) == card:
                quiet[name] = None
    return [extras] if quiet == extras else [extras, quiet]


#: the auction clock the session adds to the state of an open auction at its commit
#: (`GameSession._clocked`: it runs from the commit's time, so no forecast can hold it)
AUCTION_CLOCK = "auction_clock"


def _clock_extras(view: TableView) -> tuple[str, ...]:
    """The keys the session adds to the state of `view` at its commit with a value of the
    commit's own time, which no forecast holds: the auction clock of an open auction. They
    are left out of the comparison of an update's state with a state built ahead
    (`view_ahead`), whose view then takes the update's clock
    (`TableView.with_auction_clock_of`); the prompt reads the clock through the screen's
    deadline, known ahead after a bid (`_deadline_ahead`) and none before one. Without it,
    neither the NO that opens an auction nor a bid would find its view and prompt built
    ahead."""
    decision = view.decision
    return (AUCTION_CLOCK,) if decision is not None and decision.auction else ()


def _deadline_ahead(view: TableView, shown: Mapping[str, Any], ui: UiState) -> float | None:
    """The auction deadline the screen keeps (`Controller._auction_clock`) once the update
    whose view is `view`, worked out ahead of the state `shown`, is applied, as far as it
    is known now: a new highest bid starts the clock again, its whole length left at the
    commit (the clock's `seconds` in `shown`, the auction open there); None otherwise (no
    bid: no deadline; the same highest bid: the clock runs on, and what is left of it at
    the commit is not known, so the prompt built ahead with none is not found)."""
    after, before = view.decision, table_of(shown, ui).decision
    if after is None or not after.auction or after.bidder is None:
        return None
    if before is not None and (before.kind, before.square, before.building, before.highest,
                               before.bidder) == (after.kind, after.square, after.building,
                                                  after.highest, after.bidder):
        return None
    seconds = (shown.get(AUCTION_CLOCK) or {}).get("seconds")
    return ui.now + float(seconds) if isinstance(seconds, (int, float)) else None


def _first_ahead(content: dict[str, Any], state: Mapping[str, Any], ui: UiState,
                 offers: OfferStore | None, generation: int,
                 shown: Mapping[str, Any]) -> bool:
    """`first_ahead` for one guess, `content` (the forecast `state` with the extras; the
    auction clock is not among them, `_extras_guessed`)."""
    same = next((kept for kept in FIRSTS if kept.state is state and
                 kept.offers == generation and kept.content == content), None)
    if same is not None:  # the view kept already: the prompt too, unless the UI changed
        content, view = same.content, same.view
    else:
        view = build_view(content, offers.open() if offers is not None else ())
        for name in _VIEW_READS:  # built once, on first read: read now, not in the window
            getattr(view, name)
    after = ui_after_move(ui, view, _deadline_ahead(view, shown, ui))
    key = prompt_inputs(content, after)
    if same is not None and any(kept.prompt_key == key for kept in FIRSTS):
        return False
    prompt = build_prompt(content, after)
    FIRSTS.append(FirstAhead(state, content, generation, view, key, prompt,
                             player_colors(content, after), after, _clock_extras(view)))
    del FIRSTS[:-FIRSTS_KEPT]
    return True


#: the view's records the first frame of a move reads (the prompt, the header, the
#: players' cards, the decisions compared by `Controller._reset_entry`)
_VIEW_READS = ("players", "turn", "setup", "decision", "card", "open_offers")


def view_ahead(state: Mapping[str, Any], offers: OfferStore | None) -> TableView | None:
    """The view of the table built ahead (`first_ahead`) for a state equal, key for key,
    to `state` (but for the auction clock of its commit's time, `FirstAhead.loose`: the
    view found takes `state`'s), with the open offers as they are now; None: none was."""
    generation = offers.generation if offers is not None else -1
    for kept in FIRSTS:
        seen = state
        if kept.loose and any(k in state for k in kept.loose):  # of the commit's time
            seen = {k: v for k, v in state.items() if k not in kept.loose}
        if kept.offers == generation and len(kept.content) == len(seen) and \
                kept.content == seen:
            content, view = kept.content, kept.view
            clocked = seen is not state
            if clocked:  # the view of `state` itself, its clock the update's
                view = view.with_auction_clock_of(state)
            # the prompts built from it (one per UI state) are now those of `state` itself
            # (and of its view), equal to what they were built from
            for same in FIRSTS:
                if same.content is not content:
                    continue
                same.prompt_key = (Same(state), Same(view)) + same.prompt_key[2:]
                if clocked:  # a second look for `state` finds this very view
                    same.content, same.view, same.loose = dict(state), view, ()
            return view
    return None


def prompt_ahead(key: tuple[Any, ...]) -> Prompt | None:
    """The prompt built ahead (`first_ahead`) from inputs equal to `key`
    (`prompt_inputs`: the very state and view among them); None: none was."""
    for kept in FIRSTS:
        if kept.prompt_key == key:
            return kept.prompt
    return None


def forget_firsts() -> None:
    """Forget what was built ahead (the states it was built for are past)."""
    FIRSTS.clear()


def keep_forecast_panel(state: Mapping[str, Any], ui: UiState, size: tuple[int, int]) -> bool:
    """Keep in PANELS the decision panel `state`'s prompt shows (a state worked out ahead)
    for a window of `size`, drawn on the scratch surface on the screen's ground, as
    `panels.draw_prompt` keeps it; False when it is kept already (nothing done). The
    prompts built ahead for `state` (`first_ahead`, one per guess of the session's
    extras) when there are some, each kept."""
    made = [(k.prompt, k.colors) for k in FIRSTS if k.state is state]
    if not made:
        after = ui_after_move(ui)
        made = [(build_prompt(state, after), player_colors(state, after))]
    kept = False
    for prompt, colors in made:
        kept = _keep_panel(prompt, colors, size) or kept
    return kept


def _keep_panel(prompt: Prompt, colors: Mapping[str, theme.Color],
                size: tuple[int, int]) -> bool:
    """`keep_forecast_panel` for one prompt."""
    color = colors.get(str(prompt.player), theme.ACCENT)
    surface, game = _scratch_for(size)
    sx, sy = scales(size)
    p = Painter(surface, sx, sy)
    bare = _bare(p, game, prompt)
    shown = game_layout(size).prompt.clip(pygame.Rect((0, 0), size)).topleft
    return p.keep_ahead(_panel_key(bare, color), game.prompt,
                        partial(_draw_prompt, p, game, bare, color), PANELS,
                        ground=theme.BACKGROUND, shown_at=shown, unseen=True)


# --- the first frame's header drawn ahead (issue 28's fifteenth round) ---------------------
# For the likeliest state the session worked out ahead (its view and prompt built ahead,
# `first_ahead`), the loop draws, while the table waits, the header that state's first
# frame would draw whole (another turn or player: the turn's number, whose turn, the dice,
# the clock) into a picture of its area, kept by what it shows (the region's key as
# `_draw_game` makes it, the clock's text and colour in it; the screen's language, the
# window's size and pixel format, the area): that first frame copies the picture instead
# of drawing the header. A picture is found only by the key the first frame makes from the
# update's own state and UI state, so one drawn for a state that did not come, or came with other
# extras, a clock that reads otherwise or another language, is never shown. The decision
# panel was drawn ahead too at first and dropped (issue 28, 2026-11-29): its panel is kept
# whole ahead already (`keep_forecast_panel`), only the detail line was left to save, and
# three in four drawn ahead did not come (the move's square or card unknown ahead).

#: the regions a first frame may copy drawn ahead
AHEAD_REGIONS = frozenset({"header"})
#: the pictures drawn ahead: their area's pixels, where the area is, their texts and touch
#: targets there; at most 8 and 6 MB (a header's area is 0.14 MB at 800x480, 0.8 MB at
#: 1920x1080)
REGIONS_AHEAD = PartStore(8, 6 << 20)
#: how many of the states worked out ahead have their first frames' regions drawn ahead:
#: the first `GameSession.ahead_states` gives (the game buttons' in the panel's order:
#: the decision panel's first button that sends a command, most often the one pressed;
#: each state's regions cost CPU ahead whether it comes or not)
FRAMES_AHEAD = 1


def _drawn_ahead(name: str, key: tuple[Any, ...], area: pygame.Rect,
                 surface: pygame.Surface) -> Kept | None:
    """The picture of region `name` drawn ahead from region key `key` for `area` of
    `surface` (`draw_first_ahead`), or None."""
    return REGIONS_AHEAD.get(_ahead_key(name, key, area, surface))


def _ahead_key(name: str, key: tuple[Any, ...], area: pygame.Rect,
               surface: pygame.Surface) -> tuple[Any, ...]:
    """What a region's picture drawn ahead is kept by: everything its pixels are drawn
    from. The region's key (`_draw_game`'s: the header's turn, player, dice, colour, the
    clock as it reads and its colour), the screen's language, the area and the window's
    size and pixel format."""
    return (name, key, language(), area.topleft, area.size, surface.get_size(),
            surface.get_bitsize(), surface.get_masks())


def draw_first_ahead(kept: FirstAhead, ui: UiState, surface: pygame.Surface,
                     last: Frame | None) -> bool:
    """Draw ahead, for the state worked out ahead that `kept` was built for (`first_ahead`:
    its view, prompt and colours), the header its first frame would draw whole over `last`
    (the game screen's frame on `surface`), as `_draw_game` draws it into its area, into a
    picture of that area (`REGIONS_AHEAD`), with the UI state as the update leaves it
    (`ui_after_move`). Only where the first frame would draw it at a cost (issue 28,
    2026-11-29: a picture drawn ahead costs CPU whether its state comes or not): not when
    its key is the one `last` drew (the first frame keeps it), nor over the same turn (the
    first frame paints its right side only, the dice a copy), nor when drawn ahead already.
    False when nothing was drawn."""
    if last is None or last.screen != "game" or last.shape is None or \
            ui.overlay is not None or ui.pin is not None:
        return False
    size = surface.get_size()
    areas = _areas_kept.get((size, ui.wifi is None))
    if areas is None or areas[1]:
        return False  # no game screen drawn in regions at this size
    was = last.regions.get("header")
    area = areas[0].get("header")
    if was is None or area is None:
        return False
    after = kept.after or ui_after_move(ui, kept.view)
    key = _header_key(kept.content, after, kept.colors)
    if was.key == key or _same_turn(was.key, key):
        return False  # kept by the first frame, or its right side only painted anew
    full = _ahead_key("header", key, area, surface)
    if full in REGIONS_AHEAD.items:
        return False
    scratch = _window_scratch(surface, area.bottom)
    scratch.fill(theme.BACKGROUND, area)  # the area's margin, as `_fill_around` fills it
    p = Painter(scratch, *scales(size))  # its glyphs kept as the screen's
    draw_header(p, game_layout(size).header, kept.content, after, kept.colors)
    REGIONS_AHEAD.put(full, (scratch.subsurface(area).copy(), area.topleft, p.texts,
                             p.hotspots))
    return True


#: the surface `draw_first_ahead` draws on: the window's width and pixel format, as tall as
#: the header's area (one)
_window_scratches: list[pygame.Surface] = []


def _window_scratch(like: pygame.Surface, height: int) -> pygame.Surface:
    """A surface of `like`'s width and pixel format and `height`, made once (again when
    they change), on which `draw_first_ahead` draws the header where the window has it (its
    texts and touch targets where the first frame shows them; the pixel format the
    window's, whose text edges it blends alike): 0.15 MB at 800x480, 0.9 at 1920x1080,
    where the window's whole size would hold 1.5 and 8 MB for good."""
    size = (like.get_width(), max(1, height))
    found = _window_scratches[0] if _window_scratches else None
    if found is None or found.get_size() != size or \
            found.get_bitsize() != like.get_bitsize() or found.get_masks() != like.get_masks():
        found = pygame.Surface(size, 0, like)
        _window_scratches[:] = [found]
    return found
