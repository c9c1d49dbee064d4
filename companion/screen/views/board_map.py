"""The compact board map: owners, houses, hotels, skyscrapers, train depots, mortgages and
every token; from 1280x720 each square's short name on its colour bar, the tokens and
pictures under it (`token_spots`), so that a crowd never covers the name.

The ring is drawn as a grid of equal cells for any board size (40 squares, 10 a side; the
Mega board's 52, 13 a side), GO at the bottom right, play running clockwise like the
cardboard board. The Mega squares (Auction, Birthday gift, Bus ticket) carry a small
picture. While a square is being chosen (a triple, the Auction square, a bus ride) the
candidates are marked, the focused one framed, and each candidate is a touch target. The
centre shows whom the table waits for besides the current player (a trade offered to them,
their bids: companion.screen.views.waiting), the last card while it is news, the bank's
buildings and tickets, and the pot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import pygame

from companion.game.table.records import Deed, DrawnCard, Seat
from companion.game.table.view import TableView
from companion.inputs import entry
from companion.screen import theme
from companion.screen.money import money
from companion.screen.painter import DrawnText, Painter, for_blitting, ink, line_metrics
from companion.screen.texts import language, text
from companion.screen.ui_state import SquareInfo, UiState
from companion.screen.views.house_rules import house_rules_line
from companion.screen.views.lesson import draw_lesson, lesson_now
from companion.screen.views.prompt import card_text, square_name, table_of
from companion.screen.views.short_names import short_label
from companion.screen.views.waiting import draw_waiting, waiting_for
from companion.words import catalog as i18n
from companion.words.move_words import Words
from companion.words.news import card_news


def cell_position(index: int, size: int) -> tuple[int, int]:
    """(column, row) of square `index` on a ring of `size` squares; GO bottom right.

    >>> cell_position(0, 40), cell_position(10, 40), cell_position(20, 40), cell_position(30, 40)
    ((10, 10), (0, 10), (0, 0), (10, 0))
    """
    side = max(1, size // 4)
    edge, offset = divmod(index % size, side)
    if edge == 0:
        return side - offset, side
    if edge == 1:
        return 0, side - offset
    if edge == 2:
        return offset, 0
    return side, offset


def player_colors(state: Mapping[str, Any], ui: UiState) -> dict[str, theme.Color]:
    """Each player's colour: the setup's choice, else the seat's default."""
    out = {}
    for seat, player in enumerate(table_of(state, ui).players):
        name = player.name
        style = ui.styles.get(name)
        out[name] = theme.player_color(style.color if style else None, seat)
    return out


SKYSCRAPER = (120, 190, 255)
#: the scale from which the squares carry short names (1280x720 is 1.5)
LABELS_FROM = 1.25
DEPOT = (235, 235, 235)
TICKET = (250, 205, 60)
GIFT = (235, 110, 190)
GAVEL = (190, 140, 90)


def _cell_box(rect: pygame.Rect, size: int, index: int) -> pygame.Rect:
    """The cell of square `index` on the ring drawn in `rect`."""
    cell = rect.width / (max(1, size // 4) + 1)
    col, row = cell_position(index, size)
    x, y = rect.x + col * cell, rect.y + row * cell
    return pygame.Rect(round(x), round(y), round(x + cell) - round(x),
                       round(y + cell) - round(y))


def square_rect(rect: pygame.Rect, size: int, index: int) -> pygame.Rect:
    """The drawn square of `index` (its cell less a pixel of grout) on the map in `rect`."""
    return _cell_box(rect, size, index).inflate(-2, -2)


#: the ring as last drawn: (what it was drawn from: the frame's place and scale, and each
#: square's owner, buildings and mortgage; the board info; the picture; the texts drawn on
#: it, the group letters, where the frame shows them, and those of each square). Only the
#: squares' owners, buildings and mortgages change it, a few times a turn, and then only
#: the squares that changed are drawn again (a whole ring was 1.5-3 ms of a purchase's
#: frame here, issue 28); a frame blits it and records its texts as drawn
_ring: tuple[tuple[Any, ...], object, pygame.Surface, list[DrawnText],
             dict[int, list[DrawnText]]] | None = None


def _ring_layer(p: Painter, rect: pygame.Rect, by_index: Mapping[int, Deed],
                ui: UiState, colors: dict[str, theme.Color]) -> pygame.Surface:
    """The ring's squares (cells, colour bars and group letters, owners, buildings,
    mortgages) on a transparent layer the size of `rect`: a square is drawn again only
    when what it shows changed (all of them on a new size, scale or board). Its texts
    are recorded on `p` as drawn where `rect` puts them."""
    global _ring
    shown = tuple((i, sq.group, colors.get(sq.owner or ""), sq.mortgaged, sq.houses,
                   sq.hotel, sq.skyscraper, sq.depot) for i, sq in sorted(by_index.items()))
    where = (rect.topleft, rect.size, p.sx, p.sy, ui.board.size)
    key = (where, shown)
    if _ring is None or _ring[0] != key or _ring[1] is not ui.board:
        if _ring is not None and _ring[0][0] == where and _ring[1] is ui.board:
            before = {row[0]: row for row in _ring[0][1]}
            now = {row[0]: row for row in shown}
            layer, cells = _ring[2], dict(_ring[4])
            redraw = sorted(i for i in before.keys() | now.keys() if before.get(i) != now.get(i))
        else:
            layer, cells = for_blitting(pygame.Surface(rect.size, pygame.SRCALPHA)), {}
            redraw = list(range(ui.board.size))
        bounds = layer.get_rect()
        for index in redraw:
            layer.fill((0, 0, 0, 0), _cell_box(bounds, ui.board.size, index))
            painter = Painter(layer, p.sx, p.sy)
            _draw_cell(painter, bounds, index, by_index, ui, colors)
            cells[index] = [replace(t, rect=t.rect.move(rect.topleft),
                                    box=t.box.move(rect.topleft))
                            for t in painter.texts]  # where the frame shows them
        drawn = [t for index in sorted(cells) for t in cells[index]]
        _ring = (key, ui.board, layer, drawn, cells)
    p.texts += _ring[3]
    return _ring[2]


#: the ring on the screen's ground (`_on_ground`): the `_ring` it was made from, the surface
#: it is for (its pixel format) and the picture
_ground: tuple[object, tuple[Any, ...], pygame.Surface] | None = None


def _on_ground(p: Painter, layer: pygame.Surface) -> pygame.Surface:
    """The ring's layer over the screen's ground, opaque, made again only when the ring
    is (`_ring_layer`): the board's frame copies it instead of filling its area and
    blending the transparent layer over it, which every move (a token moved, the centre's
    news) did for the whole board (issue 28: about a tenth of a press's drawing here). It
    is made in the pixel format of the surface it goes to, so the blend is the very one
    the frame did."""
    global _ground
    target = p.surface
    fmt = (target.get_bitsize(), target.get_masks(), target.get_flags() & pygame.SRCALPHA)
    if _ground is None or _ground[0] is not _ring or _ground[1] != fmt:
        picture = pygame.Surface(layer.get_size(), target.get_flags() & pygame.SRCALPHA,
                                 target)
        picture.fill(theme.BACKGROUND)
        picture.blit(layer, (0, 0))
        _ground = (_ring, fmt, picture)
    return _ground[2]


def draw_board(p: Painter, rect: pygame.Rect, state: Mapping[str, Any], ui: UiState) -> None:
    """The map inside the square `rect`."""
    size = ui.board.size
    cell = rect.width / (max(1, size // 4) + 1)
    table = table_of(state, ui)
    colors = player_colors(state, ui)
    by_index = {sq.index: sq for sq in table.deeds}

    def cell_box(index: int) -> pygame.Rect:
        return _cell_box(rect, size, index)

    def cell_rect(index: int) -> pygame.Rect:
        return square_rect(rect, size, index)

    # opaque over all of `rect`: the frame fills only around it (render.COVERS)
    p.surface.blit(_on_ground(p, _ring_layer(p, rect, by_index, ui, colors)), rect.topleft)
    labelled = p.scale >= LABELS_FROM  # room for a short name on each square; none on 7 inch
    if labelled:  # on the colour bar, black or white: whichever reads better
        for info in ui.board.squares:
            label = theme.SIZES["square_label"]
            bar = _group_color(by_index.get(info.index), info, ui)
            ink = theme.TEXT if bar is None else theme.ink_on(bar)  # AA on every group
            box = label_box(p, cell_rect(info.index))
            px = round(label * p.scale)  # never shrunk: cut to fewer letters instead

            def fits(said: str, width: int = box.width - p.px(2), px: int = px) -> bool:
                return p.measure(said, px)[0] <= width

            p.text(short_label(info.name, fits), box, label, ink, align="center",
                   min_size=label)
    pick = entry.pick(table_of(state, ui), ui, ui.board.size)
    if pick is not None:
        for index in pick.squares:
            box = cell_box(index)
            dot = max(2, box.width // 8)
            pygame.draw.circle(p.surface, theme.ACCENT, (box.right - dot - 1, box.y + dot + 1),
                               dot)
            p.hotspot(box, "square", index)
        focus = cell_box(pick.focus)  # white outside, accent inside: unlike any owner
        p.frame(focus.inflate(2, 2), theme.TEXT, width=2)
        p.frame(focus.inflate(-p.px(2), -p.px(2)), theme.ACCENT, width=2)
    _draw_tokens(p, table, colors, cell_rect, labelled)
    _draw_centre(p, rect.inflate(-2 * round(cell) - p.px(8), -2 * round(cell) - p.px(8)),
                 state, ui)


def _draw_cell(p: Painter, rect: pygame.Rect, index: int, by_index: Mapping[int, Deed],
               ui: UiState, colors: dict[str, theme.Color]) -> None:
    """One square of the ring drawn in `rect`: all of it inside the square's cell, so that
    a square is drawn again alone over its cleared cell."""
    size = ui.board.size
    side = max(1, size // 4)
    r = _cell_box(rect, size, index).inflate(-2, -2)
    corner = index % side == 0
    info = ui.board.squares[index] if index < len(ui.board.squares) else None
    sq = by_index.get(index)
    p.fill(r, theme.BOARD_CORNER if corner else theme.BOARD_CELL)
    color = _group_color(sq, info, ui)
    letter, high = "", 0
    if color is not None:  # as tall as the short name or the group letter on it
        group = (sq.group if sq else None) or (info.group if info else None) or ""
        letter = ui.board.group_letters.get(str(group), "")
        high = (label_box(p, r).bottom - r.y if p.scale >= LABELS_FROM
                else letter_bar(p, r, letter))
        p.fill(pygame.Rect(r.x, r.y, r.width, high), color)
    if sq is None:  # under the short name where the square has one
        below = label_box(p, r).bottom + 1 if p.scale >= LABELS_FROM else r.y
        _draw_square_picture(p, pygame.Rect(r.x, below, r.width, r.bottom - below),
                             info.kind if info else "")
        return
    _draw_property(p, r, sq, colors)
    if letter and color is not None:  # over the owner's frame and the buildings
        ground = theme.MORTGAGED if sq.mortgaged else \
            color if p.scale < LABELS_FROM else theme.BOARD_CELL
        _draw_group_letter(p, r, high, letter, ground)


def letter_bar(p: Painter, r: pygame.Rect, letter: str) -> int:
    """The colour bar's height in a cell `r` without a short name (the 7-inch screen): tall
    enough to carry the group letter at theme.READABLE, the lower part of the cell left to
    the houses and hotels; a quarter of the cell without a letter."""
    plain = max(2, r.height // 4)
    if not letter:
        return plain
    glyph = ink(letter, round(theme.READABLE * p.scale), bold=True).height
    return max(plain, min(r.height * 3 // 4, glyph + p.px(5)))


def _draw_group_letter(p: Painter, r: pygame.Rect, bar: int, letter: str,
                       ground: theme.Color) -> None:
    """The street group's letter: the group told apart without its colour, as the phones
    show it beside theirs, never under theme.READABLE, in black or white, whichever reads
    on `ground` (what it stands on). On the 7-inch screen it stands on the colour bar,
    clear of the owner's frame; where the bar carries the square's short name, in the
    cell's lower left corner under it."""
    if not letter:
        return
    floor = theme.readable(p.scale)
    ink_color = theme.ink_on(ground)
    if p.scale < LABELS_FROM:
        edge = p.px(2)  # the owner's frame
        box = pygame.Rect(r.x + edge + 1, r.y + edge, r.width - 2 * edge - 1, bar - edge)
        p.text(letter, box, theme.READABLE, ink_color, bold=True, align="left",
               min_size=floor)
        return
    px = max(round(floor * p.scale), min(r.width, r.height - bar) * 2 // 5)
    box = pygame.Rect(r.x + 3, r.bottom - px - 3, px, px)
    p.text(letter, box, px / p.scale, ink_color, bold=True, min_size=floor)


def _draw_property(p: Painter, r: pygame.Rect, sq: Deed,
                   colors: dict[str, theme.Color]) -> None:
    """A property's mortgage, owner frame and buildings (houses, hotel, skyscraper, depot)."""
    if sq.mortgaged:
        inner = r.inflate(-2, -2)
        p.fill(inner, theme.MORTGAGED)
        pygame.draw.line(p.surface, theme.BAD, inner.topleft, inner.bottomright,
                         max(1, p.px(1.5)))
    owner = sq.owner
    if owner:
        p.frame(r, colors.get(owner, theme.TEXT), width=2)
    foot = r.bottom - max(2, r.height // 10)
    if sq.skyscraper:  # a tall tower where the hotel stood
        tower = pygame.Rect(0, 0, max(3, r.width * 3 // 10), r.height * 11 // 20)
        tower.midbottom = (r.centerx, foot)
        p.fill(tower, SKYSCRAPER)
    elif sq.hotel:
        hotel = pygame.Rect(0, 0, r.width * 6 // 10, r.height // 4)
        hotel.midbottom = (r.centerx, foot)
        p.fill(hotel, theme.HOTEL)
    if sq.depot:  # a shed with a pitched roof
        shed = pygame.Rect(0, 0, r.width // 2, r.height // 5)
        shed.midbottom = (r.centerx, foot)
        p.fill(shed, DEPOT)
        pygame.draw.polygon(p.surface, DEPOT, [(shed.x, shed.y), (shed.right, shed.y),
                                               (shed.centerx, shed.y - shed.height)])
    houses = sq.houses
    if houses:
        dot = max(2, r.width // 6)
        gap = max(1, dot // 3)
        total = houses * dot + (houses - 1) * gap
        x0 = r.centerx - total // 2
        for h in range(houses):
            p.fill(pygame.Rect(x0 + h * (dot + gap), foot - dot, dot, dot), theme.HOUSE)


def _draw_square_picture(p: Painter, r: pygame.Rect, kind: str) -> None:
    """The Mega squares' pictures in `r`: a bus ticket, a wrapped gift, an auctioneer's
    gavel."""
    unit = max(2, min(r.width // 6, r.height // 4))
    c = r.center
    if kind == "bus_ticket":
        ticket = pygame.Rect(0, 0, unit * 4, unit * 2 + 1)
        ticket.center = c
        p.fill(ticket, TICKET, radius=1)
        pygame.draw.line(p.surface, theme.BOARD_CELL, (ticket.x + unit, ticket.y),
                         (ticket.x + unit, ticket.bottom - 1), 1)
    elif kind == "birthday_gift":
        box = pygame.Rect(0, 0, unit * 3, unit * 3)
        box.center = c
        p.fill(box, GIFT)
        pygame.draw.line(p.surface, theme.ACCENT, (box.centerx, box.y), (box.centerx,
                                                                          box.bottom - 1), 2)
        pygame.draw.line(p.surface, theme.ACCENT, (box.x, box.centery), (box.right - 1,
                                                                          box.centery), 2)
    elif kind == "auction":
        head = pygame.Rect(0, 0, unit * 3, unit + 1)
        head.center = (c[0] - unit // 2, c[1] - unit)
        p.fill(head, GAVEL, radius=1)
        pygame.draw.line(p.surface, GAVEL, head.center, (c[0] + unit * 2, c[1] + unit * 2),
                         max(2, unit // 2))


def label_box(p: Painter, r: pygame.Rect) -> pygame.Rect:
    """Where a square's short name goes in its cell `r`: one line at its top, on the colour
    bar, so that the rest of the cell holds the tokens, buildings and pictures."""
    height = line_metrics(round(theme.SIZES["square_label"] * p.scale))[0]
    return pygame.Rect(r.x + 1, r.y, r.width - 2, height)


def _group_color(sq: Deed | None, info: SquareInfo | None, ui: UiState) -> theme.Color | None:
    """The colour bar of a property's cell (its group's), None for any other square."""
    group = (sq.group if sq else None) or (info.group if info else None)
    if sq is None or not group:
        return None
    return ui.board.group_colors.get(group) or theme.GROUP_COLORS.get(group, theme.TEXT_DIM)


#: how far apart two tokens on one square stand, in radii: a crowd overlaps like stacked
#: coins (each disc mostly seen) rather than shrinking to dots
TOKEN_STEP = 1.4


def token_places(area: pygame.Rect, count: int, largest: int) -> list[tuple[int, int, int]]:
    """(x, y, radius) of `count` tokens in `area`, in as many rows as give them the largest
    discs (never over `largest`), overlapping by TOKEN_STEP, each disc with its outline
    inside `area`.

    >>> token_places(pygame.Rect(0, 20, 40, 20), 1, 10)
    [(20, 30, 8)]
    >>> token_places(pygame.Rect(0, 0, 40, 20), 4, 10)
    [(10, 10, 5), (16, 10, 5), (24, 10, 5), (30, 10, 5)]
    """
    if count <= 0:
        return []

    def span(n: int) -> float:  # a row of n discs of radius 1, outlines included
        return 2 + TOKEN_STEP * (n - 1)

    best = (0, 1, count)
    for lines in range(1, count + 1):
        across = -(-count // lines)
        # the outlines (a pixel each side) and a pixel for rounding the centres
        radius = int(min((area.width - 3) / span(across), (area.height - 3) / span(lines),
                         largest))
        if radius > best[0]:
            best = (radius, lines, across)
    radius, lines, across = best
    radius = max(1, radius)
    step = TOKEN_STEP * radius
    left = area.centerx - step * (across - 1) / 2
    top = area.centery - step * (lines - 1) / 2
    return [(round(left + step * (i % across)), round(top + step * (i // across)), radius)
            for i in range(count)]


def token_spots(p: Painter, table: TableView, cell_rect: Callable[[int], pygame.Rect],
                labelled: bool) -> list[tuple[Seat, tuple[int, int, int]]]:
    """Each player still in the game with the (x, y, radius) of their disc on their square:
    under the square's short name when it has one, so the name stays readable."""
    here: dict[int, list[Seat]] = {}
    for player in table.players:
        if not player.bankrupt:
            here.setdefault(player.position, []).append(player)
    spots = []
    for index, players in here.items():
        r = cell_rect(index)
        area = r
        if labelled:
            below = label_box(p, r).bottom + 1
            area = pygame.Rect(r.x, below, r.width, r.bottom - below)
        elif len(players) <= 4:  # the 7-inch screen: two by two around the middle
            area = pygame.Rect(r.x, r.y + r.height // 4, r.width, r.height * 3 // 4)
        places = token_places(area, len(players), max(3, r.width // 4))
        spots += list(zip(players, places, strict=True))
    return spots


def _draw_tokens(p: Painter, table: TableView, colors: dict[str, theme.Color],
                 cell_rect: Callable[[int], pygame.Rect], labelled: bool) -> None:
    """A disc in their colour for each player still in the game, on their square (barred
    while in jail)."""
    for player, (cx, cy, radius) in token_spots(p, table, cell_rect, labelled):
        color = colors.get(player.name, theme.TEXT)
        pygame.draw.circle(p.surface, (0, 0, 0), (cx, cy), radius + 1)
        pygame.draw.circle(p.surface, color, (cx, cy), radius)
        if player.jailed:
            for dx in (-radius // 2, 0, radius // 2):
                pygame.draw.line(p.surface, (20, 20, 20), (cx + dx, cy - radius),
                                 (cx + dx, cy + radius), max(1, radius // 4))


def _draw_centre(p: Painter, rect: pygame.Rect, state: Mapping[str, Any], ui: UiState) -> None:
    """Whom the table waits for, the last card drawn (or the square being chosen), the house
    rules in force, the bank's houses and hotels, the Free Parking pot."""
    p.fill(rect, theme.PANEL, radius=6)
    inner = rect.inflate(-p.px(10), -p.px(10))
    pick = entry.pick(table_of(state, ui), ui, ui.board.size)
    table = table_of(state, ui)
    card = table.card
    shown = card_text(state, ui)
    waiting = waiting_for(state, ui)
    lesson = lesson_now(state) if not waiting else None
    alone = bool(shown) and pick is None and not waiting and lesson is None
    title = _card_title(state, ui, card) if alone else ""
    bank = table.bank
    lines = [text("houses_left", houses=bank.houses, hotels=bank.hotels)]
    if bank.skyscrapers is not None or bank.depots is not None:
        lines.append(text("bank_mega", skyscrapers=bank.skyscrapers or 0,
                          depots=bank.depots or 0))
    if bank.bus_tickets is not None:
        lines.append(text("bank_tickets", count=bank.bus_tickets))
    if bank.pot:
        lines.append(text("pot", amount=money(bank.pot, table.setup.currency)))
    line_h = p.px(theme.SIZES["bank"] + 5)
    # a line too long for the centre at the readable size takes two (never cut short)
    spans = [min(2, p.wrapped(line, inner.width, theme.SIZES["bank"])[0]) for line in lines]
    rules = house_rules_line(table.setup.options)
    if alone and not _card_fits(p, inner, title, shown, sum(spans) * line_h):
        lines, spans, rules = [], [], ""  # a long card takes the whole centre while it shows
        if not _card_fits(p, inner, title, shown, 0):  # and the deck's name alone heads it
            deck = card.deck if card is not None else ""
            title = ui.board.deck_names.get(deck) or deck
    bottom = pygame.Rect(inner.x, inner.bottom - line_h * sum(spans), inner.width,
                         line_h * sum(spans))
    y = bottom.y
    for line, span in zip(lines, spans, strict=True):
        p.paragraph(line, pygame.Rect(bottom.x, y, bottom.width, line_h * span),
                    theme.SIZES["bank"], theme.TEXT_DIM, align="center", max_lines=span,
                    min_size=theme.readable(p.scale))
        y += line_h * span
    if rules:
        count, rule_h = p.wrapped(rules, inner.width, theme.SIZES["house_rules"])
        box = pygame.Rect(inner.x, bottom.y - min(6, count) * rule_h, inner.width,
                          min(6, count) * rule_h)
        p.paragraph(rules, box, theme.SIZES["house_rules"], theme.ACCENT, align="center",
                    max_lines=6, min_size=theme.readable(p.scale))
        bottom = box
    top = inner.y
    if lesson is not None:  # the teaching table: a rule that applied for the first time
        share = 60 if pick is not None or shown else 100
        gap = p.px(6) if share < 100 else p.px(2)
        box = pygame.Rect(inner.x, inner.y, inner.width, (bottom.y - inner.y) * share // 100
                          - gap)
        taught, who = lesson
        draw_lesson(p, box, taught, player_colors(state, ui).get(str(who), theme.ACCENT))
        top = box.bottom + gap
    if waiting:  # above the card or the square, or the whole centre when neither is shown
        share = 55 if pick is not None or shown else 100
        gap = p.px(6) if share < 100 else p.px(2)
        box = pygame.Rect(inner.x, inner.y, inner.width, (bottom.y - inner.y) * share // 100
                          - gap)
        draw_waiting(p, box, waiting, player_colors(state, ui))
        top = box.bottom + gap
    if pick is not None:  # the square being chosen, big enough to read across the table
        body = pygame.Rect(inner.x, top, inner.width, bottom.y - top)
        p.paragraph(square_name(state, ui, pick.focus), body, 20, theme.ACCENT, bold=True,
                    align="center", max_lines=3, min_size=theme.readable(p.scale))
        return
    if shown:
        title = title or _card_title(state, ui, card)
        count, title_h = p.wrapped(title, inner.width, theme.SIZES["card_title"], bold=True)
        head = pygame.Rect(inner.x, top, inner.width, min(2, count) * title_h + p.px(3))
        p.paragraph(title, head, theme.SIZES["card_title"], theme.ACCENT, bold=True,
                    align="center", max_lines=2, min_size=theme.readable(p.scale))
        body = pygame.Rect(inner.x, head.bottom, inner.width, bottom.y - head.bottom)
        # a long card (the Dutch utility card) wraps into as many lines as the centre holds
        p.paragraph(shown, body, theme.SIZES["card"], theme.TEXT, align="center", max_lines=14,
                    min_size=theme.readable(p.scale))
        return
    if not waiting and lesson is None:  # nothing else to say: where the player stands
        _draw_standing(p, pygame.Rect(inner.x, top, inner.width, bottom.y - top), state, ui)


def _card_title(state: Mapping[str, Any], ui: UiState, card: DrawnCard | None) -> str:
    """Who drew which deck ("Cleo drew Chance"), or the deck's name alone."""
    deck = card.deck if card is not None else ""
    lang = language()
    table = table_of(state, ui)
    said = card_news(table.card, table.winner, Words(table.setup, lang, i18n.translator(lang)))
    return said.title if said is not None else ui.board.deck_names.get(deck) or deck


def _card_fits(p: Painter, inner: pygame.Rect, title: str, shown: str, below: int) -> bool:
    """Whether the card's title and text fit `inner` above `below` pixels of other facts,
    at the smallest size the table still reads."""
    floor = theme.readable(p.scale)
    title_lines, title_h = p.wrapped(title, inner.width, floor, bold=True)
    body_lines, body_h = p.wrapped(shown, inner.width, floor)
    return min(2, title_lines) * title_h + p.px(3) + body_lines * body_h <= inner.height - below


def _draw_standing(p: Painter, box: pygame.Rect, state: Mapping[str, Any], ui: UiState) -> None:
    """The square the current player stands on, big, with its owner and rent (or its price
    while the bank has it), so the centre of the board says what matters now."""
    table = table_of(state, ui)
    me = table.player(table.current)
    if me is None or table.winner:
        return
    index = me.position
    deed = table.deed(index)
    currency = table.setup.currency
    line = ""
    if deed is not None and deed.owner:
        rent = (f"× {deed.rent}" if deed.kind == "utility" else money(deed.rent, currency))
        line = text("centre_owned", owner=deed.owner, rent=rent)
    elif deed is not None:
        line = text("centre_for_sale", price=money(deed.price, currency))
    # the owner's line takes what it needs (a long name: three lines), the square the rest
    count, line_h = p.wrapped(line, box.width, theme.SIZES["card"]) if line else (0, 0)
    below = max(box.height * 40 // 100, min(3, count) * line_h + p.px(4))
    name_box = pygame.Rect(box.x, box.y, box.width, box.height - below)
    p.paragraph(square_name(state, ui, index), name_box, 22, theme.TEXT, bold=True,
                align="center", max_lines=3, min_size=theme.readable(p.scale))
    if line:
        p.paragraph(line, pygame.Rect(box.x, name_box.bottom, box.width, below),
                    theme.SIZES["card"], theme.ACCENT, align="center", max_lines=3,
                    min_size=theme.readable(p.scale))
