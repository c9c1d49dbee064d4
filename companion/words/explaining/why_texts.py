"""Why a charge is its amount, by message id, in English (the source language).

companion.words.explaining.why_words picks one of these for the reason the engine gave a money move
(companion.rules.events.Why: the rule, the square, the figures) and fills it in; the phones
show it when a line of Latest or History is tapped, the table screen under the last move.
The ids are the gettext message contexts: "why_<rule>". Fields in braces: {amount} and the
figures as money ({rent}, {cost}, {value}...), counts as numbers ({houses}, {times},
{dice}...), {square} a square in the table's language, {owner} the player paid.
They are extracted into the one catalog per language, like every other sentence
(companion/locale/README.md).
"""

from __future__ import annotations

from companion.words.message import Message, _n, _t

_WHY: tuple[Message, ...] = (
    _t("why_rent_lot", "Rent {amount}: the printed rent of {square}, no houses"),
    _t("why_rent_full_group",
       "Rent {amount} = {rent} × {times}: {owner} owns the whole colour group, no houses"),
    _t("why_rent_all_but_one",
       "Rent {amount} = {rent} × {times}: {owner} owns all the group's lots but one"),
    _t("why_rent_group_mortgaged",
       "Rent {amount}: the printed rent of {square}; a mortgaged lot of the group stops the "
       "double rent"),
    _n("why_rent_houses", "Rent {amount}: {square} with {houses} house",
       "Rent {amount}: {square} with {houses} houses", "houses"),
    _t("why_rent_hotel", "Rent {amount}: {square} with a hotel"),
    _t("why_rent_skyscraper", "Rent {amount}: {square} with a skyscraper"),
    _n("why_rent_station", "Rent {amount}: {owner} owns {stations} station",
       "Rent {amount}: {owner} owns {stations} stations", "stations"),
    _n("why_rent_station_depot",
       "Rent {amount} = {rent} × 2: {owner} owns {stations} station, with a train depot here",
       "Rent {amount} = {rent} × 2: {owner} owns {stations} stations, with a train depot here",
       "stations"),
    _n("why_rent_utility", "Rent {amount} = {dice} on the dice × {times} ({utilities} utility)",
       "Rent {amount} = {dice} on the dice × {times} ({utilities} utilities)", "utilities"),
    _t("why_rent_utility_card", "Rent {amount} = {dice} on the dice × {times}, as the card says"),
    # TRANSLATORS: {reason} is a rent's reason; a card made it pay {card_times} times that
    _t("why_card_times", "{reason}; × {card_times} as the card says = {amount}"),
    _t("why_rent_claimed", "Rent {amount} for {square}, claimed by {owner} in time"),
    _t("why_salary", "Salary {amount} for passing GO"),
    _t("why_salary_on_go", "Salary {amount} = {salary} × 2 for landing on GO"),
    _t("why_tax", "{square}: {amount}, as printed on the square"),
    _t("why_free_parking", "The Free Parking pot: {amount}"),
    _t("why_birthday_gift", "Birthday gift from the bank: {amount}"),
    _t("why_jail_fine", "Fine {amount} to leave jail"),
    _t("why_jail_fine_forced", "Fine {amount}: due after {rolls} rolls in jail without doubles"),
    _t("why_purchase", "{square} bought at its printed price, {amount}"),
    _t("why_auction", "{square} won at auction with the highest bid, {amount}"),
    _t("why_building_auction", "A building won at auction with the highest bid, {amount}"),
    _t("why_mortgage", "The mortgage value of {square}: {amount}"),
    _t("why_mortgage_interest", "Interest {amount} = {percent} % of {value}"),
    _t("why_mortgage_lift", "Lift {amount} = {value} + {percent} % interest"),
    _t("why_mortgage_lift_value", "Lift {amount}: the mortgage value, no interest"),
    _n("why_build", "Building {amount} = {count} × {cost}, the house price of {square}",
       "Building {amount} = {count} × {cost}, the house price of {square}", "count"),
    _t("why_build_depot", "A train depot on {square}: {amount}"),
    _n("why_sell_building", "Sold back: {amount} = half of {count} × {cost}",
       "Sold back: {amount} = half of {count} × {cost}", "count"),
    _t("why_sell_depot", "Train depot sold back: {amount} = half of {cost}"),
    _t("why_sell_group_hotels",
       "The group's hotels sold back together: {amount} = half of {lots} × {count} × {cost}"),
    _t("why_rebalance", "The group built evenly again at {cost} a house (sold back at half): "
       "{amount}"),
    _t("why_card", "As the card says: {amount}"),
    _t("why_card_each_player", "As the card says: {amount} from each player"),
    _t("why_card_pay_each_player", "As the card says: {amount} to each player"),
    _t("why_card_repairs", "Repairs {amount} = {houses} × {per_house} + {hotels} × {per_hotel}"),
    _t("why_card_repairs_skyscrapers",
       "Repairs {amount} = {houses} × {per_house} + {hotels} × {per_hotel} + {skyscrapers} × "
       "{per_skyscraper}"),
    _t("why_bankruptcy", "Bankrupt: all the cash left, {amount}, goes to the creditor"),
    _t("why_bankrupt_buildings", "Bankrupt: the bank buys the buildings on {square} at half, "
       "{amount}"),
    _t("why_start_cash", "Starting cash: {amount}"),
    _t("why_start_pot", "The Free Parking pot starts with {amount}"),
    _t("why_dealt_deed", "{square} dealt at the start at its printed price, {amount}"),
    _t("why_trade", "Agreed in a trade: {amount}"),
    _t("why_payment", "A payment entered at the table: {amount}"),
    # TRANSLATORS: added after a reason when a house rule of the table set the figure
    _t("why_house_rule", "{reason} (a house rule of this table)"),
)
#: every reason by message id
WHY: dict[str, Message] = {m.id: m for m in _WHY}
