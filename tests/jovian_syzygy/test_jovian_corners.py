"""Issue 12: "Choose a vacant corner": the setup step (option corners=choose|dealt)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from jov_helpers import lines_of, texts

from pbem.cli import main
from pbem.engine import parse_options
from pbem.game import OrderErrors
from pbem.rng import Rng
from pbem_games.jovian_syzygy import GAME, board

NEW = parse_options(GAME, {})


def setup(players: int, label: bytes = b"c", **options: str) -> dict[str, Any]:
    return GAME.setup(players, {**NEW, **options}, Rng(label))


def choose(state: dict[str, Any], **plans: list[str]) -> Any:
    """Validate the named seats' lines ("s0": [...]) and resolve the setup step; seats asked
    but not named send nothing."""
    orders = {}
    for seat in GAME.to_act(state):
        lines = plans.get(f"s{seat}", [])
        orders[seat] = GAME.validate(GAME.observe(state, seat), lines_of(*lines))
    return GAME.resolve(state, orders, Rng(b"corners"))


def test_the_default_is_a_setup_step_asking_everyone_in_turn_order() -> None:
    state = setup(3)
    assert state["options"]["corners"] == "choose" and state["phase"] == "corners"
    assert state["where"] == [None, None, None] and state["round"] == 1
    order = [(state["first"] + i) % 3 for i in range(3)]
    assert list(GAME.to_act(state)) == order  # all at once, listed in turn order
    public = GAME.observe(state, None).public
    assert public["phase"] == "corners" and public["asked"] == order
    text, _ = GAME.describe(GAME.observe(state, None))
    assert "setup, choosing corners (round 1 follows)" in text and "no corner yet" in text


def test_choices_are_kept_in_turn_order_each_taking_its_first_vacant_corner() -> None:
    state = setup(3)
    first, second, third = [(state["first"] + i) % 3 for i in range(3)]
    res = choose(
        state,
        **{f"s{third}": ["corner SW"], f"s{second}": ["corner NE SE"], f"s{first}": ["corners NE, SW"]},
    )
    where = res.state["where"]
    assert where[first] == "NE" and where[second] == "SE" and where[third] == "SW"
    assert res.state["phase"] == "play" and GAME.to_act(res.state) == (0, 1, 2)
    assert f"Player {second + 1} chooses SE (NE taken)." in texts(res)
    assert texts(res)[-1].startswith("Every player has a corner: round 1 begins")


def test_a_seat_that_sends_nothing_or_only_taken_corners_gets_a_random_vacant_one() -> None:
    seen = set()
    for i in range(12):
        state = setup(2, b"r%d" % i)
        first, second = state["first"], 1 - state["first"]
        orders = {
            first: GAME.validate(GAME.observe(state, first), lines_of("corner NW")),
            second: GAME.validate(GAME.observe(state, second), lines_of("NW")),
        }
        res = GAME.resolve(state, orders, Rng(b"draw%d" % i))
        assert res.state["where"][first] == "NW"
        got = res.state["where"][second]
        assert got in ("NE", "SE", "SW")
        assert f"listed only taken corners (NW): a random vacant corner, {got}." in " ".join(texts(res))
        seen.add(got)
        again = GAME.resolve(state, orders, Rng(b"draw%d" % i))
        assert again.state["where"] == res.state["where"]  # drawn from the rng passed in
    assert seen == {"NE", "SE", "SW"}
    res = choose(setup(1))
    assert res.state["where"][0] in board.CORNERS and "sent no choice" in texts(res)[0]


def test_four_players_the_last_is_not_asked_and_takes_the_corner_left_over() -> None:
    state = setup(4)
    order = [(state["first"] + i) % 4 for i in range(4)]
    assert list(GAME.to_act(state)) == order[:3]
    with pytest.raises(OrderErrors, match="you will take the corner left over"):
        GAME.validate(GAME.observe(state, order[3]), lines_of("corner NE"))
    res = choose(state, **{f"s{order[0]}": ["corner SW"], f"s{order[1]}": ["NW"], f"s{order[2]}": ["NE"]})
    assert res.state["where"][order[3]] == "SE"
    assert f"Player {order[3] + 1} takes the corner left over, SE." in texts(res)


def test_sequential_turns_choose_one_at_a_time_seeing_the_earlier_choices() -> None:
    state = setup(3, turns="sequential")
    order = [(state["first"] + i) % 3 for i in range(3)]
    assert GAME.to_act(state) == (order[0],)
    state = choose(state, **{f"s{order[0]}": ["corner SE"]}).state
    assert state["phase"] == "corners" and GAME.to_act(state) == (order[1],)
    with pytest.raises(OrderErrors) as caught:
        GAME.validate(GAME.observe(state, order[1]), lines_of("corner SE"))
    assert f"SE is taken (Player {order[0] + 1} is there)" in str(caught.value)
    form = "\n".join(GAME.order_form(GAME.observe(state, order[1])))
    assert "Write one vacant corner" in form and "#   SE" not in form
    assert all(f"#   {c}:" in form for c in ("NE", "SW", "NW"))
    state = choose(state, **{f"s{order[1]}": ["corner NW"]}).state
    state = choose(state).state  # the third sends nothing: a random vacant corner
    assert state["phase"] == "play" and state["where"][order[2]] in ("NE", "SW")
    assert GAME.to_act(state) == (order[0],)  # round 1, sequential: the first player moves


def test_corner_orders_are_checked_line_by_line() -> None:
    state = setup(2)
    seat = GAME.to_act(state)[0]
    view = GAME.observe(state, seat)
    bad = ["corner D-3", "board io", "move D-1", "corner ganymede", "corner", "corner NE", "NE", "storm"]
    with pytest.raises(OrderErrors) as caught:
        GAME.validate(view, lines_of(*bad))
    by_line = {e.line.number: e for e in caught.value.errors if e.line is not None}
    assert set(by_line) == {1, 2, 3, 4, 5, 7, 8}
    assert "D-3 is not a corner" in by_line[1].message
    assert "the game has not begun" in by_line[2].message and by_line[2].suggestion == "corner NE"
    assert "Ganymede is a satellite" in by_line[4].message
    assert "which corner" in by_line[5].message
    assert "NE is listed twice (line 6)" in by_line[7].message
    assert GAME.validate(view, lines_of("north-west", "corners se sw")) == {"corners": ["NW", "SE", "SW"]}
    assert GAME.validate(view, lines_of("pass")) == {"corners": []}
    assert GAME.validate(view, []) == {"corners": []}


def test_corner_words_after_setup_are_refused_with_the_reason() -> None:
    state = setup(2, corners="dealt")
    with pytest.raises(OrderErrors, match="corners are chosen at setup"):
        GAME.validate(GAME.observe(state, 0), lines_of("corner NE"))


def test_the_form_lists_the_vacant_corners_best_first_with_what_each_reaches() -> None:
    state = setup(3)
    seat = GAME.to_act(state)[0]
    form = GAME.order_form(GAME.observe(state, seat))
    listed = [line.split(":")[0].strip("# ") for line in form if line[4:6] in board.CORNERS and ":" in line]
    assert sorted(listed) == sorted(board.CORNERS)
    assert form[-1].startswith("# corner ") and form[-1].split()[2:] == listed  # commented out
    assert all(len(line) <= 71 for line in form)
    _, private = GAME.describe(GAME.observe(state, seat))
    assert "Forecast for the vacant corners" in private
    assert sum(f"  {c}: " in private for c in board.CORNERS) == 4


def test_dealt_corners_keep_the_old_setup_draw_for_draw() -> None:
    """corners=dealt draws exactly as before the setup step existed (the same rng calls), so
    a game created before re-plays; a saved option set without corners and turns is such a game."""
    old_options = {
        "solo": "timed",
        "max-rounds": 100,
        "ride": "stay",
        "max-extra-moves": 0,
        "setup-check": "slide",
    }
    for i in range(5):
        dealt = GAME.setup(3, {**old_options, "corners": "dealt", "turns": "round"}, Rng(b"old%d" % i))
        assert GAME.setup(3, old_options, Rng(b"old%d" % i))["where"] == dealt["where"]
        assert "phase" not in dealt and "step" not in dealt
        assert len(set(dealt["where"])) == 3 and set(dealt["where"]) <= set(board.CORNERS)
    assert GAME.setup(3, {"max-rounds": 5}, Rng(b"x"))["options"]["corners"] == "choose"


@pytest.mark.parametrize("options", [["corners=dealt"], ["corners=choose", "turns=sequential"]])
def test_demo_plays_with_either_setup(options: list[str], tmp_path: Path) -> None:
    args = ["demo", "jovian-syzygy", "--players", "3", "--seed", "2", "--out", str(tmp_path / "d")]
    for option in options:
        args += ["--option", option]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "above 15" in result.output or "round cap" in result.output


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("turns", ["round", "sequential"])
def test_bots_choose_vacant_corners(bot: str, turns: str) -> None:
    state = setup(4, turns=turns)
    while state.get("phase") == "corners":
        orders = {}
        for seat in GAME.to_act(state):
            view = GAME.observe(state, seat)
            lines = GAME.bots[bot](GAME, view, Rng(b"bot%d" % seat))
            vacant = [c for c in board.CORNERS if c not in state["where"]]
            head, *listed = lines[0].split()
            assert head == "corner" and set(listed) <= set(vacant)
            assert len(listed) == (1 if turns == "sequential" else len(vacant))
            orders[seat] = GAME.validate(view, lines_of(*lines))
        state = GAME.resolve(state, orders, Rng(b"t")).state
    assert sorted(state["where"]) == sorted(board.CORNERS)


FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 150
WORDS = st.sampled_from(
    ["corner", "corners", "NE", "se", "s-w", "northwest", "D-3", "io", "move", "if", "pass"]
)
LINE = st.one_of(st.lists(WORDS, max_size=5).map(" ".join), st.text(max_size=80))


@settings(max_examples=FUZZ, deadline=None)
@given(texts=st.lists(LINE, max_size=6), sequential=st.booleans())
def test_any_corner_orders_are_accepted_or_refused_line_by_line(texts: list[str], sequential: bool) -> None:
    """Whatever is written at the setup step: a list of vacant corners, each once, or
    OrderErrors naming lines of the file; never another exception."""
    state = setup(3, b"fuzz", turns="sequential" if sequential else "round")
    if sequential:
        state = choose(state, **{f"s{GAME.to_act(state)[0]}": ["corner NE"]}).state
    seat = GAME.to_act(state)[0]
    lines = [line for line in lines_of(*texts) if line.text.strip()]
    try:
        got = GAME.validate(GAME.observe(state, seat), lines)
    except OrderErrors as caught:
        assert caught.errors and all(e.line is None or e.line in lines for e in caught.errors)
        return
    vacant = [c for c in board.CORNERS if c not in state["where"]]
    assert set(got["corners"]) <= set(vacant) and len(set(got["corners"])) == len(got["corners"])
    res = GAME.resolve(state, {seat: got}, Rng(b"f"))
    assert res.state["where"][seat] in vacant
