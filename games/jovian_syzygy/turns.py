"""One seat's turn: what a step needs (shared by validation and resolution) and carrying out a plan.

A plan is ``{"steps": [step, ...], "fallback": [step, ...] | None}``; a step is
``["move", space]``, ``["board", moon]``, ``["ride"]`` or ``["storm"]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from pbem.rng import Rng

from . import board


@lru_cache(maxsize=64)
def player(seat: int) -> str:
    """How reports name a seat ("Player N", 1-based; the engine puts names in).  Remembered
    by seat (a few values; a str is immutable): every turn, award and round names seats, and
    the lookup costs less than the call that formats it."""
    return f"Player {seat + 1}"


@dataclass(slots=True)
class Turn:
    """One seat's turn in progress (a scratch value inside :func:`resolve`)."""

    seat: int
    where: str
    psi: int
    moves: int = 0
    storm_placed: bool = False
    extra_limit: int = 0
    """Most extra (paid) moves a turn may make; 0 for no limit (option ``max-extra-moves``)."""


def extra_limit(options: Mapping[str, Any]) -> int:
    """Most extra (paid) moves a turn may make under ``options``: option ``max-extra-moves``,
    0 (no limit) when it is not set."""
    return int(options.get("max-extra-moves", 0))


def start_turn(seat: int, where: str, psi: int, options: Mapping[str, Any]) -> Turn:
    """A seat's turn before its first step."""
    return Turn(seat, where, psi, 0, False, extra_limit(options))


_MOON_AT = {moon: i for i, moon in enumerate(board.MOONS)}
"""A moon's index in :data:`.board.MOONS` (where its satellite's segment is in ``sats``)."""
_MOVING = frozenset(("move", "board", "ride"))


def step_problem(step: list[str], turn: Turn, sats: list[int]) -> str | None:
    """Why ``step`` cannot be taken now (None if it can).  Shared by validation and resolution."""
    kind = step[0]
    where = turn.where
    riding = where in _MOON_AT
    if turn.moves >= 1 and kind in _MOVING:
        if riding:
            return "an extra move needs you off a satellite"
        if turn.psi < 1:
            return "an extra move costs 1 Psi and you have none left"
        if turn.extra_limit and turn.moves > turn.extra_limit:
            return f"at most {turn.extra_limit} extra move(s) a turn in this game"
    if kind == "move":
        target = step[1]
        if riding:
            seg = sats[_MOON_AT[where]]
            if target not in board.spaces_by_segment(where, seg):
                return f"{target} does not border {where.capitalize()}'s segment"
        elif target not in _neighbours(where):
            return f"{target} is not next to {where}"
        return None
    if kind == "board":
        moon = step[1]
        if riding:
            return "you are already on a satellite"
        seg = sats[board.MOONS.index(moon)]
        if turn.where not in board.spaces_by_segment(moon, seg):
            return f"{moon.capitalize()} (segment {seg + 1}) does not border {turn.where}"
        return None
    if kind == "ride":
        if not riding:
            return "you are not on a satellite"
        if turn.moves:
            return "riding is your whole move"
        return None
    if kind == "storm":
        if riding:
            return "storms can only be made off a satellite"
        if turn.storm_placed:
            return "only one cosmic storm per turn"
        return None
    return f"unknown step {kind}"


@cache
def _neighbours(space: str) -> frozenset[str]:
    """The spaces next to ``space`` (:func:`.board.adjacency`) as a set: a move's check asks
    whether its target is one, and a set answers by the name's hash where the tuple compares
    name after name.  The same members as the adjacency (a test compares them); one entry per
    space of the board (an unknown name raises KeyError and is not kept)."""
    return frozenset(board.adjacency()[space])


def step_text(step: list[str]) -> str:
    """A step as an order line."""
    if step[0] in ("move", "board"):
        return f"{step[0]} {step[1]}"
    return step[0]


def play_turn(
    turn: Turn,
    orders: Mapping[str, Any],
    sats: list[int],
    storms: dict[str, int],
    rng: Rng,
    push: bool,
    spaces: list[str] | None = None,
) -> list[str]:
    """Carry out one seat's plan; change ``turn``, ``sats`` (push variant) and ``storms``
    (and note in ``spaces`` every space whose storms it adds to ``storms`` or removes)."""
    who = player(turn.seat)
    log: list[str] = []
    steps = orders.get("steps", ())  # read only: the orders are not changed
    fallback = orders.get("fallback")
    in_fallback = False
    i = 0
    while i < len(steps):
        step = steps[i]
        i += 1
        problem = step_problem(step, turn, sats)
        if problem:
            if in_fallback or not fallback:
                log.append(f"{who} cannot {step_text(step)}: {problem}; the turn ends.")
                break
            log.append(f"{who} cannot {step_text(step)}: {problem}.")
            in_fallback = True
            steps, i = fallback, 0
            log.append(f"{who} tries the fallback: {', '.join(step_text(s) for s in steps)}.")
            continue
        kind = step[0]
        if kind == "storm":
            if spaces is not None and turn.where not in storms:
                spaces.append(turn.where)
            storms[turn.where] = storms.get(turn.where, 0) + 1
            turn.storm_placed = True
            log.append(f"{who} makes a cosmic storm in {turn.where}.")
            continue
        if turn.moves >= 1:
            turn.psi -= 1
            log.append(f"{who} spends 1 Psi for an extra move (Psi {turn.psi}).")
        turn.moves += 1
        if kind == "ride":
            moon = turn.where
            if push:
                idx = board.MOONS.index(moon)
                sats[idx] = (sats[idx] + 1) % board.TRACKS[idx].segments
                log.append(f"{who} rides {moon.capitalize()} on into segment {sats[idx] + 1}.")
            else:
                log.append(f"{who} stays aboard {moon.capitalize()}.")
            continue
        if kind == "board":
            log.append(f"{who} boards {step[1].capitalize()}.")
            turn.where = step[1]
            continue
        target = step[1]
        wasted = False
        count = storms.get(target, 0)
        for n in range(count):
            heads = rng.coin()
            if heads:
                storms[target] -= 1
                log.append(f"{who} flips storm {n + 1} of {count} in {target}: heads, it blows away.")
            else:
                log.append(f"{who} flips storm {n + 1} of {count} in {target}: tails, the move is wasted.")
                wasted = True
                break
        if storms.get(target) == 0:
            del storms[target]
            if spaces is not None:
                spaces.append(target)
        if not wasted:
            log.append(f"{who} moves from {_where_text(turn.where)} to {target}.")
            turn.where = target
            continue
        log.append(f"{who} stays in {_where_text(turn.where)} (wasted move into {target}).")
        if in_fallback or not fallback:
            if not in_fallback:
                log.append(f"{who} stops (if wasted: stop).")
            break
        in_fallback = True
        steps, i = fallback, 0
        log.append(f"{who} tries the fallback: {', '.join(step_text(s) for s in steps)}.")
    return log


def _where_text(where: str) -> str:
    return f"aboard {where.capitalize()}" if where in board.TRACK_BY_MOON else where
