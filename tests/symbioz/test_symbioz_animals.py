"""Kroguls, Crapits, the end of the turn and the end of the game: scenarios per rule."""

from __future__ import annotations

import pytest
from symbioz_helpers import BLUE, PURPLE, RED, YELLOW, orders_for, play, position, texts

from pbem.game import OrderErrors
from pbem_games.symbioz import GAME

# -- Kroguls ---------------------------------------------------------------------------


def test_krogul_without_crapit_is_removed() -> None:
    state = position(zerbs={"C1": {YELLOW: 1}}, kroguls={"C1": {YELLOW: 2}})
    result = play(state)
    assert result.state["kroguls"]["C1"][YELLOW] == 0
    assert result.state["supply"]["krogul"][YELLOW] == 6
    assert "Yellow 2 Kroguls in C1: 2 removed, nothing left to eat" in texts(result)


def test_krogul_eats_the_chosen_colour_and_clones() -> None:
    crapits = {"C1": {RED: 1, BLUE: 2, YELLOW: 1}}
    state = position(kroguls={"C1": {YELLOW: 1}}, crapits=crapits)
    chosen = play(state, {YELLOW: ["krogul C1 eat red -> C2"]})
    assert "Yellow 1 Krogul in C1 eats 1 Red Crapit" in texts(chosen)
    assert chosen.state["kroguls"]["C1"][YELLOW] == 1 and chosen.state["kroguls"]["C2"][YELLOW] == 1
    # By default it eats the colour with the most Crapits (Blue), never its own first.
    default = play(state)
    assert "Yellow 1 Krogul in C1 eats 1 Blue Crapit" in texts(default)


def test_krogul_eats_its_own_colour_only_when_nothing_else() -> None:
    state = position(kroguls={"C1": {YELLOW: 1}}, crapits={"C1": {YELLOW: 1}})
    assert "eats 1 Yellow Crapit" in texts(play(state))
    # Naming one's own colour is the owner's choice (tests/symbioz/test_audit_meals.py).
    assert orders_for(state, YELLOW, "krogul C1 eat yellow")["krogul"][0]["eat"] == [YELLOW]


def test_each_krogul_needs_its_own_crapit() -> None:
    state = position(kroguls={"C1": {YELLOW: 3}}, crapits={"C1": {RED: 2}})
    result = play(state, {YELLOW: ["krogul C1 -> C1"]})
    assert "Yellow 3 Kroguls in C1 eat 2 Red Crapits; 1 removed, nothing left to eat" in texts(result)
    assert result.state["kroguls"]["C1"][YELLOW] == 4  # 2 survivors + 2 clones


def test_krogul_clones_do_not_eat_in_the_phase_they_are_born() -> None:
    state = position(kroguls={"C1": {YELLOW: 1}}, crapits={"C1": {RED: 1}, "C2": {RED: 1}})
    result = play(state, {YELLOW: ["krogul C1 -> C2"]})
    assert texts(result).count("eats") == 1
    assert "Yellow 1 Krogul in C2" not in texts(result)
    assert result.state["kroguls"]["C2"][YELLOW] == 1


def test_no_clone_beyond_the_six_kroguls_but_they_still_eat() -> None:
    state = position(kroguls={"C1": {YELLOW: 6}}, crapits={"C1": {RED: 6}})
    result = play(state)
    assert result.state["kroguls"]["C1"][YELLOW] == 6
    assert sum(row[RED] for row in result.state["crapits"].values()) == 0
    assert "6 not born: every Yellow Krogul is on the board" in texts(result)
    # A starving Krogul returns to the supply first and can come back as a clone.
    state = position(kroguls={"C1": {YELLOW: 5}, "C3": {YELLOW: 1}}, crapits={"C1": {RED: 5}})
    after = play(state, {YELLOW: ["krogul C1 -> C2"]}).state
    assert after["kroguls"]["C3"][YELLOW] == 0 and after["kroguls"]["C2"][YELLOW] == 1


@pytest.mark.parametrize("first", [YELLOW, RED])
def test_kroguls_eat_in_play_order(first: int) -> None:
    # One Blue Crapit, two hungry Kroguls: the first in play order eats, the other starves.
    state = position(kroguls={"C1": {YELLOW: 1, RED: 1}}, crapits={"C1": {BLUE: 1}}, first=first)
    after = play(state).state
    other = RED if first == YELLOW else YELLOW
    assert after["kroguls"]["C1"][other] == 0
    assert sum(row[first] for row in after["kroguls"].values()) == 2


# -- Crapits ---------------------------------------------------------------------------


def test_crapit_without_zerb_is_removed() -> None:
    state = position(zerbs={"C2": {YELLOW: 1}}, crapits={"C1": {YELLOW: 1}})
    after = play(state).state
    assert after["crapits"]["C1"][YELLOW] == 0 and after["supply"]["crapit"][YELLOW] == 25


def test_crapit_meal_choice_default_and_own_colour_last() -> None:
    zerbs = {"C5": {RED: 3, BLUE: 5, YELLOW: 2}}
    state = position(zerbs=zerbs, crapits={"C5": {YELLOW: 1}})
    # Blue's 5 breed one (6); the default meal is the colour with the most Zerbs.
    default = play(state)
    assert default.state["zerbs"]["C5"] == [2, 3, 5, 0]
    chosen = play(state, {YELLOW: ["crapit C5 eat red"]}).state
    assert chosen["zerbs"]["C5"] == [2, 2, 6, 0]
    assert chosen["supply"]["zerb"][RED] == 60 - 2
    alone = play(position(zerbs={"C5": {YELLOW: 2}}, crapits={"C5": {YELLOW: 1}})).state
    assert alone["zerbs"]["C5"][YELLOW] == 1


def test_crapit_pairs_breed_after_eating() -> None:
    # Three Crapits, two Zerbs: one starves; the two that ate make one newborn.
    state = position(zerbs={"C5": {RED: 2}}, crapits={"C5": {YELLOW: 3}})
    result = play(state)
    assert result.state["crapits"]["C5"][YELLOW] == 3
    assert result.state["zerbs"]["C5"][RED] == 0 and result.state["supply"]["zerb"][RED] == 60
    assert result.state["supply"]["crapit"][YELLOW] == 22
    assert "Yellow Crapits of C5 breed (1 newborn): C5" in texts(result)
    # Four that eat make two; newborns go where they are told.
    four = play(
        position(zerbs={"C5": {RED: 3}}, crapits={"C5": {YELLOW: 4}}), {YELLOW: ["crapit C5 -> C4 C6"]}
    )
    assert "Yellow 4 Crapits in C5 eat 3 Red Zerbs; 1 removed" in texts(four)
    assert four.state["crapits"]["C4"][YELLOW] == 1 and four.state["crapits"]["C5"][YELLOW] == 3


def test_crapits_of_different_colours_do_not_mate() -> None:
    state = position(zerbs={"C5": {PURPLE: 2}}, crapits={"C5": {YELLOW: 1, RED: 1}})
    after = play(state).state
    assert after["crapits"]["C5"] == [1, 1, 0, 0]


def test_newborn_crapit_goes_towards_food_by_default() -> None:
    state = position(zerbs={"C5": {RED: 2}, "C6": {BLUE: 3}}, crapits={"C5": {YELLOW: 2}})
    after = play(state).state
    assert after["crapits"]["C6"][YELLOW] == 1


def test_no_crapit_birth_beyond_the_supply() -> None:
    # All 25 Yellow Crapits on the board; 24 eat, one starves and is the only newborn.
    zerbs = {"C5": {RED: 6, BLUE: 6}, "C6": {RED: 6, BLUE: 6}}
    state = position(zerbs=zerbs, crapits={"C5": {YELLOW: 12}, "C6": {YELLOW: 13}})
    result = play(state)
    assert "Yellow Crapits of C5 breed (6 newborns): B3; 5 not born: every Yellow Crapit" in texts(result)
    assert "Yellow Crapits of C6 breed (6 newborns): nothing; 6 not born" in texts(result)
    assert result.state["supply"]["crapit"][YELLOW] == 0


def test_crapits_eat_in_play_order() -> None:
    # One Red Zerb left, Yellow and Blue Crapits: the first in play order eats it.
    state = position(zerbs={"C5": {RED: 1}}, crapits={"C5": {YELLOW: 1, BLUE: 1}}, first=BLUE)
    after = play(state).state
    assert after["crapits"]["C5"] == [0, 0, 1, 0]


# -- end of the turn -------------------------------------------------------------------


def test_twelve_zerbs_make_a_symbioz() -> None:
    state = position(
        zerbs={"C2": {YELLOW: 12}},
        kroguls={"C2": {RED: 1}},
        crapits={"C2": {BLUE: 1}},
    )
    result = play(state, {RED: ["krogul C2 -> C2"]})
    after = result.state
    assert after["symbioz"] == {"C2": YELLOW}
    assert after["zerbs"]["C2"] == [0, 0, 0, 0] and after["kroguls"]["C2"] == [0, 0, 0, 0]
    assert after["supply"]["krogul"][RED] == 6  # both Kroguls came back
    # The three newborns left C2 (saturated); 11 Zerbs came back, one stays in the marker.
    assert sum(row[YELLOW] for row in after["zerbs"].values()) == 3
    assert after["supply"]["zerb"][YELLOW] == 60 - 3 - 1
    assert "Symbioz! Yellow closes C2" in texts(result)


def test_eleven_do_not_and_a_crapit_can_spoil_a_symbioz() -> None:
    state = position(zerbs={"C2": {YELLOW: 12}}, crapits={"C2": {RED: 1}})
    after = play(state).state
    assert after["symbioz"] == {} and after["zerbs"]["C2"][YELLOW] == 11


def test_a_rival_zerb_blocks_a_symbioz() -> None:
    # 11 Yellow + 1 Red fill the square: never 12 of one colour.
    state = position(zerbs={"C2": {YELLOW: 11, RED: 1}})
    after = play(state).state
    assert after["symbioz"] == {} and sum(after["zerbs"]["C2"]) == 12


def test_closed_square_stays_closed() -> None:
    state = position(zerbs={"C1": {YELLOW: 8}}, symbioz={"C2": YELLOW})
    for _ in range(3):
        state = play(state).state
        assert state["zerbs"]["C2"] == [0, 0, 0, 0] and state["symbioz"]["C2"] == YELLOW


# -- end of the game -------------------------------------------------------------------


def test_third_symbioz_wins_at_once() -> None:
    state = position(zerbs={"C2": {YELLOW: 12}, "C5": {RED: 5}}, symbioz={"B5": YELLOW, "B6": YELLOW})
    after = play(state).state
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (YELLOW,)
    assert outcome.scores == (3, 0, 0, 0) and GAME.to_act(after) == ()


def test_simultaneous_targets_break_ties_on_zerbs() -> None:
    state = position(
        zerbs={"C2": {YELLOW: 12}, "C5": {RED: 12}, "C8": {RED: 1}},
        symbioz={"B5": YELLOW, "B6": YELLOW, "B7": RED, "B8": RED},
    )
    after = play(state).state
    assert after["winners"] == [RED]
    assert "Red (player 2) wins (3 Symbioz reached" in after["result"]


def test_three_players_need_four_and_first_game_one_more() -> None:
    three = position(3, zerbs={"C2": {YELLOW: 12}}, symbioz={"B5": YELLOW, "B6": YELLOW})
    assert GAME.outcome(play(three).state) is None
    first = position(
        zerbs={"C2": {YELLOW: 12}}, symbioz={"B5": YELLOW, "B6": YELLOW}, options={"first-game": True}
    )
    assert GAME.outcome(play(first).state) is None


def test_after_turn_twelve_most_symbioz_then_most_zerbs() -> None:
    state = position(zerbs={"C2": {YELLOW: 2}, "C5": {RED: 3}}, symbioz={"B5": YELLOW, "B6": RED}, turn=12)
    after = play(state).state
    assert after["over"] and after["winners"] == [RED]
    assert "turn 12 played" in after["result"]
    tie = position(zerbs={"C2": {YELLOW: 3}, "C5": {RED: 3}}, symbioz={"B5": YELLOW, "B6": RED}, turn=12)
    assert play(tie).state["winners"] == [YELLOW, RED]
    more = position(zerbs={"C5": {RED: 3}}, symbioz={"B5": YELLOW, "B6": YELLOW}, turn=12)
    assert play(more).state["winners"] == [YELLOW]


def test_an_order_for_animals_eaten_earlier_is_reported_unused() -> None:
    # Red's Kroguls (first in play order) eat Yellow's only Crapit before Yellow's Crapit phase.
    state = position(crapits={"C3": {YELLOW: 1}}, kroguls={"C3": {RED: 1}}, zerbs={"C3": {BLUE: 1}})
    result = play(state, {YELLOW: ["crapit C3 eat blue"]})
    assert "Yellow crapit order for C3 unused: no Yellow Crapit there now" in texts(result)


def test_animal_newborns_may_enter_fertile_squares_never_closed_ones() -> None:
    """Ruling 11: animal newborns go to the parents' square or an adjacent open one, fertile
    squares included; a closed square is refused when the orders are checked."""
    zerbs = {"B1": {RED: 4, YELLOW: 1}, "A1": {RED: 5}, "C5": {BLUE: 4}}
    state = position(zerbs=zerbs, crapits={"B1": {YELLOW: 2, RED: 1}}, kroguls={"B1": {YELLOW: 1}})
    state["symbioz"]["C2"] = BLUE
    after = play(state, {YELLOW: ["krogul B1 eat red -> A1", "crapit B1 eat red -> A1"]}).state
    assert after["kroguls"]["A1"][YELLOW] == 1 and after["crapits"]["A1"][YELLOW] == 1
    with pytest.raises(OrderErrors, match="C2 is closed by a Blue Symbioz"):
        orders_for(state, YELLOW, "crapit B1 eat red -> C2")
