"""Jovian Syzygy balance: bot games per rule set, the figures in games/jovian_syzygy/README.md.

For each player count, bot line-up and rule set: the mean game length in rounds and in mail
rounds (pbem turns: order rounds, the setup step included), how many games the round cap
ended, how many games had a winner, how many wins were shared, and each place in round 1's
turn order's share of the wins (the first player of round 1 also chooses its corner first).

Rule sets (``--rules``):

* ``before``: the rulings before issue 12: setup check ``slide``, the highest Psi wins at
  the cap, corners dealt, one plan per round;
* ``after``: today's defaults: setup check ``centres``, nobody wins at the cap, corners chosen
  at setup (all at once, in turn order), one plan per round;
* ``dealt``: the defaults but corners dealt (what choosing corners alone changes);
* ``sequential``: the defaults with ``turns=sequential`` (one player at a time; corners too).

    python benchmarks/bench_jovian_balance.py [--games 200] [--players 2 3 4]
        [--bots random greedy] [--rules before after dealt sequential]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from pbem.engine import parse_options
from pbem.game import OrderLine
from pbem.rng import Rng
from pbem_games.jovian_syzygy import GAME

RULES = {
    "before": {"setup-check": "slide", "at-cap": "highest", "corners": "dealt", "turns": "round"},
    "after": {},
    "dealt": {"corners": "dealt"},
    "sequential": {"turns": "sequential"},
}


@dataclass(frozen=True)
class Played:
    """One finished game: rounds, pbem turns, winners, whether the cap ended it, round 1's order."""

    rounds: int
    turns: int
    winners: tuple[int, ...]
    capped: bool
    order: tuple[int, ...]


def play(seed: int, players: int, bot: str, rules: str) -> Played:
    """One whole game through the plug-in API (every seat the same bot)."""
    options = parse_options(GAME, {k: str(v) for k, v in RULES[rules].items()})
    state = GAME.setup(players, options, Rng(b"jbal-setup/%d" % seed))
    order = tuple((state["first"] + i) % players for i in range(players))
    turns = 0
    while not state["over"]:
        turns += 1
        orders = {}
        for seat in GAME.to_act(state):
            view = GAME.observe(state, seat)
            texts = GAME.bots[bot](GAME, view, Rng(b"jbal-bot/%d/%d/%d" % (seed, turns, seat)))
            orders[seat] = GAME.validate(view, [OrderLine(i, x) for i, x in enumerate(texts, start=1)])
        state = GAME.resolve(state, orders, Rng(b"jbal-turn/%d/%d" % (seed, turns))).state
    outcome = GAME.outcome(state)
    assert outcome is not None
    capped = max(state["psi"]) <= 15
    return Played(state["rounds_played"], turns, outcome.winners, capped, order)


def row(players: int, bot: str, rules: str, games: list[Played]) -> str:
    """One table row."""
    n = len(games)
    wins = [0] * players
    for g in games:
        for seat in g.winners:
            wins[g.order.index(seat)] += 1
    total = sum(wins)
    shares = " / ".join(f"{100 * w / total:.0f}" for w in wins) + " %" if total else "no wins"
    return (
        f"| {players} | {bot} | {rules} | {sum(g.rounds for g in games) / n:.1f} | "
        f"{sum(g.turns for g in games) / n:.1f} | {sum(g.capped for g in games)} | "
        f"{sum(1 for g in games if g.winners)} | {sum(1 for g in games if len(g.winners) > 1)} | "
        f"{shares} (fair {100 / players:.0f} %) |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--bots", nargs="+", default=["random", "greedy"])
    parser.add_argument("--rules", nargs="+", default=list(RULES), choices=list(RULES))
    args = parser.parse_args()
    print(
        "| players | bots | rules | rounds | mail rounds | ended by the cap | games with a winner |"
        " shared wins | wins by place in round 1's order |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    start = time.perf_counter()
    for players in args.players:
        for bot in args.bots:
            for rules in args.rules:
                games = [play(seed, players, bot, rules) for seed in range(args.games)]
                print(row(players, bot, rules, games), flush=True)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
