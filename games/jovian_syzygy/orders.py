"""Order files for Jovian Syzygy: reading a player's plan for a round and checking it.

A plan is a list of steps carried out in order, plus what to do if a storm wastes a move::

    move D-3            # one space (the first move of a turn is free)
    move D-4 C-2        # a path: each further move costs 1 Psi (only while off a satellite)
    board ganymede      # onto a satellite whose segment borders your space
    leave to C-5        # off your satellite into a space bordering its segment ("move C-5" too)
    ride                # stay aboard (it carries you to its next segment at the round's end)
    storm               # a cosmic storm in the space you are in (once a turn, off a satellite)
    spend 2             # optional: refuse the plan if it could cost more than 2 Psi
    if wasted: stop     # the default
    if wasted: try D-5, board callisto

Words are case-insensitive; space names may be written ``d3``, ``D-3`` or ``d 3``; moons by
name or a two-letter start (``ga``, ``ca``).  ``pass`` (or an empty file) does nothing.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from pbem.game import (
    AmbiguousOrderError,
    IllegalOrderError,
    InvalidOrderError,
    OrderError,
    OrderErrors,
    OrderLine,
    View,
)

from . import board
from .turns import Turn, extra_limit, step_problem, step_text

_SPACE_KEYS = {name.replace("-", ""): name for name in board.SPACE_NAMES}
_RING_LETTERS = {letter for letter, *_ in board.RINGS}
_MOVE_WORDS = {"move", "go", "m", "to", "goto"}
_BOARD_WORDS = {"board", "b", "embark", "catch"}
_LEAVE_WORDS = {"leave", "disembark", "exit", "jump"}
_RIDE_WORDS = {"ride", "stay", "remain"}
_PASS_WORDS = {"pass", "nothing", "wait", "skip"}
_STORM_WORDS = {"storm", "nickel"}
_SEPARATORS = re.compile(r"[\s\-_]")
_SPACED_NAME = re.compile(r"\b([A-Da-d])\s+(\d{1,2})\b")
"""``d 3`` for ``d-3`` (compiled once: every order line is read through it)."""


class _Bad(Exception):
    def __init__(self, kind: type[OrderError], message: str, suggestion: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.suggestion = suggestion


def resolve_token(token: str) -> tuple[str, str]:
    """("space", name) or ("moon", moon) for a word; raises _Bad when unreadable or ambiguous."""
    raw = token.strip().strip(".,;")
    key = _SEPARATORS.sub("", raw).upper()
    if key in _SPACE_KEYS:
        return "space", _SPACE_KEYS[key]
    low = key.lower()
    moons = [m for m in board.MOONS if m == low or (len(low) >= 2 and m.startswith(low))]
    if len(moons) == 1:
        return "moon", moons[0]
    if key in _RING_LETTERS:
        count = len([s for s in board.SPACE_NAMES if s.startswith(key + "-")])
        raise _Bad(AmbiguousOrderError, f"{raw!r} is a ring of {count} spaces; name one, like {key}-1")
    near = difflib.get_close_matches(raw.upper(), [*board.SPACE_NAMES, *(m.upper() for m in board.MOONS)], 1)
    hint = near[0] if near else None
    if hint and hint.lower() in board.MOONS:
        hint = hint.lower()
    raise _Bad(InvalidOrderError, f"{raw!r} is not a space (A-1 .. D-12, NE, SE, SW, NW) or a moon", hint)


def _step_for(token: str) -> list[str]:
    kind, name = resolve_token(token)
    return ["move", name] if kind == "space" else ["board", name]


def parse_steps(text: str) -> list[list[str]]:
    """The steps written on one line (no ``if wasted``/``spend``); raises _Bad."""
    text = _SPACED_NAME.sub(r"\1-\2", text)
    words = text.replace(",", " , ").split()
    if not words:
        return []
    head = words[0].lower()
    rest = [w for w in words[1:] if w != ","]
    if head in _PASS_WORDS and not rest:
        return []
    if head in _RIDE_WORDS and not rest:
        return [["ride"]]
    if head in _STORM_WORDS or (head == "place" and [w.lower() for w in rest] == ["storm"]):
        if head in _STORM_WORDS and rest:
            raise _Bad(InvalidOrderError, "a storm goes in the space you are in: write just 'storm'", "storm")
        return [["storm"]]
    if head in _BOARD_WORDS:
        if len(rest) != 1:
            raise _Bad(InvalidOrderError, "write 'board' and one moon, like 'board io'")
        kind, name = resolve_token(rest[0])
        if kind != "moon":
            raise _Bad(InvalidOrderError, f"{name} is a space, not a satellite", f"move {name}")
        return [["board", name]]
    if head in _LEAVE_WORDS:
        words_l = [w.lower() for w in rest]
        if "to" in words_l:
            where = words_l.index("to")
            before, after = rest[:where], rest[where + 1 :]
        else:
            before, after = [], rest
        if len(before) > 1 or len(after) != 1:
            raise _Bad(InvalidOrderError, "write 'leave to C-5' (or 'leave europa to C-5')")
        kind, name = resolve_token(after[0])
        if kind != "space":
            raise _Bad(InvalidOrderError, "you leave a satellite into a space, like 'leave to C-5'")
        step = ["move", name]
        if before:
            moon_kind, moon = resolve_token(before[0])
            if moon_kind != "moon":
                raise _Bad(InvalidOrderError, f"{before[0]!r} is not a moon")
            step.append(moon)
        return [step]
    if head in _MOVE_WORDS:
        if not rest:
            raise _Bad(InvalidOrderError, "move where? write 'move D-3' (or a path 'move D-3 D-4')")
        return [_step_for(w) for w in rest]
    # A bare path of spaces/moons, as in 'if wasted: try D-5 D-6'.
    try:
        return [_step_for(w) for w in words if w != ","]
    except _Bad:
        near = difflib.get_close_matches(head, ["move", "board", "leave", "ride", "storm", "pass"], 1)
        raise _Bad(
            InvalidOrderError,
            f"unknown order {words[0]!r}: use move, board, leave, ride, storm, pass, spend or 'if wasted:'",
            f"{near[0]} {' '.join(rest)}".strip() if near else None,
        ) from None


def _parse_fallback(text: str) -> list[list[str]] | None:
    body = text.split(":", 1)[1].strip() if ":" in text else text[len("if wasted") :].strip()
    low = body.lower()
    if low in ("stop", "end", "stay", ""):
        return None
    if low.startswith("try"):
        body = body[3:].strip()
    steps: list[list[str]] = []
    for part in re.split(r"[,;]|\bthen\b", body):
        if part.strip():
            steps.extend(parse_steps(part.strip()))
    if not steps:
        raise _Bad(InvalidOrderError, "write 'if wasted: stop' or 'if wasted: try D-5, board io'")
    return steps


_READ_CACHED = 80
"""Lines up to this long are read once per process (:func:`_read`): bots and players write
the same few lines over and over; a longer line is read anew, so no input can fill memory."""


def _read(parse: Callable[[str], list[list[str]] | None], text: str) -> list[list[str]] | None:
    """``parse(text)`` (a pure reader: :func:`parse_steps` or :func:`_parse_fallback`), from a
    memo for short lines; the caller gets its own lists.  Raises _Bad as ``parse`` does."""
    if len(text) > _READ_CACHED:
        return parse(text)
    steps = _read_once(parse, text)
    return None if steps is None else [list(step) for step in steps]


@lru_cache(maxsize=4096)
def _read_once(
    parse: Callable[[str], list[list[str]] | None], text: str
) -> tuple[tuple[str, ...], ...] | None:
    steps = parse(text)
    return None if steps is None else tuple(tuple(step) for step in steps)


_STEP_LINES: dict[str, tuple[str, tuple[tuple[str, ...], ...]]] = {}
"""Order lines (as written, up to :data:`_READ_CACHED` characters) that :func:`validate` read
as steps (no fallback, spend or corner line, nothing unreadable): the line stripped and its
steps.  Whether a line is one and what it says depend on its text alone."""
_STEP_LINES_KEPT = 4096
"""Most lines kept in :data:`_STEP_LINES` (emptied when full: no input can fill memory)."""


def legal_steps(turn: Turn, sats: list[int]) -> list[list[str]]:
    """Every step allowed next (moves, boardings, ride, storm) for a turn in progress: the
    steps :func:`.turns.step_problem` lets through, in the order moves, boardings, ride, storm
    (worked out here without asking it step by step)."""
    where = turn.where
    if where in board.TRACK_BY_MOON:
        if turn.moves >= 1:  # riding is the whole move, and an extra one needs you off
            return []
        options = [["move", s] for s in board.spaces_by_segment(where, sats[board.MOONS.index(where)])]
        options.append(["ride"])
        return options
    if turn.moves >= 1 and (turn.psi < 1 or (turn.extra_limit and turn.moves > turn.extra_limit)):
        options = []  # no extra move: only a storm is left
    else:
        options = [["move", s] for s in board.adjacency()[where]]
        options += [["board", moon] for moon in boardings(tuple(sats)).get(where, ())]
    if not turn.storm_placed:
        options.append(["storm"])
    return options


@lru_cache(maxsize=8192)
def boardings(sats: tuple[int, ...]) -> dict[str, tuple[str, ...]]:
    """Space -> the satellites (in board order) whose segment on ``sats`` it borders: where
    a ``board`` step is allowed.  Shared by every seat, step and search of a round (do not
    change the answer).  The memo holds every one of the board's 6,048 positions (about
    4 MB), so that a long run of games, which visits them all, never works one out twice."""
    out: dict[str, list[str]] = {}
    for moon, seg in zip(board.MOONS, sats, strict=True):
        for space in board.spaces_by_segment(moon, seg):
            out.setdefault(space, []).append(moon)
    return {space: tuple(moons) for space, moons in out.items()}


def advance(turn: Turn, step: list[str]) -> None:
    """Assume ``step`` succeeds (validation does not know the coin flips)."""
    if step[0] == "storm":
        turn.storm_placed = True
        return
    if turn.moves >= 1:
        turn.psi -= 1
    turn.moves += 1
    if step[0] in ("move", "board"):
        turn.where = step[1]


def copy_turn(turn: Turn) -> Turn:
    return Turn(turn.seat, turn.where, turn.psi, turn.moves, turn.storm_placed, turn.extra_limit)


def _nearest(step_line: str, turn: Turn, sats: list[int]) -> str | None:
    legal = [step_text(s) for s in legal_steps(turn, sats)]
    near = difflib.get_close_matches(step_line.lower(), legal, 1, cutoff=0.0)
    return near[0] if near else None


def validate(view: View, lines: Sequence[OrderLine]) -> dict[str, Any]:
    """Check a plan against what the player sees; return ``{"steps", "fallback"}``.

    Raises OrderErrors listing every bad line: unreadable words (invalid), steps not allowed
    from where the plan has got to (illegal), a ring letter or a second fallback (ambiguous).
    At the setup step the orders are a corner's, checked by :func:`.corners.validate`.
    """
    public = view.public
    if public.get("phase") == "corners":
        from .corners import validate as validate_corner  # (corners reads this module's words)

        return validate_corner(view, lines)
    if view.seat is None:
        raise OrderErrors([InvalidOrderError(None, "the public view cannot give orders")])
    seat = view.seat
    sats = list(public["sats"])
    if public["over"]:
        raise OrderErrors([IllegalOrderError(None, "the game is over")])
    mover = public.get("to_move")
    if mover is not None and mover != seat:
        raise OrderErrors(
            [
                IllegalOrderError(
                    next((line for line in lines if line.text.strip()), None),
                    f"turns are taken one after another and it is Player {mover + 1}'s turn now;"
                    " send your plan when your report says it is yours",
                )
            ]
        )
    errors: list[OrderError] = []
    options = public["options"]
    # start_turn's Turn, made here (no call in between: a plan is checked for every seat, every step).
    turn = Turn(seat, public["where"][seat], public["psi"][seat], 0, False, extra_limit(options))
    steps: list[list[str]] = []
    # Where a move could be wasted (True) or found impossible (False): the turn's parts then.
    waste_points: list[tuple[str, int, int, bool, bool]] = []
    push = options.get("ride", "stay") == "push"
    fallback: list[list[str]] | None = None
    fallback_line: OrderLine | None = None
    spend_cap: tuple[OrderLine, int] | None = None
    for line in lines:
        known = _STEP_LINES.get(line.text)
        if known is not None:  # a line of steps read before (below): its text and steps again
            text, parsed = known  # each step copied as it is taken (below)
        else:
            text = line.text.strip()
            low = text.lower()
            try:
                if low.startswith(("if wasted", "if storm")):
                    if fallback_line is not None:
                        raise _Bad(
                            AmbiguousOrderError, f"a second 'if wasted' (line {fallback_line.number} has one)"
                        )
                    fallback_line = line
                    fallback = _read(_parse_fallback, text)
                    continue
                if low.startswith("spend"):
                    match = re.fullmatch(r"spend\s+(\d+)(\s+psi)?", low)
                    if not match:
                        raise _Bad(InvalidOrderError, "write 'spend N' with a whole number", "spend 1")
                    if spend_cap is not None:
                        raise _Bad(
                            AmbiguousOrderError, f"a second 'spend' (line {spend_cap[0].number} has one)"
                        )
                    digits = match.group(1)
                    if len(digits) > 6:
                        raise _Bad(IllegalOrderError, f"{digits[:8]}... is more Psi than anyone has")
                    spend_cap = (line, int(digits))
                    if spend_cap[1] > public["psi"][seat]:
                        raise _Bad(
                            IllegalOrderError,
                            f"you have only {public['psi'][seat]} Psi",
                            f"spend {public['psi'][seat]}",
                        )
                    continue
                if low.split()[0] in ("corner", "corners", "choose"):
                    raise _Bad(
                        IllegalOrderError, f"corners are chosen at setup; you are {_place(turn.where)} now"
                    )
                parsed = tuple(map(tuple, _read(parse_steps, text) or ()))
            except _Bad as bad:
                errors.append(bad.kind(line, bad.message, bad.suggestion))
                continue
            if len(line.text) <= _READ_CACHED:  # the steps as read
                if len(_STEP_LINES) >= _STEP_LINES_KEPT:
                    _STEP_LINES.clear()
                _STEP_LINES[line.text] = (text, parsed)
        for read in parsed:
            step = list(read)  # the plan's own (a 'leave io' step loses its moon below)
            if len(step) == 3:
                # 'leave MOON to SPACE': the moon must be the one ridden.
                moon = step.pop()
                if turn.where != moon:
                    errors.append(
                        IllegalOrderError(
                            line, f"you are not on {moon.capitalize()}", _nearest(text, turn, sats)
                        )
                    )
            problem = step_problem(step, turn, sats)
            if problem:
                errors.append(IllegalOrderError(line, problem, _nearest(step_text(step), turn, sats)))
            if step[0] == "move":
                waste_points.append((turn.where, turn.psi, turn.moves, turn.storm_placed, True))
            if push and (step[0] == "board" or turn.where in board.TRACK_BY_MOON):
                # An earlier player's push can make this step impossible.
                waste_points.append((turn.where, turn.psi, turn.moves, turn.storm_placed, False))
            steps.append(step)
            advance(turn, step)
    moves = turn.moves  # advance counted every step but storms
    if fallback is not None and fallback_line is not None:
        if not waste_points:
            errors.append(
                IllegalOrderError(fallback_line, "no move in this plan enters a space, so none can be wasted")
            )
        else:
            why: str | None = None
            for at, psi_at, moves_at, stormed, used in waste_points:  # until one can use it
                point = Turn(seat, at, psi_at, moves_at, stormed, turn.extra_limit)
                why = fallback_problem(point, fallback, sats, used)
                if why is None:
                    break
            if why is not None:  # none could: the last one's problem
                errors.append(IllegalOrderError(fallback_line, f"the fallback could never be used: {why}"))
    if spend_cap is not None:
        worst = max(0, moves - 1) + sum(1 for s in (fallback or []) if s[0] != "storm")
        if worst > spend_cap[1]:
            errors.append(
                IllegalOrderError(spend_cap[0], f"this plan could spend {worst} Psi", f"spend {worst}")
            )
    if errors:
        raise OrderErrors(errors)
    return {"steps": steps, "fallback": fallback}


def _place(where: str) -> str:
    return f"aboard {where.capitalize()}" if where in board.TRACK_BY_MOON else f"in {where}"


def fallback_problem(
    point: Turn, fallback: list[list[str]], sats: list[int], consumed: bool = True
) -> str | None:
    """Why the fallback fails if the move from ``point`` were wasted (``consumed``: it counts
    as made) or found impossible (it does not); None if the fallback works."""
    turn = copy_turn(point)
    if consumed:
        if turn.moves >= 1:
            turn.psi -= 1
        turn.moves += 1
    for step in fallback:
        problem = step_problem(step, turn, sats)
        if problem:
            return f"{step_text(step)}: {problem}"
        advance(turn, step)
    return None
