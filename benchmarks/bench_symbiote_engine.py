"""Engine-only Symbiote throughput: complete random-bot games per second, no crypto.

Each game is setup + (observe the acting seat, bot writes lines, validate, resolve) until the
end, exactly the path the engine takes minus signatures, encryption and report rendering.

    python benchmarks/bench_symbiote_engine.py [--games N] [--players 3|4] [--bot random|greedy]
        [--double]
"""

from __future__ import annotations

import argparse
import time

from pbem.game import OrderLine
from pbem.rng import Rng
from pbem_games.symbiote import GAME


def play_one(seed: int, players: int, bot_name: str, options: dict[str, object]) -> int:
    """Play one complete game; returns the number of steps."""
    bot = GAME.bots[bot_name]
    state = GAME.setup(players, options, Rng(b"bench-setup/%d" % seed))
    steps = 0
    while state["phase"] != "over":
        seat = GAME.to_act(state)[0]
        view = GAME.observe(state, seat)
        texts = bot(GAME, view, Rng(b"bench-bot/%d/%d" % (seed, steps)))
        lines = [OrderLine(i, t) for i, t in enumerate(texts, start=1)]
        orders = {seat: GAME.validate(view, lines)}
        state = GAME.resolve(state, orders, Rng(b"bench-turn/%d/%d" % (seed, steps))).state
        steps += 1
    assert GAME.outcome(state) is not None
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4))
    parser.add_argument("--bot", default="random", choices=("random", "greedy"))
    parser.add_argument("--double", action="store_true", help="All-Night Lab Session (double deck)")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best one is reported")
    args = parser.parse_args()
    options: dict[str, object] = {"all-night-lab": args.double}
    best_wall = best_cpu = float("inf")
    steps = 0
    for _ in range(args.repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        steps = sum(play_one(seed, args.players, args.bot, options) for seed in range(args.games))
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    print(
        f"{args.games} games ({args.players} players, {args.bot} bots"
        f"{', double deck' if args.double else ''}), best of {args.repeat}: "
        f"{args.games / best_wall:.0f} games/s wall ({args.games / best_cpu:.0f} games/s of CPU), "
        f"{steps / args.games:.1f} steps/game, {1e6 * best_wall / steps:.1f} us/step"
    )


if __name__ == "__main__":
    main()
