"""The names of the squares every board has, in English (the source language), by kind: what
a table speaking another language than the edition prints calls its GO, Chance or Free
Parking when the edition's data has no name of its own in that language (a Russian table on
the Swiss board says «Шанс», not "Chance"). Streets and stations keep their printed names.
The ids are the gettext message contexts: "square_<kind>"; the two tax squares are told
apart by their order on the board (income tax first)."""

from __future__ import annotations

from companion.words.message import Message, _t

_SQUARES: tuple[Message, ...] = (
    _t("square_go", "GO"),
    _t("square_chance", "Chance"),
    _t("square_community_chest", "Community Chest"),
    _t("square_free_parking", "Free Parking"),
    _t("square_jail", "Jail / Just visiting"),
    _t("square_go_to_jail", "Go to Jail"),
    _t("square_auction", "Auction"),
    _t("square_birthday_gift", "Birthday Gift"),
    _t("square_bus_ticket", "Bus Ticket"),
    _t("square_income_tax", "Income Tax"),
    _t("square_luxury_tax", "Luxury Tax"),
)
#: every name by message id
SQUARES: dict[str, Message] = {m.id: m for m in _SQUARES}
