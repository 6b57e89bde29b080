"""What a person meets playing corners=choose and turns=sequential by hand (review of issue 12):
the refusals say why and when, point at a line, and the forms fit the mail width."""

from __future__ import annotations

from typing import Any

import pytest
from jov_helpers import lines_of

from pbem.engine import parse_options
from pbem.game import OrderErrors
from pbem.rng import Rng
from pbem.wording import WIDTH
from pbem_games.jovian_syzygy import GAME

NEW = parse_options(GAME, {})


def _setup(players: int, **options: str) -> dict[str, Any]:
    return GAME.setup(players, {**NEW, **options}, Rng(b"by-hand"))


def _refusal(state: dict[str, Any], seat: int, *lines: str) -> Any:
    with pytest.raises(OrderErrors) as caught:
        GAME.validate(GAME.observe(state, seat), lines_of(*lines))
    (error,) = caught.value.errors
    return error


def test_a_later_chooser_with_sequential_turns_is_told_their_turn_comes_not_the_corner_left_over() -> None:
    state = _setup(3, turns="sequential")
    order = [(state["first"] + i) % 3 for i in range(3)]
    error = _refusal(state, order[1], "", "corner SE")
    assert f"Player {order[0] + 1} chooses first; your turn to choose comes after" in error.message
    assert "left over" not in error.message
    assert error.line is not None and error.line.number == 2  # the line written, not the file
    form = GAME.order_form(GAME.observe(state, order[1]))
    assert "your turn to choose comes after" in " ".join(line.lstrip("# ") for line in form)
    assert all(len(line) <= WIDTH for line in form)


def test_the_last_of_four_still_takes_the_corner_left_over() -> None:
    state = _setup(4, turns="sequential")
    last = (state["first"] + 3) % 4
    assert "you will take the corner left over" in _refusal(state, last, "corner NE").message


def test_a_word_that_is_no_corner_is_called_so_not_a_space_or_moon() -> None:
    state = _setup(2)
    error = _refusal(state, GAME.to_act(state)[0], "corner NX")
    assert "'NX' is not a corner: the corners are NE, SE, SW and NW" in error.message
    assert "moon" not in error.message


def test_a_plan_out_of_turn_points_at_its_first_line() -> None:
    state = _setup(2, turns="sequential", corners="dealt")
    idle = 1 - GAME.to_act(state)[0]
    error = _refusal(state, idle, "", "move D-1")
    assert "turns are taken one after another" in error.message
    assert error.line is not None and error.line.text == "move D-1"


@pytest.mark.parametrize("turns", ["round", "sequential"])
def test_every_form_line_fits_the_mail_width_unfolded(turns: str) -> None:
    state = _setup(3, turns=turns, corners="dealt")
    for seat in range(3):
        form = GAME.order_form(GAME.observe(state, seat))
        too_long = [line for line in form if len(line) > WIDTH]
        assert too_long == [], too_long
