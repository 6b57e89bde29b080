"""The forecast in each player's private report part: what riding each satellite would score
at the coming round's end, and the cheapest way aboard it this turn.

A person cannot work out slid lines by hand; the engine and the bots can.  The forecast uses
the very functions that award Psi (:func:`.rules.award_for`, the memoised exact line search
of :mod:`.lines`) and the order rules the checker uses (:func:`.orders.legal_steps`), on the
satellites as they will stand after the round's move.  It is computed from the public view
alone (everything in this game is public), so it says nothing another player could not
compute.  Storms are not flipped here: a path through a storm is marked, since the move may
be wasted; an earlier player's storm or push this round can still change the way aboard.
"""

from __future__ import annotations

import heapq
import textwrap
from dataclasses import dataclass
from typing import Any

from . import board
from .lines import line_value
from .orders import advance, copy_turn, legal_steps
from .rules import award_for, moved
from .turns import Turn, start_turn, step_text

WIDTH = 70
"""Columns of the block (mail folds at 70)."""

_MAX_MOVES = 12
"""More moves than any shortest way aboard needs (the board's diameter is 7 moves)."""


@dataclass(frozen=True)
class Way:
    """The cheapest way aboard a satellite this turn: the orders, the Psi they cost and the
    spaces with storms they enter (fewest moves first, then fewest storms)."""

    steps: tuple[str, ...]
    cost: int
    storms: tuple[str, ...]


@dataclass(frozen=True)
class Outlook:
    """What riding ``moon`` would give at the round's end: the segment it moves to, the Psi
    (after the same-satellite rule), the satellites of the line (empty: none), the line's own
    worth, and the way aboard (None: not this turn)."""

    moon: str
    segment: int
    gain: int
    moons: tuple[str, ...]
    eclipse: bool
    worth: int
    way: Way | None
    note: str = ""


def ways_aboard(turn: Turn, sats: list[int], storms: dict[str, int]) -> dict[str, Way]:
    """For each satellite the cheapest orders that leave ``turn``'s player aboard it at the end
    of the turn (staying aboard one is ``ride``), found over the same legal steps the checker
    allows; satellites out of reach, Psi and the extra-move limit counted, are left out."""
    best: dict[str, Way] = {}
    if turn.where in board.TRACK_BY_MOON:
        best[turn.where] = Way(("ride",), 0, ())
    seen: set[tuple[str, int]] = set()
    count = 0
    queue: list[tuple[int, int, int, Turn, tuple[str, ...], tuple[str, ...]]] = [(0, 0, count, turn, (), ())]
    while queue:
        moves, _stormy, _, here, steps, through = heapq.heappop(queue)
        if (here.where, here.moves) in seen or moves > _MAX_MOVES:
            continue
        seen.add((here.where, here.moves))
        for step in legal_steps(here, sats):
            if step[0] in ("storm", "ride"):
                continue
            after = copy_turn(here)
            advance(after, step)
            text = (*steps, step_text(step))
            if step[0] == "board":
                cost = turn.psi - after.psi
                if step[1] not in best:
                    best[step[1]] = Way(text, cost, through)
                continue
            wet = (*through, step[1]) if storms.get(step[1], 0) else through
            count += 1
            heapq.heappush(queue, (moves + 1, len(wet), count, after, text, wet))
    return best


def _look(moon: str, sats: list[int], last: str | None, way: Way | None, note: str = "") -> Outlook:
    """Riding ``moon`` with the satellites on ``sats`` (after the move), as an Outlook."""
    gain, line = award_for(sats, moon, last)
    segment = sats[board.MOONS.index(moon)]
    if line is None:
        return Outlook(moon, segment, gain, (), False, 0, way, note)
    worth = line_value(len(line.moons), line.eclipse)
    return Outlook(moon, segment, gain, line.moons, line.eclipse, worth, way, note)


def outlook(public: dict[str, Any], seat: int, where: str, psi: int) -> list[Outlook]:
    """The four satellites as ``seat`` would see them from ``where`` with ``psi``: best first
    (reachable before not, then the most Psi, then the cheapest way).  With ``ride=push`` the
    satellite ridden is there twice: staying aboard (``pass``) and pushed on (``ride``: it
    moves on at once and again at the round's end)."""
    after = moved(list(public["sats"]))
    last = public["last_gain"][seat]
    ways = ways_aboard(
        start_turn(seat, where, psi, public["options"]), list(public["sats"]), public["storms"]
    )
    out = []
    for i, moon in enumerate(board.MOONS):
        if public["options"].get("ride", "stay") == "push" and where == moon:
            pushed = list(after)
            pushed[i] = (pushed[i] + 1) % board.TRACKS[i].segments
            out.append(_look(moon, after, last, Way(("pass",), 0, ()), "staying aboard without pushing"))
            out.append(_look(moon, pushed, last, Way(("ride",), 0, ()), "pushed on by riding"))
        else:
            out.append(_look(moon, after, last, ways.get(moon)))
    out.sort(key=lambda o: (o.way is None, -o.gain, o.way.cost if o.way else 0))
    return out


def _chain(o: Outlook) -> str:
    text = " - ".join(m.capitalize() for m in o.moons)
    return text + " - Jupiter (eclipse)" if o.eclipse else text


def _entry(o: Outlook, last: str | None, title: str, way: str | None) -> list[str]:
    """One satellite's lines: title and Psi, the line, the same-satellite note, the way aboard."""
    out = [f"  {title}: +{o.gain} Psi" if o.moons else f"  {title}: no line, no Psi"]
    if o.moons:
        out.append(f"    line: {_chain(o)}")
        if last == o.moon:
            out.append(f"    only 1: your last gain was on it (the line is worth {o.worth})")
    if way is not None:
        out += textwrap.wrap(f"aboard: {way}", WIDTH, initial_indent="    ", subsequent_indent="      ")
    return out


def _orders(steps: tuple[str, ...], aboard: bool) -> str:
    """Order lines joined as one plan: a path of moves as one ``move``, the first move off a
    satellite written ``leave to``."""
    out: list[str] = []
    for i, step in enumerate(steps):
        if step.startswith("move ") and i == 0 and aboard:
            out.append("leave to " + step[5:])
        elif step.startswith("move ") and out and out[-1].startswith("move "):
            out[-1] += " " + step[5:]
        else:
            out.append(step)
    return ", ".join(out)


def _way(way: Way | None, aboard: bool) -> str:
    if way is None:
        return "out of reach this turn"
    text = _orders(way.steps, aboard)
    text += " (free" if way.cost == 0 else f" ({way.cost} Psi"
    if way.storms:
        text += "; storm" + ("s" if len(way.storms) > 1 else "") + " in " + ", ".join(way.storms)
    return text + ")"


def forecast_lines(public: dict[str, Any], seat: int) -> list[str]:
    """The forecast block for ``seat``'s private part (no line over 70 columns): at setup the
    vacant corners, in a round every satellite; empty once the game is over."""
    where = public["where"][seat]
    if public["over"]:
        return []
    if public.get("phase") == "corners":
        return corner_lines(public, seat) if where is None else []
    psi = public["psi"][seat]
    last = public["last_gain"][seat]
    order, mover = public["turn_order"], public.get("to_move")
    if mover is not None and order.index(seat) < order.index(mover):
        # Sequential turns: this seat has moved; only where it stands still counts.
        mine = [
            o
            for o in outlook(public, seat, where, psi)
            if o.moon == where and o.note != "pushed on by riding"
        ]
        if not mine:
            return [f"You have had your turn this round: {_place(where)}, no award at its end."]
        o = mine[0]
        lines = ["You have had your turn this round; at its end (found as the", "awards are):"]
        return lines + _entry(o, last, f"{o.moon.capitalize()} to segment {o.segment + 1}", None)
    lines = [
        "Forecast: what you would score riding each satellite at this",
        "round's end, after the satellites move (found as the awards are;",
        "storms are not flipped; earlier turns this round may change it):",
    ]
    if mover is not None and mover != seat:
        lines.append("(as the board stands now: players before you still move)")
    for o in outlook(public, seat, where, psi):
        title = f"{o.moon.capitalize()} to segment {o.segment + 1}"
        if o.note:
            title += f", {o.note}"
        lines += _entry(o, last, title, _way(o.way, where in board.TRACK_BY_MOON))
    return lines


def _place(where: str) -> str:
    return f"aboard {where.capitalize()}" if where in board.TRACK_BY_MOON else f"in {where}"


def corner_hints(public: dict[str, Any], seat: int) -> dict[str, tuple[int, str]]:
    """For each vacant corner, the best award a first turn from there could reach at round
    1's end, less its cost, and in words (the award and the way aboard), best corner first."""
    hints = {}
    for corner in board.CORNERS:
        if corner in public["where"]:
            continue
        found = [
            (o.gain - o.way.cost, o) for o in outlook(public, seat, corner, public["psi"][seat]) if o.way
        ]
        net, best = max(found, key=lambda f: (f[0], f[1].gain), default=(0, None))
        if best is not None and best.gain:
            hints[corner] = (net, f"+{best.gain} Psi by {_way(best.way, False)}")
        else:
            hints[corner] = (0, "no line within reach")
    return dict(sorted(hints.items(), key=lambda kv: -kv[1][0]))


def corner_lines(public: dict[str, Any], seat: int) -> list[str]:
    """The setup step's forecast for ``seat``'s private part: the vacant corners, best first."""
    return [
        "Forecast for the vacant corners: the best award a first turn from",
        "each could reach at round 1's end (found as the awards are):",
        *(f"  {c}: {text}" for c, (_net, text) in corner_hints(public, seat).items()),
    ]
