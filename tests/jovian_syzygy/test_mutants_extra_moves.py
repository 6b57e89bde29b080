"""Mutation review (twelfth session): a Jovian Syzygy rule the suite let a mutant change.

``games/jovian_syzygy/turns.py`` ``extra_limit`` read a missing ``max-extra-moves`` as 1
instead of 0 (no limit) and no test noticed: a game whose options do not name it (one saved
before the option, or set up with no options) would then have refused a second paid move.
"""

from __future__ import annotations

from jov_helpers import make_state, orders_for, play_round


def test_a_game_saved_before_the_extra_move_limit_pays_for_any_number_of_moves() -> None:
    """Rulebook, Play: "If you are not on a satellite, you may spend one Psi to make an
    additional move."  No limit: without the option, two extra moves cost 2 Psi."""
    state = make_state(["NE", "SW"])
    del state["options"]["max-extra-moves"]
    assert orders_for(state, 0, "move D-1 C-1 B-1")["steps"][-1] == ["move", "B-1"]
    new = play_round(state, {0: ["move D-1 C-1 B-1"]}).state
    assert new["where"][0] == "B-1" and new["psi"][0] == 1
    assert "max-extra-moves" not in new["options"]
