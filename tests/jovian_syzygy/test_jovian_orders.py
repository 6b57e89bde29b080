"""Order files: forgiving syntax, every bad line reported with its kind, suggestions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jov_helpers import lines_of, make_state, orders_for

from pbem.game import OrderErrors
from pbem_games.jovian_syzygy import GAME


def errors(state: dict, seat: int, *texts: str) -> list:
    with pytest.raises(OrderErrors) as info:
        orders_for(state, seat, *texts)
    return list(info.value.errors)


STATE = make_state(["NE", "ganymede"], sats=[0, 0, 1, 3])


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        ("move D-1", [["move", "D-1"]]),
        ("MOVE d1", [["move", "D-1"]]),
        ("go d 1", [["move", "D-1"]]),
        ("move D-1 C-1", [["move", "D-1"], ["move", "C-1"]]),
        ("move d-1, c-1", [["move", "D-1"], ["move", "C-1"]]),
        ("board Callisto", [["board", "callisto"]]),
        ("board ca", [["board", "callisto"]]),
        ("move callisto", [["board", "callisto"]]),
        ("storm", [["storm"]]),
        ("place storm", [["storm"]]),
        ("pass", []),
    ],
)
def test_forgiving_syntax(text: str, steps: list) -> None:
    assert orders_for(STATE, 0, text)["steps"] == steps


@pytest.mark.parametrize(
    "text", ["leave to C-1", "leave ganymede to c1", "leave D-2", "move D-2", "disembark to C-1"]
)
def test_leaving_a_satellite(text: str) -> None:
    steps = orders_for(STATE, 1, text)["steps"]
    assert steps in ([["move", "C-1"]], [["move", "D-2"]])


def test_ride_and_stay() -> None:
    assert orders_for(STATE, 1, "ride")["steps"] == [["ride"]]
    assert orders_for(STATE, 1, "Stay")["steps"] == [["ride"]]


def test_fallback_forms() -> None:
    assert orders_for(STATE, 0, "move D-1", "if wasted: try D-2")["fallback"] == [["move", "D-2"]]
    assert orders_for(STATE, 0, "move D-1", "If Wasted: try move D-2, board callisto")["fallback"] == [
        ["move", "D-2"],
        ["board", "callisto"],
    ]
    assert orders_for(STATE, 0, "move D-1", "if wasted: stop")["fallback"] is None


def test_every_bad_line_is_reported_with_its_kind() -> None:
    errs = errors(STATE, 0, "jump around", "move X-9", "move D-4", "move D", "storm", "storm")
    kinds = [(e.line.number, e.kind) for e in errs]
    assert (1, "invalid") in kinds
    assert (2, "invalid") in kinds
    assert (3, "illegal") in kinds  # D-4 is not next to NE
    assert (4, "ambiguous") in kinds  # a ring letter names 12 spaces
    assert (6, "illegal") in kinds  # a second storm
    assert 5 not in [n for n, _ in kinds]


def test_lines_after_a_refused_step_are_checked_from_where_it_was_meant_to_go() -> None:
    # Ruling (README, "Order files"): the checker goes on from where the refused step would
    # have taken the plan, so each later line is judged as the player meant it: a step that
    # is fine from D-4 is not reported, one that is not is named against D-4.
    errs = errors(STATE, 0, "move D-4", "move D-5")
    assert [(e.line.number, e.kind) for e in errs] == [(1, "illegal")]
    errs = errors(STATE, 0, "move D-4", "move C-4")
    assert [(e.line.number, e.kind) for e in errs] == [(1, "illegal"), (2, "illegal")]
    assert "not next to D-4" in errs[1].message


def test_suggestions_name_the_nearest_legal_order() -> None:
    (err,) = errors(STATE, 0, "move D-4")
    assert err.kind == "illegal" and "not next to NE" in err.message
    assert err.suggestion in {"move D-1", "move D-2", "move D-3"}
    (err,) = errors(STATE, 0, "mvoe D-1")
    assert err.suggestion == "move D-1"
    (err,) = errors(STATE, 0, "board calisto")
    assert err.suggestion == "callisto"


def test_leaving_a_satellite_you_are_not_on() -> None:
    (err,) = errors(STATE, 1, "leave europa to C-1")
    assert err.kind == "illegal" and "not on Europa" in err.message


def test_second_fallback_is_ambiguous() -> None:
    errs = errors(STATE, 0, "move D-1", "if wasted: stop", "if wasted: try D-2")
    assert [(e.line.number, e.kind) for e in errs] == [(3, "ambiguous")]


def test_fallback_that_could_never_apply() -> None:
    # No move into a space, so nothing can be wasted.
    (err,) = errors(STATE, 0, "board callisto", "if wasted: try D-1")
    assert err.kind == "illegal"
    # From NE, C-4 is never reachable in one step.
    (err,) = errors(STATE, 0, "move D-1", "if wasted: try C-4")
    assert "never be used" in err.message


def test_spend_caps_the_plan() -> None:
    state = make_state(["NE"], psi=[3])
    assert orders_for(state, 0, "spend 2", "move D-1 C-1 B-1")["steps"][-1] == ["move", "B-1"]
    (err,) = errors(state, 0, "spend 1", "move D-1 C-1 B-1")
    assert err.kind == "illegal" and err.suggestion == "spend 2"
    (err,) = errors(state, 0, "spend 5")
    assert "only 3 Psi" in err.message
    (err,) = errors(state, 0, "spend lots")
    assert err.kind == "invalid"
    (err,) = errors(state, 0, "spend 1", "spend 2")
    assert err.kind == "ambiguous" and err.line is not None and err.line.number == 2


def test_order_form_lists_first_steps_and_validates_stripped() -> None:
    view = GAME.observe(STATE, 0)
    form = GAME.order_form(view)
    assert "#   move D-1" in form and "#   board callisto" in form
    body = [line for line in form if not line.startswith("#")]
    assert GAME.validate(view, lines_of(*body)) == {"steps": [], "fallback": None}


def test_public_view_cannot_order() -> None:
    with pytest.raises(OrderErrors):
        GAME.validate(GAME.observe(STATE, None), lines_of("move D-1"))


WORDS = [
    "move",
    "board",
    "leave",
    "to",
    "ride",
    "storm",
    "spend",
    "if",
    "wasted:",
    "try",
    "pass",
    "D-1",
    "d 2",
]
WORDS += ["C-1", "NE", "io", "europa", "callisto", "ga", "X", "3", ",", "D", "then", "-", "stop"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS) | st.text(max_size=6), max_size=6), max_size=6))
def test_any_text_is_accepted_or_refused_cleanly(lines: list[list[str]]) -> None:
    """Whatever is written, validation returns a plan or raises OrderErrors naming lines."""
    texts = [" ".join(words).strip() or "pass" for words in lines]
    for seat in (0, 1):
        try:
            plan = orders_for(STATE, seat, *texts)
        except OrderErrors as exc:
            assert exc.errors and all(isinstance(e.message, str) and e.message for e in exc.errors)
        else:
            assert set(plan) == {"steps", "fallback"}


def test_every_listed_first_step_is_valid() -> None:
    for seat in (0, 1):
        view = GAME.observe(STATE, seat)
        listed = [line[4:] for line in GAME.order_form(view) if line.startswith("#   ") and "/" not in line]
        listed = [text for text in listed if not text.startswith("if wasted")]
        assert listed
        for text in listed:
            GAME.validate(view, lines_of(text))
