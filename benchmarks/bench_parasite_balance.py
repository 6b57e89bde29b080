"""Parasite balance with greedy bots: per player count, the share of games won by the Human
side and by the Parasite side (a side wins when at least one of its players Wins), games with
no winner, game length, how games ended, and for each Location card how often it was played
and the Human share of the games where it was (a card far from the average decides too much).

    python benchmarks/bench_parasite_balance.py [--games 2000] [--players 4 5 6 7 8]
        [--bot greedy] [--option name=value ...]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict

from pbem.game import bot_orders
from pbem.rng import Rng
from pbem_games.parasite import GAME
from pbem_games.parasite.cards import load_cards

PLAYED = re.compile(r"plays (.+?)(?: \((?:Interrupt|Reaction)\))?:")


def play(seed: int, players: int, bot: str, options: dict[str, object]) -> tuple[dict, list[str]]:
    """One game; returns the final state and every public event text."""
    state = GAME.setup(players, options, Rng(f"bal{seed}".encode()))
    events: list[str] = []
    steps = 0
    while GAME.outcome(state) is None:

        def rng_for(seat: int, step: int = steps) -> Rng:
            return Rng(f"b{seed}/{step}/{seat}".encode())

        orders = bot_orders(GAME, state, bot, rng_for)
        result = GAME.resolve(state, orders, Rng(f"r{seed}/{steps}".encode()))
        events += [e.text for e in result.events if e.to is None]
        state = result.state
        steps += 1
    return state, events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 5, 6, 7, 8])
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--option", action="append", default=[])
    args = parser.parse_args()
    options: dict[str, object] = {}
    for text in args.option:
        name, _, value = text.partition("=")
        options[name] = {"true": True, "false": False}.get(value, value)
    cards = load_cards()
    names = {c.name: c.id for c in cards.cards.values()}
    head = "| players | games | Human side wins | Parasite side wins | no winner | rounds"
    print(head + " | helicopter / dead / ability |")
    print("|---|---|---|---|---|---|---|")
    played: dict[str, Counter[str]] = defaultdict(Counter)
    for players in args.players:
        human = parasite = none = rounds = 0
        ends: Counter[str] = Counter()
        for seed in range(args.games):
            state, events = play(seed * 10 + players, players, args.bot, options)
            sides = {
                cards.infections[max(state["infection"][p], key=lambda c: cards.infections[c].priority)].side
                for p in state["winners"]
            }
            human += "human" in sides
            parasite += "parasite" in sides
            none += not sides
            rounds += state["round"]
            why = state["why"]
            ends["helicopter" if "helicopter" in why else "dead" if "dead" in why else "ability"] += 1
            seen = {
                names[m.group(1)]
                for text in events
                for m in [PLAYED.search(text)]
                if m and m.group(1) in names
            }
            for card in seen:
                played[card]["games"] += 1
                played[card]["human"] += "human" in sides
        g = args.games
        print(
            f"| {players} | {g} | {100 * human / g:.0f}% | {100 * parasite / g:.0f}% | {100 * none / g:.0f}% "
            f"| {rounds / g:.1f} | {ends['helicopter']} / {ends['dead']} / {ends['ability']} |"
        )
    print()
    print("| card | games played in | Human side won in those |")
    print("|---|---|---|")
    for card, counts in sorted(played.items(), key=lambda kv: -kv[1]["games"]):
        print(f"| {card} | {counts['games']} | {100 * counts['human'] / counts['games']:.0f}% |")


if __name__ == "__main__":
    main()
