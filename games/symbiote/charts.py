"""What ``pbem archive`` asks of Symbiote (the optional hooks of :class:`pbem.game.Archived`):
the score charts and orders written back as order lines.

Scores come from the sets a view shows: a seat's own sets (face down, so only in its own
private view; face up under Open Research) with the host's symbiote bonus or parasite
penalty, as :func:`.rules.score` counts them at the end; the final scores once the game is
over.  Hand sizes are public throughout.
"""

from __future__ import annotations

from typing import Any

from pbem.game import JSON, Chartable, View

from .cards import set_kind, set_value

SCORE = "Score"
HAND = "Cards in hand"


def _points(sets: list[list[str]], seat: int, public: dict[str, Any]) -> int:
    points = sum(set_value(s) for s in sets)
    if seat == public["host"]:
        points += -len(sets) if public["parasite"] else len(sets)
    return points


def charts(game: object, view: View) -> Chartable:
    """Scores (for the seats whose sets ``view`` shows) and hand sizes (every seat)."""
    public = view.public
    scores: dict[int, int] = {}
    if public.get("scores") is not None:
        scores = dict(enumerate(public["scores"]))
    else:
        if "sets" in public:
            scores = {s: _points(sets, s, public) for s, sets in enumerate(public["sets"])}
        if view.seat is not None and "sets" in view.private:
            scores[view.seat] = _points(view.private["sets"], view.seat, public)
    return {SCORE: scores, HAND: dict(enumerate(public["hands"]))}


def order_lines(game: object, view: View, orders: JSON) -> list[str]:
    """A step's validated orders (action, sets, discard) as the lines that give them."""
    lines = [orders["action"]] if orders.get("action") else []
    for cards in orders.get("plays", []):
        lines.append(f"{set_kind(cards) or 'play'} {' '.join(cards)}")
    if orders.get("discard"):
        lines.append(f"discard {orders['discard']}")
    return lines
