"""What ``pbem archive`` asks of Jovian Syzygy (the optional hooks of
:class:`pbem.game.Archived`): the Psi chart and plans written back as order lines.

Everything is public, so every view gives every seat's Psi.
"""

from __future__ import annotations

from pbem.game import JSON, Chartable, View

from .turns import step_text

PSI = "Psi"


def charts(game: object, view: View) -> Chartable:
    """Each seat's Psi."""
    return {PSI: dict(enumerate(view.public["psi"]))}


def order_lines(game: object, view: View, orders: JSON) -> list[str]:
    """A plan (its steps, then its ``if wasted`` fallback) as order lines; ``pass`` for none.
    (A ``spend N`` cap is only a check when the plan is read: the saves do not keep it.)
    At setup, the corners chosen, best first."""
    if "corners" in orders:
        return [f"corner {' '.join(orders['corners'])}"] if orders["corners"] else ["pass"]
    lines = [step_text(step) for step in orders.get("steps", [])] or ["pass"]
    fallback = orders.get("fallback")
    if fallback:
        lines.append("if wasted: try " + ", ".join(step_text(step) for step in fallback))
    return lines


def chart_colours(game: object, players: int) -> tuple[str, ...]:
    """Each seat's line in the archive's charts in that player's marker colour on the board."""
    from .svg import PLAYER_COLOURS

    return PLAYER_COLOURS[:players]
