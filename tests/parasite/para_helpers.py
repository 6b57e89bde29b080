"""Helpers for Parasite scenario tests: set up a position, file order lines, resolve."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.game import OrderLine, Resolution
from pbem.rng import Rng
from pbem_games.parasite import GAME, rules

State = dict[str, Any]


def new_game(players: int = 4, **options: Any) -> State:
    """A game with the characters in data order, seat 0 the Leader, everyone at the Helipad."""
    opts = {"characters": "seat-order", **options}
    return rules.setup(players, opts, Rng(b"scenario"))


def edit(state: State, change: Callable[[State], None]) -> State:
    """Change a position (and the start of the procedure under way, which answers replay)."""
    change(state)
    if state["pending"] is not None:
        change(state["pending"]["base"])
    return state


def lines(texts: Sequence[str]) -> list[OrderLine]:
    return [OrderLine(i, t) for i, t in enumerate(texts, 1)]


def file(state: State, orders: Mapping[int, Sequence[str]], seed: bytes = b"t") -> Resolution:
    """Validate each seat's lines against its view, then resolve."""
    valid = {seat: GAME.validate(GAME.observe(state, seat), lines(texts)) for seat, texts in orders.items()}
    return GAME.resolve(state, valid, Rng(seed))


def texts(result: Resolution, seat: int | None = None) -> list[str]:
    """The event texts of a resolution that ``seat`` sees (None: the public ones)."""
    return [e.text for e in result.events if e.to is None or (seat is not None and seat in e.to)]


def asked(state: State) -> tuple[tuple[int, ...], str]:
    """Who is asked now, and what kind of question."""
    ask = state["pending"]["ask"]
    return tuple(ask["seats"]), ask["question"]["kind"]
