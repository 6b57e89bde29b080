"""Random legal games keep every invariant and end (hypothesis)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from symbioz_helpers import lines

from pbem.canonical import dumps, loads
from pbem.rng import Rng
from pbem_games.symbioz import GAME
from pbem_games.symbioz.state import PHASE_VERBS, SATURATION, SUPPLY, TURNS, play_order, symbioz_counts

FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0"))
"""Set PBEM_FUZZ_EXAMPLES to run the hypothesis tests longer than in CI."""


def check_invariants(state: dict[str, Any], turn_end: bool = True) -> None:
    """Pawns conserved, counts in range, closed squares empty; and at the end of a turn
    (``turn_end``), no square left holding 12 of a colour."""
    players = state["players"]
    markers = symbioz_counts(state)
    for pawn in ("zerb", "crapit", "krogul"):
        table = state[pawn + "s"]
        for seat in range(players):
            on_board = sum(row[seat] for row in table.values())
            kept = markers[seat] if pawn == "zerb" else 0
            assert on_board + state["supply"][pawn][seat] + kept == SUPPLY[pawn], (pawn, seat)
            assert state["supply"][pawn][seat] >= 0
        assert all(n >= 0 for row in table.values() for n in row)
        for sq in state["symbioz"]:
            assert sum(table[sq]) == 0, f"closed square {sq} holds {pawn}s"
    for sq, row in state["zerbs"].items():
        assert sum(row) <= SATURATION, f"{sq} holds {sum(row)} Zerbs"
        assert not turn_end or max(row) < SATURATION, "12 of a colour survived a turn end"
    assert set(state["zerbs"]) == set(state["squares"])


options_strategy = st.fixed_dictionaries(
    {
        "zerb-cost": st.integers(1, 3),
        "crapit-cost": st.integers(1, 5),
        "krogul-cost": st.integers(1, 6),
        "points": st.integers(1, 20),
        "first-game": st.booleans(),
        "two-player-board": st.sampled_from(["half", "full"]),
        "buy-in-fertile": st.sampled_from(["animals", "none", "all"]),
        "purchase-limit": st.sampled_from(["breed", "double", "none"]),
    }
)


def play_checked(players: int, seed: int, bots: list[str], options: dict[str, Any]) -> None:
    """Play one whole game, checking every invariant after every turn."""
    state = GAME.setup(players, options, Rng(f"p{seed}".encode()))
    check_invariants(state)
    closed: dict[str, int] = {}
    first = state["first"]
    for turn in range(1, TURNS + 1):
        assert state["turn"] == turn
        assert state["first"] == (first + turn - 1) % players, "the first player moves one seat a turn"
        orders = {}
        for seat in GAME.to_act(state):
            view = GAME.observe(state, seat)
            written = GAME.bots[bots[seat]](GAME, view, Rng(f"b{seed}/{turn}/{seat}".encode()))
            orders[seat] = GAME.validate(view, lines(*written))
        before = dumps(state)
        previous, state = state, GAME.resolve(state, orders, Rng(b"unused")).state
        assert dumps(previous) == before, "resolve changed its input"
        assert loads(dumps(state)) == state
        check_invariants(state)
        assert closed.items() <= state["symbioz"].items(), "a Symbioz never reopens"
        closed = dict(state["symbioz"])
        if state["over"]:
            break
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners
    assert GAME.to_act(state) == ()
    target = (4 if players == 3 else 3) + options["first-game"]
    counts = symbioz_counts(state)
    assert max(counts) >= target or state["turn"] == TURNS
    assert all(counts[w] == max(counts) for w in outcome.winners)


@settings(max_examples=FUZZ or 150, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4),
    options=options_strategy,
)
def test_random_games_keep_the_invariants_and_end(
    players: int, seed: int, bots: list[str], options: dict[str, Any]
) -> None:
    play_checked(players, seed, bots, options)


def play_phases_checked(players: int, seed: int, bots: list[str], options: dict[str, Any]) -> None:
    """Play one whole game with one order round per phase, checking after every round."""
    state = GAME.setup(players, {**options, "order-rounds": "phase"}, Rng(f"p{seed}".encode()))
    position = (state["turn"], state["phase"])
    for step in range(4 * TURNS):
        check_invariants(state, turn_end=state["over"] or state["phase"] == 1)
        asked = GAME.to_act(state)
        if state["over"]:
            break
        assert asked and set(asked) <= set(play_order(players, state["first"])), "someone is asked"
        assert list(asked) == [s for s in play_order(players, state["first"]) if s in asked]
        orders = {}
        for seat in asked:
            view = GAME.observe(state, seat)
            assert view.public["phase"] == state["phase"] and view.public["turn"] == state["turn"]
            written = GAME.bots[bots[seat]](GAME, view, Rng(f"b{seed}/{step}/{seat}".encode()))
            assert {x.split()[0] for x in written} <= {PHASE_VERBS[state["phase"] - 1]}
            orders[seat] = GAME.validate(view, lines(*written))
        before = dumps(state)
        previous, state = state, GAME.resolve(state, orders, Rng(b"unused")).state
        assert dumps(previous) == before, "resolve changed its input"
        assert loads(dumps(state)) == state
        if not state["over"]:
            assert (state["turn"], state["phase"]) > position, "every order round moves the game on"
            position = (state["turn"], state["phase"])
    assert state["over"], "a game of 12 rounds has at most 45 order rounds"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners and GAME.to_act(state) == ()


@settings(max_examples=FUZZ or 20, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4),
    options=options_strategy,
)
def test_phase_round_games_keep_the_invariants_and_end(
    players: int, seed: int, bots: list[str], options: dict[str, Any]
) -> None:
    play_phases_checked(players, seed, bots, options)


@pytest.mark.slow
def test_many_random_games(request: pytest.FixtureRequest) -> None:
    """The same property over 2,000 more games (about 30 s): run with -m slow."""
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("long run: python -m pytest -m slow tests/symbioz")
    rng = Rng(b"many-games")
    for seed in range(2000):
        options = {
            "zerb-cost": rng.randint(1, 3),
            "crapit-cost": rng.randint(1, 5),
            "krogul-cost": rng.randint(1, 6),
            "points": rng.randint(1, 20),
            "first-game": rng.coin(),
            "two-player-board": rng.choice(["half", "full"]),
            "buy-in-fertile": rng.choice(["animals", "none", "all"]),
            "purchase-limit": rng.choice(["breed", "double", "none"]),
        }
        bots = [rng.choice(["random", "greedy"]) for _ in range(4)]
        play_checked(rng.randint(2, 4), seed, bots, options)
