"""The Parasite bots place the Items in their hands (``place ITEM``).

The rules audit of the eleventh session let a Turn file place an Item from the hand on the
character; the bots went on ignoring it, so the engine-only games of the property tests and
the benchmarks never reached that rule.  Each bot now writes ``place`` lines: the random bot
for a random choice of its Items, the greedy bot for all of them (an Item helps only on the
character).  This plays seeded games with each bot and checks every placing that a Turn
file asked for: the seat held the card, and the turn's events say it was placed (an Item may be
used up, or lost, later in the same Turn, so the events are the witness, not the end state).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from pbem.game import bot_orders
from pbem.registry import get_game
from pbem.rng import Rng
from pbem_games.parasite.cards import load_cards


def _seat_rng(prefix: str) -> Callable[[int], Rng]:
    """Each seat's bot randomness at one step."""
    return lambda seat: Rng(f"{prefix}/{seat}".encode())


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_place_items_from_their_hands(bot: str) -> None:
    game = get_game("parasite")
    options = {v.name: v.default for v in game.info.variants}
    names = {cid: info.name for cid, info in load_cards().cards.items()}
    placed = 0
    for seed in range(4):
        state = game.setup(5, options, Rng(f"bots-place/{seed}".encode()))
        for step in range(2000):
            if game.outcome(state) is not None:
                break
            orders = bot_orders(game, state, bot, _seat_rng(f"{bot}/{seed}/{step}"))
            before = {seat: Counter(game.observe(state, seat).private.get("hand", [])) for seat in orders}
            result = game.resolve(state, orders, Rng(f"turn/{seed}/{step}".encode()))
            texts = [e.text for e in result.events]
            for seat, order in orders.items():
                cards = order.get("place", []) if isinstance(order, dict) else []
                for card in cards:
                    placed += 1
                    assert before[seat][card] >= 1, f"placed {card} without holding it"
                    said = f"Player {seat + 1} places the Item {names[card]} on their character."
                    assert said in texts, f"{card} placed by seat {seat}: {texts}"
            state = result.state
    assert placed > 0, f"the {bot} bot never placed an Item in 4 games"
