"""A "did you mean" suggestion is one the rules take.  Symbioz mends one wrong word of a line
at a time, so a line with three wrong squares ("grow C1 prefer B1 C1" from a player whose
Zerbs are in C4-C6) was answered "did you mean 'grow C4 prefer B1 C1'?", which the checker
refused in turn with "did you mean 'grow C4 prefer B3 C1'?", refused again: a new user
following the advice went round three times.  Now the suggestion is followed to one the
rules take, or left out."""

from __future__ import annotations

import pytest

from pbem.game import IllegalOrderError, OrderErrors, OrderLine, View, checked_suggestions
from pbem.rng import Rng
from pbem_games.symbioz import GAME


def bob() -> View:
    state = GAME.setup(2, {}, Rng(b"newuser2"))
    return GAME.observe(state, 1)


def refused(view: View, text: str) -> str | None:
    with pytest.raises(OrderErrors) as caught:
        GAME.validate(view, [OrderLine(26, text)])
    [error] = caught.value.errors
    return error.suggestion


@pytest.mark.parametrize("text", ["grow C1 prefer B1 C1", "grow C4 prefer B1 C1", "grow C4 prefer B3 C1"])
def test_the_suggestion_is_taken_by_the_rules(text: str) -> None:
    view = bob()
    suggestion = refused(view, text)
    assert suggestion is not None
    GAME.validate(view, [OrderLine(26, suggestion)])  # raises if the advice is refused


def test_a_suggestion_that_leads_nowhere_is_left_out() -> None:
    """Refused every time, each refusal suggesting another line: no suggestion, few calls."""
    calls: list[object] = []

    def validate(view: View, lines: object) -> None:
        calls.append(lines)
        raise OrderErrors([IllegalOrderError(OrderLine(1, "x"), "no", suggestion=f"try {len(calls)}")])

    error = IllegalOrderError(OrderLine(1, "x"), "no", suggestion="try 0")
    [checked] = checked_suggestions(validate, bob(), [OrderLine(1, "x")], [error])
    assert checked.suggestion is None
    assert len(calls) == 4
