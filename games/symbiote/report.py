"""Report text for a Symbiote view, rendered with templates/symbiote/*.j2.

The context is built here from the View alone (so nothing hidden can reach the public
text), with long lists wrapped to fit a mail body (lines under 72 characters).  What
happened in the last step is not repeated here: the engine prints the events itself.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain
from typing import Any

from pbem.game import View
from pbem.render import render
from pbem.wording import counted, fold, join_names

from .cards import legal_sets, set_kind, set_value, show
from .rules import OPTION_DEFAULTS, who

WIDTH = 68
"""Room for the text of a line: the templates indent by at most 2, mail wants under 72."""


def wrap(text: str, indent: str = "  ", width: int = WIDTH) -> list[str]:
    """``text`` broken into lines of at most ``width`` characters, continuation lines indented."""
    return list(_wrapped(text, indent, width))


@lru_cache(maxsize=4096)
def _wrapped(text: str, indent: str, width: int) -> tuple[str, ...]:
    # Every report of a turn shows the same public lists: each is wrapped once.
    return tuple(fold(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""])


def _describe_set(cards: list[str]) -> str:
    """A played set as text: "pair 3H 7H (4)"."""
    kind = "royal" if set_kind(cards) == "royal" else "pair"
    return f"{kind} {' '.join(cards)} ({set_value(cards)})"


def json_text(value: object) -> str:
    """An option value as it is written on the command line (true/false, or the word)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def public_context(view: View) -> dict[str, Any]:
    """The template variables for the public part."""
    pub = view.public
    n = pub["players"]
    over = pub["phase"] == "over"
    face = "parasite" if pub["parasite"] else "symbiote"
    seats = []
    for seat in range(n):
        sizes = pub["set_sizes"][seat]
        if "sets" in pub:
            sets_text = ", ".join(_describe_set(s) for s in pub["sets"][seat]) or "no sets"
        else:
            sets_text = f"{len(sizes)} set{'s' if len(sizes) != 1 else ''} face down"
            if sizes:
                sets_text += f" ({sum(sizes)} cards)"
        marks = []
        if seat == pub["host"]:
            marks.append(f"has the {face}")
        if seat == pub["dealer"]:
            marks.append("dealer")
        if not over and seat == pub["seat"]:
            marks.append("to play")
        line = f"{who(seat)}: {pub['hands'][seat]} in hand; {sets_text}"
        if marks:
            line += f" [{', '.join(marks)}]"
        if over:
            line += f"; score {pub['scores'][seat]}"
        seats.append(wrap(line, "    ", WIDTH - 2))
    options = [name for name in ("open-research", "all-night-lab") if pub["options"][name]]
    options += [
        f"{name}={json_text(value)}"
        for name, value in pub["options"].items()
        if name not in ("open-research", "all-night-lab") and value != OPTION_DEFAULTS.get(name)
    ]
    pile = pub["discard"]
    return {
        "round": pub["round"],
        "over": over,
        "to_play": who(pub["seat"]),
        "step": "play (after drawing)" if pub["phase"] == "play" else "take or draw",
        "face": face,
        "host": who(pub["host"]),
        "deck": pub["deck"],
        "top": pile[-1] if pile else "(empty)",
        "pile": wrap(f"Discard pile, bottom to top: {' '.join(pile) or '(empty)'}"),
        "aside": wrap(f"Tens set aside: {' '.join(pub['aside']) or 'none'}"),
        "seats": seats,
        "variants": wrap(f"Variants and rulings: {', '.join(options) or 'none'}"),
        "winners": join_names(who(w) for w in pub.get("winners") or []),
        "scores": [line for seat in range(n) for line in wrap(score_line(pub, seat), "    ")] if over else [],
    }


def score_line(pub: dict[str, Any], seat: int) -> str:
    """A final score with its breakdown: "Player 1: 14 = 11 from 3 sets + 3 symbiote bonus
    (+1 a set)".  Only for a finished game's public view (its sets are revealed)."""
    sets = pub["sets"][seat]
    points = sum(set_value(s) for s in sets)
    text = f"{who(seat)}: {pub['scores'][seat]} = {points} from {counted(len(sets), 'set')}"
    if seat == pub["host"] and sets:
        if pub["parasite"]:
            text += f" - {len(sets)} parasite penalty (-1 a set)"
        else:
            text += f" + {len(sets)} symbiote bonus (+1 a set)"
    return text


def private_context(view: View) -> dict[str, Any]:
    """The template variables for the private part (only what view.seat may know)."""
    priv = view.private
    hand = priv.get("hand", [])
    sets = priv.get("sets", [])
    return {
        "seat": who(view.seat) if view.seat is not None else "",
        "hand": wrap(f"Your hand: {show(hand)}"),
        "drawn": priv.get("drawn"),
        "sets": [_describe_set(s) for s in sets],
        "points": sum(set_value(s) for s in sets),
        "playable": wrap("Sets in your hand: " + ", ".join(" ".join(s) for s in found))
        if (found := legal_sets(hand))
        else [],
    }


def describe(view: View) -> tuple[str, str]:
    """(public text, private text) for a mail report."""
    public = render("symbiote/public.txt.j2", **public_context(view))
    return public, describe_private(view)


def describe_private(view: View) -> str:
    """The private text of :func:`describe` alone ("" for the public view).

    A seat's hand and sets stay the same over most turns (one seat plays a turn), so the
    text is kept by what it is made of (:func:`_private_key`): a later turn with the same
    seat, hand, drawn card and sets gets it without a new context and render."""
    if view.seat is None:
        return ""
    key = _private_key(view)
    if key is None:
        return _render_private(view)
    text = _PRIVATE_TEXTS.get(key)
    if text is None:
        if len(_PRIVATE_TEXTS) >= _PRIVATE_TEXTS_MAX:
            _PRIVATE_TEXTS.clear()
        text = _PRIVATE_TEXTS[key] = _render_private(view)
    return text


def _render_private(view: View) -> str:
    return render("symbiote/private.txt.j2", **private_context(view))


_PRIVATE_TEXTS: dict[tuple[Any, ...], str] = {}
_PRIVATE_TEXTS_MAX = 4096
"""Private texts by :func:`_private_key` (emptied when full: a bound, not a policy)."""


def _private_key(view: View) -> tuple[Any, ...] | None:
    """Everything :func:`private_context` reads of ``view``, as an exact key: the seat (an
    int), the hand and each set as tuples of card strings, the drawn card (a string or
    None).  None, and no caching, when any of it has another type (equal values of other
    types, 1 and True, or a class with its own ``==``, could stand for each other in a key)."""
    priv = view.private
    hand, drawn, sets = priv.get("hand", []), priv.get("drawn"), priv.get("sets", [])
    if type(view.seat) is not int or type(hand) is not list or type(sets) is not list:
        return None
    if not (drawn is None or type(drawn) is str) or not set(map(type, sets)) <= {list}:
        return None
    if not set(map(type, chain(hand, *sets))) <= {str}:  # the types in C, no loop in Python
        return None
    return (view.seat, tuple(hand), drawn, tuple(map(tuple, sets)))
