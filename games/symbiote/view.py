"""What a reader may see of a Symbiote state: an allow-list, built fresh for each call.

Public (identical for every reader): the options, the dealer, the turn and round, whose turn
and its step, the marker (host and face), the draw pile's size, the whole discard pile, the
tens set aside, each hand's size, each seat's sets as card counts (the cards themselves
under Open Research), and the public texts of the last step.  At the end: every set, the
scores and the winners.

Private (only for ``seat``): the seat's hand, the card it just drew, its own sets.
"""

from __future__ import annotations

from typing import Any

from pbem.game import View

from .cards import sort_cards


def observe(state: dict[str, Any], seat: int | None) -> View:
    """The view of ``state`` for ``seat`` (None: the public only)."""
    over = state["phase"] == "over"
    opt = state["opt"]
    sets = state["sets"]
    public: dict[str, Any] = {
        "players": state["n"],
        "options": dict(opt),
        "dealer": state["dealer"],
        "turn": state["turn"],
        "round": (state["turn"] - 1) // state["n"] + 1,
        "seat": state["seat"],
        "phase": state["phase"],
        "host": state["host"],
        "parasite": state["parasite"],
        "deck": len(state["deck"]),
        "discard": state["discard"][:],
        "aside": state["aside"][:],
        "hands": list(map(len, state["hands"])),
        "set_sizes": [list(map(len, mine)) if mine else [] for mine in sets],
        "last": state["last"][:],
    }
    if opt["open-research"] or over:
        public["sets"] = [list(map(list, mine)) for mine in sets]
    if over:
        public["scores"] = state["scores"][:]
        public["winners"] = state["winners"][:]
    private: dict[str, Any] = {}
    if seat is not None:
        private = {
            "hand": sort_cards(state["hands"][seat]),
            "drawn": state["drawn"] if seat == state["seat"] else None,
            "sets": list(map(list, sets[seat])),
        }
    return View(game="symbiote", seat=seat, public=public, private=private)
