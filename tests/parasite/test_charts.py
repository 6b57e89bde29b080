"""pbem archive's hooks for Parasite (games/parasite/charts.py): charts read only from the view
given, and validated orders written back as lines that validate to the same orders."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from para_helpers import edit, lines, new_game

from pbem.game import OrderLine, View
from pbem.rng import Rng
from pbem_games.parasite import GAME
from pbem_games.parasite.charts import HAND, HEALTH, TOKENS

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "6"))
VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"dog": True},
    {"reactions": "windows"},
    {"unknown-infections": True},
)


def test_the_game_exposes_the_archive_hooks() -> None:
    assert callable(getattr(GAME, "charts", None)) and callable(getattr(GAME, "order_lines", None))


def test_charts_show_health_hands_and_tokens_from_the_public_view() -> None:
    s = new_game(4)
    edit(s, lambda s: s.update(health=["healthy", "distressed", "dead", "healthy"]))
    edit(s, lambda s: s.update(tokens=[[1, 3], [0], [], [0]]))
    edit(s, lambda s: s["hands"].__setitem__(3, ["pep-talk", "crowbar"]))
    got = GAME.charts(GAME.observe(s, None))
    assert got[HEALTH] == {0: 2, 1: 1, 2: 0, 3: 2}
    assert got[TOKENS] == {0: 2, 1: 1, 2: 0, 3: 1}
    assert got[HAND][3] == 2


def test_under_unknown_infections_a_view_charts_only_its_own_tokens() -> None:
    s = new_game(4, **{"unknown-infections": True})
    edit(s, lambda s: s.update(tokens=[[1, 3], [0], [], [0]]))
    assert TOKENS not in GAME.charts(GAME.observe(s, None))
    assert GAME.charts(GAME.observe(s, 0))[TOKENS] == {0: 2}
    assert GAME.charts(GAME.observe(s, 1))[TOKENS] == {1: 1}
    s["over"] = True
    assert GAME.charts(GAME.observe(s, None))[TOKENS] == {0: 2, 1: 1, 2: 0, 3: 1}


def test_charts_depend_on_nothing_the_view_hides() -> None:
    s = new_game(4)
    view = GAME.observe(s, None)
    tampered = View(game=view.game, seat=None, public=view.public, private={"hand": ["x"] * 9})
    assert GAME.charts(view) == GAME.charts(tampered)


def _round_trip(view: View, orders: Any) -> None:
    written = GAME.order_lines(view, orders)
    again = GAME.validate(view, [OrderLine(i + 1, t) for i, t in enumerate(written)])
    assert again == orders, (written, orders)


def test_every_kind_of_turn_line_is_written_back() -> None:
    s = new_game(4)
    edit(s, lambda s: s["hands"].__setitem__(0, ["shotgun", "pep-talk", "crowbar", "sled", "scalpel"]))
    view = GAME.observe(s, 0)
    orders = GAME.validate(
        view,
        lines(
            [
                "discard crowbar",
                "give sled to player 2",
                "play shotgun on player 3 with pep-talk",
                "react scalpel if player 2, player 4",
                "withdraw ability",
                "prefer interrupt item",
                "move office",
            ]
        ),
    )
    written = GAME.order_lines(view, orders)
    assert "play shotgun on biologist with pep-talk" in written and "give sled to medic" in written
    _round_trip(view, orders)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    players=st.integers(4, 8),
    variant=st.sampled_from(VARIANTS),
    bot=st.sampled_from(["random", "greedy"]),
    seed=st.integers(0, 10**6),
)
def test_bot_orders_written_back_validate_to_the_same_orders(
    players: int, variant: dict[str, Any], bot: str, seed: int
) -> None:
    state = GAME.setup(players, variant, Rng(f"c{seed}".encode()))
    steps = 0
    while GAME.outcome(state) is None and steps < 400:
        orders = {}
        for seat in GAME.to_act(state):
            view = GAME.observe(state, seat)
            text = GAME.bots[bot](GAME, view, Rng(f"b{seed}/{steps}/{seat}".encode()))
            orders[seat] = GAME.validate(view, [OrderLine(i + 1, t) for i, t in enumerate(text)])
            _round_trip(view, orders[seat])
            assert set(GAME.charts(view)) >= {HEALTH, HAND}
            assert GAME.describe_private(view) == GAME.describe(view)[1], "the DescribedOnce hook"
        state = GAME.resolve(state, orders, Rng(f"r{seed}/{steps}".encode())).state
        steps += 1
    assert GAME.outcome(state) is not None
