"""Parasite engine speed: whole games with random bots through the plug-in API (setup,
observe, bot, validate, resolve; no crypto, no files), games per second per player count.

    python benchmarks/bench_parasite.py [--seconds 5] [--players 4 6 8] [--bot random]
"""

from __future__ import annotations

import argparse
import time

from pbem.game import bot_orders
from pbem.rng import Rng
from pbem_games.parasite import GAME


def play(seed: int, players: int, bot: str, options: dict[str, object]) -> int:
    """Play one game; returns the number of resolutions it took."""
    state = GAME.setup(players, options, Rng(f"s{seed}".encode()))
    steps = 0
    while GAME.outcome(state) is None:

        def rng_for(seat: int, step: int = steps) -> Rng:
            return Rng(f"b{seed}/{step}/{seat}".encode())

        orders = bot_orders(GAME, state, bot, rng_for)
        state = GAME.resolve(state, orders, Rng(f"r{seed}/{steps}".encode())).state
        steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 6, 8])
    parser.add_argument("--bot", default="random", choices=sorted(GAME.bots))
    args = parser.parse_args()
    for players in args.players:
        count = steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            steps += play(count, players, args.bot, {})
            count += 1
        elapsed = time.perf_counter() - start
        print(
            f"{players} players: {count / elapsed:7.1f} games/s "
            f"({steps / count:.0f} resolutions a game, {count} games)"
        )


if __name__ == "__main__":
    main()
