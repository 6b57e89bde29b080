"""Symbioz options: kebab-case names, old spellings and games saved before a rename."""

from __future__ import annotations

import pytest
from symbioz_helpers import RED, YELLOW, lines, orders_for, play, position, texts

from pbem.engine import parse_options
from pbem.game import OrderErrors
from pbem.rng import Rng
from pbem_games.symbioz import GAME
from pbem_games.symbioz.state import options_of


def test_old_snake_case_names_are_read() -> None:
    assert GAME.setup(2, {"two_player_board": "full"}, Rng(b"o"))["options"]["two-player-board"] == "full"
    assert parse_options(GAME, {"zerb_cost": "2"})["zerb-cost"] == 2
    with pytest.raises(ValueError, match="unknown Symbioz option"):
        GAME.setup(2, {"zerb_kost": 2}, Rng(b"o"))


def test_a_game_saved_with_old_option_names_plays_on() -> None:
    state = position(zerbs={"C2": {YELLOW: 4}})
    state["options"] = {k.replace("-", "_"): v for k, v in state["options"].items()}
    del state["options"]["purchase_limit"]  # saved before the option existed: no limit
    state["options"]["points"] = 4
    assert options_of(state)["points"] == 4 and "zerb-cost" in options_of(state)
    res = play(state, {YELLOW: ["buy 4 zerbs C2"]})
    assert res.state["zerbs"]["C2"][YELLOW] == 10  # 4 + 4 bought + 2 newborns
    assert "zerb-cost" in res.state["options"] and "zerb_cost" not in res.state["options"]


# -- purchase-limit (ruling 18) ----------------------------------------------------------


def test_default_limit_is_what_the_square_would_breed() -> None:
    state = position(zerbs={"C2": {YELLOW: 4}, "C3": {YELLOW: 8}})
    with pytest.raises(OrderErrors) as err:
        orders_for(state, YELLOW, "buy 2 zerbs C2")
    assert "at most 1 more Zerb may be bought into C2" in err.value.errors[0].message
    assert err.value.errors[0].suggestion == "buy 1 zerb C2"
    orders_for(state, YELLOW, "buy 2 zerbs C3")  # 8 Zerbs breed 2
    with pytest.raises(OrderErrors):
        orders_for(state, YELLOW, "buy 2 zerbs C3", "buy 1 zerb C3 else none")


def test_zerbs_beyond_the_limit_follow_else() -> None:
    state = position(zerbs={"C2": {YELLOW: 4}, "C3": {YELLOW: 4}})
    res = play(state, {YELLOW: ["buy 3 zerbs C2 else C3 none"]})
    assert "C2, C3, 1 lost" in texts(res) and "at most 1 Zerb(s) bought into C2 a turn" in texts(res)
    # 4 + 1 bought + 1 newborn in each; the third Zerb is not bought (both limits reached)
    assert res.state["zerbs"]["C2"][YELLOW] == 6 and res.state["zerbs"]["C3"][YELLOW] == 6


def test_fertile_squares_allow_one_per_three() -> None:
    state = position(zerbs={"A1": {YELLOW: 6}}, options={"buy-in-fertile": "all"})
    orders_for(state, YELLOW, "buy 2 zerbs A1")
    with pytest.raises(OrderErrors):
        orders_for(state, YELLOW, "buy 3 zerbs A1")


def test_limit_options_double_and_none() -> None:
    zerbs = {"C2": {YELLOW: 4}}
    orders_for(position(zerbs=zerbs, options={"purchase-limit": "double"}), YELLOW, "buy 4 zerbs C2")
    with pytest.raises(OrderErrors):
        orders_for(position(zerbs=zerbs, options={"purchase-limit": "double"}), YELLOW, "buy 5 zerbs C2")
    res = play(position(zerbs=zerbs, options={"purchase-limit": "none"}), {YELLOW: ["buy 8 zerbs C2"]})
    assert res.state["symbioz"] == {"C2": YELLOW}  # 12 by purchase in one turn


def test_limit_leaves_animals_alone() -> None:
    state = position(zerbs={"C2": {YELLOW: 1}})
    orders_for(state, YELLOW, "buy 3 crapits C2")


def test_the_limit_restores_the_game() -> None:
    """Without a limit greedy bots make a Symbioz by purchase in turn 2; with it, not before 4."""
    for limit, earliest in (("none", 2), ("breed", 4)):
        state = GAME.setup(4, {"purchase-limit": limit}, Rng(b"race"))
        first = None
        while not state["over"] and first is None:
            orders = {}
            for seat in GAME.to_act(state):
                view = GAME.observe(state, seat)
                written = GAME.bots["greedy"](GAME, view, Rng(b"race/%d/%d" % (state["turn"], seat)))
                orders[seat] = GAME.validate(view, lines(*written))
            turn = state["turn"]
            state = GAME.resolve(state, orders, Rng(b"t")).state
            first = turn if state["symbioz"] else None
        assert first == earliest


# -- fertile squares and bought pawns (ruling 2) -------------------------------------------


def test_animals_may_be_bought_into_a_fertile_square_zerbs_may_not() -> None:
    state = position(zerbs={"A1": {YELLOW: 3}, "C2": {YELLOW: 4}})
    res = play(state, {YELLOW: ["buy crapit A1", "buy krogul A1"]})
    assert res.state["crapits"]["A1"][YELLOW] + res.state["kroguls"]["A1"][YELLOW] >= 1
    with pytest.raises(OrderErrors, match="A1 is fertile: Zerbs reach it by growth only"):
        orders_for(state, YELLOW, "buy zerb A1")
    with pytest.raises(OrderErrors, match="no pawn is bought into it"):
        orders_for(
            position(zerbs={"A1": {YELLOW: 3}}, options={"buy-in-fertile": "none"}), YELLOW, "buy crapit A1"
        )
    orders_for(position(zerbs={"A1": {YELLOW: 3}}, options={"buy-in-fertile": "all"}), YELLOW, "buy zerb A1")


def test_buy_in_fertile_saved_as_true_or_false_is_read() -> None:
    state = position(zerbs={"A1": {YELLOW: 3}})
    state["options"]["buy-in-fertile"] = False
    assert options_of(state)["buy-in-fertile"] == "none"
    with pytest.raises(OrderErrors):
        orders_for(state, YELLOW, "buy crapit A1")
    state["options"]["buy-in-fertile"] = True
    assert options_of(state)["buy-in-fertile"] == "all"


# -- the order form lists legal growth targets only -------------------------------------------


def test_order_form_lists_only_legal_growth_targets_with_counts() -> None:
    # C2 (8 Yellow) borders B1, B2, C1, C3: C3 holds 8 Yellow (not fewer), B2 is saturated,
    # C1 holds 7 Yellow (room for one newborn by the vessels rule).
    zerbs = {"C2": {YELLOW: 8}, "C3": {YELLOW: 8}, "B2": {RED: 12 - 1, YELLOW: 1}, "C1": {YELLOW: 7}}
    form = "\n".join(GAME.order_form(GAME.observe(position(zerbs=zerbs), YELLOW)))
    line = next(x for x in form.splitlines() if x.startswith("#    C2:"))
    assert line == "#    C2: 8 Zerbs, 2 newborns -> C2 2, B1 2, C1 1"
    assert "no newborn" not in line and all(len(x) < 72 for x in form.splitlines())
