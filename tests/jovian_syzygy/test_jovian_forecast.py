"""Issue 12: the forecast in each player's private part: what riding each satellite would score
at the round's end, and the cheapest way aboard, computed with the award code itself."""

from __future__ import annotations

import os
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st
from jov_helpers import make_state, orders_for

from pbem.game import Event
from pbem.reports import ReportContext, private_plaintext
from pbem.rng import Rng
from pbem.wording import for_people
from pbem_games.jovian_syzygy import GAME, board
from pbem_games.jovian_syzygy.forecast import _orders, outlook
from pbem_games.jovian_syzygy.orders import advance, copy_turn, legal_steps
from pbem_games.jovian_syzygy.turns import start_turn

FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 40
PLACES = [*board.SPACE_NAMES, *board.MOONS]

positions = st.fixed_dictionaries(
    {
        "where": st.sampled_from(PLACES),
        "psi": st.integers(0, 4),
        "sats": st.tuples(*(st.integers(0, t.segments - 1) for t in board.TRACKS)),
        "last": st.sampled_from([None, *board.MOONS]),
        "extra": st.sampled_from([0, 1]),
    }
)


def _cheapest(where: str, psi: int, sats: list[int], extra: int) -> dict[str, int]:
    """Brute force: every plan of moves and boardings (breadth-first over whole plans), the
    least Psi that leaves the player aboard each satellite."""
    start = start_turn(0, where, psi, {"max-extra-moves": extra})
    best: dict[str, int] = {where: 0} if where in board.MOONS else {}
    queue = deque([start])
    while queue:
        turn = queue.popleft()
        for step in legal_steps(turn, sats):
            if step[0] in ("storm", "ride"):
                continue
            after = copy_turn(turn)
            advance(after, step)
            if step[0] == "board":
                best.setdefault(step[1], psi - after.psi)
                best[step[1]] = min(best[step[1]], psi - after.psi)
            elif after.moves <= 8:
                queue.append(after)
    return best


@settings(max_examples=FUZZ, deadline=None)
@given(position=positions)
def test_following_the_forecast_gives_its_award_at_the_cheapest_cost(position: dict) -> None:
    """For any position: each way aboard the forecast gives is accepted by the checker, costs
    what it says, is the cheapest there is, and played out (no storms) earns exactly the
    forecast Psi; a satellite the forecast calls out of reach cannot be boarded this turn."""
    sats = list(position["sats"])
    state = make_state(
        [position["where"]],
        sats=sats,
        psi=[position["psi"]],
        last_gain=[position["last"]],
        **{"max-extra-moves": position["extra"], "solo": "timed"},
    )
    public = GAME.observe(state, 0).public
    cheapest = _cheapest(position["where"], position["psi"], sats, position["extra"])
    found = outlook(public, 0, position["where"], position["psi"])
    assert sorted(o.moon for o in found) == sorted(board.MOONS)
    for o in found:
        if o.way is None:
            assert o.moon not in cheapest
            continue
        assert o.way.cost == cheapest[o.moon]
        plan = _orders(o.way.steps, position["where"] in board.MOONS).split(", ")
        orders = orders_for(state, 0, *plan)
        res = GAME.resolve(state, {0: orders}, Rng(b"f"))
        after = res.state
        assert after["where"][0] == o.moon
        assert after["psi"][0] == position["psi"] - o.way.cost + o.gain
        award = after["awards"][0]
        assert (award["moons"] if award else []) == list(o.moons)


def test_the_block_reads_well_and_notes_the_same_satellite_rule_and_storms() -> None:
    state = make_state(
        ["callisto", "NW"], sats=[2, 5, 11, 27], last_gain=["callisto", None], storms={"D-12": 1}
    )
    _, private = GAME.describe(GAME.observe(state, 0))
    lines = private.splitlines()
    assert all(len(line) <= 70 for line in lines)
    i = lines.index("  Callisto to segment 1: +1 Psi")
    assert lines[i + 1] == "    line: Callisto - Ganymede - Europa - Io - Jupiter (eclipse)"
    assert lines[i + 2] == "    only 1: your last gain was on it (the line is worth 6)"
    assert lines[i + 3] == "    aboard: ride (free)"
    _, other = GAME.describe(GAME.observe(state, 1))
    assert "  Callisto to segment 1: +6 Psi" in other and "    aboard: board callisto (free)" in other
    # Best first: the 6-Psi eclipse line before lines of 2.
    body = [line for line in other.splitlines() if line.startswith("  ") and not line.startswith("    ")]
    assert body[0].startswith("  Callisto")


def test_a_way_through_a_storm_says_so_and_psi_limits_the_reach() -> None:
    state = make_state(["NE"], sats=[0, 0, 5, 0], psi=[3], storms={"D-3": 2})
    found = {o.moon: o for o in outlook(GAME.observe(state, 0).public, 0, "NE", 3)}
    assert found["ganymede"].way is not None
    broke = {o.moon: o for o in outlook(GAME.observe(state, 0).public, 0, "NE", 0)}
    assert broke["io"].way is None  # no Psi: only the free first move
    _, private = GAME.describe(GAME.observe(make_state(["NE"], sats=[0, 0, 5, 0], psi=[0]), 0))
    assert "out of reach this turn" in private
    stormy = make_state(["callisto"], sats=[2, 5, 11, 27], psi=[9], storms={"D-12": 1})
    text = GAME.describe(GAME.observe(stormy, 0))[1]
    assert "    aboard: leave to D-12, board ganymede (1 Psi; storm in D-12)" in text
    assert all(len(line) <= 70 for line in text.splitlines())
    assert "      " in text  # a long way aboard is folded under its line, indented


def test_push_shows_both_staying_aboard_and_riding_on() -> None:
    state = make_state(["io"], sats=[0, 0, 0, 0], ride="push")
    found = outlook(GAME.observe(state, 0).public, 0, "io", 3)
    io = [o for o in found if o.moon == "io"]
    assert {o.segment for o in io} == {1, 2}
    assert {o.way.steps for o in io if o.way} == {("pass",), ("ride",)}


def test_no_forecast_once_the_game_is_over_and_none_for_the_public() -> None:
    state = make_state(["NE", "SW"])
    state["over"] = True
    assert GAME.describe(GAME.observe(state, 0))[1] == "You are Player 1.\n"
    assert GAME.describe(GAME.observe(make_state(["NE"]), None))[1] == ""


def test_the_largest_forecast_fits_the_declared_private_size() -> None:
    """The worst case we could build (ride=push, 4 players with 32-character names, every
    satellite on a four-satellite eclipse line, long paths through storms, an event to the
    seat) stays under GameInfo.padding.report, so no report goes to the next size."""
    names = tuple(f"{n}{'x' * 32}"[:32] for n in ("alice", "bob", "carol", "dave"))
    ctx = ReportContext(
        game_id="F" * 16,
        turn=9999,
        revision=999_999,
        names=names,
        awaiting=names,
        moderator=None,  # type: ignore[arg-type]
        seed_commitment="",
        seed=None,
        outcome=None,
        seq={},
    )
    storms = {name: 9 for name in board.SPACE_NAMES}
    largest = 0
    rng = Rng(b"worst")
    for _ in range(60):
        sats = [rng.randbelow(t.segments) for t in board.TRACKS]
        where = [rng.choice(PLACES) for _ in range(4)]
        state = make_state(
            where,
            sats=sats,
            psi=[99] * 4,
            last_gain=[rng.choice(board.MOONS)] * 4,
            storms=storms,
            ride="push",
        )
        for seat in range(4):
            view = GAME.observe(state, seat)
            text = for_people(GAME.describe(view)[1], names)
            plain = private_plaintext(GAME, view, [Event("x" * 70, (seat,))], ctx, text)
            largest = max(largest, len(plain))
    assert 1000 < largest <= GAME.info.padding.report, largest
