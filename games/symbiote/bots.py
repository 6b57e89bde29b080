"""The Symbiote bots.  They read only their View and write the lines a person would."""

from __future__ import annotations

from typing import Any

from pbem.game import View
from pbem.rng import Rng

from .cards import DECK, RANK, SORT_KEY, best_sets, count, legal_sets, set_value
from .forms import below_after
from .orders import discard_choices, set_line, situation
from .rules import marker_target

_ORDER = SORT_KEY.__getitem__
_DISCARD_LINE = {card: "discard " + card for card in DECK}
"""Each card's discard line, made once: the same string object every time, so it is not
built again at every step and its hash is kept for validate's cache of read lines."""


def random_bot(game: Any, view: View, rng: Rng) -> list[str]:
    """Uniform choices among legal ones at each decision: take or draw (and, after a draw,
    finish now or wait to see the card), each further set or stopping, then the discard."""
    # The situation's fields read once (a named tuple's field is a descriptor lookup each time).
    _, my_turn, phase, held, top, can_draw, can_take, keep_taken, _ = situation(view)
    if not my_turn:
        return []
    randbelow = rng.randbelow
    lines: list[str] = []
    hand = list(held)
    taken: str | None = None
    action = None
    if phase == "act":
        if can_take:
            action = ("take", "draw")[randbelow(2)] if can_draw else "take"
        elif can_draw:
            action = "draw"
        if action is not None:
            lines.append(action)
            if action == "take":
                taken = top
                hand.append(taken)  # type: ignore[arg-type]
            elif randbelow(len(hand) + 1) == 0:
                # Uniform over order files: `draw` alone is one file, against about one
                # complete file per card that could be discarded.
                return lines
    while True:
        sets = legal_sets(hand)
        if not sets:
            break  # (randbelow(1) would draw nothing: the same stream as asking)
        pick = randbelow(len(sets) + 1)
        if pick == len(sets):
            break
        for card in sets[pick]:
            hand.remove(card)
        lines.append(set_line(sets[pick]))
    choices = sorted(set(hand), key=_ORDER)
    if taken is not None and taken in choices and taken not in held:
        # The taken card may not go back, unless an identical card was held before; when it
        # is all that is left, discard_choices' rule applies (keep it, or discard it).
        choices.remove(taken)
        if not choices and not keep_taken:
            choices = [taken]
    if action == "draw" and not choices:
        return ["draw"]
    if choices:
        lines.append(_DISCARD_LINE[choices[randbelow(len(choices))]])
    return lines


def _leader(view: View) -> int | None:
    """The rival who looks furthest ahead from public facts (open sets count exactly,
    face-down sets at 3 points each)."""
    pub = view.public
    if "sets" in pub:
        points = [sum(set_value(s) for s in mine) for mine in pub["sets"]]
    else:
        points = [3 * len(sizes) for sizes in pub["set_sizes"]]
    rivals = [s for s in range(pub["players"]) if s != view.seat]
    return max(rivals, key=lambda s: (points[s], -s)) if rivals else None


def _marker_value(view: View, host: int, parasite: bool, leader: int | None) -> int:
    """How good it is for the bot that the marker ends with ``host``, face up as given."""
    if host == view.seat:
        return -30 if parasite else 30
    if host == leader:
        return 20 if parasite else -20
    return 5 if parasite else -5


def _keep_value(card: str, hand: list[str]) -> int:
    """How much the bot would rather keep ``card``: royals with other royal ranks most, tens not at all."""
    rank = RANK[card]
    if rank == 10:
        return 0
    if rank > 10:
        others = {RANK[c] for c in hand if c != card and RANK[c] > 10}
        return 3 + len(others - {rank})
    return 2


def greedy_bot(game: Any, view: View, rng: Rng) -> list[str]:
    """Take the discard when it makes a set worth more, else draw and look; play the best
    sets (matched first); discard to keep or pull the symbiote, push the parasite or keep the
    symbiote from the leader, and otherwise throw what is least useful."""
    sit = situation(view)
    if not sit.my_turn:
        return []
    lines: list[str] = []
    hand = list(sit.hand)
    taken: str | None = None
    if sit.phase == "act":
        take = False
        if sit.can_take and sit.top is not None:
            with_top = best_sets([*hand, sit.top])[0]
            take = with_top > best_sets(hand)[0] or not sit.can_draw
        if take and sit.top is not None:
            lines.append("take")
            taken = sit.top
            hand.append(taken)
        elif sit.can_draw:
            return ["draw"]
    _, chosen = best_sets(hand)
    for cards in chosen:
        for card in cards:
            hand.remove(card)
        lines.append(set_line(cards))
    choices = discard_choices(count(sit.hand), count(hand), taken, sit.keep_taken)
    if not choices:
        return lines
    pub = view.public
    below = below_after(view, taken is not None)
    leader = _leader(view)

    def worth(card: str) -> tuple[int, int]:
        """Score of discarding ``card``: where the marker ends, less what the card is worth kept."""
        target = marker_target(pub["players"], pub["host"], card, below, pub["options"]["tens-always-move"])
        if target is None:
            host, parasite = pub["host"], pub["parasite"]
        else:
            host, parasite = target, RANK[card] == 10
        return (_marker_value(view, host, parasite, leader) - _keep_value(card, hand), -RANK[card])

    lines.append(_DISCARD_LINE[max(choices, key=worth)])
    return lines


BOTS = {"random": random_bot, "greedy": greedy_bot}
