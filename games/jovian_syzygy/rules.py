"""The rules of Jovian Syzygy as pure functions of (state, orders, rng).

State (JSON only, integers for positions)::

    {"players": n, "options": {...}, "round": r, "first": seat, "rounds_played": k,
     "sats": [io, europa, ganymede, callisto],   # segment index (0-based) of each satellite
     "where": ["NE", "io", "D-3", ...],           # per seat: a space name or a moon name (riding)
     "psi": [3, ...], "last_gain": [None | moon, ...],
     "storms": {"D-3": 2, ...},                   # cosmic storms (nickels) per space
     "awards": [None | {"moons": [...], "eclipse": bool, "psi": int, "same": bool}, ...],
     "award_sats": [...],                         # the satellites the awards were found on
     "phase": "corners" | "play",                 # absent: play (games saved before setup steps)
     "step": k,                                   # turns=sequential: index in the turn order
     "over": bool}

With ``corners=choose`` a seat's place is None until it has chosen its corner (see
:mod:`.corners`).

A seat's validated orders are a plan (see :mod:`.turns`).  Setup, a whole round, awards and
the end are here; one seat's turn is in :mod:`.turns`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

from pbem.game import Event, Outcome, Resolution, State
from pbem.rng import Rng

from . import award_table, board, corners
from .award_table import Award
from .lines import Body, Line, any_syzygy, best_line, line_value
from .turns import Turn, extra_limit, play_turn, player

START_PSI = 3
WIN_ABOVE = 15
SOLO_TIMED_ROUNDS = 25
SOLO_TARGET = 20


def bodies_key(sats: list[int]) -> tuple[tuple[str, float, float, float], ...]:
    """The hashable line-search input for satellites on these segments (radians)."""
    return tuple(_body_key(track, seg) for track, seg in zip(board.TRACKS, sats, strict=True))


@cache
def _body_key(track: board.Track, seg: int) -> tuple[str, float, float, float]:
    """One satellite's line-search input (its allowed arc in radians), worked out once."""
    lo, hi = board.allowed_arc(track.moon, seg)
    return (track.moon, float(track.radius), math.radians(lo), math.radians(hi))


@cache
def _body(track: board.Track, seg: int) -> Body:
    return Body(*_body_key(track, seg))


def best_line_at(sats: list[int], moon: str) -> Line | None:
    """The most valuable syzygy beginning with ``moon`` for satellites on ``sats``."""
    return _best_at(tuple(sats), moon)


@cache
def _best_at(sats: tuple[int, ...], moon: str) -> Line | None:
    # At most 3 * 6 * 12 * 28 * 4 = 24,192 entries: every board position and rider.
    bodies = [_body(track, seg) for track, seg in zip(board.TRACKS, sats, strict=True)]
    return best_line(bodies, moon, float(board.JUPITER_RADIUS))


def search_award_line(sats: tuple[int, ...], moon: str) -> Award | None:
    """:func:`award_line` by the line search itself (what :mod:`.award_table` holds)."""
    line = _best_at(sats, moon)
    return None if line is None else (line.moons, line.eclipse)


def award_line(sats: list[int], moon: str) -> Award | None:
    """The satellites along the most valuable syzygy beginning with ``moon`` (and whether it
    is an eclipse), exactly as :func:`best_line_at` finds it, or None: read from the table of
    :mod:`.award_table` (searched when the table cannot say)."""
    got = award_table.lookup(sats, moon)
    if got == award_table.UNKNOWN:
        return search_award_line(tuple(sats), moon)
    return got  # type: ignore[return-value]


def award_gain(sats: list[int], moon: str, last_gain: str | None) -> int:
    """Psi a rider of ``moon`` gains now: :func:`award_for`'s number, from :func:`award_line`."""
    line = award_line(sats, moon)
    if line is None:
        return 0
    return 1 if last_gain == moon else line_value(len(line[0]), line[1])


def award_for(sats: list[int], moon: str, last_gain: str | None) -> tuple[int, Line | None]:
    """Psi a rider of ``moon`` gains now, and the line: 1 if it rode the same satellite at its
    last gain, else the line's value; (0, None) without a line."""
    line = best_line_at(sats, moon)
    if line is None:
        return 0, None
    return (1 if last_gain == moon else line.value), line


def moved(sats: list[int]) -> list[int]:
    """Satellites after each moves one segment clockwise."""
    return [(s + 1) % n for s, n in zip(sats, _SEGMENTS, strict=True)]


_SEGMENTS = tuple(t.segments for t in board.TRACKS)


OPTION_KEYS = ("solo", "max-rounds", "at-cap", "ride", "setup-check", "max-extra-moves", "corners", "turns")
"""Every option's name, in the order views show them (and :func:`resolve` keeps them)."""
_OPTION_SET = frozenset(OPTION_KEYS)


def options_of(state: State) -> dict[str, Any]:
    """The state's options by their kebab-case names (games saved before the rename spelled
    them ``max_rounds`` and so on)."""
    options = state["options"]
    try:
        renamed = "_" in "".join(options)
    except TypeError:  # a key that is not a string
        renamed = True
    if not renamed:  # the usual case, asked several times a step: a plain copy
        return dict(options)
    return {str(k).replace("_", "-"): v for k, v in options.items()}


def turn_order(state: State) -> list[int]:
    """Seats in this round's order: the first player, then to the left (seat + 1)."""
    return list(seat_order(state["first"], state["players"]))


@lru_cache(maxsize=64)
def seat_order(first: int, n: int) -> tuple[int, ...]:
    """:func:`turn_order` of ``n`` seats with ``first`` first, as a tuple made once (views and
    the round's end read it without a state; do not change it)."""
    return tuple((first + i) % n for i in range(n))


def sequential(state: State) -> bool:
    """Whether players take their turns one after another (option ``turns=sequential``).
    (Read without :func:`options_of`'s copy: no older spelling of ``turns`` exists.)"""
    return state["options"].get("turns", "round") == "sequential"


def asked(state: State) -> tuple[int, ...]:
    """The seats that owe orders now: at setup those choosing a corner; in a round every
    seat (one plan each, ``turns=round``) or the seat whose turn it is (``turns=sequential``);
    nobody once the game is over."""
    if state["over"]:
        return ()
    if corners.choosing(state):
        return corners.choosers(state["where"], turn_order(state), sequential(state))
    if sequential(state):
        return (turn_order(state)[state.get("step", 0)],)
    return tuple(range(state["players"]))


def setup(players: int, options: Mapping[str, Any], rng: Rng) -> State:
    """The starting position: satellites drawn until no three are in line (as drawn, or with
    option ``setup-check=slide`` not even by sliding), a random first player, 3 Psi each, and
    either the setup step where players choose their corners (``corners=choose``) or corners
    dealt at random (``dealt``).  Raises ValueError for a bad player count."""
    if not 1 <= players <= 4:
        raise ValueError(f"Jovian Syzygy is for 1 to 4 players, not {players}")
    while True:
        sats = [rng.randbelow(t.segments) for t in board.TRACKS]
        if options.get("setup-check", "centres") == "centres":
            if not _centres_aligned(sats):
                break
        elif not any_syzygy([Body(*k) for k in bodies_key(sats)]):
            break
    choose = options.get("corners", "choose") == "choose"
    # Dealt corners are drawn before the first player, as they always were (old games re-play).
    where: list[str | None] = [None] * players if choose else list(rng.sample(list(board.CORNERS), players))
    state: State = {
        "players": players,
        "options": dict(options),
        "round": 1,
        "rounds_played": 0,
        "first": rng.randbelow(players),
        "sats": sats,
        "where": where,
        "psi": [START_PSI] * players,
        "last_gain": [None] * players,
        "storms": {},
        "awards": [None] * players,
        "over": False,
    }
    if choose:
        state["phase"] = "corners"
    if options.get("turns", "round") == "sequential":
        state["step"] = 0
    return state


def _centres_aligned(sats: list[int]) -> bool:
    """Whether three satellites drawn at their segments' centres are collinear (within 1e-6)."""
    pts = [
        board.point(t.radius, board.segment_centre(t.moon, s))
        for t, s in zip(board.TRACKS, sats, strict=True)
    ]
    for a, b, c in combinations(pts, 3):
        cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        if abs(cross) < 1e-6:
            return True
    return False


def resolve(state: State, orders: Mapping[int, Any], rng: Rng) -> Resolution:
    """Resolve the orders of the seats :func:`asked`: at setup place the corners chosen; in a
    round play every seat's plan in turn order (``turns=sequential``: the one seat's plan),
    and after the round's last plan move the satellites, award Psi and check the end.  Pure:
    the input state is not changed.  Raises ValueError once the game is over."""
    if state["over"]:
        raise ValueError("the game is over")
    if corners.choosing(state):
        return _choose_corners(state, orders, rng)
    options = state["options"]
    if type(options) is dict and tuple(options) == OPTION_KEYS:  # as this function keeps them
        opts = options.copy()
    else:
        opts = options_of(state)
        if (
            opts.keys() == _OPTION_SET and tuple(opts) != OPTION_KEYS
        ):  # in view order: views copy them as they are
            opts = {k: opts[k] for k in OPTION_KEYS}
    order = seat_order(state["first"], state["players"])  # turn_order, as a tuple
    one = sequential(state)
    step = state.get("step", 0) if one else 0
    seats = order[step : step + 1] if one else order
    sats = list(state["sats"])
    where = list(state["where"])
    psi = list(state["psi"])
    storms = dict(state["storms"])
    events: list[Event] = []
    if step == 0:
        events.append(Event(f"Round {state['round']}: {player(state['first'])} goes first."))
    push = opts.get("ride", "stay") == "push"
    limit = extra_limit(opts)
    spaces: list[str] = []  # where a turn added or removed a space's storms
    turn = Turn(-1, "", 0, 0, False, limit)  # set to each seat's start below
    for seat in seats:
        # One Turn for the round, set to this seat's start as a new one would be (seat, place,
        # Psi, no move, no storm; the same limit): play_turn changes nothing else of it, and
        # making a Turn costs about 1k instructions more than setting five of its fields.
        turn.seat = seat
        turn.where = where[seat]
        turn.psi = psi[seat]
        turn.moves = 0
        turn.storm_placed = False
        log = play_turn(turn, orders.get(seat, _NO_PLAN), sats, storms, rng, push, spaces)
        if not log:
            log = [f"{player(seat)} does nothing."]
        events += map(Event, log)
        where[seat], psi[seat] = turn.where, turn.psi
    # Kept in name order, as a save read back has them (the same keys: nothing to do).
    if spaces and storms.keys() != state["storms"].keys():
        storms = dict(sorted(storms.items()))  # names are unique: sorted by name alone
    new = {**state, "options": opts, "sats": sats, "where": where, "psi": psi, "storms": storms}
    if seats[-1] != order[-1]:
        new["step"] = step + 1
        return Resolution(new, tuple(events))
    return Resolution(*_end_round(new, events))


_NO_PLAN: dict[str, Any] = {"steps": [], "fallback": None}
"""The plan of a seat that sent none (read only: :func:`.turns.play_turn` changes no plan)."""


def _choose_corners(state: State, orders: Mapping[int, Any], rng: Rng) -> Resolution:
    """The setup step: place the corners chosen (:mod:`.corners`); when every seat has one,
    round 1 begins."""
    where, events = corners.resolve(state["where"], turn_order(state), sequential(state), orders, rng)
    new = {**state, "where": where}
    if all(w is not None for w in where):
        new["phase"] = "play"
        events.append(Event(f"Every player has a corner: round 1 begins, {player(state['first'])} first."))
    return Resolution(new, tuple(events))


def _end_round(state: State, events: list[Event]) -> tuple[State, tuple[Event, ...]]:
    """After the round's last plan: satellites move, riders gain Psi, the end is checked and
    the next round starts with the next seat.  ``state`` is :func:`resolve`'s new state (its
    own dict and Psi list), brought up to date in place and returned."""
    n = state["players"]
    after, event, lines = _round_end(tuple(state["sats"]))
    sats = list(after)
    where = state["where"]
    psi = state["psi"]
    last_gain = list(state["last_gain"])
    events.append(event)
    awards: list[Any] = [None] * n
    for seat in seat_order(state["first"], n):
        moon = where[seat]
        if moon not in board.TRACK_BY_MOON:
            continue
        line = lines.get(moon, _UNKNOWN)
        if line is _UNKNOWN:  # the first rider of this satellite here
            line = lines[moon] = award_line(sats, moon)
        if line is None:
            continue
        moons, eclipse = line
        worth = line_value(len(moons), eclipse)
        same = last_gain[seat] == where[seat]
        gain = 1 if same else worth
        psi[seat] += gain
        last_gain[seat] = where[seat]
        awards[seat] = {"moons": list(moons), "eclipse": eclipse, "psi": gain, "same": same}
        text = f"{player(seat)} on {moons[0].capitalize()}: syzygy " + " - ".join(
            m.capitalize() for m in moons
        )
        if eclipse:
            text += " - Jupiter (eclipse +3)"
        text += f", worth {worth}"
        if same:
            text += ", but the same satellite as at the last gain: only 1"
        events.append(Event(f"{text}; +{gain} Psi (now {psi[seat]})."))
    new = state  # the keys in the order they had, award_sats last if it is new
    new.update(
        round=state["round"] + 1,
        rounds_played=state["rounds_played"] + 1,
        first=(state["first"] + 1) % n,
        sats=sats,
        last_gain=last_gain,
        awards=awards,
        award_sats=list(after),
        over=False,
    )
    if "step" in state:
        new["step"] = 0
    new["over"] = _ends(new)
    if new["over"]:
        summary = summarise(new)
        if summary is not None:
            events.append(Event(f"The game ends: {summary.summary}"))
    return new, tuple(events)


@lru_cache(maxsize=8192)
def _round_end(sats: tuple[int, ...]) -> tuple[tuple[int, ...], Event, dict[str, Award | None]]:
    """What the satellites' move from ``sats`` gives, worked out once per position (the memo
    holds all 6,048): where they go (:func:`moved`), its event, and a dict that
    :func:`_end_round` fills with each satellite's :func:`award_line` there (by moon) when
    someone first rides it there.  An Event is frozen, so every round that moves the
    satellites from one position may share it; do not change the answer otherwise."""
    after = moved(list(sats))
    return tuple(after), _satellites_move(after), {}


_UNKNOWN: Any = object()
"""A satellite's award line not yet looked up (:func:`_round_end`)."""


def _satellites_move(sats: list[int]) -> Event:
    """The event of the satellites' move to ``sats``."""
    return Event(
        "The satellites move: "
        + ", ".join(f"{t.title} to segment {s + 1}" for t, s in zip(board.TRACKS, sats, strict=True))
        + "."
    )


def _ends(state: State) -> bool:
    """Whether the game ends now.  ``state`` is :func:`resolve`'s: its options by their
    kebab-case names (read as they are)."""
    opts = state["options"]
    played = state["rounds_played"]
    cap = int(opts.get("max-rounds", 0))
    if cap and played >= cap:
        return True
    if state["players"] == 1:
        if opts.get("solo", "timed") == "timed":
            return played >= SOLO_TIMED_ROUNDS
        return state["psi"][0] >= SOLO_TARGET
    return max(state["psi"]) > WIN_ABOVE  # anyone above (a game has a seat or more)


def summarise(state: State) -> Outcome | None:
    """The outcome of a finished game (None while it goes on)."""
    if not state["over"]:
        return None
    psi = state["psi"]
    played = state["rounds_played"]
    scores = tuple(psi)
    if state["players"] == 1:
        if options_of(state).get("solo", "timed") == "timed":
            won = (0,) if psi[0] > WIN_ABOVE else ()
            return Outcome(won, scores, f"solo timed: {psi[0]} Psi after {played} rounds")
        if psi[0] >= SOLO_TARGET:
            return Outcome((0,), scores, f"solo scored: reached {psi[0]} Psi in {played} rounds")
        return Outcome((), scores, f"solo scored: only {psi[0]} Psi when the {played}-round cap ended it")
    above = tuple(s for s, p in enumerate(psi) if p > WIN_ABOVE)
    if above:
        names = ", ".join(player(s) for s in above)
        return Outcome(above, scores, f"{names} above {WIN_ABOVE} Psi after {played} rounds")
    best = max(psi)
    top = tuple(s for s, p in enumerate(psi) if p == best)
    names = ", ".join(player(s) for s in top)
    if options_of(state).get("at-cap", "nobody") == "highest":
        return Outcome(top, scores, f"round cap of {played} reached; highest Psi ({best}): {names}")
    return Outcome(
        (),
        scores,
        f"round cap of {played} reached with nobody above {WIN_ABOVE} Psi: no winner "
        f"(highest: {names}, {best} Psi)",
    )
