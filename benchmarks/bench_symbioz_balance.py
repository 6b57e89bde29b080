"""Symbioz balance: bot games per option value, the figures in games/symbioz/README.md.

For each player count, bot line-up and value of ``purchase-limit``: the mean game length in
turns, the mean turn of the first Symbioz (and in how many games there was none), how many
games ended on the Symbioz target rather than after turn 12, how many wins were shared, and
the share of wins that went to the first player of turn 1 (a fair game gives about 1/players).
With ``--mail`` it prints, for each value of ``order-rounds``, what a game costs by mail
instead: order rounds (pbem turns) a game and order files a player sends, mean and range.

    python benchmarks/bench_symbioz_balance.py [--games 200] [--players 2 3 4]
        [--limits none double breed] [--bots random greedy] [--rounds turn phase] [--mail]
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from pbem.game import OrderLine
from pbem.rng import Rng
from pbem_games.symbioz import GAME


@dataclass(frozen=True)
class Game:
    """What one finished game says about balance."""

    turns: int
    first_symbioz: int | None
    by_target: bool
    winners: tuple[int, ...]
    opener: int
    rounds: int
    """Order rounds: pbem turns, one per resolution."""
    files: float
    """Order files a player sent, on average over the seats."""


def play(seed: int, players: int, bots: list[str], options: dict[str, object]) -> Game:
    """Play one whole game through the plug-in API (no crypto)."""
    state = GAME.setup(players, options, Rng(b"balance-setup/%d" % seed))
    opener = state["first"]
    first_symbioz = None
    rounds = files = 0
    while not state["over"]:
        orders = {}
        for seat in GAME.to_act(state):
            view = GAME.observe(state, seat)
            texts = GAME.bots[bots[seat]](
                GAME, view, Rng(b"balance-bot/%d/%d/%d/%d" % (seed, state["turn"], rounds, seat))
            )
            orders[seat] = GAME.validate(view, [OrderLine(i, x) for i, x in enumerate(texts, start=1)])
            files += 1
        rounds += 1
        turn = state["turn"]
        state = GAME.resolve(state, orders, Rng(b"balance-turn")).state
        if first_symbioz is None and state["symbioz"]:
            first_symbioz = turn
    outcome = GAME.outcome(state)
    assert outcome is not None
    by_target = "Symbioz reached" in state["result"]
    return Game(state["turn"], first_symbioz, by_target, outcome.winners, opener, rounds, files / players)


def row(games: list[Game], players: int) -> str:
    """One Markdown table row of figures for ``games``."""
    n = len(games)
    firsts = [g.first_symbioz for g in games if g.first_symbioz is not None]
    first = f"{sum(firsts) / len(firsts):.1f}" if firsts else "-"
    wins = sum(len(g.winners) for g in games)
    opener = sum(1 for g in games for w in g.winners if w == g.opener)
    return (
        f"{sum(g.turns for g in games) / n:.1f} | {first} ({n - len(firsts)} none) | "
        f"{sum(g.by_target for g in games)} | {sum(len(g.winners) > 1 for g in games)} | "
        f"{100 * opener / max(wins, 1):.0f} % (fair {100 / players:.0f} %)"
    )


def mail_row(games: list[Game]) -> str:
    """Order rounds a game and files a player: mean (min-max)."""
    n = len(games)
    rounds = [g.rounds for g in games]
    files = [g.files for g in games]
    return (
        f"{sum(rounds) / n:.1f} ({min(rounds)}-{max(rounds)}) | "
        f"{sum(files) / n:.1f} ({min(files):.0f}-{max(files):.0f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--limits", nargs="+", default=["none", "double", "breed"])
    parser.add_argument("--bots", nargs="+", default=["random", "greedy"])
    parser.add_argument("--rounds", nargs="+", default=["turn"], choices=["turn", "phase"])
    parser.add_argument("--mail", action="store_true", help="order rounds and files instead of balance")
    args = parser.parse_args()
    if args.mail:
        print("| players | bots | order-rounds | order rounds a game | order files a player |")
        print("|---|---|---|---|---|")
        for players in args.players:
            for bot in args.bots:
                for rounds in args.rounds:
                    options = {"purchase-limit": args.limits[-1], "order-rounds": rounds}
                    games = [play(seed, players, [bot] * players, options) for seed in range(args.games)]
                    print(f"| {players} | {bot} | {rounds} | {mail_row(games)} |", flush=True)
        return
    print(
        "| players | bots | purchase-limit | turns | first Symbioz in turn | ended on target |"
        " shared wins | wins of turn 1's first player |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for players in args.players:
        for bot in args.bots:
            for limit in args.limits:
                options = {"purchase-limit": limit, "order-rounds": args.rounds[0]}
                games = [play(seed, players, [bot] * players, options) for seed in range(args.games)]
                print(f"| {players} | {bot} | {limit} | {row(games, players)} |", flush=True)


if __name__ == "__main__":
    main()
