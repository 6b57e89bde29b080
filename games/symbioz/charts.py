"""What ``pbem archive`` asks of Symbioz (the optional hooks of :class:`pbem.game.Archived`):
the counts charted over the turns and orders written back as order lines.

Everything is public: Symbioz made (what wins) and Zerbs on the board, for every colour.
"""

from __future__ import annotations

from typing import Any

from pbem.game import JSON, Chartable, View

from .state import COLOURS, symbioz_counts, zerbs_on_board

SYMBIOZ = "Symbioz made"
ZERBS = "Zerbs on the board"


def charts(game: object, view: View) -> Chartable:
    """Symbioz made and Zerbs on the board, per seat."""
    public = view.public
    return {
        SYMBIOZ: dict(enumerate(symbioz_counts(public))),
        ZERBS: dict(enumerate(zerbs_on_board(public))),
    }


def _targets(order: dict[str, Any]) -> list[str]:
    words: list[str] = []
    if order.get("targets"):
        words += ["->" if order.get("mode") == "each" else "prefer", *order["targets"]]
    if order.get("else") or order.get("fallback") == "none":
        words += ["else", *order.get("else", []), order.get("fallback", "any")]
    return words


def order_lines(game: object, view: View, orders: JSON) -> list[str]:
    """Buy, grow and animal orders (in the order the player wrote them) as order lines."""
    written: list[tuple[int, str]] = []
    for order in orders.get("buy", []):
        words = ["buy", str(order["count"]), order["pawn"], order["square"]]
        if order.get("else") or order.get("fallback") == "none":
            words += ["else", *order.get("else", []), order.get("fallback", "any")]
        written.append((order.get("line", 0), " ".join(words)))
    for order in orders.get("grow", []):
        written.append((order.get("line", 0), " ".join(["grow", order["square"], *_targets(order)])))
    for kind in ("krogul", "crapit"):
        for order in orders.get(kind, []):
            words = [kind, order["square"]]
            if order.get("eat"):
                words += ["eat", *(COLOURS[c] for c in order["eat"])]
            written.append((order.get("line", 0), " ".join([*words, *_targets(order)])))
    return [text for _, text in sorted(written, key=lambda pair: pair[0])]


def chart_colours(game: object, players: int) -> tuple[str, ...]:
    """Each seat's line in the archive's charts in that player's pawn colour."""
    from .svg import FILL

    return tuple(FILL[COLOURS[seat]] for seat in range(players))
