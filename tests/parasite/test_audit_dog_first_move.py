"""Rules audit: the Dog moves at the start of every Game Phase, the first round's too.

The rulebook, The Dog Expansion: "At the start of the Game Phase, the Dog moves to any
Location that contains another player that matches the criteria on the reference card.  If no
criteria matches, the Leader decides the Location."  pbem moved the Dog only from the second
round on.  At the first Game Phase everyone (the Dog too) stands together and Healthy, so
nobody matches and the Leader decides.  Games saved before the audit keep the old rule
(option ``dog-first-move=round-2``).
"""

from __future__ import annotations

from para_helpers import asked, file, new_game

from pbem.rng import Rng
from pbem_games.parasite import GAME, rules

DOG = 4


def test_the_leader_places_the_dog_before_the_first_turn() -> None:
    """ "At the start of the Game Phase, the Dog moves ... If no criteria matches, the Leader
    decides the Location" - in round 1 as in every round."""
    s = new_game(4, dog=True)
    assert asked(s) == ((0,), "location")
    question = s["pending"]["ask"]["question"]
    assert question["for"] == "where the Dog goes (nobody matches)"
    assert "laboratory" in question["choices"]
    moved = file(s, {0: ["to laboratory"]}).state
    assert moved["loc"][DOG] == "laboratory"
    assert asked(moved) == ((0,), "turn"), "then the Leader takes the first Turn"
    assert moved["round"] == 1


def test_the_report_says_the_dog_is_moving() -> None:
    """The report names the moment a player is asked in: the Dog's move, not a Turn."""
    s = new_game(4, dog=True)
    public = GAME.describe(GAME.observe(s, None))[0]
    assert "round 1, the start of the Game Phase: the Dog moves" in public


def test_a_game_saved_before_the_audit_has_its_first_turn_first() -> None:
    """A save from before the option (every older option given, not this one) re-plays as it
    was played: no question before the Leader's first Turn, and no new key in its options."""
    old = {v.name: v.default for v in GAME.info.variants if v.name not in ("round-order", "dog-first-move")}
    s = rules.setup(4, {**old, "dog": True}, Rng(b"scenario"))
    assert asked(s) == ((s["leader"],), "turn")
    assert "dog-first-move" not in s["opt"]
    chosen = rules.setup(4, {"dog": True, "dog-first-move": "round-2"}, Rng(b"scenario"))
    assert asked(chosen)[1] == "turn"
