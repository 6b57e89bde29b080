"""Setup, turn order, introduction and multiplication: one scenario per rule and example."""

from __future__ import annotations

import copy

import pytest
from symbioz_helpers import BLUE, PURPLE, RED, YELLOW, orders_for, play, position, texts

from pbem.game import IllegalOrderError, OrderErrors
from pbem.rng import Rng
from pbem_games.symbioz import GAME
from pbem_games.symbioz.state import symbioz_to_win


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup(players: int) -> None:
    state = GAME.setup(players, {}, Rng(b"s"))
    assert state["turn"] == 1 and 0 <= state["first"] < players
    for seat in range(players):
        on_board = {sq: row[seat] for sq, row in state["zerbs"].items() if row[seat]}
        assert sorted(on_board.values()) == [4, 4, 4] and all(sq.startswith("C") for sq in on_board)
        assert state["supply"]["zerb"][seat] == 48
        assert state["supply"]["crapit"][seat] == 25 and state["supply"]["krogul"][seat] == 6
    assert len(state["squares"]) == (12 if players == 2 else 24)


def test_first_player_is_random_and_rotates_clockwise() -> None:
    firsts = {GAME.setup(4, {}, Rng(bytes([i]))).get("first") for i in range(40)}
    assert firsts == {0, 1, 2, 3}
    state = position(3, zerbs={"C1": {0: 4}}, first=2)
    assert GAME.to_act(state) == (2, 0, 1)
    after = play(state).state
    assert after["first"] == 0 and after["turn"] == 3
    assert GAME.to_act(after) == (0, 1, 2)


def test_symbioz_needed() -> None:
    assert symbioz_to_win(2, {"first-game": False}) == 3
    assert symbioz_to_win(4, {"first-game": False}) == 3
    assert symbioz_to_win(3, {"first-game": False}) == 4
    assert symbioz_to_win(4, {"first-game": True}) == 4
    assert symbioz_to_win(3, {"first-game": True}) == 5


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="unknown"):
        GAME.setup(4, {"zerbcost": 2}, Rng(b"s"))
    with pytest.raises(ValueError, match="one of"):
        GAME.setup(4, {"zerb-cost": 0}, Rng(b"s"))
    with pytest.raises(ValueError, match="2 to 4"):
        GAME.setup(5, {}, Rng(b"s"))


def test_turn_one_skips_introduction() -> None:
    state = GAME.setup(4, {}, Rng(b"s"))
    with pytest.raises(OrderErrors) as err:
        orders_for(state, 0, "buy zerb C1")
    assert isinstance(err.value.errors[0], IllegalOrderError)
    assert "turn 1" in err.value.errors[0].message
    after = play(state).state
    # Each start square of 4 Zerbs gives one newborn, kept at home by default.
    assert after["zerbs"]["C1"][YELLOW] == 5 and after["zerbs"]["C12"][PURPLE] == 5


# -- introduction ----------------------------------------------------------------------


def test_purchase_with_costs_and_points() -> None:
    state = position(zerbs={"C2": {YELLOW: 4}, "C3": {YELLOW: 1}}, options={"purchase-limit": "none"})
    after = play(state, {YELLOW: ["buy 2 zerbs C2", "buy crapit C3", "buy krogul C3"]}).state
    assert after["supply"]["zerb"][YELLOW] == 60 - 5 - 2 - 1  # C2 (6) breeds once
    # The Krogul's only food is its owner's own Crapit: it eats it and clones.
    assert after["supply"]["crapit"][YELLOW] == 25 and after["supply"]["krogul"][YELLOW] == 4
    with pytest.raises(OrderErrors) as err:
        orders_for(state, YELLOW, "buy 3 zerbs C2", "buy krogul C3", "buy crapit C3")
    assert "1 crapit costs 3 points; 2 of 10 left" in err.value.errors[0].message
    assert err.value.errors[0].line is not None and err.value.errors[0].line.number == 3


def test_costs_are_options() -> None:
    state = position(zerbs={"C2": {YELLOW: 4}}, options={"krogul-cost": 2, "points": 4})
    orders_for(state, YELLOW, "buy 2 krogul C2")
    with pytest.raises(OrderErrors, match="cost 6 points; 4 of 4 left"):
        orders_for(state, YELLOW, "buy 3 krogul C2")


def test_unspent_points_are_lost() -> None:
    state = position(zerbs={"C2": {YELLOW: 1}}, options={"purchase-limit": "none"})
    after = play(state, {YELLOW: ["buy 1 zerb C2"]}).state
    orders_for(after, YELLOW, "buy 10 zerbs C2")  # a fresh 10 points, no carry-over
    with pytest.raises(OrderErrors):
        orders_for(after, YELLOW, "buy 11 zerbs C2")


def test_purchases_only_into_squares_with_own_zerbs() -> None:
    state = position(zerbs={"C2": {YELLOW: 4}, "C5": {RED: 4}, "A1": {YELLOW: 3}})
    with pytest.raises(OrderErrors) as err:
        orders_for(state, YELLOW, "buy crapit C5", "buy zerb C4", "buy zerb A1")
    first, second, third = err.value.errors
    assert "no Zerb in C5" in first.message and first.suggestion in {"buy crapit C2", "buy crapit A1"}
    assert "no Zerb in C4" in second.message
    assert "fertile" in third.message
    orders_for(position(zerbs={"A1": {YELLOW: 3}}, options={"buy-in-fertile": "all"}), YELLOW, "buy zerb A1")


def test_no_purchase_beyond_the_supply() -> None:
    state = position(zerbs={"C2": {YELLOW: 4}}, kroguls={"C3": {YELLOW: 5}})
    with pytest.raises(OrderErrors, match="only 1 krogul"):
        orders_for(state, YELLOW, "buy 2 kroguls C2")


def test_saturated_square_falls_back_in_play_order() -> None:
    # Red buys first and fills C3; Yellow's purchase for C3 falls back to its else square.
    zerbs = {"C3": {YELLOW: 5, RED: 5}, "C2": {YELLOW: 2}, "C4": {RED: 1}}
    state = position(zerbs=zerbs, first=RED, options={"purchase-limit": "none"})
    result = play(state, {RED: ["buy 2 zerb C3"], YELLOW: ["buy 2 zerb C3 else C2"]})
    assert "Yellow buys 2 Zerbs for C3: C2 x2 (C3 refused: saturated (12 Zerbs))" in texts(result)
    # 'else none' gives the pawns up: nothing bought, the points are lost.
    result = play(state, {RED: ["buy 2 zerb C3"], YELLOW: ["buy 2 zerb C3 else none"]})
    assert result.state["supply"]["zerb"][YELLOW] == state["supply"]["zerb"][YELLOW] - 1  # one C3 newborn
    assert "2 lost" in texts(result)
    # Yellow first: Yellow's purchase fits, Red's is the one that falls back.
    result = play(
        position(zerbs=zerbs, first=YELLOW, options={"purchase-limit": "none"}),
        {RED: ["buy 2 zerb C3"], YELLOW: ["buy 2 zerb C3"]},
    )
    assert result.state["zerbs"]["C4"][RED] >= 3


def test_bought_zerbs_with_no_room_at_all_are_refused_when_writing() -> None:
    state = position(zerbs={"C3": {YELLOW: 5, RED: 6}}, options={"purchase-limit": "none"})
    with pytest.raises(OrderErrors) as err:
        orders_for(state, YELLOW, "buy 3 zerb C3 else none")
    assert err.value.errors[0].suggestion == "buy 1 zerb C3"
    orders_for(state, YELLOW, "buy 3 zerb C3")  # the rest go by the automatic default


# -- multiplication --------------------------------------------------------------------


def test_rulebook_example_communicating_vessels() -> None:
    # "4 Zerbs in Area A and 7 in Area B. ... This new Zerb may not be added to Area B."
    state = position(zerbs={"C2": {YELLOW: 4}, "C3": {YELLOW: 7}})
    result = play(state, {YELLOW: ["grow C2 -> C3"]})
    assert "C3 refused: holds 7 Yellow Zerbs, not fewer than the 4 of C2" in texts(result)
    assert result.state["zerbs"]["C2"][YELLOW] == 5  # the automatic default: the parent square
    assert result.state["zerbs"]["C3"][YELLOW] == 8  # only its own newborn
    lost = play(state, {YELLOW: ["grow C2 -> C3 else none"]}).state
    assert lost["zerbs"]["C2"][YELLOW] == 4
    # Equal is refused too ("as many or more").
    same = position(zerbs={"C2": {YELLOW: 4}, "C3": {YELLOW: 4}})
    equal = play(same, {YELLOW: ["grow C2 -> C3 else none"]})
    assert equal.state["zerbs"]["C3"][YELLOW] == 5 and equal.state["zerbs"]["C2"][YELLOW] == 4


def test_rulebook_example_newborns_do_not_breed() -> None:
    # "4 yellow Zerbs create one new Zerb placed in an adjacent square which already
    # contains three yellow Zerbs.  Those three Zerbs may not multiply."
    state = position(zerbs={"C2": {YELLOW: 4}, "C3": {YELLOW: 3}})
    after = play(state, {YELLOW: ["grow C2 -> C3"]}).state
    assert after["zerbs"]["C2"][YELLOW] == 4 and after["zerbs"]["C3"][YELLOW] == 4
    # ... but next turn the group of 4 multiplies.
    later = play(after, {YELLOW: ["grow C3 -> C3"]}).state
    assert later["zerbs"]["C3"][YELLOW] == 5


def test_vessels_ignore_other_colours() -> None:
    state = position(zerbs={"C2": {YELLOW: 4}, "C3": {RED: 7}})
    after = play(state, {YELLOW: ["grow C2 -> C3"]}).state
    assert after["zerbs"]["C3"] == [1, 8, 0, 0]


def test_one_newborn_per_four_and_targets_in_order() -> None:
    state = position(zerbs={"C2": {YELLOW: 9}})
    after = play(state, {YELLOW: ["grow C2 -> B1 C1"]}).state
    assert [after["zerbs"][sq][YELLOW] for sq in ("C2", "B1", "C1")] == [9, 1, 1]
    pref = play(state, {YELLOW: ["grow C2 prefer B2 C1"]}).state
    assert pref["zerbs"]["B2"][YELLOW] == 2 and pref["zerbs"]["C1"][YELLOW] == 0


def test_fertile_squares_breed_with_three() -> None:
    state = position(2, zerbs={"A1": {YELLOW: 3}, "A2": {RED: 6}, "B1": {YELLOW: 2}})
    after = play(state).state
    assert after["zerbs"]["A1"][YELLOW] == 4 and after["zerbs"]["A2"][RED] == 8
    assert after["zerbs"]["B1"][YELLOW] == 2


def test_growth_is_the_way_into_fertile_squares() -> None:
    state = position(zerbs={"B1": {YELLOW: 4}})
    after = play(state, {YELLOW: ["grow B1 -> A1"]}).state
    assert after["zerbs"]["A1"][YELLOW] == 1


def test_no_newborn_into_a_saturated_square_and_lost_when_nowhere() -> None:
    zerbs = {"C1": {YELLOW: 4, RED: 8}, "B1": {YELLOW: 6, RED: 6}, "C2": {YELLOW: 6, RED: 6}}
    state = position(2, zerbs=zerbs)
    result = play(state, {YELLOW: ["grow C1 -> B1"]})
    assert "B1 refused: saturated (12 Zerbs)" in texts(result)
    assert "Yellow C1 (4 Zerbs, 1 newborn): 1 lost" in texts(result)
    assert sum(result.state["zerbs"][sq][YELLOW] for sq in ("C1", "B1", "C2")) == 16


def test_no_birth_when_the_supply_is_empty() -> None:
    full = {f"C{i}": {YELLOW: 8} for i in range(1, 8)}
    full["C8"] = {YELLOW: 4}  # 60 Zerbs on the board
    state = position(zerbs=full)
    assert state["supply"]["zerb"][YELLOW] == 0
    result = play(state)
    assert result.state["zerbs"] == state["zerbs"]
    assert "not born: no Zerb left in supply" in texts(result)
    full["C8"] = {YELLOW: 3}  # one Zerb left: only the first square in board order breeds
    after = play(position(zerbs=full)).state
    assert after["zerbs"]["C1"][YELLOW] == 9 and after["zerbs"]["C2"][YELLOW] == 8


def test_closed_squares_take_nothing() -> None:
    state = position(zerbs={"C2": {YELLOW: 8}}, symbioz={"C3": BLUE})
    with pytest.raises(OrderErrors, match="closed by a Blue Symbioz"):
        orders_for(state, YELLOW, "grow C2 -> C3")
    after = play(state).state
    assert after["zerbs"]["C3"] == [0, 0, 0, 0]


def test_no_turn_after_the_end() -> None:
    with pytest.raises(ValueError, match="over"):
        GAME.resolve(dict(position(), over=True), {}, Rng(b"t"))


def test_resolve_does_not_change_its_input() -> None:
    state = position(zerbs={"C2": {YELLOW: 8}, "C3": {RED: 5}}, crapits={"C3": {YELLOW: 2}})
    before = copy.deepcopy(state)
    play(state, {YELLOW: ["buy 2 zerb C2", "crapit C3 -> C2"]})
    assert state == before


def test_two_player_full_board_option() -> None:
    state = GAME.setup(2, {"two-player-board": "full"}, Rng(b"s"))
    assert len(state["squares"]) == 24
    assert state["zerbs"]["C4"] == [0, 4] and state["zerbs"]["C7"] == [0, 0]
