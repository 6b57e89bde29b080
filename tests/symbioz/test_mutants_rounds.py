"""Mutation review (twelfth session): who is asked in an order round per phase, and the
game's closing line in that mode.

Each test here kills mutants of ``games/symbioz/rounds.py`` that the suite let through:
``has_choice`` asking a player who has nothing to decide or skipping one who has, and
``_next`` dropping the result line when the last round ends the game.
"""

from __future__ import annotations

from typing import Any

from symbioz_helpers import BLUE, PURPLE, RED, YELLOW, orders_for, position

from pbem.rng import Rng
from pbem_games.symbioz import GAME

PHASE = {"order-rounds": "phase"}


def phased(phase: int, options: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
    """A position in phase mode whose order round is ``phase``."""
    state = position(options={**PHASE, **(options or {})}, **kwargs)
    state["phase"] = phase
    return state


def test_a_player_with_one_zerb_left_is_asked_to_place_its_newborn() -> None:
    """Rulebook, Shortage of Pawns: "A player who has no more Zerbs (because they are all on
    the board) must wait until they are eaten to have them back."  One Zerb left is not none:
    Multiplication, "A new Zerb is added for each group of 4 Zerbs of the same color"."""
    yellow = {sq: {YELLOW: 10} for sq in ("B1", "B2", "B3", "B4", "B5")} | {"C2": {YELLOW: 9}}
    blue = {sq: {BLUE: 10} for sq in ("B6", "B7", "B8", "C7", "C8")} | {"C9": {BLUE: 9}, "C10": {BLUE: 1}}
    state = phased(2, zerbs={**yellow, **blue, "C5": {RED: 4}})
    assert state["supply"]["zerb"][YELLOW] == 1 and state["supply"]["zerb"][BLUE] == 0
    assert GAME.to_act(state) == (YELLOW, RED), "Yellow has one Zerb to place; Blue has none"
    orders = {seat: orders_for(state, seat) for seat in GAME.to_act(state)}
    after = GAME.resolve(state, orders, Rng(b"one-left")).state
    assert not after["symbioz"], "no square reached 12 of one colour"
    assert after["supply"]["zerb"][YELLOW] == 0
    assert sum(row[YELLOW] for row in after["zerbs"].values()) == 60, "the last Zerb was placed"


def test_introduction_asks_only_players_who_can_buy_and_place_something() -> None:
    """Rulebook, Introduction Phase: "Each player has 10 points to spend on plants and animals
    each turn"; Multiplication: "As in the introduction phase, Zerbs may not be added to
    saturated areas".  With 2 points (option ``points``) nobody can afford an animal, so a
    player whose only square is full (12 Zerbs) has nothing to buy; one whose square breeds
    may buy a Zerb there; one whose 2 Zerbs breed nothing may buy none (``purchase-limit``
    ``breed``, the default)."""
    zerbs = {"C2": {YELLOW: 6, RED: 6}, "C10": {BLUE: 4}, "C8": {PURPLE: 2}}
    state = phased(1, {"points": 2}, zerbs=zerbs)
    assert GAME.to_act(state) == (BLUE,)


def test_introduction_does_not_ask_a_player_with_no_pawn_left_to_buy() -> None:
    """Rulebook, Shortage of Pawns: "A player who has no more Zerbs (because they are all on
    the board) must wait until they are eaten to have them back."  Blue's 60 Zerbs are all on
    the board and 2 points buy no animal: Blue has nothing to buy; Red, with room, has."""
    blue = {sq: {BLUE: 10} for sq in ("B1", "B2", "B3", "B4", "B5", "B6")}
    state = phased(1, {"points": 2}, zerbs={**blue, "C10": {RED: 4}})
    assert state["supply"]["zerb"][BLUE] == 0
    assert GAME.to_act(state) == (RED,)


def test_introduction_asks_a_player_whose_full_square_can_take_an_animal() -> None:
    """Rulebook, Introduction Phase: "Each player may add Zerbs and/or animals to the map in
    turn": a full square refuses Zerbs, not a Krogul or a Crapit (10 points buy either)."""
    state = phased(1, zerbs={"C2": {YELLOW: 6, RED: 6}})
    assert GAME.to_act(state) == (YELLOW, RED)
    assert GAME.to_act(phased(1, {"points": 2}, zerbs={"C2": {YELLOW: 6, RED: 6}})) == ()


def test_the_last_round_played_in_phases_says_who_won() -> None:
    """Rulebook, The Next Turn: "If it was already on the number 12, the game is over and the
    winner is determined."  The result line is told in the events, as in whole turns."""
    zerbs = {"C2": {YELLOW: 5}, "C5": {RED: 4}}
    state = phased(4, players=2, zerbs=zerbs, crapits={"C5": {YELLOW: 1}})
    state["turn"] = 12
    end = GAME.resolve(state, {seat: orders_for(state, seat) for seat in GAME.to_act(state)}, Rng(b"end"))
    assert end.state["over"] and end.state["winners"] == [YELLOW]
    assert end.state["result"] in [e.text for e in end.events]
    assert end.state["result"].startswith("Yellow (player 1) wins (round 12 played;")
