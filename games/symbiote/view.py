"""What a reader may see of a Symbiote state: an allow-list, built fresh for each call.

Public (identical for every reader): the options, the dealer, the turn and round, whose turn
and its step, the marker (host and face), the draw pile's size, the whole discard pile, the
tens set aside, each hand's size, each seat's sets as card counts (the cards themselves
under Open Research), and the public texts of the last step.  At the end: every set, the
scores and the winners.

Private (only for ``seat``): the seat's hand, the card it just drew, its own sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.game import View

from .cards import SORT_KEY

_ORDER = SORT_KEY.__getitem__


def observe(state: dict[str, Any], seat: int | None) -> View:
    """The view of ``state`` for ``seat`` (None: the public only)."""
    phase = state["phase"]
    over = phase == "over"
    opt = state["opt"]
    sets = state["sets"]
    n = state["n"]
    turn = state["turn"]
    hands = state["hands"]
    if n == 4:
        # Written out for four players: a list comprehension costs a function object and a
        # frame each time, more than the few lengths it computes (issue 13).
        h0, h1, h2, h3 = hands
        s0, s1, s2, s3 = sets
        counts = [len(h0), len(h1), len(h2), len(h3)]
        sizes = [  # [*map(...)]: a list display, not a call of list (about 120 instructions less each)
            [*map(len, s0)] if s0 else [],
            [*map(len, s1)] if s1 else [],
            [*map(len, s2)] if s2 else [],
            [*map(len, s3)] if s3 else [],
        ]
    else:
        counts = list(map(len, hands))
        sizes = [list(map(len, mine)) if mine else [] for mine in sets]
    public: dict[str, Any] = {
        "players": n,
        "options": opt.copy(),
        "dealer": state["dealer"],
        "turn": turn,
        "round": (turn - 1) // n + 1,
        "seat": state["seat"],
        "phase": phase,
        "host": state["host"],
        "parasite": state["parasite"],
        "deck": len(state["deck"]),
        "discard": state["discard"][:],
        "aside": state["aside"][:],
        "hands": counts,
        "set_sizes": sizes,
        "last": state["last"][:],
    }
    if over or opt["open-research"]:
        public["sets"] = [[list(s) for s in mine] for mine in sets]
    if over:
        public["scores"] = state["scores"][:]
        public["winners"] = state["winners"][:]
    if seat is None:
        return View("symbiote", None, public, {})
    return View("symbiote", seat, public, _private(state, seat))


def _private(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The private part of ``seat``'s view: its hand (sorted), the card it just drew, its sets."""
    mine = state["sets"][seat]
    return {
        "hand": sorted(state["hands"][seat], key=_ORDER),
        "drawn": state["drawn"] if seat == state["seat"] else None,
        "sets": list(map(list, mine)) if mine else [],
    }


def observe_all(state: dict[str, Any], seats: Sequence[int | None]) -> list[View]:
    """``[observe(state, seat) for seat in seats]``, the public part built once: every view
    holds the same public object (equal to what :func:`observe` builds for each).

    For the engine's reports of a turn (pbem.game.ObservedOnce): four players' views and
    the public one, where each ``observe`` built the same public part again (~22,000
    instructions each).  The views are read, never changed, by whoever asks for them all."""
    public = observe(state, None).public
    return [View("symbiote", seat, public, {} if seat is None else _private(state, seat)) for seat in seats]
