"""The teaching table's lessons, by message id, in English (the source language).

companion.words.explaining.lessons says one of these the first time a rule applies in a game
(companion.game.telling.teaching): two short sentences, said on the table screen and on the phone of
the player concerned, with the rulebook section the rule is in. The ids are the gettext
message contexts: "lesson_<topic>". Fields in braces: {player} the player concerned,
{salary} and {fine} money as the edition writes it, {houses} the houses before a hotel.
Extracted into the one catalog per language (companion/locale), like every other sentence.
"""

from __future__ import annotations

from companion.words.message import Message, _t

_LESSONS: tuple[Message, ...] = (
    # TRANSLATORS: the heading of a lesson of the teaching table (the first time a rule applies)
    _t("lesson_badge", "New rule"),
    # TRANSLATORS: where a lesson's rule stands; {section} is a heading of the rules page
    _t("lesson_where", "Rules: {section}"),
    _t("lesson_go", "Passing GO: the bank pays {salary}. It pays it every time a token passes "
       "or lands on GO."),
    _t("lesson_doubles", "{player} rolled a double and rolls again. Three doubles in a row send "
       "the token to jail."),
    _t("lesson_rent", "Landing on another player's property costs rent. The deed shows how "
       "much; a whole colour group earns more."),
    _t("lesson_station_rent", "Stations: the rent grows with every station the owner has. The "
       "deed shows each step."),
    _t("lesson_utility_rent", "Utilities: the rent is the dice total times a number. The number "
       "is higher when the owner has both."),
    _t("lesson_tax", "A tax square: pay the bank what it says. Nobody can buy it."),
    _t("lesson_card", "A card: do what it says. A Get Out of Jail Free card is kept until it is "
       "used or sold."),
    _t("lesson_jail", "{player} is in jail. Leave by paying {fine}, using a Get Out of Jail Free "
       "card or rolling a double."),
    _t("lesson_full_group", "{player} owns a whole colour group. Its lots earn more rent, and "
       "houses can be built on them now."),
    _t("lesson_building", "Build evenly: a lot gets another house only when every lot of its "
       "group has as many. A hotel comes after {houses} houses."),
    _t("lesson_shortage", "The bank has run out of houses or hotels: nobody builds until some "
       "come back. The banker may auction them."),
    _t("lesson_mortgage", "A mortgaged property earns no rent until the mortgage is lifted. The "
       "deed shows its mortgage value."),
    _t("lesson_auction", "An auction: every player may bid, on their phone. The highest bid "
       "wins once the others pass."),
    _t("lesson_trade", "A trade: players swap deeds, cash and jail cards. Both must agree, and "
       "buildings are sold first."),
    _t("lesson_debt", "{player} owes more than their cash. Sell buildings or mortgage to pay; "
       "what cannot be paid is bankruptcy."),
    _t("lesson_bankrupt", "{player} is bankrupt and leaves the game. What they had goes to the "
       "player they owed, or to the bank."),
)
#: every lesson word by message id
LESSONS: dict[str, Message] = {m.id: m for m in _LESSONS}
