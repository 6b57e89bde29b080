"""The blank order form and the civil-disorder orders, written from a View."""

from __future__ import annotations

from pbem.game import View
from pbem.wording import counted

from .cards import RANK, count, legal_sets, matched, set_value, show
from .orders import discard_choices, set_line, situation
from .rules import marker_target, who


def below_after(view: View, take: bool) -> str | None:
    """The card a discard would land on: the top of the pile, or the one under it after `take`."""
    pile = view.public["discard"]
    if take:
        return pile[-2] if len(pile) >= 2 else None
    return pile[-1] if pile else None


def discard_effect(view: View, card: str, below: str | None) -> str:
    """What discarding ``card`` onto ``below`` would do to the marker, in words."""
    pub = view.public
    target = marker_target(pub["players"], pub["host"], card, below, pub["options"]["tens-always-move"])
    aside = "set aside; " if RANK[card] == 10 else ""
    if target is None:
        return f"{aside}the marker stays".strip()
    face = "parasite" if RANK[card] == 10 else "symbiote"
    you = " (you)" if target == view.seat else ""
    return f"{aside}the {face} goes to {who(target)}{you}"


def quiet_discard(view: View, choices: list[str], below: str | None) -> str:
    """A legal discard that leaves the marker where it is, when there is one."""
    pub = view.public
    for card in choices:
        if (
            marker_target(pub["players"], pub["host"], card, below, pub["options"]["tens-always-move"])
            is None
        ):
            return card
    return choices[0]


def default_orders(view: View) -> list[str]:
    """A legal minimal turn: draw (or take when the pile is empty), play nothing, and make
    the discard that moves the marker least (any legal one)."""
    sit = situation(view)
    if not sit.my_turn:
        return []
    hand = count(sit.hand)
    if sit.phase == "act" and sit.can_draw:
        if not sit.hand:
            return ["draw"]
        choices = discard_choices(hand, hand, None, sit.keep_taken)
        return ["draw", f"discard {quiet_discard(view, choices, below_after(view, False))}"]
    lines: list[str] = []
    taken = None
    if sit.phase == "act" and sit.can_take and sit.top is not None:
        lines.append("take")
        taken = sit.top
    pool = dict(hand)
    if taken is not None:
        pool[taken] = pool.get(taken, 0) + 1
    choices = discard_choices(hand, pool, taken, sit.keep_taken)
    if choices:
        lines.append(f"discard {quiet_discard(view, choices, below_after(view, taken is not None))}")
    return lines


def _set_note(cards: tuple[str, ...]) -> str:
    """The points of a set as text: "matched, 4 points" or "2 points"."""
    return f"{'matched, ' if matched(cards) else ''}{counted(set_value(cards), 'point')}"


def order_form(view: View) -> list[str]:
    """Comment lines showing the hand, the piles and every legal choice, and a safe
    suggestion (``draw``) left uncommented where it is legal on its own."""
    sit = situation(view)
    pub = view.public
    if not sit.my_turn:
        if pub["phase"] == "over":
            return ["# Symbiote: the game is over; there is nothing to order."]
        return [f"# Symbiote: no orders from you now; it is {who(pub['seat'])}'s turn."]
    out = [f"# Symbiote, round {pub['round']}: your turn ({who(view.seat or 0)})."]
    face = "parasite" if pub["parasite"] else "symbiote"
    host = "you" if pub["host"] == view.seat else who(pub["host"])
    out.append(f"# The {face} is with {host}.")
    out.append(f"# Your hand: {show(sit.hand)}")
    if sit.drawn:
        out.append(f"# You drew: {sit.drawn}")
    top = sit.top or "(empty)"
    out.append(f"# Top discard: {top}; draw pile: {counted(pub['deck'], 'card')}.")
    if sit.can_take or sit.can_draw:
        out.append("# Lines: take | draw, then pair C C / royal J Q K, then discard C.")
    else:
        out.append("# Lines: pair C C / royal J Q K, then discard C.")
    if sit.phase == "act":
        if sit.can_take:
            out.append(f"#   take  - put {sit.top} into your hand (you may not discard it)")
        if sit.can_draw:
            out.append("#   draw  - alone: you are sent the card and asked for the rest;")
            out.append("#           with sets and a discard: your whole turn")
        if not (sit.can_take or sit.can_draw):
            out.append("# Both piles are empty: just play sets and discard.")
    sets = legal_sets(sit.hand)
    if sets:
        out.append("# Sets you can play now:")
        out.extend(f"#   {set_line(s):<18} ({_set_note(s)})" for s in sets)
    if sit.can_take and sit.top is not None:
        extra = [s for s in legal_sets([*sit.hand, sit.top]) if s not in sets]
        if extra:
            out.append(f"# Sets you could play after take {sit.top}:")
            out.extend(f"#   {set_line(s):<18} ({_set_note(s)})" for s in extra)
    if sit.hand:
        below = below_after(view, False)
        out.append(f"# Discard one card at the end, onto {below or 'the empty pile'}:")
        for card in sorted(set(sit.hand), key=sit.hand.index):
            out.append(f"#   discard {card:<4} ({discard_effect(view, card, below)})")
        if sit.can_take:
            after = below_after(view, True)
            out.append(f"# After take, it lands on {after or 'the empty pile'} instead:")
            for card in sorted(set(sit.hand), key=sit.hand.index):
                out.append(f"#   discard {card:<4} ({discard_effect(view, card, after)})")
    if sit.phase == "act" and sit.can_draw:
        out.append("draw")
    return out
