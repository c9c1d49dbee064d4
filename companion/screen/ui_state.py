"""What the screen shows beyond the game state: animations, messages, overlays, setup.

The renderer reads a `UiState` and the public state JSON and nothing else; the controller
owns and changes the UiState. `now` is set by whoever renders, so a frame is reproducible.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from companion.game.table.view import TableView
from companion.game.telling.story import Story
from companion.inputs.entry import PinEntry
from companion.rules.commands import Command
from companion.screen.theme import Color

DELTA_SHOWN_S = 3.0  # "+200" stays beside the balance this long
MESSAGE_S = 6.0  # a refusal or notice stays up this long
LOG_LINES = 8


class Same:
    """A key part equal only to the very same object (a state of one version, a view): a
    frame's keys compare by it what would be slow to compare by value."""

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True)
class SquareInfo:
    """A square of the board as the map draws it (every square, not only ownable ones)."""

    index: int
    name: str
    kind: str
    group: str | None = None


@dataclass(frozen=True)
class BoardInfo:
    """The edition's board for the map: squares in order and group colours, with names in
    the screen's language when the edition prints them in it (`localized`)."""

    squares: tuple[SquareInfo, ...] = ()
    group_colors: dict[str, Color] = field(default_factory=dict)
    deck_names: dict[str, str] = field(default_factory=dict)
    card_texts: dict[str, str] = field(default_factory=dict)  # by card id, when localized
    #: every card's text as the edition prints it, by card id (the state's, when the board
    #: has none in the screen's language): what the prompt after a card may show
    printed_cards: dict[str, str] = field(default_factory=dict)
    localized: bool = False  # names differ from the state JSON's (another language's)
    #: each street group's letter (companion.editions.group_letters): told apart without colour
    group_letters: dict[str, str] = field(default_factory=dict)
    #: the dice multipliers the edition's cards send a player to a utility with ("pay ten
    #: times the dice"): the titles of the roll for its rent a card may bring
    card_rent_dice: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        """Number of squares on the board (40 on the classic board)."""
        return len(self.squares) or 40


@dataclass(frozen=True)
class PlayerStyle:
    """How a player looks: colour name (or #hex) and token."""

    color: str | None = None
    token: str | None = None


@dataclass
class BalanceAnim:
    """A balance change being shown: counts from `old` to `new`, shows the delta."""

    old: int
    new: int
    start: float


@dataclass(frozen=True)
class Message:
    """A banner: a refusal (red) or a notice (blue), shown until `until`."""

    text: str
    kind: str  # "refused", "info" or "undone" (the UNDO notice, gone with the next move)
    until: float


@dataclass(frozen=True)
class Choice:
    """One option of a chooser overlay: a label and what choosing it does."""

    label: str
    command: Command | dict[str, Any] | None = None
    action: str | None = None  # a UI action instead of a command


@dataclass
class Chooser:
    """A list overlay (menu, square picker): buttons move the focus, YES chooses."""

    title: str
    choices: list[Choice]
    focus: int = 0


@dataclass(frozen=True)
class WifiJoin:
    """The table's own Wi-Fi (the Pi's hotspot), shown as a QR code until a phone is on it
    (companion/screen/views/wifi.py): its name, passphrase and QR text WIFI:T:WPA;S:...;;"""

    ssid: str
    passphrase: str
    qr: str


@dataclass
class LogLine:
    """One line of the recent-moves list: `move` numbers the command it came from (one
    number per accepted command the screen saw), `undone` strikes it through."""

    text: str
    color: Color | None = None
    move: int | None = None
    undone: bool = False
    #: why a money move was its amount (companion.words.explaining.why_words), shown for the
    #: move just made
    why: str | None = None


@dataclass
class UiState:
    """Everything the renderer needs besides the game state."""

    now: float = 0.0
    board: BoardInfo = field(default_factory=BoardInfo)
    styles: dict[str, PlayerStyle] = field(default_factory=dict)
    anims: dict[str, BalanceAnim] = field(default_factory=dict)
    message: Message | None = None
    overlay: str | None = None  # "help", "chooser"
    chooser: Chooser | None = None
    log: deque[LogLine] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    networth: list[dict[str, int]] = field(default_factory=list)
    #: the game's story once it is over (the game layer's typed record), else None
    story: Story | None = None
    #: the recent moves' commands still in force, oldest first (companion.screen.log_lines
    #: .record_moves: an undo strikes through the newest), and those taken back by the
    #: journal seq the undo named (a redo restores them)
    moves: list[int] = field(default_factory=list)
    taken_back: dict[int, int] = field(default_factory=dict)
    last_move: int = 0  # the number of the newest move
    auction_deadline: float | None = None
    dice_entry: list[int] = field(default_factory=list)  # white dice typed so far
    speed_entry: int | str | None = None  # the speed die typed: 1-3, "bus", "mr_monopoly"
    dial: int | None = None  # the encoder's dice dial: index of the face shown, None: off
    bid_steps: int = 0  # encoder detents added to (or taken from) the next bid
    bus_ride: bool = False  # choosing where a bus ticket rides to
    square_focus: int | None = None  # the square focused on the board when choosing one
    confirm_undo: bool = False  # UNDO pressed: YES undoes, NO keeps
    #: while confirm_undo: the journal entry an undo would take back (the session's
    #: undo_target), named in the question; None: not known, "Undo the last move?"
    undo_target: dict[str, Any] | None = None
    warnings: dict[str, str] = field(default_factory=dict)  # hardware warnings, by source
    remote_placeholder: str | None = None  # a join address to show when no server runs
    remote_url: str | None = None
    #: the hotspot to join first: the phones' corner shows its Wi-Fi QR code while set
    wifi: WifiJoin | None = None
    clock_deadline: float | None = None  # timed game: monotonic end time
    #: the session's typed view of the table (companion.game.table.view): what each person
    #: is asked, the open offers (companion.screen.views.waiting draws whom it waits for)
    table: TableView | None = None
    #: the player other than the current one who tapped their own bank card for their
    #: decision on the table (a debt): the panel answers it for them until it changes
    card_holder: str | None = None
    #: the banker PIN being asked before a banker action (companion.screen.views.pin), and
    #: when the question closes by itself; the banker's own actions are the screen's until
    #: `banker_until` (after the right PIN or the banker card)
    pin: PinEntry | None = None
    pin_until: float | None = None
    banker_until: float = 0.0
    #: the table has no banker PIN: the screen's banker actions need nobody's
    banker_free: bool = True
    volume: int = 80
    muted: bool = False
    setup: Any = None  # companion.screen.views.setup.SetupForm while no game is running

    def banker_now(self) -> bool:
        """Whether the screen may do the banker's actions now (the gavel's "Sold!")."""
        return self.banker_free or self.now < self.banker_until

    def animating(self) -> bool:
        """Whether a frame drawn now would differ from one drawn a moment later: never.
        Nothing is drawn frame by frame: a move's first frame shows its result (the new
        balances, each change beside its balance), and the picture then changes only at
        `next_change`. A balance counting up drew 48 frames a move (60 a second for 0.8 s;
        a frame is 3 ms here, 50-90 ms on a Zero 2 W: issue 28)."""
        return False

    def next_change(self) -> float | None:
        """The next moment the picture changes by itself (a delta fading, a message ending,
        a clock ticking), or None: the screen may sleep until an input or an update."""
        times: list[float] = []
        for anim in self.anims.values():
            end = anim.start + DELTA_SHOWN_S
            if end > self.now:
                times.append(end)
        if self.message and self.message.until > self.now:
            times.append(self.message.until)
        if self.pin_until is not None and self.pin_until > self.now:
            times.append(self.pin_until)
        if self.banker_until > self.now:  # the banker's "Sold!" goes
            times.append(self.banker_until)
        for deadline in (self.auction_deadline, self.clock_deadline):
            if deadline is not None and deadline > self.now:
                # tick when the shown whole second changes
                fraction = (deadline - self.now) % 1.0
                times.append(self.now + (fraction if fraction > 0.001 else 1.0))
        return min(times) if times else None
