"""Drawing primitives that fit text into boxes and remember what they drew and where.

Every text goes through `Painter.text`, which shrinks it to fit its box (down to a floor,
then ellipsises) and records a `DrawnText`; tests assert on these records that nothing
runs out of its box and that every glyph exists. Touch targets are recorded the same way.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pygame.freetype  # noqa: E402

from companion.screen import fonts  # noqa: E402
from companion.screen.theme import Color  # noqa: E402

ELLIPSIS = "…"
#: text measurements kept (ink rects by weight, pixel size and text): a frame asks for the
#: same few hundred again and again, and measuring through freetype is most of a frame's
#: text cost; past this many the cache starts afresh
MEASURED_MAX = 8192
_measured: dict[tuple[bool, int, str], tuple[int, int, int, int]] = {}
#: rendered texts kept, most recently drawn last (a few MB at most): a frame draws mostly the
#: texts of the frame before, and a blit costs a fraction of rendering the glyphs again
RENDERED_MAX = 512
#: a rendered text's key: weight, pixel size, text, colour
RenderKey = tuple[bool, int, str, tuple[int, ...]]
_rendered: OrderedDict[RenderKey, pygame.Surface] = OrderedDict()
#: texts rendered ahead of the frame that may show them (`Painter.ahead`), apart from the
#: texts drawn, so that guesses never push out what the screen shows: one drawn moves to
#: `_rendered`; past RENDERED_AHEAD_MAX the oldest guesses go
RENDERED_AHEAD_MAX = 96
_rendered_ahead: OrderedDict[RenderKey, pygame.Surface] = OrderedDict()
#: where `Painter.text` put a text in a box of a size (what it drew, at which pixel size,
#: its ink rect from the box's corner, the ascender): the same few hundred each frame, each
#: found by measuring in a loop; past LAID_MAX entries the cache starts afresh (issue 28)
LAID_MAX = 4096
_laid: dict[tuple[Any, ...], tuple[str, int, int, int, int, int, int]] = {}
#: the lines `Painter._wrap` cut a text into, by text, width, pixel size and weight
_wrapped: dict[tuple[str, int, int, bool], tuple[str, ...]] = {}
#: what was laid out ahead of the frame that may show it (companion.screen.render's
#: `lay_ahead`: a title and the window's size and language), the latest guessed last, with
#: the keys of the glyphs it rendered (`Painter.laid`): laid out again once one of them is
#: no longer kept
AHEAD: dict[tuple[Any, ...], tuple[RenderKey, ...]] = {}
#: a part as kept: its pixels, where it was drawn, its texts and touch targets
Kept = tuple[pygame.Surface, tuple[int, int], list["DrawnText"], list["Hotspot"]]


class PartStore:
    """Parts of the picture drawn before (`Painter.part`), by what they were drawn from,
    most recently drawn last: their pixels, and their texts and touch targets from the
    part's corner; at most `most` of them and `most_bytes` of pixels."""

    def __init__(self, most: int, most_bytes: int, again: bool = False) -> None:
        """`again`: keep a part only when it is drawn a second time (its first drawing is
        not copied: a large part seen once, a decision panel naming one square and one
        price, costs no copy at the tail of a move's first frame)."""
        self.most, self.most_bytes, self.again = most, most_bytes, again
        self.items: OrderedDict[tuple[Any, ...], Kept] = OrderedDict()
        self.bytes = 0  # the pixels of `items`
        #: with `again`: the parts drawn once and not kept (the last 4 x `most`)
        self.seen: OrderedDict[tuple[Any, ...], None] = OrderedDict()

    def worth_keeping(self, key: tuple[Any, ...]) -> bool:
        """Whether a part drawn now for `key` (not kept) should be kept."""
        if not self.again or key in self.seen:
            return True
        self.seen[key] = None
        if len(self.seen) > 4 * self.most:
            self.seen.popitem(last=False)
        return False

    def get(self, key: tuple[Any, ...]) -> Kept | None:
        """The part kept for `key` (now the most recently drawn), or None."""
        found = self.items.get(key)
        if found is not None:
            self.items.move_to_end(key)
        return found

    def put(self, key: tuple[Any, ...], kept: Kept) -> None:
        """Keep a part drawn; the least recently drawn go past the limits."""
        self.items[key] = kept
        self.bytes += _size(kept[0])
        while len(self.items) > self.most or len(self.items) > 1 and \
                self.bytes > self.most_bytes:
            self.bytes -= _size(self.items.popitem(last=False)[1][0])

    def clear(self) -> None:
        """Forget every part."""
        self.items.clear()
        self.seen.clear()
        self.bytes = 0


#: the small parts (a player's card, a button, a line of the recent moves): at most 64 of
#: them and 6 MB of pixels (a card at 1920x1080 is half a MB)
PARTS = PartStore(64, 6 << 20)
#: the decision panel as a whole, per prompt (`companion.screen.views.panels.draw_prompt`):
#: a move's first frame shows a prompt seen before about three times in five (the turns
#: come round), and then it is one blit (issue 28); kept from its second drawing on; a
#: panel is 0.36 MB at 800x480, 2 MB at 1920x1080
PANELS = PartStore(16, 6 << 20, again=True)
#: the decision panel's buttons (`companion.screen.views.panels.draw_buttons`), apart from
#: PARTS: a move brings new player cards and new lines of the recent moves, which pushed
#: the dozen buttons a game shows out of PARTS within a few moves, so that a press's first
#: frame drew its buttons anew (0.1-0.9 ms here, issue 28's ninth round); a button is
#: 38 KB at 800x480, 0.2 MB at 1920x1080
BUTTONS = PartStore(32, 4 << 20)
#: the header's dice and the roll's total in digits (`views.panels.draw_header_roll`), by the
#: faces: a game shows the 36 throws of two dice again and again (with the speed die 216,
#: the latest 48 kept), so a roll's first frame mostly copies them instead of drawing the
#: dice and the total's glyphs (0.15-0.3 ms of a roll's first frame here, issue 28); a block
#: is 25 KB at 800x480, 0.1 MB at 1920x1080
DICE = PartStore(48, 5 << 20)


def forget() -> None:
    """Forget every text, layout and part kept between frames (the tests' cold start)."""
    for kept in (_measured, _rendered, _rendered_ahead, _laid, _wrapped, AHEAD):
        kept.clear()
    PARTS.clear()
    PANELS.clear()
    BUTTONS.clear()
    DICE.clear()


def _size(picture: pygame.Surface) -> int:
    """The bytes of a picture's pixels."""
    return picture.get_width() * picture.get_height() * picture.get_bytesize()


@dataclass(frozen=True)
class DrawnText:
    """One text as drawn: what was asked, what was drawn, its ink rect and its box."""

    text: str
    drawn: str
    rect: pygame.Rect
    box: pygame.Rect
    size: int
    struck: bool = False  # drawn struck through (a move taken back)
    floor: int = 0  # the smallest pixel size its view allowed (a secondary fact's is lower)

    @property
    def fits(self) -> bool:
        """The ink stays inside the box and nothing was cut short."""
        return self.drawn == self.text and self.box.contains(self.rect)


@dataclass(frozen=True)
class Hotspot:
    """A touch target: tapping `rect` does `action` (a panel button or a UI action id)."""

    rect: pygame.Rect
    action: str
    arg: Any = None


@cache
def font(bold: bool) -> pygame.freetype.Font:
    """The shipped font; one face per weight, sized per call."""
    fonts.start_freetype()
    face = pygame.freetype.Font(str(fonts.BOLD if bold else fonts.REGULAR), 16)
    face.origin = True
    face.pad = False
    return face


def ink(text: str, size_px: int, bold: bool = False) -> pygame.Rect:
    """The ink rect of `text` at a pixel size, relative to its origin (measured once)."""
    key = (bold, size_px, text)
    found = _measured.get(key)
    if found is None:
        if len(_measured) >= MEASURED_MAX:
            _measured.clear()
        r = font(bold).get_rect(text, size=size_px)
        found = _measured[key] = (r.x, r.y, r.width, r.height)
    return pygame.Rect(found)


@cache
def line_metrics(size_px: int, bold: bool = False) -> tuple[int, int]:
    """(line height, ascender) of the font at a pixel size."""
    face = font(bold)
    return face.get_sized_height(size_px), face.get_sized_ascender(size_px)


def for_blitting(picture: pygame.Surface) -> pygame.Surface:
    """`picture` (a text's glyphs, the board's ring) in the display's pixel format with
    its alpha (`convert_alpha`), which SDL blends with its fast blitter: freetype's own
    format took 30-45 µs a text blitted here, the display's 2 µs, for the very same pixels
    (issue 28; tests/test_screen_caches.py); as it is when no display is open."""
    if pygame.display.get_surface() is None:
        return picture
    try:
        return picture.convert_alpha()
    except pygame.error:  # no video mode after all
        return picture


def still_rendered(keys: tuple[RenderKey, ...]) -> bool:
    """Whether the glyphs of every one of `keys` are still kept (drawn, or rendered ahead);
    those rendered ahead are now the latest guessed (a guess made again and again stays)."""
    for key in keys:
        if key in _rendered:
            continue
        if key not in _rendered_ahead:
            return False
        _rendered_ahead.move_to_end(key)
    return True


def rendered(text: str, size_px: int, color: Color, bold: bool = False,
             ahead: bool = False) -> pygame.Surface:
    """The glyphs of `text` in `color` on a transparent surface, its top left at the ink
    rect's (rendered once while it keeps being drawn). `ahead`: for a frame that may come
    (kept apart, `_rendered_ahead`, until a frame draws it)."""
    key = (bold, size_px, text, tuple(color))  # a colour may come as a list
    found = _rendered.get(key)
    if found is not None:
        if not ahead:
            _rendered.move_to_end(key)
        return found
    found = _rendered_ahead.pop(key, None)
    if found is None:
        found = for_blitting(font(bold).render(text, fgcolor=color, size=size_px)[0])
    kept = _rendered_ahead if ahead else _rendered
    kept[key] = found
    if len(kept) > (RENDERED_AHEAD_MAX if ahead else RENDERED_MAX):
        kept.popitem(last=False)
    return found


def _moved(texts: list[DrawnText], spots: list[Hotspot], dx: int,
           dy: int) -> tuple[list[DrawnText], list[Hotspot]]:
    """A kept part's texts and touch targets `dx`, `dy` pixels further."""
    return ([DrawnText(t.text, t.drawn, t.rect.move(dx, dy), t.box.move(dx, dy), t.size,
                       t.struck, t.floor) for t in texts],
            [Hotspot(h.rect.move(dx, dy), h.action, h.arg) for h in spots])


class Painter:
    """Draws on one surface at one scale (design units are an 800x480 screen)."""

    def __init__(self, surface: pygame.Surface, sx: float, sy: float) -> None:
        self.surface = surface
        self.sx = sx
        self.sy = sy
        self.scale = min(sx, sy)
        self.texts: list[DrawnText] = []
        self.hotspots: list[Hotspot] = []
        #: drawing ahead of a frame that may show it (a scratch surface): its texts are
        #: rendered apart from those the screen shows (`rendered`'s `ahead`), and the keys
        #: of their glyphs listed in `laid`
        self.ahead = False
        self.laid: list[RenderKey] = []

    def px(self, value: float) -> int:
        """A length in design units as pixels (uniform scale)."""
        return max(1, round(value * self.scale))

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """A rectangle in design units as pixels (each axis scaled on its own)."""
        left, top = round(x * self.sx), round(y * self.sy)
        return pygame.Rect(left, top, round((x + w) * self.sx) - left,
                           round((y + h) * self.sy) - top)

    def fill(self, rect: pygame.Rect, color: Color, radius: float = 0) -> None:
        """A filled, optionally rounded rectangle."""
        pygame.draw.rect(self.surface, color, rect, border_radius=self.px(radius) if radius else 0)

    def frame(self, rect: pygame.Rect, color: Color, width: float = 1, radius: float = 0) -> None:
        """A rectangle outline."""
        pygame.draw.rect(self.surface, color, rect, self.px(width),
                         border_radius=self.px(radius) if radius else 0)

    def part(self, key: tuple[Any, ...], rect: pygame.Rect, draw: Callable[[], None],
             store: PartStore = PARTS, ground: Color | None = None) -> None:
        """Draw a part of the picture that `key` says all of (with the size of `rect` and
        the scale) and that stays inside `rect`, on a flat ground: drawn once, then its
        pixels, texts and touch targets are put back while `key` stays the same (a card of
        a player whose cash did not change). The ground's colour (its top left pixel before
        drawing) is part of the key. `store`: where it is kept (PARTS, PANELS for the
        large ones, BUTTONS). `ground`: the part paints its own flat ground of that colour
        when it is drawn (a kept one's picture covers `rect` whole), so that the caller
        need not fill `rect` first (issue 28's eleventh round: a fill of the decision
        panel's area in every press's first frame, under a blit that covers it)."""
        area = rect.clip(self.surface.get_rect())
        if area.width <= 0 or area.height <= 0:
            draw()
            return
        full = self._part_key(key, rect, area, ground)
        found = store.get(full)
        if found is not None:
            picture, at, texts, spots = found
            self.surface.blit(picture, area.topleft)
            if at == area.topleft:  # where it was drawn: the very records
                self.texts += texts
                self.hotspots += spots
                return
            moved_texts, moved_spots = _moved(texts, spots, area.x - at[0], area.y - at[1])
            self.texts += moved_texts
            self.hotspots += moved_spots
            return
        if ground is not None:
            self.surface.fill(ground, area)
        if not store.worth_keeping(full):
            draw()
            return
        first_text, first_spot = len(self.texts), len(self.hotspots)
        draw()
        store.put(full, (self.surface.subsurface(area).copy(), area.topleft,
                         self.texts[first_text:], self.hotspots[first_spot:]))

    def _part_key(self, key: tuple[Any, ...], rect: pygame.Rect, area: pygame.Rect,
                  ground: Color | None = None) -> tuple[Any, ...]:
        """What a part is kept by (`part`): `key`, the sizes, the scale, the ground (the
        surface's pixel under the part's corner, or the `ground` it paints itself, read as
        the surface reads that colour)."""
        under = self.surface.get_at(area.topleft) if ground is None else \
            self.surface.unmap_rgb(self.surface.map_rgb(ground))
        return (key, rect.size, area.size, self.sx, self.sy, tuple(under))

    def keep_ahead(self, key: tuple[Any, ...], rect: pygame.Rect, draw: Callable[[], None],
                   store: PartStore, ground: Color | None = None,
                   shown_at: tuple[int, int] | None = None, unseen: bool = False) -> bool:
        """Draw a part that `part` drew once and did not keep (a store with `again`) and
        keep it now, so that its next showing is one blit (issue 28: a decision panel
        laid out ahead, after the frame, on a scratch surface whose ground is the
        screen's); False when it is kept already or was not drawn before (nothing done).
        `shown_at`: where the screen shows the part's area (its top left), when that is not
        where the scratch surface has it: it is kept with its texts and touch targets moved
        there once, so that its showing puts back the very records (`part`) instead of
        moving each of them in the first frame (issue 28's twelfth round). `unseen`: kept
        also when it was never drawn (a panel of a state the session worked out ahead, issue
        28's thirteenth round: it is kept by what it shows, so a wrong guess costs CPU and
        room in the store, never a wrong pixel)."""
        area = rect.clip(self.surface.get_rect())
        if area.width <= 0 or area.height <= 0:
            return False
        full = self._part_key(key, rect, area, ground)
        if full in store.items or (full not in store.seen and not unseen):
            return False
        if ground is not None:
            self.surface.fill(ground, area)
        first_text, first_spot = len(self.texts), len(self.hotspots)
        draw()
        texts, spots = self.texts[first_text:], self.hotspots[first_spot:]
        at = area.topleft
        if shown_at is not None and shown_at != at:
            texts, spots = _moved(texts, spots, shown_at[0] - at[0], shown_at[1] - at[1])
            at = shown_at
        store.put(full, (self.surface.subsurface(area).copy(), at, texts, spots))
        return True

    def hotspot(self, rect: pygame.Rect, action: str, arg: Any = None) -> None:
        """Make `rect` a touch target."""
        self.hotspots.append(Hotspot(pygame.Rect(rect), action, arg))

    def measure(self, text: str, size_px: int, bold: bool = False) -> tuple[int, int]:
        """Ink width and line height of `text` at a pixel size."""
        return ink(text, size_px, bold).width, line_metrics(size_px, bold)[0]

    def text(
        self,
        text: str,
        box: pygame.Rect,
        size: float,
        color: Color,
        bold: bool = False,
        align: str = "left",
        min_size: float | None = None,
        strike: bool = False,
        allowed: int | None = None,
    ) -> pygame.Rect:
        """Draw one line in `box`, vertically centred; shrink to fit, then ellipsise;
        `strike` draws a line through it.

        `size` and `min_size` are in design units; returns the ink rect. `allowed`: the
        floor to record when a paragraph draws its lines (theirs, not the line's size).
        """
        if not text:
            return pygame.Rect(box.x, box.y, 0, 0)
        key = (text, box.width, box.height, size, min_size, bold, align, self.scale)
        laid = _laid.get(key)
        if laid is None:
            laid = self._lay(text, box.width, box.height, size, min_size, bold, align)
            if len(_laid) >= LAID_MAX:
                _laid.clear()
            _laid[key] = laid
        drawn, px, dx, dy, width, height, baseline = laid
        floor = max(6, round((min_size if min_size is not None else size * 0.6) * self.scale))
        rect = pygame.Rect(box.x + dx, box.y + dy, width, height)
        self.surface.blit(rendered(drawn, px, color, bold, self.ahead), rect.topleft)
        if self.ahead:
            self.laid.append((bold, px, drawn, tuple(color)))
        if strike:  # through the middle of the lower-case letters
            y = box.y + baseline - line_metrics(px, bold)[1] * 3 // 10
            pygame.draw.line(self.surface, color, (rect.x, y), (rect.right, y),
                             max(1, px // 12))
        self.texts.append(DrawnText(text, drawn, pygame.Rect(rect), pygame.Rect(box), px,
                                    strike, floor if allowed is None else allowed))
        return pygame.Rect(rect)

    def _lay(self, text: str, box_w: int, box_h: int, size: float, min_size: float | None,
             bold: bool, align: str) -> tuple[str, int, int, int, int, int, int]:
        """How `text` goes into a box of `box_w` x `box_h` pixels: what is drawn (shrunk to
        fit down to the floor, then ellipsised), at which pixel size, its ink rect from the
        box's top left (x, y, width, height) and its baseline from the box's top."""
        box = pygame.Rect(0, 0, box_w, box_h)
        px = max(6, round(size * self.scale))
        floor = max(6, round((min_size if min_size is not None else size * 0.6) * self.scale))
        width, height = self.measure(text, px, bold)
        while px > floor and (width > box.width or height > box.height):
            px = max(floor, min(px - 1, int(px * box.width / max(width, 1))))
            width, height = self.measure(text, px, bold)
        drawn = text
        if width > box.width:
            drawn = self._ellipsise(text, box.width, px, bold)
            width, height = self.measure(drawn, px, bold)
        drawn_ink = ink(drawn, px, bold)
        if align == "center":
            x = box.centerx - width // 2 - drawn_ink.x
        elif align == "right":
            x = box.right - width - drawn_ink.x
        else:
            x = box.x - drawn_ink.x
        baseline = box.centery - height // 2 + line_metrics(px, bold)[1]
        return (drawn, px, x + drawn_ink.x, baseline - drawn_ink.y, drawn_ink.width,
                drawn_ink.height, baseline)

    def _ellipsise(self, text: str, max_width: int, px: int, bold: bool) -> str:
        """The longest prefix of `text` plus an ellipsis that fits `max_width`, ending at a
        word's end when one fits (never "Gefäng…" when "2/3 · 1…" can be said)."""
        low, high = 0, len(text)
        while low < high:
            mid = (low + high + 1) // 2
            if self.measure(text[:mid].rstrip() + ELLIPSIS, px, bold)[0] <= max_width:
                low = mid
            else:
                high = mid - 1
        cut = text[:low]
        if low < len(text) and not text[low].isspace() and " " in cut.strip():
            cut = cut[:cut.rstrip().rfind(" ")]  # whole words: back to the last space
        return cut.rstrip(" ·,;:-–") + ELLIPSIS

    def paragraph(
        self, text: str, box: pygame.Rect, size: float, color: Color, bold: bool = False,
        align: str = "left", max_lines: int = 4, strike: bool = False,
        min_size: float | None = None,
    ) -> None:
        """Word-wrap `text` into `box`, shrinking until the lines fit its height, never
        under `min_size` (then the lines that fit are shown, the last one ellipsised);
        `strike`: each line struck through."""
        px = max(6, round(size * self.scale))
        floor = max(8, round(min_size * self.scale)) if min_size is not None else 8
        while True:
            lines = self._wrap(text, box.width, px, bold)
            line_h = line_metrics(px, bold)[0] + 2  # room for accents and descenders
            if (len(lines) <= max_lines and len(lines) * line_h <= box.height
                    and all(self.measure(line, px, bold)[0] <= box.width for line in lines)
                    ) or px <= floor:
                break
            px -= 1
        fit = max(1, min(max_lines, box.height // max(1, line_h)))
        if len(lines) > fit:
            rest = text
            for line in lines[:fit - 1]:  # the text after the lines that fit, as written
                rest = rest[len(line):].lstrip(" ") if rest.startswith(line) else rest
            lines = lines[:fit - 1] + [rest]  # ellipsised by text()
        lines = lines[:max_lines]
        top = box.centery - len(lines) * line_h // 2
        for i, line in enumerate(lines):
            slot = pygame.Rect(box.x, top + i * line_h, box.width, line_h)
            self.text(line, slot, px / self.scale, color, bold, align, min_size=px / self.scale,
                      strike=strike, allowed=floor)

    def wrapped(self, text: str, width: int, size: float, bold: bool = False) -> tuple[int, int]:
        """How many lines `text` takes wrapped into `width` pixels at `size` (design units),
        and the height of one line in pixels, as `paragraph` draws them."""
        px = max(6, round(size * self.scale))
        return len(self._wrap(text, width, px, bold)), line_metrics(px, bold)[0] + 2

    def _wrap(self, text: str, width: int, px: int, bold: bool) -> list[str]:
        """`text`'s lines wrapped into `width` pixels at `px` (cut once, then remembered)."""
        key = (text, width, px, bold)
        found = _wrapped.get(key)
        if found is None:
            if len(_wrapped) >= LAID_MAX:
                _wrapped.clear()
            found = _wrapped[key] = tuple(self._cut(text, width, px, bold))
        return list(found)

    def _cut(self, text: str, width: int, px: int, bold: bool) -> list[str]:
        lines: list[str] = []
        current = ""
        for word, glued in _pieces(text, width, lambda piece: self.measure(piece, px, bold)[0]):
            candidate = (current + word if glued else f"{current} {word}") if current else word
            if current and self.measure(candidate, px, bold)[0] > width:
                lines.append(current)
                current = word
            else:
                current = candidate
        if current:
            lines.append(current)
        return lines


def _pieces(text: str, width: int, measure: Callable[[str], int]) -> list[tuple[str, bool]]:
    """The words of `text`, a word wider than `width` (a device path, an address, a double
    name) cut after its last "/", ":" or "-" that fits, so a paragraph wraps it; each with
    whether it is the rest of a cut word (joined again without a space on one line).

    >>> _pieces("Ann Müller-Lüdenscheid", 8, len)
    [('Ann', False), ('Müller-', False), ('Lüdenscheid', True)]
    """
    pieces: list[tuple[str, bool]] = []
    for word in text.split(" "):
        glued = False
        while len(word) > 1 and measure(word) > width:
            cut = max(1, max((i + 1 for i, ch in enumerate(word[:-1]) if ch in "/:-"
                              and measure(word[:i + 1]) <= width), default=0))
            if cut == 1:  # no mark fits: the word stays whole (and is ellipsised)
                break
            pieces.append((word[:cut], glued))
            word, glued = word[cut:], True
        pieces.append((word, glued))
    return pieces
