"""The documented automatic choices: what happens to a choice a player did not write, or
whose written squares and fallbacks were all refused (README "Automatic defaults").

Each function picks among already-legal options only; it never decides legality.  Ties are
broken by the order written here (the parent / same square first, then board order; for
colours, play order starting after the eater's own seat).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .board import ORDER


def buy_square(legal: Sequence[str], zerbs: Mapping[str, Sequence[int]], seat: int) -> str | None:
    """Where an unplaced bought pawn goes: the legal square with the most of the buyer's
    Zerbs (then board order); None when nothing is legal."""
    if not legal:
        return None
    return min(legal, key=lambda sq: (-zerbs[sq][seat], ORDER[sq]))


def newborn_zerb_square(
    legal: Sequence[str], parent: str, zerbs: Mapping[str, Sequence[int]], seat: int
) -> str | None:
    """Where a newborn Zerb goes: its parent square when legal, else the legal adjacent
    square holding the most Zerbs of its colour (then board order)."""
    if not legal:
        return None
    if parent in legal:
        return parent
    return min(legal, key=lambda sq: (-zerbs[sq][seat], ORDER[sq]))


def food_colour(counts: Sequence[int], seat: int, preferences: Sequence[int]) -> int | None:
    """Which colour an animal of ``seat`` eats from ``counts`` (prey per seat in its square).

    The preferences first, in order (the owner chooses, their own colour included: the
    rulebook's "the player owning the Krogul chooses which Crapit to eat"); then the other
    colour with the most prey (ties: play order after ``seat``); its own colour only when
    nothing else is there; None when the square holds no prey at all.
    """
    for colour in preferences:
        if counts[colour] > 0:
            return colour
    players = len(counts)
    others = [(seat + i) % players for i in range(1, players)]
    best = max(others, key=lambda c: (counts[c], -others.index(c)), default=None)
    if best is not None and counts[best] > 0:
        return best
    if counts[seat] > 0:
        return seat
    return None


def newborn_animal_square(
    legal: Sequence[str], parent: str, prey: Mapping[str, Sequence[int]], seat: int
) -> str:
    """Where a newborn Krogul or Crapit goes: the legal square (its parents' square or an
    adjacent one) with the most prey of other colours, the parents' square first on ties,
    then board order.  ``legal`` always holds the parents' square."""

    def food(sq: str) -> int:
        row = prey[sq]
        return sum(row) - row[seat]

    return min(legal, key=lambda sq: (-food(sq), sq != parent, ORDER[sq]))
