"""Jovian Syzygy line search: how fast the exact search is, and whole bot games per second.

    python benchmarks/bench_jovian_lines.py [--positions N] [--games N]

Measures (1) the uncached best-line search for one rider (every board position drawn at
random, with a random rotation so no two calls share work), (2) the setup check (is any
line of three possible), (3) the whole table of award lines (every position and rider) from
empty memos, (4) the memoised award lookup the rules and bots use, and (5) complete 4-player
greedy-bot games through observe / bot / validate / resolve.
"""

from __future__ import annotations

import argparse
import math
import time
from itertools import product

from pbem.game import OrderLine
from pbem.rng import Rng
from pbem_games.jovian_syzygy import GAME, board, lines
from pbem_games.jovian_syzygy.lines import Body, any_syzygy, best_line
from pbem_games.jovian_syzygy.rules import _best_at, best_line_at, bodies_key


def _positions(count: int) -> list[tuple[list[Body], str]]:
    rng = Rng(b"bench-lines")
    out = []
    for _ in range(count):
        sats = [rng.randbelow(t.segments) for t in board.TRACKS]
        turn = rng.randbelow(10**6) / 10**6 * 2 * math.pi
        bodies = [Body(n, r, lo + turn, hi + turn) for n, r, lo, hi in bodies_key(sats)]
        out.append((bodies, board.MOONS[rng.randbelow(4)]))
    return out


def play_one(seed: int) -> int:
    """One complete 4-player greedy game; returns the number of rounds."""
    state = GAME.setup(4, {}, Rng(b"bench-setup/%d" % seed))
    rounds = 0
    while GAME.outcome(state) is None:
        orders = {}
        for seat in GAME.to_act(state):
            view = GAME.observe(state, seat)
            texts = GAME.bots["greedy"](GAME, view, Rng(b"bench-bot/%d/%d/%d" % (seed, rounds, seat)))
            orders[seat] = GAME.validate(view, [OrderLine(i, t) for i, t in enumerate(texts, start=1)])
        state = GAME.resolve(state, orders, Rng(b"bench-turn/%d/%d" % (seed, rounds))).state
        rounds += 1
    return rounds


def whole_table() -> int:
    """Work out best_line_at for all 6,048 positions and 4 riders with every memo emptied first
    (the line search's pair sets and lines of three, and the award memo); returns the count."""
    _best_at.cache_clear()
    lines._PAIR_SETS.clear()
    lines._FEASIBLE3.clear()
    count = 0
    for sats in product(*(range(t.segments) for t in board.TRACKS)):
        for moon in board.MOONS:
            best_line_at(list(sats), moon)
            count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    jupiter = float(board.JUPITER_RADIUS)
    positions = _positions(args.positions)

    start = time.perf_counter()
    found = sum(1 for bodies, moon in positions if best_line(bodies, moon, jupiter) is not None)
    elapsed = time.perf_counter() - start
    print(
        f"best_line (uncached): {args.positions} searches in {elapsed:.2f} s = "
        f"{elapsed / args.positions * 1e6:.0f} us each; a line exists in {found / args.positions:.1%}"
    )

    start = time.perf_counter()
    lined = sum(1 for bodies, _ in positions if any_syzygy(bodies))
    elapsed = time.perf_counter() - start
    print(
        f"any_syzygy (setup check): {elapsed / args.positions * 1e6:.0f} us each; "
        f"three can line up in {lined / args.positions:.1%} of positions"
    )

    start = time.process_time()
    table = whole_table()
    elapsed = time.process_time() - start
    print(
        f"every position and rider ({table:,} best_line_at answers) from empty memos: {elapsed:.2f} cpu s "
        f"= {elapsed / table * 1e6:.0f} us each"
    )

    rng = Rng(b"bench-cached")
    sats_list = [[rng.randbelow(t.segments) for t in board.TRACKS] for _ in range(args.positions)]
    for label in ("cold", "warm"):
        start = time.perf_counter()
        for sats in sats_list:
            for moon in board.MOONS:
                best_line_at(sats, moon)
        each = (time.perf_counter() - start) / (4 * args.positions) * 1e6
        print(f"best_line_at (memoised over 6,048 positions x 4 riders), {label} cache: {each:.1f} us each")

    start = time.perf_counter()
    rounds = sum(play_one(seed) for seed in range(args.games))
    elapsed = time.perf_counter() - start
    print(
        f"greedy 4-player games: {args.games} in {elapsed:.2f} s = {args.games / elapsed:.1f} games/s, "
        f"{rounds / args.games:.1f} rounds on average, {rounds / elapsed:.0f} rounds/s"
    )


if __name__ == "__main__":
    main()
