"""Issue 12: the greedy bot plays a real game (defends, clears what blocks its groups), so
that the balance figures in games/symbioz/README.md mean something."""

from __future__ import annotations

from typing import Any

from symbioz_helpers import BLUE, RED, YELLOW, orders_for, position

from pbem.game import OrderLine
from pbem.rng import Rng
from pbem_games.symbioz import GAME


def greedy(state: dict[str, Any], seat: int, salt: int = 0) -> list[str]:
    written = GAME.bots["greedy"](GAME, GAME.observe(state, seat), Rng(b"bot/%d" % salt))
    orders_for(state, seat, *written)  # always legal
    return written


def test_a_krogul_goes_after_a_rival_crapit_in_a_big_group() -> None:
    state = position(3, zerbs={"C2": {YELLOW: 9}, "C6": {RED: 4}}, crapits={"C2": {RED: 1}})
    for salt in range(5):
        written = greedy(state, YELLOW, salt)
        assert "buy 1 krogul C2" in written and "krogul C2 eat red blue" in written
    result = GAME.resolve(state, {YELLOW: orders_for(state, YELLOW, *written)}, Rng(b"t"))
    assert result.state["symbioz"].get("C2") == YELLOW, "no Crapit left to eat the twelfth Zerb"


def test_a_blocked_group_is_cleared_by_a_crapit_then_a_krogul() -> None:
    # One Red Zerb keeps Yellow's 10 from ever making a Symbioz: a Yellow Crapit eats it ...
    blocked = position(3, zerbs={"C2": {YELLOW: 10, RED: 1}, "C6": {RED: 4}})
    written = greedy(blocked, YELLOW)
    assert "buy crapit C2" in written and any(x.startswith("crapit C2 eat red") for x in written)
    # ... and once it has, the Crapit would eat Yellow's own Zerbs: a Krogul eats it.
    cleared = position(3, zerbs={"C2": {YELLOW: 11}, "C6": {RED: 4}}, crapits={"C2": {YELLOW: 1}})
    written = greedy(cleared, YELLOW)
    assert "buy 1 krogul C2" in written and "buy crapit C2" not in written
    result = GAME.resolve(cleared, {YELLOW: orders_for(cleared, YELLOW, *written)}, Rng(b"t"))
    assert result.state["symbioz"].get("C2") == YELLOW, "the Krogul ate the Crapit: 12 Yellow stay"


def test_no_crapit_into_a_lone_group_of_its_own() -> None:
    state = position(3, zerbs={"C2": {YELLOW: 9}, "C3": {YELLOW: 5}, "C6": {RED: 4}})
    for salt in range(5):
        assert not any("crapit" in x for x in greedy(state, YELLOW, salt))


def test_crapit_newborns_are_sent_towards_rival_zerbs() -> None:
    zerbs = {"C6": {RED: 6, YELLOW: 1}, "C7": {RED: 5}, "C5": {YELLOW: 8}}
    state = position(3, zerbs=zerbs, crapits={"C6": {YELLOW: 2}})
    line = next(x for x in greedy(state, YELLOW) if x.startswith("crapit C6"))
    assert line.endswith("prefer C6 C7"), line
    assert "C5" not in line, "never towards our own big group"


def test_a_rivals_lone_group_near_twelve_gets_a_newborn() -> None:
    state = position(3, zerbs={"C2": {YELLOW: 8}, "C3": {RED: 7}, "C10": {BLUE: 4}})
    for salt in range(5):
        assert any(x.startswith("grow C2 prefer C3") for x in greedy(state, YELLOW, salt))


def _play(seed: int, players: int) -> dict[str, Any]:
    state = GAME.setup(players, {}, Rng(b"bots/%d" % seed))
    state["opener"] = state["first"]
    while not state["over"]:
        orders = {}
        for seat in GAME.to_act(state):
            view = GAME.observe(state, seat)
            written = GAME.bots["greedy"](GAME, view, Rng(b"g/%d/%d/%d" % (seed, state["turn"], seat)))
            orders[seat] = GAME.validate(view, [OrderLine(i, x) for i, x in enumerate(written, 1)])
        state = dict(GAME.resolve(state, orders, Rng(b"t")).state, opener=state["opener"])
    return state


def test_four_greedy_bots_reach_the_target() -> None:
    """The greedy bot before this could not clear what blocked its groups: four of them
    never reached 3 Symbioz in 200 games."""
    games = [_play(seed, 4) for seed in range(12)]
    assert sum("Symbioz reached" in g["result"] for g in games) >= 6


def test_either_player_can_win_a_two_player_greedy_game() -> None:
    """The greedy bot before this lost every 2-player game in which it played first in turn 1."""
    games = [_play(seed, 2) for seed in range(30)]
    assert sum(g["winners"] == [g["opener"]] for g in games) >= 3
    assert sum(g["winners"] == [1 - g["opener"]] for g in games) >= 3
