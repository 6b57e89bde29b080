"""Issue 13, a second round: the shortcuts in views, the random bot and resolve give exactly what
the plain way gives (each checked against the code it replaced, kept here as the reference)."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jov_helpers import lines_of, make_state, rng_with_coins

from pbem.game import Event, OrderErrors, View
from pbem.rng import Rng
from pbem_games.jovian_syzygy import GAME, board, bots, rules, view
from pbem_games.jovian_syzygy import orders as orders_module
from pbem_games.jovian_syzygy.orders import boardings, copy_turn, fallback_problem, legal_steps
from pbem_games.jovian_syzygy.turns import Turn, play_turn, step_text

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60"))

_SPACES = list(board.SPACE_NAMES)
positions = st.tuples(st.integers(0, 2), st.integers(0, 5), st.integers(0, 11), st.integers(0, 27))
counts = st.one_of(st.integers(0, 4), st.sampled_from([True, 2.0, 1.0, 3.0]))
storms_dicts = st.dictionaries(st.sampled_from(_SPACES), counts, max_size=12)


def _ref_storms(storms: dict[str, Any]) -> dict[str, int]:
    """A view's storms as observe worked them out before they were remembered."""
    keys = sorted(storms)
    if keys == list(storms) and set(map(type, storms.values())) <= {int}:
        return dict(storms)
    return {k: int(storms[k]) for k in keys}


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(storms_dicts, min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_a_views_storms_are_what_the_plain_way_shows(seq: list[dict[str, Any]], shuffle: Any) -> None:
    """Each storms dict (also shuffled, and again right after itself: the remembered answer)
    shows as the plain way shows it, to the type of every count; no view shares it."""
    for storms in seq:
        items = list(storms.items())
        shuffle.shuffle(items)
        for given_storms in (storms, dict(items), storms):
            shown = view._public_storms(given_storms)
            expected = _ref_storms(given_storms)
            assert list(shown.items()) == list(expected.items())
            assert [type(v) for v in shown.values()] == [type(v) for v in expected.values()]
            shown["D-1"] = 99  # the caller's own: the next answer is not changed
            assert view._public_storms(given_storms) == expected


def test_a_view_of_changed_storms_shows_the_change() -> None:
    state = make_state(["D-3", "NE"], storms={"A-1": 1, "B-2": 2})
    first = GAME.observe(state, 0)
    state["storms"]["B-2"] = 1  # changed in place: the same dict object
    state["storms"]["C-1"] = True
    second = GAME.observe(state, 1)
    assert first.public["storms"] == {"A-1": 1, "B-2": 2}
    assert second.public["storms"] == {"A-1": 1, "B-2": 1, "C-1": 1}
    assert type(second.public["storms"]["C-1"]) is int
    second.public["storms"].clear()
    assert GAME.observe(state, 0).public["storms"] == {"A-1": 1, "B-2": 1, "C-1": 1}


def test_a_views_awards_are_copies_field_by_field() -> None:
    award = {"moons": ["io", "europa"], "eclipse": False, "psi": 2, "same": False, "extra": "not shown"}
    state = make_state(["io", "NE"])
    cases: tuple[list[Any], ...] = ([None, None], [award, None], [None, award])
    for awards in cases:
        state["awards"] = awards
        shown = GAME.observe(state, 0).public["awards"]
        expected = [
            None
            if a is None
            else {"moons": list(a["moons"]), "eclipse": a["eclipse"], "psi": a["psi"], "same": a["same"]}
            for a in awards
        ]
        assert shown == expected and shown is not awards
        assert all(s is None or s["moons"] is not a["moons"] for s, a in zip(shown, awards, strict=True))


def _ref_random_bot(v: View, rng: Rng) -> list[str]:
    """The random bot before its choices were read off the board's boardings once a plan
    (kept as it was: the same steps, order and rng draws)."""
    public, seat = v.public, v.seat
    assert seat is not None
    where, psi, moves, stormed = public["where"][seat], public["psi"][seat], 0, False
    limit = int(public["options"].get("max-extra-moves", 0))
    sats = list(public["sats"])
    key = tuple(sats)
    lines: list[str] = []
    waste_points: list[tuple[str, int, int, bool]] = []
    for _ in range(4):
        options = bots._choices(where, moves, psi, stormed, limit, key)
        pick = rng.randbelow(len(options) + 1)
        if pick == len(options):
            break
        kind, target, text = options[pick]
        if kind == "move":
            waste_points.append((where, psi, moves, stormed))
        lines.append(text)
        if kind == "storm":
            stormed = True
            continue
        if moves >= 1:
            psi -= 1
        moves += 1
        if kind != "ride":
            where = target
    if waste_points and rng.randbelow(3) == 0:
        points = [Turn(seat, w, p, m, s, limit) for w, p, m, s in waste_points]
        point = copy_turn(rng.choice(points))
        point.psi -= 1 if point.moves >= 1 else 0
        point.moves += 1
        options_now = legal_steps(point, sats)
        if options_now:
            fallback = [rng.choice(options_now)]
            if fallback_problem(points[0], fallback, sats) is None or any(
                fallback_problem(p, fallback, sats) is None for p in points
            ):
                lines.append("if wasted: try " + step_text(fallback[0]))
    return lines or ["pass"]


@settings(max_examples=EXAMPLES * 2, deadline=None)
@given(
    st.sampled_from([*board.SPACE_NAMES, *board.MOONS]),
    st.integers(0, 4),
    positions,
    st.integers(0, 2),
    st.binary(min_size=1, max_size=8),
)
def test_the_random_bot_writes_what_it_wrote_before(
    where: str, psi: int, sats: tuple[int, ...], limit: int, seed: bytes
) -> None:
    options: dict[str, Any] = {"max-extra-moves": limit}
    state = make_state([where, "NE"], sats=sats, psi=[psi, 3], **options)
    v = GAME.observe(state, 0)
    for n in range(4):
        mine, ref = Rng(seed + bytes([n])), Rng(seed + bytes([n]))
        assert bots.random_bot(GAME, v, mine) == _ref_random_bot(v, ref)
        assert mine.randbelow(1 << 30) == ref.randbelow(1 << 30)  # the same draws were taken


@settings(max_examples=EXAMPLES * 3, deadline=None)
@given(
    st.sampled_from(board.SPACE_NAMES),
    st.integers(0, 3),
    st.integers(-1, 4),
    st.booleans(),
    st.integers(0, 3),
    positions,
)
def test_the_open_choices_are_the_choices(
    where: str, moves: int, psi: int, stormed: bool, limit: int, sats: tuple[int, ...]
) -> None:
    can_move = moves < 1 or (psi >= 1 and not (limit and moves > limit))
    opened = bots._open(where, boardings(sats).get(where, ()), can_move, stormed)
    assert opened == bots._choices(where, moves, psi, stormed, limit, sats)


_plans = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.sampled_from(_SPACES)).map(list),
        st.tuples(st.just("board"), st.sampled_from(board.MOONS)).map(list),
        st.just(["storm"]),
        st.just(["ride"]),
    ),
    max_size=4,
)


@settings(max_examples=EXAMPLES * 2, deadline=None)
@given(
    st.lists(st.sampled_from(_SPACES), min_size=2, max_size=4),
    storms_dicts,
    st.lists(_plans, min_size=4, max_size=4),
    st.binary(min_size=1, max_size=4),
    st.booleans(),
)
def test_resolve_keeps_the_storms_as_the_plain_way_does(
    where: list[str], storms: dict[str, Any], plans: list[Any], seed: bytes, unsorted: bool
) -> None:
    """Storms sorted again only when a turn added or removed a space's (else kept as they
    are, even out of name order): what comparing the keys before and after gave."""
    if unsorted:
        storms = dict(reversed(list(storms.items())))
    state = make_state(where, storms={k: int(v) for k, v in storms.items()})  # in the order given
    orders = {seat: {"steps": plans[seat], "fallback": None} for seat in range(len(where))}
    got = rules.resolve(state, orders, Rng(seed))
    # The reference: the same turns (no note of spaces), then the keys compared.
    sats, places, psi, mine = list(state["sats"]), list(where), list(state["psi"]), dict(state["storms"])
    rng, events = Rng(seed), [Event(f"Round {state['round']}: Player {state['first'] + 1} goes first.")]
    for seat in rules.turn_order(state):
        turn = Turn(seat, places[seat], psi[seat], 0, False, 0)
        log = play_turn(turn, orders[seat], sats, mine, rng, False)
        events += [Event(t) for t in log or [f"Player {seat + 1} does nothing."]]
        places[seat], psi[seat] = turn.where, turn.psi
    if mine.keys() != state["storms"].keys():
        mine = dict(sorted(mine.items()))
    assert list(got.state["storms"].items()) == list(mine.items())
    assert got.state["where"] == places  # (Psi: the awards at the round's end come after)
    assert list(got.events[: len(events)]) == events


def test_storms_out_of_name_order_are_sorted_when_a_space_is_emptied() -> None:
    """A storm blown away empties C-1: the keys changed, so the storms are sorted again."""
    beside = board.adjacency()["C-1"][0]
    state = make_state([beside, "NE"], storms={"D-3": 1, "C-1": 1, "A-1": 1})
    orders = {0: {"steps": [["move", "C-1"]], "fallback": None}}
    got = rules.resolve(state, orders, rng_with_coins(True))
    assert list(got.state["storms"]) == ["A-1", "D-3"]


def test_storms_out_of_name_order_stay_so_when_a_space_is_filled_and_emptied() -> None:
    """A storm made in an empty space and blown away in the same round leaves the same keys:
    the storms stay in the order they had (as comparing the keys before and after kept them)."""
    beside = board.adjacency()["C-1"][0]
    state = make_state(["C-1", beside], storms={"D-3": 1, "A-1": 1}, first=0)
    orders = {0: {"steps": [["storm"]], "fallback": None}, 1: {"steps": [["move", "C-1"]], "fallback": None}}
    got = rules.resolve(state, orders, rng_with_coins(True))
    assert list(got.state["storms"]) == ["D-3", "A-1"]
    assert got.state["where"][1] == "C-1"


_LINES = [
    "move D-3",
    "  move d 4  ",
    "board io",
    "leave io to A-1",
    "leave to A-1",
    "ride",
    "storm",
    "pass",
    "spend 1",
    "spend 99",
    "if wasted: try D-2",
    "if wasted: stop",
    "corner NE",
    "move Q-9",
    "fly away",
    "D-3 D-4",
    "move " + "D-4 " * 30,
]


def _checked(v: View, texts: list[str]) -> Any:
    try:
        return GAME.validate(v, lines_of(*texts))
    except OrderErrors as errors:
        return [(type(e), e.line, e.message, e.suggestion) for e in errors.errors]


@settings(max_examples=EXAMPLES * 2, deadline=None)
@given(
    st.sampled_from([*board.SPACE_NAMES, *board.MOONS]),
    st.integers(0, 4),
    positions,
    st.lists(st.sampled_from(_LINES), max_size=5),
)
def test_order_lines_read_from_memory_are_read_as_before(
    where: str, psi: int, sats: tuple[int, ...], texts: list[str]
) -> None:
    """The same plan or the same errors with no line remembered, and again with every line
    remembered (a 'leave io' line's step loses its moon as it is checked: not the memo's)."""
    v = GAME.observe(make_state([where, "NE"], sats=sats, psi=[psi, 3]), 0)
    orders_module._STEP_LINES.clear()
    plain = _checked(v, texts)
    assert _checked(v, texts) == plain
    assert _checked(v, texts) == plain


def test_only_lines_of_steps_are_remembered_and_the_memory_is_bounded(monkeypatch: Any) -> None:
    orders_module._STEP_LINES.clear()
    v = GAME.observe(make_state(["io", "NE"], sats=(0, 0, 0, 0), psi=[5, 3]), 0)
    _checked(v, ["leave io to A-1", "spend 1", "if wasted: stop", "corner NE", "move Q-9", "fly away"])
    _checked(v, ["move " + "D-4 " * 30])
    assert list(orders_module._STEP_LINES) == ["leave io to A-1"]
    assert orders_module._STEP_LINES["leave io to A-1"] == ("leave io to A-1", (("move", "A-1", "io"),))
    monkeypatch.setattr(orders_module, "_STEP_LINES_KEPT", 3)
    for space in board.SPACE_NAMES[:10]:
        _checked(v, [f"move {space}"])
        assert len(orders_module._STEP_LINES) <= 3
