"""Rules audit (eleventh session): who chooses an animal's meal.

The rulebook, *Reproduction of Kroguls*: "If several Crapits of different colors are present
in an area, the player owning the Krogul chooses which Crapit to eat.  A Krogul with only
Crapits from his color to eat must eat one of them."  *Reproduction of Crapits*: "Apply the
same rules as for the Krogul when considering which Zerbs to eat."  The owner chooses among
every colour present, their own included; the automatic default still spares it.
"""

from __future__ import annotations

from symbioz_helpers import RED, YELLOW, orders_for, play, position, texts


def test_the_krogul_owner_chooses_which_crapit_to_eat_their_own_colour_included() -> None:
    """ "the player owning the Krogul chooses which Crapit to eat": a Krogul may be told to
    eat a Crapit of its own colour although a rival's is there (to spare its own Zerbs)."""
    state = position(
        zerbs={"C1": {YELLOW: 11}},
        kroguls={"C1": {YELLOW: 1}},
        crapits={"C1": {YELLOW: 1, RED: 1}},
    )
    orders = orders_for(state, YELLOW, "krogul C1 eat yellow -> C1")
    assert orders["krogul"][0]["eat"] == [YELLOW]
    result = play(state, {YELLOW: ["krogul C1 eat yellow -> C1"]})
    assert "Yellow 1 Krogul in C1 eats 1 Yellow Crapit" in texts(result)
    assert result.state["crapits"]["C1"] == [0, 1, 0, 0]
    assert result.state["supply"]["crapit"][YELLOW] == 25
    # Unless told, it still eats the rival's Crapit first.
    assert "Yellow 1 Krogul in C1 eats 1 Red Crapit" in texts(play(state))


def test_the_crapit_owner_chooses_which_zerb_to_eat_their_own_colour_included() -> None:
    """ "Apply the same rules as for the Krogul when considering which Zerbs to eat": a
    Crapit may be told to eat its own colour's Zerb, then the next colour written."""
    state = position(zerbs={"C5": {YELLOW: 3, RED: 3}}, crapits={"C5": {YELLOW: 2}})
    result = play(state, {YELLOW: ["crapit C5 eat yellow red -> C5"]})
    assert "Yellow 2 Crapits in C5 eat 2 Yellow Zerbs" in texts(result)
    assert result.state["zerbs"]["C5"][YELLOW] == 1 and result.state["zerbs"]["C5"][RED] == 3
    # Written after a rival's colour, one's own is eaten only once the rival's is gone.
    later = play(
        position(zerbs={"C5": {YELLOW: 3, RED: 1}}, crapits={"C5": {YELLOW: 2}}),
        {YELLOW: ["crapit C5 eat red yellow -> C5"]},
    )
    assert "eat 1 Yellow Zerb, 1 Red Zerb" in texts(later)
