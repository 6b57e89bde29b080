"""Symbioz: the cost of whole games through the plug-in API (no crypto), split by step.

Each game is setup, then per turn: observe every seat, bots write order files, validate,
resolve; and the reports (text table and SVG) drawn for every seat.  Also prints how often
the greedy bot beats the random one when they share a table.

    python benchmarks/bench_symbioz_game.py [--games N] [--players 2|3|4]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict

from pbem.game import OrderLine
from pbem.rng import Rng
from pbem_games.symbioz import GAME


def play_one(
    seed: int, players: int, bots: list[str], timers: dict[str, float]
) -> tuple[int, tuple[int, ...]]:
    """Play one complete game; returns (turns played, winners) and adds step times to timers."""
    clock = time.perf_counter
    t = clock()
    state = GAME.setup(players, {}, Rng(b"bench-setup/%d" % seed))
    timers["setup"] += clock() - t
    turns = 0
    while not state["over"]:
        orders = {}
        for seat in GAME.to_act(state):
            t = clock()
            view = GAME.observe(state, seat)
            t1 = clock()
            texts = GAME.bots[bots[seat]](GAME, view, Rng(b"bench-bot/%d/%d/%d" % (seed, turns, seat)))
            t2 = clock()
            orders[seat] = GAME.validate(view, [OrderLine(i, x) for i, x in enumerate(texts, start=1)])
            t3 = clock()
            GAME.describe(view)
            t4 = clock()
            GAME.pictures(view)
            t5 = clock()
            timers["observe"] += t1 - t
            timers["bot"] += t2 - t1
            timers["validate"] += t3 - t2
            timers["describe"] += t4 - t3
            timers["svg"] += t5 - t4
        t = clock()
        state = GAME.resolve(state, orders, Rng(b"bench-turn/%d/%d" % (seed, turns))).state
        timers["resolve"] += clock() - t
        turns += 1
    outcome = GAME.outcome(state)
    assert outcome is not None
    return turns, outcome.winners


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    args = parser.parse_args()
    for label, bots in (("random", ["random"] * 4), ("greedy", ["greedy"] * 4)):
        timers: dict[str, float] = defaultdict(float)
        start = time.perf_counter()
        turns = sum(play_one(seed, args.players, bots, timers)[0] for seed in range(args.games))
        elapsed = time.perf_counter() - start
        per_turn = ", ".join(f"{k} {1e6 * v / turns:.0f}" for k, v in sorted(timers.items()))
        print(
            f"{label}: {args.games} games, {args.players} players: {elapsed:.2f} s, "
            f"{1e3 * elapsed / args.games:.1f} ms/game, {turns / args.games:.1f} turns/game; "
            f"us per turn (all seats): {per_turn}"
        )
    wins: Counter[str] = Counter()
    for seed in range(args.games):
        bots = ["greedy" if (seat + seed) % 2 == 0 else "random" for seat in range(args.players)]
        _, winners = play_one(seed, args.players, bots, defaultdict(float))
        wins.update(bots[w] for w in winners)
        wins["games"] += 1
    print(
        f"mixed tables: greedy seats won {wins['greedy']}, random seats {wins['random']}"
        f" (of {wins['games']} games, shared wins counted for each winner)"
    )


if __name__ == "__main__":
    main()
