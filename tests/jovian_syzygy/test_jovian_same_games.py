"""Issue 13's speed work on Jovian Syzygy changes no rule and no bot's choice: the greedy bot's
plan search, with each place valued once, finds exactly the plans (and values) the search
found before, and the options read the same."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.game import OrderLine, View
from pbem.registry import get_game
from pbem.rng import Rng
from pbem_games.jovian_syzygy import board, bots
from pbem_games.jovian_syzygy.orders import advance, copy_turn, legal_steps
from pbem_games.jovian_syzygy.rules import award_for, moved, options_of
from pbem_games.jovian_syzygy.turns import Turn

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60"))


def _reference_score(view: View, turn: Turn, spent: int) -> float:
    """The greedy bot's valuation as it was written before issue 13."""
    public = view.public
    last = public["last_gain"][turn.seat]
    after = moved(list(public["sats"]))
    if turn.where in board.TRACK_BY_MOON:
        gain, _ = award_for(after, turn.where, last)
        return gain - spent + 0.1
    later = moved(after)
    best = 0.0
    for moon, seg in zip(board.MOONS, after, strict=True):
        gain, _ = award_for(later, moon, last)
        if gain:
            near = min(bots._distances()[turn.where].get(s, 99) for s in board.spaces_by_segment(moon, seg))
            best = max(best, gain / (2.0 + near))
    return best - spent


def _reference_best_plans(view: View, start: Turn) -> tuple[float, list[Any]]:
    """The plan search as it was written before issue 13 (every place valued anew)."""
    sats = list(view.public["sats"])
    storms = view.public["storms"]
    best: list[tuple[float, Any]] = [(_reference_score(view, start, 0), [])]
    frontier: list[tuple[Turn, Any, float, float]] = [(start, [], 1.0, 0.0)]
    for _depth in range(3):
        nxt = []
        for turn, plan, reach, wasted in frontier:
            for step in legal_steps(turn, sats):
                if step[0] == "storm":
                    continue
                after = copy_turn(turn)
                advance(after, step)
                spent = start.psi - after.psi
                success = 0.5 ** storms.get(step[1], 0) if step[0] == "move" else 1.0
                if success < 1.0:
                    stay = copy_turn(turn)
                    stay.moves, stay.psi = after.moves, after.psi
                    wasted_now = wasted + reach * (1 - success) * _reference_score(view, stay, spent)
                else:
                    wasted_now = wasted
                new_plan = [*plan, step]
                value = wasted_now + reach * success * _reference_score(view, after, spent)
                best.append((value, new_plan))
                if after.where not in board.TRACK_BY_MOON and after.psi > 0:
                    nxt.append((after, new_plan, reach * success, wasted_now))
        frontier = nxt
    top = max(score for score, _ in best)
    return top, [plan for score, plan in best if score >= top - 1e-9]


def test_the_greedy_search_finds_the_plans_it_found_before() -> None:
    game = get_game("jovian-syzygy")
    options = {v.name: v.default for v in game.info.variants}
    options.update({"corners": "dealt", "max-rounds": 6})
    state = game.setup(4, options, Rng(b"same-plans"))
    rng = Rng(b"same-plans-play")
    searched = 0
    while game.outcome(state) is None:
        orders = {}
        for seat in game.to_act(state):
            view = game.observe(state, seat)
            start = bots._turn(view)
            assert bots._best_plans(view, start) == _reference_best_plans(view, start)
            assert bots._score(view, start, 1) == _reference_score(view, start, 1)
            searched += 1
            lines = [OrderLine(i, t) for i, t in enumerate(game.bots["greedy"](game, view, rng), 1)]
            orders[seat] = game.validate(view, lines)
        state = game.resolve(state, orders, rng).state
    assert searched >= 20


words = st.text(alphabet="abcdeg_-x", min_size=1, max_size=12)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.dictionaries(words, st.integers() | st.text(max_size=3), max_size=8))
def test_options_read_as_they_did(options: dict[str, Any]) -> None:
    state = {"options": options}
    assert options_of(state) == {str(k).replace("_", "-"): v for k, v in options.items()}
    assert options_of(state) is not options
