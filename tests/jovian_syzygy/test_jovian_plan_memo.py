"""Issue 13: plans that passed are remembered (orders._PLANS), and the memo changes no answer.

Every plan is checked against :func:`orders._validate` itself (the plain way, no memo) on the
same view: the same plan, or the same errors; asked twice, so that the second answer comes
from the memo; on positions differing only in the satellites, so that a plan remembered on one
board is never taken for another's."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jov_helpers import lines_of, make_state

from pbem.game import OrderErrors, View
from pbem_games.jovian_syzygy import GAME, board, orders

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "150"))

_PLACES = [*board.SPACE_NAMES, *board.MOONS]
_WORDS = [
    *(f"move {s}" for s in board.SPACE_NAMES[:20]),
    *(f"move {s}" for s in board.CORNERS),
    *(f"board {m}" for m in board.MOONS),
    *(f"leave to {s}" for s in board.SPACE_NAMES[:12]),
    "leave io to A-1",
    "ride",
    "storm",
    "pass",
    "spend 1",
    "spend 9",
    "if wasted: stop",
    "if wasted: try D-1",
    "if wasted: try board europa",
    "if wasted: try C-2, storm",
    "move D-1 D-2",
    "corner NE",
    "fly away",
    "move Q-9",
    "move " + "D-1 " * 30,
]


def _answer(view: View, texts: list[str], memo: bool) -> Any:
    """The plan, or the errors as (kind, line, message, suggestion)."""
    lines = lines_of(*texts)
    try:
        if memo:
            return orders.validate(view, lines)
        return orders._validate(view, lines, list(view.public["sats"]))
    except OrderErrors as errors:
        return [(type(e), e.line, e.message, e.suggestion) for e in errors.errors]


positions = st.tuples(st.integers(0, 2), st.integers(0, 5), st.integers(0, 11), st.integers(0, 27))


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    where=st.sampled_from(_PLACES),
    psi=st.integers(0, 4),
    sats=st.lists(positions, min_size=1, max_size=3),
    texts=st.lists(st.sampled_from(_WORDS), max_size=5),
    extra=st.sampled_from([0, 1, 2, True]),
    ride=st.sampled_from(["stay", "push"]),
)
def test_a_remembered_plan_is_what_the_checks_say(
    where: str, psi: int, sats: list[tuple[int, ...]], texts: list[str], extra: Any, ride: str
) -> None:
    for position in [*sats, *sats]:  # each position twice: the second answer from the memo
        state = make_state(
            [where, "NE"], sats=position, psi=[psi, 3], **{"max-extra-moves": extra, "ride": ride}
        )
        view = GAME.observe(state, 0)
        assert _answer(view, texts, memo=True) == _answer(view, texts, memo=False)


def test_a_boarding_remembered_on_one_board_is_refused_on_another() -> None:
    """'board io' from A-1 is allowed where Io borders A-1 and refused where it does not: the
    memo keys such a plan by the satellites (it read them)."""
    near = next(s for s in range(3) if "A-1" in board.spaces_by_segment("io", s))
    far = next(s for s in range(3) if "A-1" not in board.spaces_by_segment("io", s))
    here = GAME.observe(make_state(["A-1", "NE"], sats=(near, 0, 0, 0)), 0)
    there = GAME.observe(make_state(["A-1", "NE"], sats=(far, 0, 0, 0)), 0)
    plan = lines_of("board io")
    assert GAME.validate(here, plan) == {"steps": [["board", "io"]], "fallback": None}
    with pytest.raises(OrderErrors, match="does not border A-1"):
        GAME.validate(there, plan)
    assert GAME.validate(here, plan) == {"steps": [["board", "io"]], "fallback": None}


def test_a_plan_that_reads_no_satellite_is_shared_by_every_board() -> None:
    """'storm' from a space reads no satellite: one entry serves every position."""
    orders._PLANS.clear()
    for sats in [(0, 0, 0, 0), (1, 2, 3, 4), (2, 5, 11, 27)]:
        view = GAME.observe(make_state(["D-3", "NE"], sats=sats), 0)
        assert GAME.validate(view, lines_of("storm")) == {"steps": [["storm"]], "fallback": None}
    assert len(orders._PLANS) == 1


def test_a_remembered_plan_is_the_callers_own_and_the_memo_stays_bounded(monkeypatch: Any) -> None:
    view = GAME.observe(make_state(["D-3", "NE"]), 0)
    first = GAME.validate(view, lines_of("move D-4", "if wasted: try D-2"))
    first["steps"][0].append("changed")
    first["fallback"].clear()
    again = GAME.validate(view, lines_of("move D-4", "if wasted: try D-2"))
    assert again == {"steps": [["move", "D-4"]], "fallback": [["move", "D-2"]]}
    monkeypatch.setattr(orders, "_PLANS_KEPT", 10)
    for psi in range(40):
        GAME.validate(GAME.observe(make_state(["D-3", "NE"], psi=[psi, 3]), 0), lines_of("storm"))
        assert len(orders._PLANS) <= 10


def test_what_the_memo_does_not_keep_is_checked_anew() -> None:
    """A rejected plan, a long line and an over game are never remembered; a plan that passes is."""
    orders._PLANS.clear()
    view = GAME.observe(make_state(["D-3", "NE"], psi=[9, 3]), 0)
    with pytest.raises(OrderErrors, match="not a space"):
        GAME.validate(view, lines_of("move Q-9"))
    long_plan = lines_of("storm" + " " * 100)
    assert GAME.validate(view, long_plan) == {"steps": [["storm"]], "fallback": None}
    over = GAME.observe({**make_state(["D-3", "NE"]), "over": True}, 0)
    with pytest.raises(OrderErrors, match="the game is over"):
        GAME.validate(over, lines_of("storm"))
    assert orders._PLANS == {}
    GAME.validate(view, lines_of("storm"))
    assert len(orders._PLANS) == 1
