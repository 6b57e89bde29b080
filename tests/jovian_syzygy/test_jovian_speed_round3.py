"""Issue 13, a third round: the memo and inlined cases in resolve, views and validation give
exactly what the plain way gives (each checked against the code it replaced, kept here)."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jov_helpers import lines_of, make_state

from pbem.game import Event, OrderErrors
from pbem_games.jovian_syzygy import GAME, board, rules, view
from pbem_games.jovian_syzygy import orders as orders_module
from pbem_games.jovian_syzygy.lines import line_value
from pbem_games.jovian_syzygy.orders import advance, copy_turn, fallback_problem, legal_steps
from pbem_games.jovian_syzygy.turns import Turn, step_problem, step_text

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60"))

positions = st.tuples(st.integers(0, 2), st.integers(0, 5), st.integers(0, 11), st.integers(0, 27))
places = st.sampled_from([*board.SPACE_NAMES, *board.MOONS])
gains = st.one_of(st.none(), st.sampled_from(board.MOONS))


def _ref_end_round(state: dict[str, Any], events: list[Event]) -> tuple[dict[str, Any], tuple[Event, ...]]:
    """The round's end as it was before the per-position memo (every award looked up anew)."""
    n = state["players"]
    sats = rules.moved(state["sats"])
    where, psi, last_gain = state["where"], list(state["psi"]), list(state["last_gain"])
    events.append(
        Event(
            "The satellites move: "
            + ", ".join(f"{t.title} to segment {s + 1}" for t, s in zip(board.TRACKS, sats, strict=True))
            + "."
        )
    )
    awards: list[Any] = [None] * n
    for seat in rules.turn_order(state):
        if where[seat] not in board.TRACK_BY_MOON:
            continue
        line = rules.award_line(sats, where[seat])
        if line is None:
            continue
        moons, eclipse = line
        worth = line_value(len(moons), eclipse)
        same = last_gain[seat] == where[seat]
        gain = 1 if same else worth
        psi[seat] += gain
        last_gain[seat] = where[seat]
        awards[seat] = {"moons": list(moons), "eclipse": eclipse, "psi": gain, "same": same}
        text = f"Player {seat + 1} on {moons[0].capitalize()}: syzygy " + " - ".join(
            m.capitalize() for m in moons
        )
        if eclipse:
            text += " - Jupiter (eclipse +3)"
        text += f", worth {worth}"
        if same:
            text += ", but the same satellite as at the last gain: only 1"
        events.append(Event(f"{text}; +{gain} Psi (now {psi[seat]})."))
    new = {
        **state,
        "round": state["round"] + 1,
        "rounds_played": state["rounds_played"] + 1,
        "first": (state["first"] + 1) % n,
        "sats": sats,
        "psi": psi,
        "last_gain": last_gain,
        "awards": awards,
        "award_sats": list(sats),
        "over": False,
    }
    if "step" in state:
        new["step"] = 0
    new["over"] = rules._ends(new)
    if new["over"]:
        summary = rules.summarise(new)
        assert summary is not None
        events.append(Event(f"The game ends: {summary.summary}"))
    return new, tuple(events)


@settings(max_examples=EXAMPLES * 2, deadline=None)
@given(
    positions,
    st.lists(places, min_size=1, max_size=4),
    st.lists(gains, min_size=4, max_size=4),
    st.lists(st.integers(0, 20), min_size=4, max_size=4),
    st.integers(0, 3),
    st.booleans(),
    st.booleans(),
)
def test_the_round_end_is_what_the_plain_way_gives(
    sats: tuple[int, ...],
    where: list[str],
    last_gain: list[str | None],
    psi: list[int],
    first: int,
    sequential: bool,
    twice: bool,
) -> None:
    """Satellites moved, awards, Psi, events and the end as before, for a position seen for
    the first time and again (the memo's answers, and awards it has looked up already)."""
    n = len(where)
    state = make_state(
        where, sats=sats, psi=psi[:n], last_gain=last_gain[:n], first=first % n, rounds_played=7
    )
    if sequential:
        state["step"] = n - 1
    if not twice:
        rules._round_end.cache_clear()
    for _ in range(2):
        expected = _ref_end_round(dict(state), [Event("before")])
        mine = dict(state, psi=list(state["psi"]))  # as resolve hands it over: its own dict and Psi
        got = rules._end_round(mine, [Event("before")])
        assert got[0] == expected[0] and list(got[0]) == list(expected[0])  # the keys' order too
        assert got[1] == expected[1]
        assert state["psi"] == psi[:n]  # the state given to resolve is not changed


def test_the_round_end_memo_is_the_move_and_its_event() -> None:
    rules._round_end.cache_clear()
    for sats in [(0, 0, 0, 0), (2, 5, 11, 27), (1, 3, 7, 20)]:
        after, event, lines = rules._round_end(sats)
        assert after == tuple(rules.moved(list(sats)))
        assert event == Event(
            "The satellites move: "
            + ", ".join(f"{t.title} to segment {s + 1}" for t, s in zip(board.TRACKS, after, strict=True))
            + "."
        )
        assert lines == {}  # award lines are looked up by the first rider only
        assert rules._round_end(sats)[1] is event


def test_a_round_fills_the_award_lines_it_reads_from_the_line_search() -> None:
    rules._round_end.cache_clear()
    state = make_state(["io", "europa", "NE"], sats=(1, 3, 7, 20))
    rules._end_round(dict(state, psi=list(state["psi"])), [])
    after, _, lines = rules._round_end((1, 3, 7, 20))
    assert set(lines) == {"io", "europa"}
    for moon, line in lines.items():
        assert line == rules.search_award_line(after, moon)


option_values = st.one_of(
    st.integers(0, 3), st.floats(0, 3), st.booleans(), st.sampled_from(["stay", "push"])
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.permutations(rules.OPTION_KEYS),
    st.dictionaries(st.sampled_from(rules.OPTION_KEYS), option_values),
    st.dictionaries(
        st.sampled_from(board.SPACE_NAMES[:12]), st.one_of(st.integers(0, 3), st.just(True)), max_size=6
    ),
    st.lists(
        st.one_of(st.none(), st.just({"moons": ["io", "europa"], "eclipse": True, "psi": 5, "same": False}))
    ),
)
def test_a_views_options_storms_and_awards_are_the_helpers_answers(
    keys: list[str], values: dict[str, Any], storms: dict[str, Any], awards: list[Any]
) -> None:
    """observe's inlined usual cases answer as _public_options, _public_storms and
    _public_awards do (to each value's type and the keys' order), seat after seat, and
    each view has its own copies."""
    state = make_state(["NE", "SE"])
    state["options"] = {k: values.get(k, state["options"][k]) for k in keys}
    state["storms"], state["awards"] = storms, awards or [None, None]
    for seat in (0, 1, 0):
        public = GAME.observe(state, seat).public
        for key, helper in (
            ("options", lambda: view._public_options(state)),
            ("storms", lambda: view._storms_shown(state["storms"])),
            ("awards", lambda: view._public_awards(state["awards"])),
        ):
            want: Any = helper()  # a dict for options and storms, a list for awards
            assert list(public[key].items() if key != "awards" else public[key]) == list(
                want.items() if key != "awards" else want
            )
            assert [type(v) for v in (public[key].values() if key != "awards" else public[key])] == [
                type(v) for v in (want.values() if key != "awards" else want)
            ]
            assert public[key] is not state[key]
        public["storms"]["D-1"] = 9
        public["options"]["ride"] = "changed"


def test_validated_steps_are_the_plans_own() -> None:
    """A plan's steps are new lists each time (a remembered line's steps are not handed out)."""
    orders_module._STEP_LINES.clear()
    v = GAME.observe(make_state(["io", "NE"], sats=(0, 0, 0, 0), psi=[5, 3]), 0)
    first = GAME.validate(v, lines_of("leave io to A-1"))
    first["steps"][0].append("changed")
    again = GAME.validate(v, lines_of("leave io to A-1"))
    assert again == {"steps": [["move", "A-1"]], "fallback": None}
    assert orders_module._STEP_LINES["leave io to A-1"] == ("leave io to A-1", (("move", "A-1", "io"),))


def _ref_step_problem(step: list[str], turn: Turn, sats: list[int]) -> str | None:
    """step_problem as it was (the moon's index found in board.MOONS, checks in the old order)."""
    kind = step[0]
    riding = turn.where in board.TRACK_BY_MOON
    if kind in ("move", "board", "ride") and turn.moves >= 1:
        if riding:
            return "an extra move needs you off a satellite"
        if turn.psi < 1:
            return "an extra move costs 1 Psi and you have none left"
        if turn.extra_limit and turn.moves > turn.extra_limit:
            return f"at most {turn.extra_limit} extra move(s) a turn in this game"
    if kind == "move":
        target = step[1]
        if riding:
            seg = sats[board.MOONS.index(turn.where)]
            if target not in board.spaces_by_segment(turn.where, seg):
                return f"{target} does not border {turn.where.capitalize()}'s segment"
        elif target not in board.adjacency()[turn.where]:
            return f"{target} is not next to {turn.where}"
        return None
    return step_problem(step, turn, sats)  # board, ride, storm and unknown steps: unchanged


@settings(max_examples=EXAMPLES * 2, deadline=None)
@given(
    places,
    st.integers(0, 3),
    st.integers(0, 3),
    st.booleans(),
    st.integers(0, 2),
    positions,
    st.sampled_from([["move", s] for s in board.SPACE_NAMES] + [["board", m] for m in board.MOONS])
    | st.sampled_from([["ride"], ["storm"], ["fly"]]),
)
def test_a_steps_problem_is_what_it_was(
    where: str, psi: int, moves: int, stormed: bool, limit: int, sats: tuple[int, ...], step: list[str]
) -> None:
    turn = Turn(0, where, psi, moves, stormed, limit)
    assert step_problem(step, turn, list(sats)) == _ref_step_problem(step, turn, list(sats))


def _ref_fallback_verdict(
    turn: Turn, steps: list[list[str]], fallback: list[list[str]], sats: list[int], push: bool
) -> str | None:
    """Every point where a move could be wasted, each asked (as validate asked them all before)."""
    points = []
    for step in steps:
        if step[0] == "move":
            points.append((copy_turn(turn), True))
        if push and (step[0] == "board" or turn.where in board.TRACK_BY_MOON):
            points.append((copy_turn(turn), False))
        advance(turn, step)
    problems = [fallback_problem(point, fallback, sats, used) for point, used in points]
    return problems[-1] if problems and all(problems) else None


@settings(max_examples=EXAMPLES * 2, deadline=None)
@given(
    places,
    st.integers(0, 3),
    positions,
    st.lists(st.integers(0, 30), max_size=4),
    st.sampled_from(["D-2", "A-1", "board io", "board callisto", "storm", "B-3, D-4", "ride"]),
    st.sampled_from(["stay", "push"]),
)
def test_a_fallback_is_refused_exactly_when_no_wasted_move_could_use_it(
    where: str, psi: int, sats: tuple[int, ...], picks: list[int], fallback_text: str, ride: str
) -> None:
    """validate stops asking at the first point that can use the fallback: the same verdict
    and, when none can, the same (last) problem as asking every point."""
    state = make_state([where, "NE"], sats=sats, psi=[psi, 3], ride=ride)
    turn = Turn(0, where, psi, 0, False, 0)
    steps: list[list[str]] = []
    for pick in picks:  # a legal plan, step by step
        legal = legal_steps(turn, list(sats))
        if not legal:
            break
        step = legal[pick % len(legal)]
        steps.append(step)
        advance(turn, step)
    texts = [step_text(s) for s in steps] + [f"if wasted: try {fallback_text}"]
    view_ = GAME.observe(state, 0)
    try:
        plan = GAME.validate(view_, lines_of(*texts))
        messages = []
    except OrderErrors as errors:
        plan, messages = None, [e.message for e in errors.errors]
    fallback = orders_module._parse_fallback(f"if wasted: try {fallback_text}")
    assert fallback is not None
    verdict = _ref_fallback_verdict(
        Turn(0, where, psi, 0, False, 0), steps, fallback, list(sats), ride == "push"
    )
    never = [m for m in messages if "could never be used" in m]
    if verdict is None:
        assert never == []
    else:
        assert never == [f"the fallback could never be used: {verdict}"]
    if plan is not None:
        assert plan["steps"] == steps and plan["fallback"] == fallback
