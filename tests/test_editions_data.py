"""Edition data files: every edition of the rulebooks loads and matches its rulebook.

The classic-eur file is the model: the other classic boards repeat its squares, deeds and
card effects with every amount multiplied by the edition's scale (x20 for the Swedish and
Swiss boards, RULES.md), and their own names and texts.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from importlib import resources
from typing import Any

import pytest

from companion.editions import edition_ids, load_edition
from companion.rules.edition import Edition, SquareKind

MODEL = "classic-eur"
#: every edition on the classic 40-square board, with its amounts' scale against classic-eur
SCALE = {"classic-eur": 1, "classic-en": 1, "sv": 20, "ch": 20, "pl": 1, "ru-monopolist": 1}
EDITIONS = sorted(SCALE)
#: rule options that differ from the defaults, as RULES.md and the rulebooks state them
RULEBOOK_OPTIONS: dict[str, dict[str, Any]] = {
    "classic-eur": {"rent_claim_turns": 2, "standings_mortgaged": "price"},
    "classic-en": {},
    "sv": {"mortgage_interest": "on_take", "mortgage_interest_rounding": 50,
           "jail_fine_before_rolls": 2},
    "ch": {"double_rent_with_mortgaged_lot": False, "sell_group_hotels_together": True},
    "pl": {"bankrupt_if_fine_unpayable": True},
    "ru-monopolist": {"double_rent_with_mortgaged_lot": False,
                      "mortgaged_transfer": "redeem_at_once",
                      "free_parking_exempt_from_collect_cards": True,
                      "utility_rent_fresh_roll": True},
}
#: players (min, max) per RULES.md; the classic 2-8 where a rulebook is silent
PLAYERS = {"sv": (2, 6), "ru-monopolist": (2, 6)}
#: the classic board, one letter per square: G go, L lot, C chest, T tax, S station,
#: H chance, J jail, U utility, P free parking, X go to jail
CLASSIC_BOARD = "GLCLTSLHLLJLULLSLCLLPLHLLSLLULXLLCLSHLTL"
LETTER = {"G": SquareKind.GO, "L": SquareKind.LOT, "C": SquareKind.COMMUNITY_CHEST,
          "T": SquareKind.TAX, "S": SquareKind.STATION, "H": SquareKind.CHANCE,
          "J": SquareKind.JAIL, "U": SquareKind.UTILITY, "P": SquareKind.FREE_PARKING,
          "X": SquareKind.GO_TO_JAIL}
REQUIRED_KEYS = {"id", "name", "language", "rulebook", "currency", "start_cash", "banknotes",
                 "salary", "jail_fine", "houses", "hotels", "players", "groups", "squares",
                 "decks", "options"}
SCALED_CARD_PARAMS = ("amount", "house", "hotel", "dice_multiplier")


def money(amount: int, currency: dict[str, str]) -> str:
    """An amount written as the edition prints it (pattern and group separator)."""
    digits = f"{abs(amount):,}".replace(",", currency["group_separator"])
    return currency["pattern"].format(amount=digits)


def raw_file(edition_id: str) -> dict[str, Any]:
    """The edition's JSON as stored, read straight from the package data."""
    path = resources.files("companion") / "data" / "editions" / f"{edition_id}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.fixture(params=EDITIONS)
def edition(request: pytest.FixtureRequest) -> Edition:
    """Each classic-board edition, loaded through the validator."""
    return load_edition(request.param)


@pytest.fixture(scope="module")
def model() -> Edition:
    """classic-eur, the edition every other one is compared with."""
    return load_edition(MODEL)


def test_every_rulebook_edition_is_shipped() -> None:
    """Each edition of the rulebooks has its data file."""
    assert set(EDITIONS) <= set(edition_ids())


@pytest.mark.parametrize("edition_id", edition_ids())
def test_every_file_loads_with_the_documented_keys(edition_id: str) -> None:
    """Every file in the folder passes the validator and carries the documented fields."""
    ed = load_edition(edition_id)
    data = raw_file(edition_id)
    assert ed.id == edition_id == data["id"]
    assert REQUIRED_KEYS <= set(data), REQUIRED_KEYS - set(data)
    assert {"code", "symbol", "pattern", "group_separator"} <= set(data["currency"])
    assert "{amount}" in data["currency"]["pattern"]
    assert (data["houses"], data["hotels"]) == (32, 12)
    if edition_id != MODEL:
        notes = data["rulebook_notes"]
        assert isinstance(notes, list) and notes
        assert all(isinstance(n, str) and n.strip() for n in notes)


def test_board_has_the_classic_order_of_kinds(edition: Edition) -> None:
    """40 squares: GO, 22 lots, 4 stations, 2 utilities, 2 taxes, 3+3 cards, 4 corners."""
    assert [s.kind for s in edition.squares] == [LETTER[c] for c in CLASSIC_BOARD]
    kinds = Counter(s.kind for s in edition.squares)
    assert (kinds[SquareKind.LOT], kinds[SquareKind.STATION], kinds[SquareKind.UTILITY],
            kinds[SquareKind.TAX]) == (22, 4, 2, 2)
    lot_groups = {g: m for g, m in edition.groups.items()
                  if edition.squares[m[0]].kind is SquareKind.LOT}
    assert sorted(len(m) for m in lot_groups.values()) == [2, 2, 3, 3, 3, 3, 3, 3]
    for g in lot_groups:
        info = edition.group_info[g]
        assert info["name"].strip()
        assert re.fullmatch(r"#[0-9A-Fa-f]{6}", info["color"])


def test_names_and_ids_are_unique(edition: Edition) -> None:
    """No two squares share an id or a printed name (corners and card squares aside)."""
    ownable = [s.name for s in edition.squares
               if s.kind in {SquareKind.LOT, SquareKind.STATION, SquareKind.UTILITY,
                             SquareKind.TAX}]
    assert len(set(ownable)) == len(ownable)
    assert all(s.name.strip() for s in edition.squares)


def test_same_groups_as_the_model(edition: Edition, model: Edition) -> None:
    """Every colour group sits on the same squares as on the classic board."""
    assert edition.groups == model.groups


def test_amounts_are_the_model_times_the_scale(edition: Edition, model: Edition) -> None:
    """Prices, rents, house costs, mortgages, multipliers and taxes scale classic-eur."""
    k = SCALE[edition.id]
    for mine, classic in zip(edition.squares, model.squares, strict=True):
        assert mine.price == classic.price * k, mine.id
        assert mine.rent == tuple(r * k for r in classic.rent), mine.id
        assert mine.house_cost == classic.house_cost * k, mine.id
        assert mine.mortgage == classic.mortgage * k, mine.id
        assert mine.multipliers == tuple(m * k for m in classic.multipliers), mine.id
        assert mine.amount == classic.amount * k, mine.id
    opts, base = edition.defaults, model.defaults
    assert (opts.start_cash, opts.salary, opts.jail_fine) == (
        base.start_cash * k, base.salary * k, base.jail_fine * k)


def test_deeds_are_consistent(edition: Edition) -> None:
    """Rent ladders never go down and every mortgage is half the price."""
    for s in edition.squares:
        if s.kind in {SquareKind.LOT, SquareKind.STATION, SquareKind.UTILITY}:
            assert s.price > 0 and s.mortgage * 2 == s.price, s.id
        if s.kind is SquareKind.LOT:
            assert s.house_cost > 0
        ladder = s.rent or s.multipliers
        assert list(ladder) == sorted(ladder), s.id


def test_start_cash_is_the_banknotes_dealt(edition: Edition) -> None:
    """The banknote breakdown adds up to the start cash."""
    notes = raw_file(edition.id)["banknotes"]
    assert notes
    assert sum(int(v) * n for v, n in notes.items()) == raw_file(edition.id)["start_cash"]
    assert edition.defaults.start_cash == sum(v * n for v, n in edition.banknotes.items())


def test_decks_have_the_model_effects_scaled(edition: Edition, model: Edition) -> None:
    """16 + 16 cards with unique ids, each with the effect of classic-eur's card, scaled."""
    k = SCALE[edition.id]
    ids = [c.id for deck in edition.decks.values() for c in deck]
    assert len(ids) == len(set(ids)) == 32
    assert set(edition.decks) == set(model.decks)
    for deck_id, classic_deck in model.decks.items():
        deck = edition.decks[deck_id]
        assert len(deck) == 16
        for mine, classic in zip(deck, classic_deck, strict=True):
            assert mine.effect == classic.effect, mine.id
            assert mine.text.strip(), mine.id
            assert set(mine.params) == set(classic.params), mine.id
            for key, value in classic.params.items():
                if key in SCALED_CARD_PARAMS:
                    assert mine.params[key] == value * k, (mine.id, key)
                elif key == "to":
                    assert edition.square_ids[mine.params[key]] == model.square_ids[value]
                else:
                    assert mine.params[key] == value, (mine.id, key)


def _card_amounts_in_text(text: str, params: dict[str, Any], currency: dict[str, str]) -> None:
    for key in ("amount", "house", "hotel"):
        if key in params:
            assert money(params[key], currency) in text, (key, text)


def test_card_texts_print_the_card_amounts(edition: Edition) -> None:
    """A money, each-player or repairs card prints the amounts it moves, in the currency."""
    for card in edition.cards.values():
        if card.effect in {"money", "each_player", "repairs"}:
            _card_amounts_in_text(card.text, card.params, edition.currency)


def test_rule_options_follow_the_rulebook(edition: Edition) -> None:
    """The options that differ from the defaults are exactly the rulebook's differences."""
    assert raw_file(edition.id)["options"] == RULEBOOK_OPTIONS[edition.id]
    for name, value in RULEBOOK_OPTIONS[edition.id].items():
        assert getattr(edition.defaults, name) == value


def test_players_follow_rules_md(edition: Edition) -> None:
    """Player counts: the rulebook's where it gives one, else the classic 2-8."""
    assert (edition.min_players, edition.max_players) == PLAYERS.get(edition.id, (2, 8))


def test_localized_blocks_name_existing_things(edition: Edition) -> None:
    """A localized block names only (and all) the edition's cards, groups and decks; a block
    that is the board's own version in that language (it has "squares") names all squares
    and the edition too; without one, the board's printed names stand (tools/card_texts.py)."""
    blocks = raw_file(edition.id).get("localized", {})
    for lang, block in blocks.items():
        assert lang != edition.language
        if "squares" in block:
            assert block["name"].strip()
            assert set(block["squares"]) == set(edition.square_ids), lang
        assert set(block.get("squares", {})) <= set(edition.square_ids), lang
        assert set(block["cards"]) == set(edition.cards), lang
        assert set(block["decks"]) == set(edition.decks), lang
        assert set(block.get("groups", {})) <= set(edition.group_info), lang
        assert all(v.strip() for v in [*block.get("squares", {}).values(),
                                       *block["cards"].values()])
        for card_id, text in block["cards"].items():
            card = edition.cards[card_id]
            if card.effect in {"money", "each_player", "repairs"}:
                _card_amounts_in_text(text, card.params, edition.currency)


@pytest.mark.parametrize(("edition_id", "language"), [("classic-eur", "nl"), ("ch", "de")])
def test_rulebook_languages_are_localized(edition_id: str, language: str) -> None:
    """The second language of a bilingual rulebook is shipped as a localized block."""
    assert language in raw_file(edition_id).get("localized", {})
