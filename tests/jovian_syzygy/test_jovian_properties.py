"""Random legal games keep every invariant and end (hypothesis picks seeds, counts, options, bots)."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jov_helpers import bodies, lines_of, make_state, recheck

from pbem.canonical import dumps, loads
from pbem.rng import Rng
from pbem_games.jovian_syzygy import GAME, board
from pbem_games.jovian_syzygy.rules import award_for, best_line_at, moved

PLACES = set(board.SPACE_NAMES) | set(board.MOONS)


def check_invariants(before: dict[str, Any], after: dict[str, Any], events: list[str]) -> None:
    n = after["players"]
    assert loads(dumps(after)) == after
    assert all(isinstance(p, int) and p >= 0 for p in after["psi"])
    if before.get("phase") == "corners":
        # The setup step: only places change, every placed seat in its own corner.
        placed = [w for w in after["where"] if w is not None]
        assert set(placed) <= set(board.CORNERS) and len(set(placed)) == len(placed)
        assert len(placed) > sum(w is not None for w in before["where"])
        assert all(b is None or b == a for b, a in zip(before["where"], after["where"], strict=True))
        assert (after["phase"] == "play") == (len(placed) == n)
        assert {k: v for k, v in after.items() if k not in ("where", "phase")} == {
            k: v for k, v in before.items() if k not in ("where", "phase")
        }
        return
    assert all(w in PLACES for w in after["where"])
    assert all(0 <= s < t.segments for s, t in zip(after["sats"], board.TRACKS, strict=True))
    assert all(k in board.SPACE_NAMES and v > 0 for k, v in after["storms"].items())
    if after["rounds_played"] == before["rounds_played"]:
        # Sequential turns, not the round's last player: one seat moved, no awards yet.
        assert after["step"] == before["step"] + 1 and after["first"] == before["first"]
        assert after["awards"] == before["awards"] and after["last_gain"] == before["last_gain"]
        mover = (before["first"] + before["step"]) % n
        assert all(after["where"][s] == before["where"][s] for s in range(n) if s != mover)
        assert all(after["psi"][s] <= before["psi"][s] for s in range(n))
        return
    assert after["first"] == (before["first"] + 1) % n
    assert after["rounds_played"] == before["rounds_played"] + 1
    push = after["options"]["ride"] == "push"
    if not push and "step" not in before:
        assert after["sats"] == [
            (s + 1) % t.segments for s, t in zip(before["sats"], board.TRACKS, strict=True)
        ]
    limit = after["options"]["max-extra-moves"]
    for seat in range(n):
        name = f"Player {seat + 1}"
        spent = sum(1 for e in events if e.startswith(f"{name} spends 1 Psi"))
        assert not limit or spent <= limit
        award = after["awards"][seat]
        gain = award["psi"] if award else 0
        if "step" not in before:  # sequential: the earlier players' spending was reported before
            assert after["psi"][seat] == before["psi"][seat] - spent + gain
        if award:
            assert after["where"][seat] == award["moons"][0] == after["last_gain"][seat]
            line = best_line_at(after["sats"], award["moons"][0])
            assert line is not None
            recheck(line, bodies(after["sats"]), float(board.JUPITER_RADIUS))
            assert gain == (1 if award["same"] else line.value)
        else:
            assert after["last_gain"][seat] == before["last_gain"][seat]
    if "step" not in before:
        placed_storms = sum(1 for e in events if "makes a cosmic storm" in e)
        blown = sum(1 for e in events if re.search(r"heads, it blows away", e))
        assert sum(after["storms"].values()) == sum(before["storms"].values()) + placed_storms - blown


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(1, 4),
    bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4),
    solo=st.sampled_from(["timed", "scored"]),
    ride=st.sampled_from(["stay", "push"]),
    cap=st.sampled_from([0, 40]),
    extra=st.sampled_from([0, 1, 2]),
    check=st.sampled_from(["slide", "centres"]),
    corners=st.sampled_from(["choose", "dealt"]),
    turns=st.sampled_from(["round", "sequential"]),
)
def test_random_games_keep_invariants_and_end(
    seed: int,
    players: int,
    bots: list[str],
    solo: str,
    ride: str,
    cap: int,
    extra: int,
    check: str,
    corners: str,
    turns: str,
) -> None:
    options = {
        "solo": solo,
        "ride": ride,
        "max-rounds": cap or 60,
        "max-extra-moves": extra,
        "setup-check": check,
        "corners": corners,
        "turns": turns,
    }
    state = GAME.setup(players, options, Rng(b"p-setup%d" % seed))
    for step in range(300):
        if GAME.outcome(state) is not None:
            break
        snapshot = json.dumps(state, sort_keys=True)
        orders = {}
        for seat in GAME.to_act(state):
            view = GAME.observe(state, seat)
            texts = GAME.bots[bots[seat]](GAME, view, Rng(b"p-bot%d/%d/%d" % (seed, step, seat)))
            orders[seat] = GAME.validate(view, lines_of(*texts))
        res = GAME.resolve(state, orders, Rng(b"p-turn%d/%d" % (seed, step)))
        assert json.dumps(state, sort_keys=True) == snapshot, "resolve changed its input"
        check_invariants(state, res.state, [e.text for e in res.events])
        state = res.state
    outcome = GAME.outcome(state)
    assert outcome is not None and GAME.to_act(state) == ()
    assert outcome.scores == tuple(state["psi"])
    if players > 1 and max(state["psi"]) > 15:
        assert set(outcome.winners) == {s for s, p in enumerate(state["psi"]) if p > 15}


def test_greedy_beats_random() -> None:
    """The greedy bot is sensible: against the random bot it wins nearly every two-player game."""
    wins = 0
    for seed in range(10):
        state = GAME.setup(2, {}, Rng(b"duel%d" % seed))
        step = 0
        while GAME.outcome(state) is None:
            orders = {}
            for seat, bot in enumerate(("greedy", "random")):
                view = GAME.observe(state, seat)
                texts = GAME.bots[bot](GAME, view, Rng(b"duel-bot%d/%d/%d" % (seed, step, seat)))
                orders[seat] = GAME.validate(view, lines_of(*texts))
            state = GAME.resolve(state, orders, Rng(b"duel-turn%d/%d" % (seed, step))).state
            step += 1
        outcome = GAME.outcome(state)
        assert outcome is not None
        wins += outcome.winners == (0,)
    assert wins >= 9


def test_greedy_boards_the_best_satellite_within_reach() -> None:
    """From NE with Callisto alongside and the best coming line starting at Callisto, it boards."""
    found = None
    for i in range(3 * 6 * 12 * 7):
        sats = [i % 3, (i // 3) % 6, (i // 18) % 12, (i // 216) % 7]
        gains = {m: award_for(moved(sats), m, None)[0] for m in board.MOONS}
        if gains["callisto"] >= 2 and gains["callisto"] == max(gains.values()):
            found = sats
            break
    assert found is not None
    state = make_state(["NE"], sats=found)
    lines = GAME.bots["greedy"](GAME, GAME.observe(state, 0), Rng(b"g"))
    assert lines == ["board callisto"]
