"""Choosing corners at setup (option ``corners=choose``, the default; ruling 11).

The rulebook: "Choose a vacant corner space and place your dime in it."  Players choose in
round 1's turn order (its first player is drawn at setup, ruling 10).  With ``turns=round``
everyone is asked at once and writes the corners they want, best first: in turn order each
gets the first one still vacant.  With ``turns=sequential`` one player is asked at a time and
sees the earlier choices.  A player whose turn to choose leaves a single vacant corner is not
asked (with 4 players the last one takes the corner left over), and a player who sends
nothing, or lists only corners taken before their turn, gets a random vacant corner drawn from
the turn's random generator.

Orders of the setup step: ``{"corners": [corner, ...]}`` (possibly empty).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game import Event, IllegalOrderError, InvalidOrderError, OrderError, OrderErrors, OrderLine, View
from pbem.rng import Rng

from . import board
from .orders import _BOARD_WORDS, _LEAVE_WORDS, _MOVE_WORDS, _RIDE_WORDS, _STORM_WORDS, _Bad, resolve_token
from .turns import player

_CHOOSE_WORDS = {"corner", "corners", "choose", "take", "dime"}
_PASS_WORDS = {"pass", "nothing", "random", "any"}
_PLAN_WORDS = _MOVE_WORDS | _BOARD_WORDS | _LEAVE_WORDS | _RIDE_WORDS | _STORM_WORDS | {"spend", "place"}
_LONG_NAMES = {"NORTHEAST": "NE", "SOUTHEAST": "SE", "SOUTHWEST": "SW", "NORTHWEST": "NW"}


def choosing(state: Mapping[str, Any]) -> bool:
    """Whether the game is still at its setup step (corners being chosen)."""
    return state.get("phase") == "corners"


def vacant(where: Sequence[str | None]) -> list[str]:
    """The corners nobody stands in, in board order (NE, SE, SW, NW)."""
    return [c for c in board.CORNERS if c not in where]


def choosers(where: Sequence[str | None], order: Sequence[int], sequential: bool) -> tuple[int, ...]:
    """The seats asked now, in turn order: those without a corner who will still have a choice
    when their turn to choose comes (more than one vacant corner); only the next of them with
    ``sequential``."""
    unplaced = [s for s in order if where[s] is None]
    asked = unplaced[: max(0, len(vacant(where)) - 1)]
    return tuple(asked[:1] if sequential else asked)


def resolve(
    where: Sequence[str | None], order: Sequence[int], sequential: bool, orders: Mapping[int, Any], rng: Rng
) -> tuple[list[str | None], list[Event]]:
    """Place the asked seats (turn order; each its first listed corner still vacant, else a
    random vacant one), then any seat left with a single vacant corner.  Returns the new
    places and the events."""
    placed = list(where)
    events: list[Event] = []
    for seat in choosers(where, order, sequential):
        free = vacant(placed)
        wanted = _wanted(orders.get(seat))
        pick = next((c for c in wanted if c in free), None)
        if pick is None:
            pick = rng.choice(free)
            why = "sent no choice" if not wanted else f"listed only taken corners ({', '.join(wanted)})"
            events.append(Event(f"{player(seat)} {why}: a random vacant corner, {pick}."))
        elif pick != wanted[0]:
            taken = ", ".join(wanted[: wanted.index(pick)])
            events.append(Event(f"{player(seat)} chooses {pick} ({taken} taken)."))
        else:
            events.append(Event(f"{player(seat)} chooses {pick}."))
        placed[seat] = pick
    while any(placed[s] is None for s in order) and not choosers(placed, order, sequential):
        seat = next(s for s in order if placed[s] is None)
        (last,) = vacant(placed)
        placed[seat] = last
        events.append(Event(f"{player(seat)} takes the corner left over, {last}."))
    return placed, events


def _wanted(orders: Any) -> list[str]:
    """The corners a seat's validated orders list (robust to orders of another shape)."""
    if not isinstance(orders, Mapping):
        return []
    listed = orders.get("corners")
    if not isinstance(listed, list):
        return []
    return [c for c in listed if isinstance(c, str) and c in board.CORNERS]


def _corner(token: str) -> str:
    """The corner a word names; raises _Bad for anything else."""
    key = re.sub(r"[\s\-_.]", "", token).upper()
    if key in _LONG_NAMES:
        return _LONG_NAMES[key]
    try:
        kind, name = resolve_token(token)
    except _Bad:
        raise _Bad(
            InvalidOrderError, f"{token!r} is not a corner: the corners are NE, SE, SW and NW"
        ) from None
    if kind == "space" and name in board.CORNERS:
        return name
    what = f"{name.capitalize()} is a satellite" if kind == "moon" else f"{name} is not a corner"
    raise _Bad(IllegalOrderError, f"{what}: the corners are NE, SE, SW and NW")


def validate(view: View, lines: Sequence[OrderLine]) -> dict[str, Any]:
    """Check a seat's corner choice; return ``{"corners": [...]}`` (best first, maybe empty).

    Raises OrderErrors listing every bad line: a word that is not a corner, a corner taken
    already or listed twice, a move or storm before the game has begun, a seat not asked now.
    """
    public = view.public
    seat = view.seat
    if seat is None:
        raise OrderErrors([InvalidOrderError(None, "the public view cannot give orders")])
    if seat not in public.get("asked", ()):
        first = next((line for line in lines if line.text.strip()), None)
        raise OrderErrors(
            [IllegalOrderError(first, f"you have no corner to choose now: {not_asked_why(public, seat)}")]
        )
    free = vacant(public["where"])
    errors: list[OrderError] = []
    chosen: list[str] = []
    first_line: dict[str, int] = {}
    for line in lines:
        words = line.text.replace(",", " ").split()
        if not words:
            continue
        head = words[0].lower()
        if head in _PASS_WORDS and len(words) == 1:
            continue
        if head in _CHOOSE_WORDS:
            words = words[1:]
            if not words:
                errors.append(InvalidOrderError(line, "which corner? write 'corner NE'", f"corner {free[0]}"))
                continue
        if head in _PLAN_WORDS or head.startswith("if"):
            errors.append(
                IllegalOrderError(
                    line,
                    "the game has not begun: choose a corner first (moves, storms and"
                    " plans come from round 1)",
                    f"corner {free[0]}",
                )
            )
            continue
        for word in words:
            try:
                corner = _corner(word)
            except _Bad as bad:
                errors.append(bad.kind(line, bad.message, f"corner {free[0]}"))
                break
            if corner not in free:
                owner = public["where"].index(corner)
                errors.append(
                    IllegalOrderError(
                        line, f"{corner} is taken ({player(owner)} is there)", f"corner {free[0]}"
                    )
                )
            elif corner in first_line:
                errors.append(
                    IllegalOrderError(line, f"{corner} is listed twice (line {first_line[corner]})")
                )
            else:
                first_line[corner] = line.number
                chosen.append(corner)
    if errors:
        raise OrderErrors(errors)
    return {"corners": chosen}


def not_asked_why(public: Mapping[str, Any], seat: int) -> str:
    """Why ``seat`` is not asked for a corner at this setup step, and when it will be."""
    where = public["where"]
    if where[seat] is not None:
        return f"you have your corner, {where[seat]}"
    if seat in choosers(where, public["turn_order"], False):
        now = ", ".join(player(s) for s in public.get("asked", ()))
        return f"{now or 'another player'} chooses first; your turn to choose comes after, in its own report"
    return "you will take the corner left over"


def order_form(view: View, sequential: bool, hints: Mapping[str, tuple[int, str]]) -> list[str]:
    """The setup step's form: who chooses when, the vacant corners (best first, each with
    ``hints``: what a first turn from there could reach in round 1, less its cost, and in
    words) and how to write a choice."""
    public = view.public
    seat = view.seat
    order = ", ".join(player(s) for s in public["turn_order"])
    lines = [
        "# Jovian Syzygy, setup: choose the corner you start in (round 1",
        "# follows).  Players choose in round 1's turn order:",
        f"#   {order}.",
    ]
    if seat is None or seat not in public.get("asked", ()):
        why = "" if seat is None else not_asked_why(public, seat)
        return [*lines, *_comment(f"You have no corner to choose now: {why or 'no orders'}.")]
    free = vacant(public["where"])
    if sequential:
        lines += ["# Write one vacant corner, like 'corner NE'."]
    else:
        lines += [
            "# Everyone chooses at once: list the corners you want, best",
            "# first (like 'corner NE SW'); you get the first one still",
            "# vacant when your turn to choose comes.",
        ]
    lines += [
        "# Nothing written (or 'pass'): a random vacant corner.",
        "# Vacant corners, each with the best award a first move from it",
        "# could reach in round 1 (the award at round 1's end):",
    ]
    ranked = sorted(free, key=lambda c: -hints[c][0] if c in hints else 0)
    lines += [f"#   {c}: {hints[c][1] if c in hints else 'no line within reach'}" for c in ranked]
    lines.append(f"# corner {' '.join(ranked if not sequential else ranked[:1])}")
    return lines


def _comment(text: str) -> list[str]:
    """``text`` as comment lines under the mail width."""
    return ["# " + line for line in textwrap.wrap(text, 66, break_on_hyphens=False)]
