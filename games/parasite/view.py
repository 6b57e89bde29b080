"""What a reader may see of a Parasite state: an allow-list, built fresh for each call.

Public (the same for every reader): options, round, Leader, characters, who stands where and
in what condition, Items (they lie face up on the character), hand sizes, tokens carried
(hidden under Unknown Infections), revealed Infection cards, deck and discard pile sizes,
the Mission, who made someone Distressed lately, whose question is awaited and its public
part, and at the end everything (every card, every token, the Winners).

Private (``seat`` only): the hand, every Infection card held and which has the priority, the
Test Results seen, what the seat learnt (notes: cards looked at, gifts, draws), its standing
reactions and keep preference, and the private part of a question put to it.
"""

from __future__ import annotations

from typing import Any

from pbem.game import View

from .cards import load_cards

NOTES_SHOWN = 24
"""How many of the latest private notes a view shows (all are kept in the state)."""


def observe(state: dict[str, Any], seat: int | None) -> View:
    """The view of ``state`` for ``seat`` (None: the public only)."""
    cards = load_cards()
    n = state["n"]
    over = state["over"]
    hidden_tokens = state["opt"]["unknown-infections"] and not over
    count = n + (1 if state["dog"] else 0)
    pending = state["pending"]
    public: dict[str, Any] = {
        "players": n,
        "options": dict(state["opt"]),
        "dog": state["dog"],
        "round": state["round"],
        "leader": state["leader"],
        "chars": list(state["chars"]),
        "health": list(state["health"]),
        "loc": list(state["loc"]),
        "items": [list(i) for i in state["items"]],
        "hand_sizes": [len(h) for h in state["hands"]],
        "tokens": None if hidden_tokens else [list(t) for t in state["tokens"]],
        "supply": None if hidden_tokens else list(state["supply"]),
        "revealed": [
            max(state["infection"][p], key=lambda c: cards.infections[c].priority)
            if state["revealed"][p]
            else None
            for p in range(count)
        ],
        "decks": {d: len(c) for d, c in state["decks"].items()},
        "discards": {d: len(c) for d, c in state["discards"].items()},
        "infection_deck": len(state["infection_deck"]),
        "mission": state["mission"],
        "mission_done": state["mission_done"],
        "upcoming": state["upcoming"],
        "played": list(state["played"]),
        "violent": sorted(set(state["violent"]) | set(state["violent_prev"])),
        "proc": dict(state["proc"]),
        "ask": None
        if pending is None
        else {"seats": list(pending["ask"]["seats"]), "question": dict(pending["ask"]["question"])},
        "over": over,
        "escaped": list(state["escaped"]),
        "winners": None if state["winners"] is None else list(state["winners"]),
        "why": state["why"],
    }
    if over:
        public["infection"] = [list(i) for i in state["infection"]]
        public["hands"] = [list(h) for h in state["hands"]]
        public["tokens"] = [list(t) for t in state["tokens"]]
        public["supply"] = list(state["supply"])
        public["tests"] = [dict(t) for t in state["tests"]]
        public["reactions"] = [[dict(r) for r in mine] for mine in state["reactions"]]
    private: dict[str, Any] = {}
    if seat is not None and 0 <= seat < n:
        mine = state["infection"][seat]
        private = {
            "hand": list(state["hands"][seat]),
            "infection": list(mine),
            "priority": max(mine, key=lambda c: cards.infections[c].priority),
            "tests": dict(state["tests"][seat]),
            "notes": list(state["notes"][seat][-NOTES_SHOWN:]),
            "reactions": [dict(r) for r in state["reactions"][seat]],
            "prefer": None if state["prefer"][seat] is None else list(state["prefer"][seat]),
        }
        if hidden_tokens:
            private["tokens"] = list(state["tokens"][seat])
        if pending is not None and seat in pending["ask"]["seats"]:
            private["ask"] = dict(pending["ask"]["private"].get(str(seat), {}))
    return View(game="parasite", seat=seat, public=public, private=private)
