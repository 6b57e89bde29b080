"""Rules audit (eleventh session): the Psi awards, with the rulebook's numbers written out.

*Accumulating Psi*: "If you can make a straight line through the center of three or four
satellites that begins with the satellite you are on, then you get two or three Psi,
respectively. ... If the line of satellites ends at Jupiter, then add a three-Psi 'eclipse
bonus' to the total.  If you are on the same satellite you were on the last time you gained
Psi, then you only get one point, regardless of any other factors."

After the satellites' move from ``[2, 5, 11, 27]`` all four stand in their first segment,
where each satellite begins a different kind of line (found by the engine's own search and
pinned here): Io a line of four (3 Psi), Europa a line of three (2), Ganymede a line of
three into Jupiter (2 + 3), Callisto a line of four into Jupiter (3 + 3).
"""

from __future__ import annotations

from jov_helpers import make_state, play_round, texts

BEFORE_MOVE = [2, 5, 11, 27]


def test_three_or_four_satellites_give_two_or_three_psi_and_an_eclipse_three_more() -> None:
    """ "three or four satellites ... two or three Psi, respectively"; "If the line of
    satellites ends at Jupiter, then add a three-Psi 'eclipse bonus' to the total"."""
    riders = ["io", "europa", "ganymede", "callisto"]
    result = play_round(make_state(riders, sats=BEFORE_MOVE), {})
    gains = [psi - 3 for psi in result.state["psi"]]
    assert gains == [3, 2, 5, 6]
    assert [len(a["moons"]) for a in result.state["awards"]] == [4, 3, 3, 4]
    assert [a["eclipse"] for a in result.state["awards"]] == [False, False, True, True]
    said = "\n".join(texts(result))
    assert "Callisto - Ganymede - Europa - Io - Jupiter (eclipse +3), worth 6; +6 Psi (now 9)." in said
    assert "Player 2 on Europa: syzygy Europa - Ganymede - Callisto, worth 2; +2 Psi (now 5)." in said


def test_the_same_satellite_as_at_the_last_gain_gives_one_point_regardless() -> None:
    """ "If you are on the same satellite you were on the last time you gained Psi, then you
    only get one point, regardless of any other factors": even the best line (6 Psi) gives 1,
    and it is noted as the satellite of the last gain again."""
    state = make_state(["callisto", "ganymede"], sats=BEFORE_MOVE, last_gain=["callisto", "ganymede"])
    result = play_round(state, {})
    assert result.state["psi"] == [4, 4]
    assert result.state["last_gain"] == ["callisto", "ganymede"]
    assert all(award["same"] and award["psi"] == 1 for award in result.state["awards"])
    # On another satellite than at the last gain, the line counts in full.
    other = play_round(make_state(["callisto"], sats=BEFORE_MOVE, last_gain=["io"]), {})
    assert other.state["psi"] == [9] and other.state["last_gain"] == ["callisto"]
