"""The order form's animal part (review of issue 12, played by hand with order-rounds=phase):
each square with the prey there, by colour, and an example that names only colours present."""

from __future__ import annotations

from symbioz_helpers import BLUE, RED, YELLOW, orders_for, position

from pbem.wording import WIDTH
from pbem_games.symbioz import GAME


def _form(state: dict[str, object], seat: int) -> list[str]:
    return GAME.order_form(GAME.observe(state, seat))


def test_the_crapit_example_names_no_colour_absent_from_its_square() -> None:
    # Yellow's Crapit in C3 has only Yellow Zerbs to eat: the old example said "eat red blue".
    state = position(players=3, zerbs={"C3": {YELLOW: 6}, "C5": {RED: 4}}, crapits={"C3": {YELLOW: 1}})
    form = _form(state, YELLOW)
    assert "#    C3: 1 Crapit; Zerbs there: Yellow 6 (yours)" in form
    assert "# crapit C3 -> C3" in form
    assert not any("eat red" in line or "eat blue" in line for line in form)
    assert orders_for(state, YELLOW, "crapit C3 -> C3") is not None  # the example is legal


def test_the_example_eats_the_rivals_that_are_there_and_each_square_is_listed() -> None:
    state = position(
        players=3,
        zerbs={"C3": {YELLOW: 5, BLUE: 2}, "C2": {YELLOW: 4}, "C5": {RED: 4}},
        crapits={"C2": {YELLOW: 1}, "C3": {YELLOW: 2}},
        kroguls={"C5": {YELLOW: 1}},
    )
    form = _form(state, YELLOW)
    assert "#    C2: 1 Crapit; Zerbs there: Yellow 4 (yours)" in form
    assert "#    C3: 2 Crapits; Zerbs there: Yellow 5 (yours), Blue 2" in form
    assert "# crapit C3 eat blue -> C3" in form
    assert "#    C5: 1 Krogul; Crapits there: none" in form
    assert orders_for(state, YELLOW, "crapit C3 eat blue -> C3") is not None
    assert all(len(line) <= WIDTH for line in form)
