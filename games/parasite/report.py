"""Parasite report text: the position (public) and what the seat alone knows (private)."""

from __future__ import annotations

from pbem.game import View

from .cards import load_cards


def _who(seat: int, n: int) -> str:
    return "the Dog" if seat == n else f"player {seat + 1}"


def describe(view: View) -> tuple[str, str]:
    """(public text, private text) for a view."""
    cards = load_cards()
    pub = view.public
    n = pub["players"]
    lines = [f"Round {pub['round']}; Leader: player {pub['leader'] + 1}."]
    for seat in range(len(pub["health"])):
        role = cards.character(pub["chars"][seat]).role if seat < n else cards.dog.name
        where = pub["loc"][seat] or "-"
        extra = []
        if seat < n:
            extra.append(f"{pub['hand_sizes'][seat]} cards")
        if pub["items"][seat]:
            extra.append("items " + ", ".join(cards.cards[c].name for c in pub["items"][seat]))
        if pub["tokens"] is not None and pub["tokens"][seat]:
            extra.append("tokens of " + ", ".join(_who(t, n) for t in pub["tokens"][seat]))
        if pub["revealed"][seat]:
            extra.append("revealed " + cards.infections[pub["revealed"][seat]].name)
        lines.append(f"{_who(seat, n)} ({role}): {pub['health'][seat]}, {where}; " + "; ".join(extra))
    decks = ", ".join(f"{d} {k} (discards {pub['discards'][d]})" for d, k in pub["decks"].items())
    lines.append(f"Decks: {decks}; Infection deck {pub['infection_deck']}.")
    if pub["mission"]:
        lines.append(
            f"Mission: {cards.cards[pub['mission']].name}" + (" (resolved)" if pub["mission_done"] else "")
        )
    if pub["ask"]:
        seats = ", ".join(_who(s, n) for s in pub["ask"]["seats"])
        lines.append(f"Awaited: {seats} ({pub['ask']['question']['kind']}).")
    if pub["over"]:
        winners = ", ".join(_who(s, n) for s in pub["winners"] or []) or "nobody"
        lines.append(f"The game is over ({pub['why']}); Winners: {winners}.")
    priv = view.private
    mine: list[str] = []
    if priv:
        inf = cards.infections[priv["priority"]]
        mine.append(f"Your Infection card: {inf.name} ({inf.side}, priority {inf.priority}): {inf.text}")
        mine.append("Your hand: " + (", ".join(cards.cards[c].name for c in priv["hand"]) or "empty"))
        for seat, side in sorted(priv["tests"].items()):
            mine.append(f"Test Results: {_who(int(seat), n)} is {side}.")
        mine += priv["notes"]
    return "\n".join(lines), "\n".join(mine)
