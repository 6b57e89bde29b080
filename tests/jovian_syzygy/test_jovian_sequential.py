"""Issue 12: sequential turns (option turns=sequential): one player's plan per pbem turn, so
each player sees the storms and pushes of the players before them in the round."""

from __future__ import annotations

import pytest
from jov_helpers import lines_of, make_state, orders_for, texts

from pbem.game import OrderErrors, Resolution
from pbem.rng import Rng
from pbem_games.jovian_syzygy import GAME
from pbem_games.jovian_syzygy.rules import best_line_at


def sequential(where: list[str], **kw: object) -> dict:
    state = make_state(where, turns="sequential", corners="dealt", **kw)  # type: ignore[arg-type]
    state["step"] = 0
    return state


def step(state: dict, seat: int, *plan: str) -> Resolution:
    assert GAME.to_act(state) == (seat,)
    return GAME.resolve(state, {seat: orders_for(state, seat, *plan)}, Rng(b"seq"))


def test_one_seat_at_a_time_in_turn_order_and_the_round_ends_after_the_last() -> None:
    state = sequential(["NE", "SW", "NW"], first=1, sats=[0, 0, 0, 0])
    res = step(state, 1, "move D-7")
    assert texts(res)[0] == "Round 1: Player 2 goes first." and "The satellites move" not in " ".join(
        texts(res)
    )
    mid = res.state
    assert (
        mid["round"] == 1 and mid["rounds_played"] == 0 and mid["step"] == 1 and mid["sats"] == [0, 0, 0, 0]
    )
    assert mid["where"][1] == "D-7"
    public = GAME.observe(mid, None).public
    assert public["to_move"] == 2 and public["step"] == 1
    text, _ = GAME.describe(GAME.observe(mid, None))
    assert "Sequential turns: Player 3 moves now (2 of 3)." in text
    mid = step(mid, 2, "pass").state
    end = step(mid, 0, "move D-1")
    assert "The satellites move" in " ".join(texts(end))
    after = end.state
    assert after["round"] == 2 and after["rounds_played"] == 1 and after["step"] == 0
    assert after["sats"] == [1, 1, 1, 1] and after["first"] == 2 and GAME.to_act(after) == (2,)


def test_a_later_player_sees_a_storm_made_earlier_in_the_round() -> None:
    """The reason for the option: with one plan per round, the second player writes blind."""
    state = sequential(["NE", "D-3"], first=0)
    assert GAME.observe(state, 1).public["storms"] == {}
    mid = step(state, 0, "storm", "move D-2").state
    view = GAME.observe(mid, 1)
    assert view.public["storms"] == {"NE": 1}
    # The greedy bot, asked now, knows the storm is there; under turns=round it could not.
    lines = GAME.bots["greedy"](GAME, view, Rng(b"g"))
    assert GAME.validate(view, lines_of(*lines)) is not None


def test_orders_from_a_seat_whose_turn_it_is_not_are_refused_with_whose_it_is() -> None:
    state = sequential(["NE", "SW"], first=0)
    with pytest.raises(OrderErrors, match="it is Player 1's turn now"):
        GAME.validate(GAME.observe(state, 1), lines_of("move D-7"))
    form = GAME.order_form(GAME.observe(state, 1))
    assert any("it is Player 1's turn now: no orders from you yet" in line for line in form)


def test_push_is_seen_by_later_players_and_the_awards_keep_their_own_position() -> None:
    state = sequential(["io", "B-1"], first=0, sats=[0, 0, 0, 0], ride="push")
    mid = step(state, 0, "ride").state
    assert mid["sats"][0] == 1  # pushed on at once: player 2 can no longer board Io from B-1
    with pytest.raises(OrderErrors, match="does not border"):
        GAME.validate(GAME.observe(mid, 1), lines_of("board io"))
    # Last round's award (Callisto's radial eclipse line at segments 1/1/1/1) is reported with
    # the position it was found on, though Io has been pushed on since.
    state = sequential(["io", "callisto"], first=0, sats=[0, 0, 0, 0], ride="push")
    state["awards"][1] = {
        "moons": ["callisto", "ganymede", "europa", "io"],
        "eclipse": True,
        "psi": 6,
        "same": False,
    }
    state["award_sats"] = [0, 0, 0, 0]
    mid = step(state, 0, "ride").state
    now = best_line_at(mid["sats"], "callisto")
    assert mid["sats"] == [1, 0, 0, 0] and now is not None and "io" not in now.moons
    assert GAME.observe(mid, None).public["award_sats"] == [0, 0, 0, 0]
    text, _ = GAME.describe(GAME.observe(mid, None))
    (slid,) = [line for line in text.splitlines() if "slid to (degrees): Callisto" in line]
    assert "Io" in slid  # the four-satellite line of the award, not today's three
    assert "award_sats" not in GAME.observe(state, None).public  # only when it differs


def test_a_seat_that_has_moved_sees_only_where_it_stands() -> None:
    state = sequential(["NW", "SW"], first=0, sats=[2, 5, 11, 27])
    mid = step(state, 0, "board callisto").state
    _, private = GAME.describe(GAME.observe(mid, 0))
    assert "You have had your turn this round" in private and "aboard:" not in private
    assert "Callisto to segment 1: +6 Psi" in private
    _, waiting = GAME.describe(GAME.observe(mid, 1))
    assert "Forecast:" in waiting and "aboard:" in waiting
