"""Mutation review (twelfth session): scenario tests that kill mutants of Parasite's rules
the suite let through.

- ``games/parasite/verbs.py`` ``distress`` without its second "is the subject still alive?"
  check (after the Interrupts): a player killed while their own Distress was being answered
  "becomes Distressed" again.
- ``games/parasite/rules.py`` ``options_of`` without its type check: ``dog="yes"`` set up a
  game with the Dog.
"""

from __future__ import annotations

from typing import Any

import pytest
from para_helpers import edit, file, new_game, texts

from pbem.rng import Rng
from pbem_games.parasite import GAME


def test_a_player_killed_by_an_interrupt_to_their_own_scalpel_stays_dead() -> None:
    """Rulebook: "Dead players cannot become Distressed or Healthy without being Revived
    first."  Player 1 makes player 2 (already Distressed) Distressed; player 2 answers with
    Scalpel ("first they become Distressed"), and player 3's Ice Pick answers that ("first the
    attacker becomes Distressed"): player 2, the Scalpel's attacker, Dies.  Player 1's Action
    then finishes on a dead player: nothing happens to them."""
    s = new_game(4)

    def position(s: dict[str, Any]) -> None:
        s["health"][1] = "distressed"
        s["hands"][1] = ["scalpel"]
        s["hands"][2] = ["ice-pick"]
        s["reactions"][1] = [{"card": "scalpel"}]
        s["reactions"][2] = [{"card": "ice-pick"}]

    edit(s, position)
    result = file(s, {0: ["distress player 2", "stay"]})
    state = result.state
    said = texts(result)
    assert "player 2 is Distressed again and Dies." in said
    assert state["health"][1] == "dead" and state["loc"][1] is None
    assert state["health"][0] == "healthy", "the Scalpel never finished: its player died first"
    died = said.index("player 2 is Distressed again and Dies.")
    assert not any("player 2 becomes Distressed" in t for t in said[died:])


WRONG_TYPES = [("dog", "yes"), ("dog", 1), ("untidy", "no"), ("reactions", True)]


@pytest.mark.parametrize(("name", "value"), WRONG_TYPES)
def test_an_option_of_the_wrong_type_is_refused(name: str, value: object) -> None:
    """The Dog expansion is on or off (a bool): a text or a number is refused by name, not
    taken for "on" by its truth."""
    with pytest.raises(ValueError, match=f"option '{name}' takes a (bool|str)"):
        GAME.setup(4, {name: value}, Rng(b"options"))
