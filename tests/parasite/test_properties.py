"""Property tests over whole bot games at 4-8 players, with and without the Dog and each
variant: cards and tokens are conserved, dead players are never asked, every game ends."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.canonical import dumps, loads
from pbem.game import bot_orders
from pbem.rng import Rng
from pbem_games.parasite import GAME
from pbem_games.parasite.cards import load_cards

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "12"))
CARDS = load_cards()
ALL_CARDS = Counter(c for deck in CARDS.decks.values() for c in deck)
VARIANTS: tuple[dict[str, Any], ...] = (
    {}, {"dog": True}, {"arctic-pot-luck": True}, {"untidy": True}, {"unknown-infections": True},
    {"reactions": "windows"}, {"activation-events": "kept"}, {"difficulty": "harder"})  # fmt: skip


def _cards_everywhere(s: dict[str, Any]) -> Counter[str]:
    out: Counter[str] = Counter()
    for pile in (
        *s["decks"].values(),
        *s["discards"].values(),
        s["boxed"],
        *s["hands"],
        *s["items"],
        s["drawing"],
    ):
        out.update(pile)
    for card in (s["mission"], s["upcoming"]):
        if card is not None:
            out[card] += 1
    return out


def _check(s: dict[str, Any], infections: Counter[str]) -> None:
    assert _cards_everywhere(s) == ALL_CARDS
    held = Counter(s["infection_deck"])
    for cards in s["infection"]:
        held.update(cards)
    assert held == infections
    for colour in range(len(s["supply"])):
        carried = sum(1 for tokens in s["tokens"] if colour in tokens)
        assert s["supply"][colour] + carried == 8
        assert colour not in s["tokens"][colour]
    assert all(len(set(t)) == len(t) for t in s["tokens"])
    if not s["over"]:
        for seat in s["pending"]["ask"]["seats"]:
            assert s["health"][seat] != "dead", "a dead player is never asked"


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    players=st.integers(4, 8),
    variant=st.sampled_from(VARIANTS),
    bot=st.sampled_from(["random", "greedy"]),
    seed=st.integers(0, 10**6),
)
def test_bot_games_conserve_everything_and_end(
    players: int, variant: dict[str, Any], bot: str, seed: int
) -> None:
    state = GAME.setup(players, variant, Rng(f"p{seed}".encode()))
    infections: Counter[str] = Counter(state["infection_deck"])
    for cards in state["infection"]:
        infections.update(cards)
    steps = 0
    while GAME.outcome(state) is None:
        _check(state, infections)
        assert steps < 2000, "the game ends"

        def rng_for(seat: int, step: int = steps) -> Rng:
            return Rng(f"b{seed}/{step}/{seat}".encode())

        orders = bot_orders(GAME, state, bot, rng_for)
        state = GAME.resolve(state, orders, Rng(f"r{seed}/{steps}".encode())).state
        steps += 1
    _check(state, infections)
    assert loads(dumps(state)) == state
    outcome = GAME.outcome(state)
    assert outcome is not None and all(0 <= w < players for w in outcome.winners)
    if all(h == "dead" for h in state["health"][:players]):
        assert outcome.winners == ()
