"""`commands_for` (what every game button sends, the state read once for the view) says
what `command_for` says of each button and `decider` of whom they answer for, in every
state of bot games: turns, jail, purchases, auctions, cards, debts."""

from __future__ import annotations

from companion.game.applying import apply_command, state_json
from companion.game.table.buttons import GAME_BUTTONS, command_for, commands_for, decider
from companion.rules import Accepted, GameState
from tools.bench.journal import bot_script


def test_every_button_says_the_same_read_once_or_one_by_one() -> None:
    kinds: set[str] = set()
    sent = 0
    for seed in (2, 5):
        g: GameState | None = None
        for command in bot_script(seed=seed, count=400):
            result = apply_command(g, command)
            assert isinstance(result, Accepted)
            g = result.state
            state = state_json(g)
            buttons, by = commands_for(state)
            assert by == decider(state)
            assert buttons == {b: command_for(state, b) for b in GAME_BUTTONS}
            kinds.add(str((state.get("pending") or {}).get("kind")))
            sent += sum(c is not None for c in buttons.values())
    assert {"buy", "auction", "None"} <= kinds, kinds  # the games reached them
    assert sent > 400  # and the buttons sent something in most states
