"""The game's story: what a finished (or running) game was, told from its journal.

`tell` replays the moves in force of the game in play (the journal's live line from its last
new game: undone moves and moves a jump back took are left out) and reads their events:
every player's net worth at the start of each turn, the rent each property earned (the
square a rent was paid for is where the payer's token moved to in that move before paying,
else where it stood when the move began: a debt paid later, a rent rolled for),
rent per colour group, the squares landed on most, the biggest trade, every auction and who
won it, and the time played. The record is plain data (`Story.to_json`), saved beside the
journal (`save`) and handed out by the session as JSON; the phone remote and the table
screen read it back as the typed record (`Story.of`, `read`: its `clock`, `final` and
`series()` worked out here once) and say it in words, the phones also as one HTML page.
Pure apart from `save`: no clock, no randomness.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from companion.game.applying import apply_command
from companion.game.journal import Entry
from companion.game.replaying import with_rng
from companion.rules import Accepted, GameState, net_worth
from companion.rules.events import AuctionClosed, Moved, Traded, Transfer, Turn, Winner

JSON = dict[str, Any]
#: how many of the squares landed on most the story names
MOST_LANDED = 5
STORY_SUFFIX = ".story.json"


@dataclass(frozen=True)
class WorthPoint:
    """Every player's net worth (in the players' order) when turn `turn` began; the last
    point is the end of the story."""

    turn: int
    worth: tuple[int, ...]

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> WorthPoint:
        """The point of one entry of the story JSON's `worth`."""
        return cls(_int(raw.get("turn")), tuple(_int(w) for w in _list(raw.get("worth"))))


@dataclass(frozen=True)
class SquareFigure:
    """A square and a figure about it: rent earned (`amount`, its `owner` who earned it
    last) or times landed on (`count`)."""

    square: int
    group: str
    amount: int = 0
    count: int = 0
    owner: str | None = None

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> SquareFigure:
        """The figure of one entry of the story JSON's `rent_by_square` or `landed`."""
        return cls(_int(raw.get("square")), str(raw.get("group") or ""),
                   amount=_int(raw.get("amount")), count=_int(raw.get("count")),
                   owner=_str(raw.get("owner")))


@dataclass(frozen=True)
class GroupRent:
    """The rent a colour group's properties earned altogether."""

    group: str
    amount: int

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> GroupRent:
        """The figure of one entry of the story JSON's `rent_by_group`."""
        return cls(str(raw.get("group") or ""), _int(raw.get("amount")))


@dataclass(frozen=True)
class TradeFigure:
    """A trade: who gave what to whom; `value` counts cash and deeds at their price."""

    seq: int
    giver: str
    receiver: str
    give_cash: int
    give_squares: tuple[int, ...]
    take_cash: int
    take_squares: tuple[int, ...]
    value: int

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> TradeFigure:
        """The figure of the story JSON's `biggest_trade`."""
        return cls(_int(raw.get("seq")), str(raw.get("giver")), str(raw.get("receiver")),
                   _int(raw.get("give_cash")), _ints(raw.get("give_squares")),
                   _int(raw.get("take_cash")), _ints(raw.get("take_squares")),
                   _int(raw.get("value")))


@dataclass(frozen=True)
class AuctionFigure:
    """An auction closed: a deed (`square`) or a building, its winner (None: no bid)."""

    seq: int
    square: int | None
    building: str | None
    winner: str | None
    amount: int

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> AuctionFigure:
        """The figure of one entry of the story JSON's `auctions`."""
        square, building = raw.get("square"), raw.get("building")
        return cls(_int(raw.get("seq")), square if isinstance(square, int) else None,
                   str(building) if building is not None else None, _str(raw.get("winner")),
                   _int(raw.get("amount")))


@dataclass(frozen=True)
class Story:
    """The story of one game, figures only (the words are the phone's and the screen's)."""

    edition: str
    players: tuple[str, ...]
    started: float
    ended: float
    seconds: int
    turns: int
    moves: int
    winner: str | None
    over: bool
    worth: tuple[WorthPoint, ...] = ()
    rent_by_square: tuple[SquareFigure, ...] = ()
    rent_by_group: tuple[GroupRent, ...] = ()
    landed: tuple[SquareFigure, ...] = ()
    biggest_trade: TradeFigure | None = None
    trades: int = 0
    auctions: tuple[AuctionFigure, ...] = field(default=())

    def to_json(self) -> JSON:
        """The story as JSON (tuples as lists), as saved and as the session hands it."""
        out: JSON = json.loads(json.dumps(asdict(self)))
        return out

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> Story:
        """The record of a story JSON (`to_json`, a saved story, the session's `story()`),
        which the faces read instead of its dicts; a figure it lacks is empty.

        >>> told = Story.of({"players": ["Ann", "Bo"], "seconds": 3900, "turns": 9,
        ...                  "worth": [{"turn": 1, "worth": [5, 6]}]})
        >>> told.clock, told.final, told.series()
        ('1:05', (('Ann', 5), ('Bo', 6)), [{'Ann': 5, 'Bo': 6}])
        >>> Story.of(told.to_json()) == told
        True
        """
        trade = raw.get("biggest_trade")
        return cls(
            edition=str(raw.get("edition") or ""),
            players=tuple(str(p) for p in _list(raw.get("players"))),
            started=_float(raw.get("started")), ended=_float(raw.get("ended")),
            seconds=_int(raw.get("seconds")), turns=_int(raw.get("turns")),
            moves=_int(raw.get("moves")), winner=_str(raw.get("winner")),
            over=bool(raw.get("over")),
            worth=tuple(WorthPoint.of(w) for w in _maps(raw.get("worth"))),
            rent_by_square=tuple(SquareFigure.of(f) for f in _maps(raw.get("rent_by_square"))),
            rent_by_group=tuple(GroupRent.of(g) for g in _maps(raw.get("rent_by_group"))),
            landed=tuple(SquareFigure.of(f) for f in _maps(raw.get("landed"))),
            biggest_trade=TradeFigure.of(trade) if isinstance(trade, Mapping) else None,
            trades=_int(raw.get("trades")),
            auctions=tuple(AuctionFigure.of(a) for a in _maps(raw.get("auctions"))))

    @property
    def clock(self) -> str:
        """The time played as hours and minutes ("1:05"), as the screen and the phones
        write it."""
        return f"{self.seconds // 3600}:{self.seconds % 3600 // 60:02d}"

    @property
    def final(self) -> tuple[tuple[str, int], ...]:
        """Every player's net worth at the end of the story, in the players' order (() with
        no point told)."""
        return tuple(zip(self.players, self.worth[-1].worth, strict=False)) \
            if self.worth else ()

    def series(self) -> list[dict[str, int]]:
        """Every player's net worth by name at the start of each turn (and at the end)."""
        return [dict(zip(self.players, point.worth, strict=False)) for point in self.worth]


def read(raw: Mapping[str, Any] | None) -> Story | None:
    """The record of the session's story JSON (`GameSessionProtocol.story`), None for none."""
    return Story.of(raw) if raw else None


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _float(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else 0.0


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _maps(value: Any) -> list[Mapping[str, Any]]:
    return [v for v in _list(value) if isinstance(v, Mapping)]


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(v for v in _list(value) if isinstance(v, int) and not isinstance(v, bool))


def game_line(moves: Iterable[Entry]) -> list[Entry]:
    """The moves in force of the game in play: from the last new game on."""
    line = list(moves)
    starts = [i for i, e in enumerate(line) if e.command.get("do") == "new_game"]
    return line[starts[-1]:] if starts else []


def tell(moves: Iterable[Entry]) -> Story | None:
    """The story of the game in play, from the journal's command entries in force, in
    order (companion.game.reading.effective_commands); None before any game."""
    line = game_line(moves)
    if not line:
        return None
    state: GameState | None = None
    worth: list[WorthPoint] = []
    rent: dict[int, int] = {}
    earner: dict[int, str] = {}
    landed: Counter[int] = Counter()
    trades: list[TradeFigure] = []
    auctions: list[AuctionFigure] = []
    turn = 1
    winner: str | None = None
    for entry in line:
        result = apply_command(state, entry.command)
        if not isinstance(result, Accepted):  # the journal replays: a broken line ends here
            break
        before = state
        state = with_rng(result.state, entry.rng)
        if before is None:
            worth.append(WorthPoint(turn, _worths(state)))
        moved_to: dict[str, int] = {}
        for event in entry.events:
            if isinstance(event, Moved):
                landed[event.to] += 1
                moved_to[event.player] = event.to
            elif isinstance(event, Transfer) and event.reason == "rent" and event.to:
                square = moved_to.get(str(event.from_), _position(before or state,
                                                                   event.from_))
                if square is not None:
                    rent[square] = rent.get(square, 0) + event.amount
                    earner[square] = event.to
            elif isinstance(event, Traded):
                trades.append(_trade(entry.seq, event, state))
            elif isinstance(event, AuctionClosed):
                auctions.append(AuctionFigure(entry.seq, event.square, event.building,
                                              event.winner, event.amount))
            elif isinstance(event, Winner):
                winner = event.player
            elif isinstance(event, Turn) and before is not None:
                turn += 1
                worth.append(WorthPoint(turn, _worths(state)))
    if state is None:
        return None
    worth.append(WorthPoint(turn, _worths(state)))
    groups = {sq.index: sq.group for sq in state.edition.squares}
    by_group: dict[str, int] = {}
    for square, amount in rent.items():
        by_group[groups.get(square, "")] = by_group.get(groups.get(square, ""), 0) + amount
    started, ended = line[0].time, line[-1].time
    return Story(
        edition=state.edition.id, players=tuple(p.name for p in state.players),
        started=started, ended=ended, seconds=max(0, round(ended - started)), turns=turn,
        moves=len(line), winner=winner, over=state.winner >= 0 or winner is not None,
        worth=tuple(worth),
        rent_by_square=tuple(sorted(
            (SquareFigure(s, groups.get(s, ""), amount=a, owner=earner.get(s))
             for s, a in rent.items()), key=lambda f: (-f.amount, f.square))),
        rent_by_group=tuple(sorted((GroupRent(g, a) for g, a in by_group.items()),
                                   key=lambda f: (-f.amount, f.group))),
        landed=tuple(SquareFigure(s, groups.get(s, ""), count=c) for s, c in sorted(
            landed.items(), key=lambda sc: (-sc[1], sc[0]))[:MOST_LANDED]),
        biggest_trade=max(trades, key=lambda t: (t.value, -t.seq), default=None),
        trades=len(trades), auctions=tuple(auctions))


def _worths(state: GameState) -> tuple[int, ...]:
    return tuple(net_worth(state, i) for i in range(len(state.players)))


def _position(state: GameState, name: str | None) -> int | None:
    """Where a player's token stands (the square of a rent paid without moving first)."""
    return next((p.position for p in state.players if p.name == name), None)


def _trade(seq: int, event: Traded, state: GameState) -> TradeFigure:
    prices = {sq.index: sq.price for sq in state.edition.squares}
    value = (event.give.cash + event.take.cash
             + sum(prices.get(s, 0) for s in (*event.give.squares, *event.take.squares)))
    return TradeFigure(seq, event.from_, event.to, event.give.cash, event.give.squares,
                       event.take.cash, event.take.squares, value)


def story_path(journal: Path) -> Path:
    """Where a game's story is saved: beside its journal."""
    return journal.with_name(journal.name.removesuffix(".journal") + STORY_SUFFIX)


def save(journal: Path, story: Story) -> Path:
    """Write the story beside the journal (atomically: a temporary file of this writer's
    own, renamed; two writers at once each rename a whole story)."""
    target = story_path(journal)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, 0o644)  # as a file opened for writing (mkstemp's own is 0600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(story.to_json(), fh, ensure_ascii=False, separators=(",", ":"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return target


__all__ = ["AuctionFigure", "GroupRent", "SquareFigure", "Story", "TradeFigure",
           "WorthPoint", "game_line", "read", "save", "story_path", "tell"]
