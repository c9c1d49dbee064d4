"""The game screen's panels: header, player cards, recent moves, phone QR, decision panel."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache, partial
from typing import Any

import pygame

from companion.game.table.records import Currency, Seat
from companion.game.table.view import TableView
from companion.screen import theme
from companion.screen.layout import columns, rows
from companion.screen.money import delta, money
from companion.screen.painter import BUTTONS, DICE, PANELS, DrawnText, Painter, line_metrics
from companion.screen.texts import language as i18n_language
from companion.screen.texts import text
from companion.screen.ui_state import DELTA_SHOWN_S, UiState
from companion.screen.views.dice import draw_die
from companion.screen.views.prompt import PANEL_BUTTONS, Prompt, table_of
from companion.words import catalog as i18n


def format_clock(seconds: float) -> str:
    """H:MM:SS or M:SS.

    >>> format_clock(3725), format_clock(58.2)
    ('1:02:05', '0:59')
    """
    whole = max(0, int(seconds + 0.999))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


#: the timed game's last seconds, when the header's clock turns from the accent to red
CLOCK_WARNING_S = 300


def clock_warns(remaining: float) -> bool:
    """Whether the timed game's clock, `remaining` seconds from its end, is drawn in red
    (its last five minutes: its text reads "5:00" on both sides of the turn)."""
    return remaining <= CLOCK_WARNING_S


def roll_total(dice: Sequence[Any]) -> int | None:
    """What the dice shown add up to: the white dice and a numbered speed die (the bus and
    Mr. Monopoly add nothing); None with no dice.

    >>> roll_total([3, 4]), roll_total([3, 4, 2]), roll_total([6, 1, "bus"]), roll_total([])
    (7, 9, 7, None)
    """
    numbers = [d for d in dice if isinstance(d, int) and not isinstance(d, bool)]
    return sum(numbers) if numbers else None


def fitted_name(p: Painter, name: str, width: int, lines: int = 1, bold: bool = True) -> str:
    """`name` as it fits `lines` lines of `width` pixels at the readable size, whole words
    only (never cut mid-word): the whole name, else its first word with the others'
    initials ("Wilhelmina v. O."), else the first word, else the initials; a number of
    the name (a seat) is always kept whole.

    >>> import pygame; _ = pygame.init()
    >>> p = Painter(pygame.Surface((800, 480)), 1.0, 1.0)
    >>> fitted_name(p, "Ann", 200), fitted_name(p, "Wilhelmina van Oranje-Nassau 3", 190)
    ('Ann', 'Wilhelmina v. O. 3')
    """
    size = theme.readable(p.scale)
    px = max(6, round(size * p.scale))
    words = name.split()

    def fits(candidate: str) -> bool:
        return (p.wrapped(candidate, width, size, bold)[0] <= lines
                and all(p.measure(w, px, bold)[0] <= width for w in candidate.split()))

    def initial(word: str) -> str:
        return word if word.isdigit() else word[0] + "."

    candidates = [name]
    if len(words) > 1:
        candidates += [" ".join([words[0], *map(initial, words[1:])]),
                       " ".join([words[0], *(w for w in words[1:] if w.isdigit())]),
                       " ".join(map(initial, words))]
    return next((c for c in candidates if fits(c)), candidates[-1])


def draw_header(p: Painter, rect: pygame.Rect, state: Mapping[str, Any], ui: UiState,
                colors: dict[str, theme.Color]) -> None:
    """Turn number and whose turn, the dice, the timed game's clock: whose turn at the
    readable size at least, the name alone when the sentence does not fit whole."""
    p.fill(rect, theme.PANEL)
    pad, inner, turn_box, who_box, x, size = _header_boxes(p, rect)
    table = table_of(state, ui)
    turn, dice = table.turn, table.turn.dice
    _turn_words(p, turn_box, turn.number)
    current = table.current or ""
    _whose_words(p, who_box, current, colors.get(current, theme.TEXT))
    _dice_and_clock(p, inner, x, pad, size, dice, ui)


def draw_header_roll(p: Painter, rect: pygame.Rect, state: Mapping[str, Any],
                     ui: UiState) -> pygame.Rect:
    """The header's right side drawn anew over a header drawn before for the same turn and
    player (a roll, the clock ticking: issue 28's thirteenth round): the panel's ground
    from the end of the whose-turn box to the header's right edge, then the dice, the
    roll's total and the clock as `draw_header` draws them; the turn's number and whose
    turn, which end inside their boxes, stay as they are. Returns the rect painted."""
    pad, inner, _turn_box, who_box, x, size = _header_boxes(p, rect)
    painted = pygame.Rect(who_box.right, rect.y, rect.right - who_box.right, rect.height)
    p.fill(painted, theme.PANEL)
    _dice_and_clock(p, inner, x, pad, size, table_of(state, ui).turn.dice, ui)
    return painted


def header_left(texts: Sequence[DrawnText], rect: pygame.Rect,
                p: Painter) -> list[DrawnText] | None:
    """Of a header's texts, those `draw_header_roll` keeps: the turn's number and whose
    turn (the boxes left of where it paints); None when the ink of one of them reaches
    where it paints (a window too small for the words even ellipsised: then the header
    is drawn whole, as the words' pixels there would be painted over)."""
    edge = _header_boxes(p, rect)[3].right
    kept = [t for t in texts if t.box.right <= edge]
    return None if any(t.rect.right > edge for t in kept) else kept


def _dice_and_clock(p: Painter, inner: pygame.Rect, x: int, pad: int, size: int,
                    dice: Sequence[int | str], ui: UiState) -> None:
    """The header's dice, the roll's total in digits and the timed game's clock; the dice
    and the total are a part kept by their faces (`painter.DICE`), on the header's ground."""
    after = x + len(dice) * (size + pad)
    block = pygame.Rect(x, inner.y, after + p.px(64) - x, inner.height)
    faces = tuple(dice)

    def draw_dice() -> None:
        for i, value in enumerate(faces):  # the third die is the speed die
            draw_die(p, pygame.Rect(x + i * (size + pad), inner.y, size, size), value,
                     speed=i == 2)
        total = roll_total(faces)
        if total is not None:  # the roll in digits too, for whoever cannot count pips afar
            _total_words(p, inner, after, total)

    if faces:
        p.part(("dice", faces, size, pad), block, draw_dice, store=DICE, ground=theme.PANEL)
    right = pygame.Rect(inner.right - inner.width // 4, inner.y, inner.width // 4, inner.height)
    if ui.clock_deadline is not None:
        remaining = ui.clock_deadline - ui.now
        label = text("clock", time=format_clock(remaining)) if remaining > 0 else text("clock_over")
        p.text(label, right, 18, theme.BAD if clock_warns(remaining) else theme.ACCENT,
               bold=True, align="right")


def _header_boxes(p: Painter, rect: pygame.Rect) -> tuple[int, pygame.Rect, pygame.Rect,
                                                           pygame.Rect, int, int]:
    """The header's padding, inner rect, turn and whose-turn boxes, where the dice begin
    and their size."""
    pad = p.px(8)
    inner = rect.inflate(-2 * pad, -p.px(6))
    x = inner.centerx + p.px(20)
    turn_box = pygame.Rect(inner.x, inner.y, inner.width * 14 // 100, inner.height)
    who_box = pygame.Rect(turn_box.right + pad, inner.y, x - turn_box.right - 2 * pad,
                          inner.height)
    return pad, inner, turn_box, who_box, x, inner.height


def _turn_words(p: Painter, box: pygame.Rect, number: int) -> None:
    p.text(text("turn", number=number), box, 18, theme.TEXT_DIM,
           min_size=theme.readable(p.scale))


def _whose_words(p: Painter, box: pygame.Rect, current: str, color: theme.Color) -> None:
    said = text("whose_turn", player=current)
    floor = theme.readable(p.scale)
    if p.measure(said, max(6, round(floor * p.scale)), True)[0] > box.width:
        said = fitted_name(p, current, box.width)  # the name in its colour says it
    p.text(said, box, 20, color, bold=True, min_size=floor)


def _total_words(p: Painter, inner: pygame.Rect, after: int, total: int) -> None:
    p.text(f"= {total}", pygame.Rect(after, inner.y, p.px(64), inner.height),
           theme.SIZES["roll"], theme.TEXT, bold=True, min_size=theme.readable(p.scale))


def lay_header_whose(p: Painter, rect: pygame.Rect,
                     whose: Sequence[tuple[str, theme.Color]]) -> None:
    """The header's whose-turn words of each player in `whose` (name, colour), drawn as
    `draw_header` draws them but on a scratch surface (issue 28): measured and rendered
    ahead of the first turn of each (two sizes measured and one rendered, 0.2-0.4 ms of a
    first frame here)."""
    _pad, _inner, _turn, who_box, _x, _size = _header_boxes(p, rect)
    for name, color in whose:
        _whose_words(p, who_box, name, color)


def lay_header_words(p: Painter, rect: pygame.Rect, number: int, totals: Sequence[int],
                     dice: int) -> None:
    """The header's words a coming turn or roll shows (the turn's number, the totals of
    `dice` dice), drawn as `draw_header` draws them but on a scratch surface (issue 28):
    measured and rendered ahead of the frame that may show them."""
    pad, inner, turn_box, _who, x, size = _header_boxes(p, rect)
    _turn_words(p, turn_box, number)
    for total in totals:
        _total_words(p, inner, x + dice * (size + pad), total)


def draw_players(p: Painter, rect: pygame.Rect, state: Mapping[str, Any], ui: UiState,
                 colors: dict[str, theme.Color]) -> None:
    """One card per player: name, big balance in their colour, change, jail, worth (five
    players or more: one row each, see `_draw_strip`)."""
    table = table_of(state, ui)
    players = table.players
    if not players:
        return
    if len(players) > 4:
        _draw_strip(p, rect, table, ui, colors)
        return
    cards = rows(rect, max(len(players), 3), p.px(5))[:len(players)]
    currency = table.setup.currency
    for card, player in zip(cards, players, strict=False):
        p.part(_card_key(player, table, ui, colors, currency), card,
               partial(_draw_card, p, card, player, table, ui, colors, currency))


def _card_key(player: Seat, table: TableView, ui: UiState, colors: dict[str, theme.Color],
              currency: Currency) -> tuple[Any, ...]:
    """All a player's card (or row) shows: the player but where their token stands, whether
    it is their turn or decision, their colour, the currency, the change of their cash
    while it is shown, the language (`Painter.part` keeps the card while it stays)."""
    name = player.name
    anim = ui.anims.get(name)
    change = anim.new - anim.old if anim is not None and anim.new != anim.old and \
        ui.now - anim.start < DELTA_SHOWN_S else None
    return ("card", name, player.cash, player.net_worth, player.bankrupt, player.jailed,
            player.jail_turns, player.jail_cards, player.bus_tickets,
            name == table.current and not table.winner, name == table.turn.pending_player,
            colors.get(name), repr(currency), change, i18n_language())


def _draw_card(p: Painter, card: pygame.Rect, player: Seat, table: TableView, ui: UiState,
               colors: dict[str, theme.Color], currency: Any) -> None:
    """One player's card of the four-card column: name, balance, change, jail, worth."""
    name = player.name
    color = _card_frame(p, card, player, table, colors)
    out = player.bankrupt
    inner = card.inflate(-p.px(16), -p.px(6))
    inner.x += p.px(4)
    name_row, cash_row, status_row = _card_rows(inner)
    badge = pygame.Rect(name_row.right - name_row.width * 2 // 5, name_row.y,
                        name_row.width * 2 // 5, name_row.height)
    name_box = pygame.Rect(name_row.x, name_row.y, name_row.width - badge.width - p.px(4),
                           name_row.height)
    p.text(fitted_name(p, name, name_box.width), name_box, theme.SIZES["name"],
           theme.TEXT_DIM if out else color, bold=True, min_size=theme.readable(p.scale))
    _draw_change(p, badge, name, currency, ui)
    p.text(money(player.cash, currency), cash_row,
           theme.SIZES["cash"], theme.TEXT_DIM if out else color, bold=True,
           min_size=_money_floor(p))
    status = _status(player, currency)
    if p.wrapped(status, status_row.width, theme.SIZES["worth"])[0] > 1:
        status = _status(player, currency, compact=True)  # worth only if nothing else
    p.text(status, status_row, theme.SIZES["worth"], theme.BAD if out else theme.TEXT_DIM,
           min_size=theme.readable(p.scale))


def _money_floor(p: Painter) -> float:
    """The smallest size of a player's cash: MONEY on the 7-inch screen, 60 % of it (still
    larger in pixels) from 1.25 times its size."""
    return theme.MONEY if p.scale < 1.25 else theme.MONEY * 0.6


def _card_frame(p: Painter, card: pygame.Rect, player: Seat, table: TableView,
                colors: dict[str, theme.Color]) -> theme.Color:
    """A player's card: its panel, the frame of the player to move or to decide, the strip in
    their colour (grey once bankrupt); returns their colour."""
    name = player.name
    color = colors.get(name, theme.TEXT)
    p.fill(card, theme.PANEL, radius=6)
    if name == table.current and not table.winner:
        p.frame(card, theme.ACCENT, width=2.5, radius=6)
    elif name == table.turn.pending_player:
        p.frame(card, color, width=2, radius=6)
    strip = pygame.Rect(card.x, card.y, p.px(6), card.height)
    p.fill(strip, color if not player.bankrupt else theme.MORTGAGED, radius=3)
    return color


def _draw_change(p: Painter, box: pygame.Rect, name: str, currency: Currency,
                 ui: UiState) -> None:
    """The change of a player's cash ("+200", "−1 400") in `box` while it is news."""
    anim = ui.anims.get(name)
    if anim is not None and ui.now - anim.start < DELTA_SHOWN_S and anim.new != anim.old:
        change = anim.new - anim.old
        p.text(delta(change, currency), box, theme.SIZES["name"],
               theme.GOOD if change > 0 else theme.BAD, bold=True, align="right",
               min_size=theme.readable(p.scale))


def _draw_strip(p: Painter, rect: pygame.Rect, table: TableView, ui: UiState,
                colors: dict[str, theme.Color]) -> None:
    """Five to eight players, one row each across the whole column: the name on the left,
    the cash on the right, its digits at full size and its currency at the readable size
    (two narrow columns cannot hold "Fr. 174'000.–" at MONEY); a row tall enough for two
    lines adds jail, jail cards or worth under the name (or the rest of a long name) and the
    change of the cash, a shorter one shows jail as bars before the name."""
    players = table.players
    currency = table.setup.currency
    cards = rows(rect, len(players), p.px(3))
    size = theme.SIZES["name"]
    line_h = p.wrapped("M", 100, size, bold=True)[1]
    for card, player in zip(cards, players, strict=False):
        p.part(_card_key(player, table, ui, colors, currency), card,
               partial(_draw_row, p, card, player, table, ui, colors, currency, line_h))


def _draw_row(p: Painter, card: pygame.Rect, player: Seat, table: TableView, ui: UiState,
              colors: dict[str, theme.Color], currency: Any, line_h: int) -> None:
    """One player's row of the strip (five players or more)."""
    size = theme.SIZES["name"]
    name = player.name
    out = player.bankrupt
    color = _card_frame(p, card, player, table, colors)
    inner = card.inflate(-p.px(16), -p.px(4))
    inner.x += p.px(4)
    cash = player.cash
    cash_x = _draw_amount(p, inner, cash, currency, theme.TEXT_DIM if out else color)
    left = pygame.Rect(inner.x, inner.y, cash_x - p.px(8) - inner.x, inner.height)
    lines = max(1, min(3, left.height // line_h))
    jailed = player.jailed and not out
    status = _status(replace(player, jailed=False), currency, compact=True)
    if jailed:  # bars say "in jail", the turns spent there follow
        status = " · ".join(([f"{player.jail_turns}/3"] if lines >= 2 else [])
                            + ([status] if player.jail_cards else []))
    anim = ui.anims.get(name)
    change = (delta(anim.new - anim.old, currency) if anim is not None and anim.new != anim.old
              and ui.now - anim.start < DELTA_SHOWN_S else "")
    name_lines = p.wrapped(name, left.width, size, bold=True)[0]
    if lines >= 2 and name_lines > 1 and not _has_news(player):
        status = ""  # the rest of a long name matters more than the worth
    if lines < 2 and jailed:
        bars = pygame.Rect(left.x, left.centery - p.px(8), p.px(14), p.px(16))
        _draw_bars(p, bars, theme.BAD)
        left.x, left.width = bars.right + p.px(5), left.width - bars.width - p.px(5)
    status_lines = 1 if lines >= 2 and (status or change or jailed) else 0
    width = p.measure(change, round(size * p.scale), bold=True)[0] if change else 0
    room = left.width - width - p.px(6)
    if change and not status_lines and p.measure(
            fitted_name(p, name, room), round(theme.readable(p.scale) * p.scale),
            bold=True)[0] > room:
        change = ""  # no room beside even the name's initials: the counting cash says it
    if change and not status_lines:  # one line: the change beside the name while news
        width = min(width, left.width)
        _draw_change(p, pygame.Rect(left.right - width, left.y, width, left.height),
                     name, currency, ui)
        left.width -= width + p.px(6)
    shown = fitted_name(p, name, left.width, max(1, lines - status_lines))
    name_lines = p.wrapped(shown, left.width, size, bold=True)[0]
    name_box = pygame.Rect(left.x, left.y, left.width,
                           min(name_lines, lines - status_lines) * line_h)
    name_box.centery = left.centery - status_lines * line_h // 2
    p.paragraph(shown, name_box, size, theme.TEXT_DIM if out else color, bold=True,
                max_lines=max(1, lines - status_lines), min_size=theme.readable(p.scale))
    if status_lines:
        below = pygame.Rect(left.x, name_box.bottom, left.width, line_h)
        if change:
            width = p.measure(change, round(size * p.scale), bold=True)[0]
            _draw_change(p, pygame.Rect(below.right - width, below.y, width, line_h),
                         name, currency, ui)
            below.width -= width + p.px(6)
        if jailed:
            bars = pygame.Rect(below.x, below.centery - p.px(7), p.px(12), p.px(14))
            _draw_bars(p, bars, theme.BAD)
            below.x, below.width = bars.right + p.px(5), below.width - bars.width - p.px(5)
        p.text(status, below, theme.SIZES["worth"], theme.BAD if out or player.jailed
               else theme.TEXT_DIM, min_size=theme.readable(p.scale))


def _draw_amount(p: Painter, box: pygame.Rect, amount: int, currency: Currency,
                 color: theme.Color) -> int:
    """An amount right-aligned in `box`, its digits at the cash size (never under MONEY on
    the 7-inch screen) and the currency around them ("Fr. ", ".–", " zł") at the readable
    size, on one baseline; returns the left edge of what was drawn."""
    said = money(amount, currency)
    digits = i18n.group_digits(abs(amount), currency or {})
    at = said.find(digits)
    if at < 0 or not digits:  # an amount Babel wrote: one piece
        pieces = [("", 0.0), (said, 1.0), ("", 0.0)]
    else:
        pieces = [(said[:at], 0.0), (digits, 1.0), (said[at + len(digits):], 0.0)]
    small = round(theme.SIZES["name"] * p.scale)
    big = round(theme.SIZES["cash"] * p.scale)
    floor = round(_money_floor(p) * p.scale)

    def widths(px: int) -> list[int]:
        return [p.measure(piece, px if large else small, bold=True)[0] if piece else 0
                for piece, large in pieces]

    while big > floor and sum(widths(big)) > box.width:
        big -= 1
    baseline = box.centery + line_metrics(big, True)[1] - line_metrics(big, True)[0] // 2
    x = box.right
    for (piece, large), width in reversed(list(zip(pieces, widths(big), strict=True))):
        if not piece:
            continue
        px = big if large else small
        height, ascender = line_metrics(px, True)
        slot = pygame.Rect(x - width, baseline - ascender, max(width, 1), height)
        slot.width = box.right - slot.x if large and x - width < box.x else slot.width
        p.text(piece, slot, px / p.scale, color, bold=True, align="right",
               min_size=px / p.scale)
        x -= width
    return x


def _has_news(player: Seat) -> bool:
    """The player's status says more than their worth: bankrupt, in jail, holding cards."""
    return bool(player.bankrupt or player.jailed or player.jail_cards or player.bus_tickets)


def _draw_bars(p: Painter, box: pygame.Rect, color: theme.Color) -> None:
    """Jail bars: a frame with three bars, where a one-line row has no room to say "in jail"."""
    p.frame(box, color, width=1.5, radius=2)
    for i in (1, 2, 3):
        x = box.x + box.width * i // 4
        pygame.draw.line(p.surface, color, (x, box.y), (x, box.bottom - 1), max(1, p.px(1.5)))


def _card_rows(inner: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
    """Name, balance and status rows of a player card: 28 %, 46 %, 26 % of its height."""
    h = inner.height
    name_h, cash_h = h * 28 // 100, h * 46 // 100
    return (pygame.Rect(inner.x, inner.y, inner.width, name_h),
            pygame.Rect(inner.x, inner.y + name_h, inner.width, cash_h),
            pygame.Rect(inner.x, inner.y + name_h + cash_h, inner.width, h - name_h - cash_h))


def _status(player: Seat, currency: Currency, compact: bool = False) -> str:
    """Jail, jail cards and net worth, as one short line (compact: worth only if nothing
    else is to say)."""
    if player.bankrupt:
        return text("bankrupt")
    parts = []
    if player.jailed:
        parts.append(text("in_jail", turns=player.jail_turns))
    if player.jail_cards:
        parts.append(text("jail_cards", count=player.jail_cards))
    if player.bus_tickets:
        parts.append(text("bus_tickets", count=player.bus_tickets))
    if not (compact and parts):
        parts.append(text("net_worth", amount=money(player.net_worth, currency)))
    return " · ".join(parts)


def draw_log(p: Painter, rect: pygame.Rect, ui: UiState) -> None:
    """The last few moves, newest first (a move taken back struck through and greyed, as
    on the phones); hardware warnings (a stuck button, a silent reader) take the lower
    slots in red until the hardware clears them."""
    p.fill(rect, theme.PANEL, radius=6)
    inner = rect.inflate(-p.px(12), -p.px(8))
    lines = rows(inner, 9)
    p.text(text("log_title"), lines[0], theme.SIZES["log_title"], theme.TEXT_DIM, bold=True,
           min_size=theme.readable(p.scale))
    warnings = list(ui.warnings.values())[-2:]
    size = theme.SIZES["log"]
    top, bottom = lines[1].y, inner.bottom
    for warning in reversed(warnings):  # at the bottom, in red, as many lines as they take
        count, line_h = p.wrapped(warning, inner.width, size, bold=True)
        slot = pygame.Rect(inner.x, bottom - min(4, count) * line_h, inner.width,
                           min(4, count) * line_h)
        p.fill(slot.inflate(p.px(6), 0), theme.REFUSED_BG, radius=4)
        p.paragraph(warning, slot, size, theme.TEXT, bold=True, max_lines=4,
                    min_size=theme.readable(p.scale))
        bottom = slot.y - p.px(2)
    entries = list(ui.log)[::-1]
    if not entries:
        p.text(text("log_empty"), lines[1], size, theme.TEXT_DIM)
    for entry in entries:  # newest first, each on as many lines as it takes (up to three)
        count, line_h = p.wrapped(entry.text, inner.width, size)
        height = min(3, count) * line_h
        if top + height > bottom:
            break
        color = theme.TEXT_DIM if entry.undone else entry.color or theme.TEXT
        slot = pygame.Rect(inner.x, top, inner.width, height)  # kept as the lines move down
        p.part(("log", entry.text, color, entry.undone, i18n_language()), slot,
               partial(p.paragraph, entry.text, slot, size, color, max_lines=3,
                       strike=entry.undone, min_size=theme.readable(p.scale)))
        top += height + p.px(4)
        if entry.why and not entry.undone and entry.move == ui.last_move:
            # the move just made says why: "Rent € 8 = € 4 × 2: Ann owns the whole group"
            count, line_h = p.wrapped(entry.why, inner.width, size)
            height = min(3, count) * line_h
            if top + height > bottom:
                break
            p.paragraph(entry.why, pygame.Rect(inner.x, top, inner.width, height), size,
                        theme.TEXT_DIM, max_lines=3, min_size=theme.readable(p.scale))
            top += height + p.px(4)


@lru_cache(maxsize=4)
def qr_surface(url: str, side: int) -> pygame.Surface:
    """The QR code of `url` as a black-on-white square of about `side` pixels."""
    import segno

    code = segno.make(url, error="m")
    matrix = [list(row) for row in code.matrix]
    border = 2
    modules = len(matrix) + 2 * border
    unit = max(1, side // modules)
    surface = pygame.Surface((unit * modules, unit * modules))
    surface.fill((255, 255, 255))
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                surface.fill((0, 0, 0), ((x + border) * unit, (y + border) * unit, unit, unit))
    return surface


def draw_remote(p: Painter, rect: pygame.Rect, ui: UiState) -> None:
    """The QR code and address phones join at."""
    p.fill(rect, theme.PANEL, radius=6)
    inner = rect.inflate(-p.px(8), -p.px(6))
    url = ui.remote_url or ui.remote_placeholder
    if not url:
        p.text(text("remote_off"), inner, theme.SIZES["qr_caption"], theme.TEXT_DIM,
               align="center")
        return
    placeholder = not ui.remote_url
    label_h = p.px(theme.SIZES["qr_caption"] + 5)
    if placeholder and min(inner.width, inner.height - 4 * label_h) < p.px(QR_SMALLEST):
        _draw_not_running(p, inner, url)  # the game's corner: no room for a code worth seeing
        return
    shown = url.removeprefix("http://").rstrip("/")
    floor_px = max(6, round(theme.readable(p.scale) * p.scale))
    # the address whole at the readable size: on two lines (the host, then the path) when
    # one is too narrow, never cut
    lines = [shown] if p.measure(shown, floor_px)[0] <= inner.width or "/" not in shown \
        else [shown[:shown.index("/")], shown[shown.index("/"):]]
    labels = 4 if placeholder else len(lines)  # "start companion run" may take three lines
    code_box = pygame.Rect(inner.x, inner.y, inner.width, inner.height - labels * label_h)
    qr = qr_surface(url, min(code_box.width, code_box.height))
    # the code with its words right under it, the two centred in a tall corner (the setup's)
    words_top = min(inner.bottom, inner.centery + (qr.get_height() + labels * label_h) // 2)
    where = qr.get_rect(midbottom=(code_box.centerx, words_top - labels * label_h))
    p.surface.blit(qr, where)
    if placeholder:  # no server answers at this address: say so, and grey the code out
        veil = pygame.Surface(where.size, pygame.SRCALPHA)
        veil.fill((*theme.PANEL, 150))
        p.surface.blit(veil, where)
    for k, line in enumerate(lines if not placeholder else [shown]):
        p.text(line, pygame.Rect(inner.x, words_top - (labels - k) * label_h, inner.width,
                                 label_h),
               theme.SIZES["qr_caption"], theme.TEXT_DIM if placeholder else theme.TEXT,
               align="center", min_size=theme.readable(p.scale))
    if placeholder:
        p.paragraph(text("remote_not_running"), pygame.Rect(inner.x, words_top - 3 * label_h,
                                                            inner.width, 3 * label_h),
                    theme.SIZES["qr_caption"], theme.ACCENT, bold=True, align="center",
                    max_lines=3, min_size=theme.readable(p.scale))


#: the smallest greyed-out join code worth drawing (design units): under it, words only
QR_SMALLEST = 56


def _draw_not_running(p: Painter, inner: pygame.Rect, url: str) -> None:
    """No server answers yet and the corner is too small for a code to see: "Phones: start
    companion run" large, the address phones will join at under it."""
    label_h = p.px(theme.SIZES["qr_caption"] + 5)
    message = text("remote_not_running")
    count, line_h = p.wrapped(message, inner.width, 20, bold=True)
    high = min(min(3, count) * line_h, inner.height - label_h)  # the two centred together
    said = pygame.Rect(inner.x, inner.centery - (high + label_h) // 2, inner.width, high)
    p.paragraph(message, said, 20, theme.ACCENT, bold=True, align="center",
                max_lines=3, min_size=theme.readable(p.scale))
    p.text(url.removeprefix("http://").rstrip("/"),
           pygame.Rect(inner.x, said.bottom, inner.width, label_h), theme.SIZES["qr_caption"],
           theme.TEXT_DIM, align="center", min_size=theme.readable(p.scale))


def draw_buttons(p: Painter, rect: pygame.Rect, prompt: Prompt) -> None:
    """The on-screen twins of the panel buttons that answer now, in panel order."""
    actions = sorted((a for a in prompt.actions if a.button),
                     key=lambda a: PANEL_BUTTONS.index(a.button or "menu"))
    if not actions:
        return
    # five or six buttons (Mega's bus ticket, the PIN pad) are narrow: the cap's colour names
    # the button and its action takes the whole button, on two lines if it must, never under
    # the readable size (six: closer together, so "Предыдущее" fits whole at 16 px)
    narrow = len(actions) > 4
    gap = p.px(4 if len(actions) > 5 else 8)
    for box, action in zip(columns(rect, max(len(actions), 4), gap), actions, strict=False):
        button = action.button or "menu"  # the same button again: its picture kept
        p.part(("button", button, action.label, narrow, i18n_language()), box,
               partial(draw_button, p, box, button, action.label, narrow), store=BUTTONS)


def draw_button(p: Painter, box: pygame.Rect, button: str, label: str, narrow: bool) -> None:
    """One on-screen button: its cap in the panel button's colour, the button's name over
    what it does now (`narrow`: what it does alone, on up to two lines)."""
    cap = theme.BUTTON_COLORS[button]
    ink = theme.button_ink(button)
    p.fill(box, cap, radius=8)
    if narrow:
        p.paragraph(label, box.inflate(-p.px(2), -p.px(4)), 17, ink, bold=True,
                    align="center", max_lines=2, min_size=theme.readable(p.scale))
        p.hotspot(box, "button", button)
        return
    top, bottom = rows(box.inflate(-p.px(8), -p.px(4)), 2)
    top.height = box.height * 2 // 5 - p.px(2)
    bottom.y, bottom.height = top.bottom, box.bottom - top.bottom - p.px(3)
    p.text(text(f"btn_{button}"), top, theme.SIZES["button_name"], ink, bold=True,
           align="center", min_size=theme.readable(p.scale))
    p.text(label, bottom, 17, ink, bold=True, align="center",
           min_size=theme.readable(p.scale))
    p.hotspot(box, "button", button)


#: the decision panels drawn lately, by title, latest last, as `build_prompt` made them
#: and in the colour they were drawn in: what `keep_prompt_ahead` draws into PANELS once
#: a press may bring one again (a panel is kept only from its second drawing on)
DRAWN: OrderedDict[str, tuple[Prompt, theme.Color]] = OrderedDict()
#: how many of them are remembered (PANELS remembers 4 x 16 drawn once)
DRAWN_KEPT = 64


def _panel_key(prompt: Prompt, color: theme.Color) -> tuple[Any, ...]:
    """What a decision panel is kept by in PANELS: everything it shows."""
    return ("prompt", (prompt.title, tuple(prompt.details), bool(prompt.refusal),
                       tuple((a.button, a.label) for a in prompt.actions), tuple(color),
                       i18n_language()))


def draw_prompt(p: Painter, layout: Any, prompt: Prompt, colors: dict[str, theme.Color]) -> None:
    """The decision panel: what the device waits for, details, the buttons that answer;
    kept whole per what it shows (a prompt seen before is one blit, `painter.PANELS`), on
    the screen's ground, which it paints itself (its area need not be filled first)."""
    color = colors.get(str(prompt.player), theme.ACCENT)
    bare = _bare(p, layout, prompt)
    p.part(_panel_key(bare, color), layout.prompt,
           partial(_draw_prompt, p, layout, bare, color), store=PANELS,
           ground=theme.BACKGROUND)
    if bare is not prompt:  # the line of this move, over the panel kept without it
        _draw_details(p, layout, prompt)
    DRAWN[prompt.title] = (prompt, color)
    DRAWN.move_to_end(prompt.title)
    if len(DRAWN) > DRAWN_KEPT:
        DRAWN.popitem(last=False)


def keep_prompt_ahead(p: Painter, layout: Any, title: str,
                      shown_at: tuple[int, int] | None = None) -> bool:
    """The decision panel drawn last with `title` (`DRAWN`), drawn on `p`'s scratch surface
    and kept in PANELS when the screen drew it once and did not keep it, so that a press
    that brings it again shows it with one blit instead of drawing it (issue 28's tenth
    round: a panel's second showing, 0.2-0.5 ms of a first frame). The very prompt
    `build_prompt` made for the screen, not a guess of its words; False: nothing done.
    `shown_at`: the top left of the panel on the screen, when `layout` has it elsewhere
    (`Painter.keep_ahead`)."""
    drawn = DRAWN.get(title)
    if drawn is None:
        return False
    prompt, color = drawn
    bare = _bare(p, layout, prompt)
    return p.keep_ahead(_panel_key(bare, color), layout.prompt,
                        partial(_draw_prompt, p, layout, bare, color), PANELS,
                        ground=theme.BACKGROUND, shown_at=shown_at)


def lay_prompt_title(p: Painter, layout: Any, title: str, details: Sequence[str] = ()) -> None:
    """A decision panel with `title` and `details` and no buttons, drawn as `draw_prompt`
    draws it but not kept (on a scratch surface, issue 28): its words measured, laid out
    and rendered ahead of the frame that may show them."""
    _draw_prompt(p, layout, Prompt(title, list(details), []), theme.ACCENT)


def _draw_prompt(p: Painter, layout: Any, prompt: Prompt, color: theme.Color) -> None:
    """The decision panel drawn anew: its ground, the player's colour, title, details and
    buttons, all inside `layout.prompt`."""
    p.fill(layout.prompt, theme.PANEL_LIGHT, radius=8)
    p.fill(pygame.Rect(layout.prompt.x, layout.prompt.y, p.px(6), layout.prompt.height), color,
           radius=3)
    floor = theme.readable(p.scale)
    if p.measure(prompt.title, round(floor * p.scale), bold=True)[0] > layout.prompt_title.width:
        # too long for one line at the readable size: two lines over the detail row too
        both = layout.prompt_title.union(layout.prompt_detail)
        p.paragraph(prompt.title, both, 22, theme.TEXT, bold=True, max_lines=2, min_size=floor)
        draw_buttons(p, layout.buttons, prompt)
        return
    p.text(prompt.title, layout.prompt_title, 22, theme.TEXT, bold=True, min_size=floor)
    if prompt.details:
        _draw_details(p, layout, prompt)
    draw_buttons(p, layout.buttons, prompt)


def _draw_details(p: Painter, layout: Any, prompt: Prompt) -> None:
    """The panel's detail line (a refusal in the refused colour) in its row, between the
    title's and the buttons' (no pixel of it on theirs: drawn before or after them, the
    panel is the same)."""
    detail_color = theme.BAD if prompt.refusal else theme.TEXT_DIM
    p.text(" · ".join(prompt.details), layout.prompt_detail, theme.SIZES["prompt_detail"],
           detail_color, min_size=theme.readable(p.scale))


def _bare(p: Painter, layout: Any, prompt: Prompt) -> Prompt:
    """The prompt whose panel is kept (PANELS): `prompt` without its details when it has
    some and its title fits one line (the details are then drawn over the kept panel,
    `_draw_details`), else `prompt` itself. A detail line names this move (the square
    landed on, the card drawn), so a panel kept with it was drawn anew at nearly every
    showing; without it, each player's "end your turn" is one blit and a line (issue 28's
    twelfth round: 0.25 ms of a press's first frame here, in a tenth of the presses,
    before)."""
    if not prompt.details:
        return prompt
    floor = theme.readable(p.scale)
    if p.measure(prompt.title, round(floor * p.scale), bold=True)[0] > layout.prompt_title.width:
        return prompt  # a title on two lines over the detail row: no detail line drawn
    return Prompt(prompt.title, [], prompt.actions, prompt.player)


def banner_box(p: Painter, rect: pygame.Rect, ui: UiState,
               upward: bool = False) -> pygame.Rect | None:
    """Where `draw_banner` draws the message shown now (None: no message now)."""
    message = ui.message
    if message is None or message.until <= ui.now:
        return None
    count, line_h = p.wrapped(message.text, rect.width - p.px(16), 17, bold=True)
    box = pygame.Rect(rect)
    box.height = max(rect.height, min(3, count) * line_h + p.px(8))
    if upward:
        box.bottom = rect.bottom
    return box


def draw_banner(p: Painter, rect: pygame.Rect, ui: UiState, upward: bool = False) -> None:
    """A refusal or notice across `rect` while it lasts, at the readable size or larger: a
    long one grows the banner to two or three lines, downward (`upward`: from a banner at the
    bottom of the screen), over what is under it for the moment it lasts."""
    message = ui.message
    box = banner_box(p, rect, ui, upward)
    if message is None or box is None:
        return
    pad = p.px(16)
    p.fill(box, theme.REFUSED_BG if message.kind == "refused" else theme.INFO_BG, radius=6)
    p.frame(box, theme.BAD if message.kind == "refused" else theme.TEXT, width=2, radius=6)
    p.paragraph(message.text, box.inflate(-pad, -p.px(4)), 17, theme.TEXT, bold=True,
                align="center", max_lines=3, min_size=theme.readable(p.scale))
