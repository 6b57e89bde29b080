"""Jovian Syzygy balance: bot games per rule, the figures in games/jovian_syzygy/README.md.

For each player count, bot line-up and value of ``at-cap``: the mean game length in rounds,
how many games the round cap ended, how many games had a winner, how many wins were shared,
and the share of wins that went to the first player of round 1.

    python benchmarks/bench_jovian_balance.py [--games 200] [--players 2 3 4] [--setup-check slide]
"""

from __future__ import annotations

import argparse

from pbem.game import OrderLine
from pbem.rng import Rng
from pbem_games.jovian_syzygy import GAME


def play(seed: int, players: int, bot: str, check: str) -> tuple[int, list[int], int]:
    """One whole game through the plug-in API: (rounds played, final Psi, first player)."""
    state = GAME.setup(players, {"setup-check": check}, Rng(b"jbal-setup/%d" % seed))
    opener = state["first"]
    while not state["over"]:
        orders = {}
        for seat in GAME.to_act(state):
            view = GAME.observe(state, seat)
            texts = GAME.bots[bot](GAME, view, Rng(b"jbal-bot/%d/%d/%d" % (seed, state["round"], seat)))
            orders[seat] = GAME.validate(view, [OrderLine(i, x) for i, x in enumerate(texts, start=1)])
        state = GAME.resolve(state, orders, Rng(b"jbal-turn/%d/%d" % (seed, state["round"]))).state
    return state["rounds_played"], list(state["psi"]), opener


def winners(psi: list[int], rule: str) -> tuple[int, ...]:
    """The winners by ruling 12: everyone above 15 Psi; at the cap nobody, or with
    ``at-cap=highest`` the highest Psi (the rule changes who wins, never the play)."""
    above = tuple(s for s, p in enumerate(psi) if p > 15)
    if above or rule == "nobody":
        return above
    return tuple(s for s, p in enumerate(psi) if p == max(psi))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--bots", nargs="+", default=["random", "greedy"])
    parser.add_argument("--setup-check", default="centres", choices=("centres", "slide"))
    args = parser.parse_args()
    print(
        "| players | bots | at-cap | rounds | ended by the cap | games with a winner |"
        " shared wins | wins of round 1's first player |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for players in args.players:
        for bot in args.bots:
            games = [play(seed, players, bot, args.setup_check) for seed in range(args.games)]
            rounds = sum(g[0] for g in games) / len(games)
            capped = sum(1 for g in games if max(g[1]) <= 15)
            for rule in ("highest", "nobody"):
                won = [winners(g[1], rule) for g in games]
                wins = sum(len(w) for w in won)
                opener = sum(1 for w, g in zip(won, games, strict=True) for s in w if s == g[2])
                print(
                    f"| {players} | {bot} | {rule} | {rounds:.1f} | {capped} | {sum(1 for w in won if w)} | "
                    f"{sum(1 for w in won if len(w) > 1)} | "
                    f"{100 * opener / max(wins, 1):.0f} % (fair {100 / players:.0f} %) |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
