"""Helpers for the Symbiote tests: build positions by hand and play steps."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.game import OrderLine, Resolution, View
from pbem.rng import Rng
from pbem_games.symbiote import GAME
from pbem_games.symbiote.cards import full_deck
from pbem_games.symbiote.rules import OPTION_DEFAULTS


def make_state(
    hands: list[list[str]],
    *,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    host: int = 0,
    parasite: bool = False,
    seat: int = 1,
    phase: str = "act",
    sets: list[list[list[str]]] | None = None,
    aside: list[str] | None = None,
    drawn: str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A position mid-game.  ``deck`` is listed top card first; ``discard`` bottom first."""
    n = len(hands)
    opt = dict(OPTION_DEFAULTS)
    opt.update({k.replace("_", "-"): v for k, v in options.items()})
    return {
        "n": n,
        "opt": opt,
        "dealer": 0,
        "deck": list(reversed(deck if deck is not None else ["2C", "3C", "4C", "6D", "8D"])),
        "discard": list(discard if discard is not None else ["2S"]),
        "aside": list(aside or []),
        "hands": [list(h) for h in hands],
        "sets": sets if sets is not None else [[] for _ in range(n)],
        "host": host,
        "parasite": parasite,
        "seat": seat,
        "phase": phase,
        "drawn": drawn,
        "turn": 5,
        "last": [],
        "scores": None,
        "winners": None,
    }


def lines(*texts: str) -> list[OrderLine]:
    """Order lines numbered from 1, as the engine passes them."""
    return [OrderLine(i, t) for i, t in enumerate(texts, start=1)]


def view_of(state: dict[str, Any], seat: int | None = -1) -> View:
    """The view of ``seat`` (-1: the seat to act; None: the public)."""
    return GAME.observe(state, state["seat"] if seat == -1 else seat)


def step(state: dict[str, Any], *texts: str, seed: bytes = b"t") -> Resolution:
    """Validate ``texts`` for the acting seat and resolve them."""
    seat = state["seat"]
    orders = GAME.validate(GAME.observe(state, seat), lines(*texts))
    return GAME.resolve(state, {seat: orders}, Rng(seed))


def all_cards(state: dict[str, Any]) -> Counter[str]:
    """Every card of every zone, as a multiset."""
    total: Counter[str] = Counter(state["deck"])
    total.update(state["discard"])
    total.update(state["aside"])
    for hand in state["hands"]:
        total.update(hand)
    for mine in state["sets"]:
        for cards in mine:
            total.update(cards)
    return total


def deck_of(state: dict[str, Any]) -> Counter[str]:
    return Counter(full_deck(state["opt"]["all-night-lab"]))


def texts(resolution: Resolution, public: bool = True) -> list[str]:
    return [e.text for e in resolution.events if (e.to is None) == public]
