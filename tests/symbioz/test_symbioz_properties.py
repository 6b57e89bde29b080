"""Random legal games keep every invariant and end (hypothesis)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from symbioz_helpers import lines

from pbem.canonical import dumps, loads
from pbem.rng import Rng
from pbem_games.symbioz import GAME
from pbem_games.symbioz.state import SATURATION, SUPPLY, TURNS, symbioz_counts


def check_invariants(state: dict[str, Any]) -> None:
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
        assert max(row) < SATURATION or sq in state["symbioz"], "12 of a colour survived a turn end"
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


@settings(max_examples=150, deadline=None)
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
