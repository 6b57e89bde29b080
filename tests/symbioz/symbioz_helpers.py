"""Helpers for the Symbioz tests: build a position, write orders, play a turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.game import OrderLine, Resolution
from pbem.rng import Rng
from pbem_games.symbioz import GAME
from pbem_games.symbioz.state import SUPPLY, symbioz_counts

YELLOW, RED, BLUE, PURPLE = range(4)


def position(
    players: int = 4,
    *,
    zerbs: Mapping[str, Mapping[int, int]] | None = None,
    crapits: Mapping[str, Mapping[int, int]] | None = None,
    kroguls: Mapping[str, Mapping[int, int]] | None = None,
    symbioz: Mapping[str, int] | None = None,
    turn: int = 2,
    first: int = 0,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A state with exactly the given pawns on the board (nothing else) and supplies that
    keep every seat's pawns conserved."""
    state = GAME.setup(players, options or {}, Rng(b"position"))
    tables = {"zerb": zerbs or {}, "crapit": crapits or {}, "krogul": kroguls or {}}
    for pawn, table in tables.items():
        key = pawn + "s"
        state[key] = {sq: [0] * players for sq in state["squares"]}
        for sq, row in table.items():
            for seat, n in row.items():
                state[key][sq][seat] = n
    state["symbioz"] = dict(symbioz or {})
    markers = symbioz_counts(state)
    for pawn in tables:
        on_board = [sum(state[pawn + "s"][sq][s] for sq in state["squares"]) for s in range(players)]
        state["supply"][pawn] = [
            SUPPLY[pawn] - on_board[s] - (markers[s] if pawn == "zerb" else 0) for s in range(players)
        ]
    state["turn"] = turn
    state["first"] = first
    return state


def lines(*texts: str) -> list[OrderLine]:
    """Order lines numbered from 1."""
    return [OrderLine(i, t) for i, t in enumerate(texts, start=1)]


def orders_for(state: dict[str, Any], seat: int, *texts: str) -> Any:
    """Validated orders of ``seat`` (raises OrderErrors as the engine would see them)."""
    return GAME.validate(GAME.observe(state, seat), lines(*texts))


def play(state: dict[str, Any], written: Mapping[int, list[str]] | None = None) -> Resolution:
    """Resolve one turn; seats not in ``written`` send an empty file."""
    written = written or {}
    orders = {seat: orders_for(state, seat, *written.get(seat, ())) for seat in GAME.to_act(state)}
    return GAME.resolve(state, orders, Rng(b"turn"))


def texts(result: Resolution) -> str:
    """All event texts of a turn, one per line."""
    return "\n".join(e.text for e in result.events)
