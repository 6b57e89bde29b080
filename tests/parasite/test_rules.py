"""Scenario tests for the rules and rulings that only the property games covered: the variants,
the Dog, revive, infection priority, the end-game abilities, Test Results, several Events at
once, small decks, the end with all dead and the Leader's tie-breaks."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from para_helpers import asked, edit, file, lines, new_game, texts

from pbem.game import OrderErrors
from pbem.rng import Rng
from pbem_games.parasite import GAME
from pbem_games.parasite.cards import load_cards

CARDS = load_cards()
State = dict[str, Any]


def _set(**fields: Any):  # type: ignore[no-untyped-def]
    """A change that sets state fields (``hands_1=[...]`` sets seat 1's hand)."""

    def change(s: State) -> None:
        for key, value in fields.items():
            name, _, seat = key.rpartition("_")
            if seat.isdigit():
                s[name][int(seat)] = value
            else:
                s[key] = value

    return change


def _run(state: State, answers: dict[str, list[str]] | None = None, until: int = 40) -> State:
    """Answer every question with the seat's default orders (or ``answers[kind]`` for the
    first question of that kind) until seat 1's Turn or ``until`` questions."""
    answers = dict(answers or {})
    for _ in range(until):
        if state["over"]:
            return state
        seats, kind = asked(state)
        if kind == "turn" and seats != (0,):
            return state
        orders = {}
        for seat in seats:
            view = GAME.observe(state, seat)
            text = answers.pop(kind) if kind in answers else GAME.default_orders(view)
            orders[seat] = GAME.validate(view, lines(text))
        state = GAME.resolve(state, orders, Rng(b"run")).state
    return state


# ---------------------------------------------------------------------------- Events in order


def test_several_events_drawn_at_once_resolve_in_the_order_the_player_chooses() -> None:
    s = new_game(4)
    edit(s, lambda s: s["decks"].__setitem__("office", ["pep-talk", "staff-meeting", "team-spirit"]))
    edit(s, _set(health_0="distressed"))
    result = file(s, {0: ["move office"]})
    assert asked(result.state) == ((0,), "first")
    assert GAME.observe(result.state, 0).private["ask"]["cards"] == ["team-spirit", "staff-meeting"]
    assert "ask" not in GAME.observe(result.state, 1).private
    form = GAME.order_form(GAME.observe(result.state, 0))
    assert any("first staff-meeting" in line for line in form)
    after = file(result.state, {0: ["first staff-meeting"]})
    told = texts(after)
    meeting = next(i for i, t in enumerate(told) if "Event Staff Meeting" in t)
    spirit = next(i for i, t in enumerate(told) if "Event Team Spirit" in t)
    assert meeting < spirit, "the Event named first resolves first"
    state = after.state
    # Staff Meeting first moved everyone to the Office, so Team Spirit healed them all there
    assert set(state["loc"]) == {"office"} and state["health"][0] == "healthy"
    assert state["drawing"] == [] and Counter(state["discards"]["office"]) >= Counter(
        ["staff-meeting", "team-spirit"]
    )


def test_the_other_order_gives_another_position_and_a_bad_answer_is_refused() -> None:
    s = new_game(4)
    edit(s, lambda s: s["decks"].__setitem__("office", ["pep-talk", "staff-meeting", "team-spirit"]))
    edit(s, _set(health_1="distressed"))
    result = file(s, {0: ["move office"]})
    with pytest.raises(OrderErrors, match="not one of the Events waiting"):
        GAME.validate(GAME.observe(result.state, 0), lines(["first pep-talk"]))
    state = file(result.state, {0: ["first team-spirit"]}).state
    # Team Spirit first healed only those in the Office (player 1 alone); player 2 stays Distressed
    assert state["health"][1] == "distressed" and set(state["loc"]) == {"office"}


def test_identical_events_need_no_choice() -> None:
    s = new_game(4)
    edit(s, lambda s: s["decks"].__setitem__("office", ["pep-talk", "staff-meeting", "staff-meeting"]))
    state = file(s, {0: ["move office"]}).state
    assert asked(state)[1] != "first"
