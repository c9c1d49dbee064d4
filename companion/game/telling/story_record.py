"""The game's story as the faces read it: the `Story` record (figures only) and its parts,
with its JSON both ways (`Story.to_json`, `Story.of`, `read`). The session hands the screen
and the phones this record; `companion.game.telling.story` tells it from the journal and saves
its JSON beside it. A leaf (nothing of the game imported), so the session's interface can name
it without an import circle.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

JSON = dict[str, Any]


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
        """The record of a story JSON (`to_json`, a saved story file), as the session hands
        it to the faces; a figure it lacks is empty.

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
    """The record of a story's JSON (a saved story file, `Story.to_json`), None for none; the
    session hands the faces the record itself."""
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
