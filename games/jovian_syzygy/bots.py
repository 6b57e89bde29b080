"""Order forms, civil-disorder orders and the bots of Jovian Syzygy; all work from a View only."""

from __future__ import annotations

from collections import deque
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from pbem.game import View

from . import board, corners
from .forecast import corner_hints
from .orders import boardings, legal_steps
from .rules import award_gain, moved, player
from .turns import Turn, extra_limit, start_turn, step_text

if TYPE_CHECKING:
    from pbem.game import Game
    from pbem.rng import Rng

Plan = list[list[str]]


def _turn(view: View) -> Turn:
    seat = view.seat
    if seat is None:
        raise ValueError("a bot needs a seat's view")
    return start_turn(seat, view.public["where"][seat], view.public["psi"][seat], view.public["options"])


def order_form(view: View) -> list[str]:
    """A blank order form: where you are, what you may do first, and the syntax."""
    public = view.public
    if view.seat is None or public["over"]:
        return ["# Nothing to order."]
    if public.get("phase") == "corners":
        hints = corner_hints(public, view.seat) if view.seat in public["asked"] else {}
        return corners.order_form(view, public["options"].get("turns") == "sequential", hints)
    mover = public.get("to_move")
    if mover is not None and mover != view.seat:
        return [
            f"# Jovian Syzygy, round {public['round']}: turns are taken one after another,",
            f"# and it is {player(mover)}'s turn now: no orders from you yet.",
        ]
    turn = _turn(view)
    sats = list(public["sats"])
    place = f"aboard {turn.where.capitalize()}" if turn.where in board.MOONS else f"in {turn.where}"
    lines = [
        f"# Jovian Syzygy, round {public['round']}: your orders.",
        f"# You are {place} with {turn.psi} Psi.",
        "# One step a line, in order.  The first move is free; each further",
        "# move costs 1 Psi and is allowed only while you are off a",
        "# satellite.  Examples:",
        "#   move D-3 / move D-3 D-4 / board io / leave to C-5 / ride",
        "#   storm / spend 1",
        "#   if wasted: stop            (default: a storm flipped tails)",
        "#   if wasted: try D-5, board callisto",
        "# What you may do first:",
    ]
    lines += [f"#   {step_text(s)}" for s in legal_steps(turn, sats)]
    lines += [
        "# The forecast in your report's private part shows what each",
        "# satellite would score.",
    ]
    lines += default_orders(view)
    return lines


def default_orders(view: View) -> list[str]:
    """Civil disorder: stay where you are (aboard a satellite that is riding it); at setup,
    no corner named (a random vacant one)."""
    return ["pass"]


def _corner_choice(view: View, ranked: list[str]) -> list[str]:
    """A setup step's orders listing corners best first (one with sequential turns)."""
    if view.public["options"].get("turns") == "sequential":
        ranked = ranked[:1]
    return [f"corner {' '.join(ranked)}"] if ranked else ["pass"]


def random_bot(game: Game, view: View, rng: Rng) -> list[str]:
    """A uniformly random legal step at a time, stopping at random, sometimes with a fallback;
    at setup, the vacant corners in a random order."""
    public, seat = view.public, view.seat
    if public.get("phase") == "corners":
        free = corners.vacant(public["where"])
        rng.shuffle(free)
        return _corner_choice(view, free)
    if seat is None:
        raise ValueError("a bot needs a seat's view")
    # The turn's parts as start_turn makes them (no Turn object: the bot walks the parts).
    where, psi, moves, stormed = public["where"][seat], public["psi"][seat], 0, False
    limit = extra_limit(public["options"])
    key = tuple(public["sats"])
    lines: list[str] = []
    waste_points: list[tuple[str, int, int, bool]] = []  # the turn before each move
    spaces: dict[str, tuple[str, ...]] | None = None  # boardings(key), once it is needed
    riding, randbelow = board.TRACK_BY_MOON, rng.randbelow
    for _ in range(4):
        if where in riding:
            options = _choices(where, moves, psi, stormed, limit, key)
        else:  # _choices off a satellite, its parts read here
            if spaces is None:
                spaces = boardings(key)
            can_move = moves < 1 or (psi >= 1 and not (limit and moves > limit))
            moons = spaces.get(where)
            if moons is None:  # no satellite to board: _open's answer by the space alone
                options = _unboardable(where)[can_move][stormed]
            else:
                options = _open(where, moons, can_move, stormed)
        pick = randbelow(len(options) + 1)
        if pick == len(options):
            break
        kind, target, text = options[pick]
        if kind == "move":
            waste_points.append((where, psi, moves, stormed))
        lines.append(text)
        if kind == "storm":  # orders.advance, on the turn's parts
            stormed = True
            continue
        if moves >= 1:
            psi -= 1
        moves += 1
        if kind != "ride":
            where = target
    if waste_points and rng.randbelow(3) == 0:
        # The turn after the chosen move was made (and wasted), as copy_turn and the lines
        # below made it of a Turn: its choices are legal_steps's, in the same order.
        w, p, m, st = rng.choice(waste_points)
        options_now = _choices(w, m + 1, p - 1 if m >= 1 else p, st, limit, key)
        if options_now:
            # The fallback is one of the steps allowed after that very move was wasted, so
            # fallback_problem finds it usable there and the checker accepts it: no move's Turn
            # is made to ask (the bot wrote the same lines when it asked every move's).
            lines.append("if wasted: try " + rng.choice(options_now)[2])
    return lines or ["pass"]


Choice = tuple[str, str, str]
"""A step as (kind, where to, its order line)."""
_RIDE: tuple[Choice, ...] = (("ride", "", "ride"),)
_STORM: tuple[Choice, ...] = (("storm", "", "storm"),)


def _choices(
    where: str, moves: int, psi: int, stormed: bool, limit: int, sats: tuple[int, ...]
) -> tuple[Choice, ...]:
    """:func:`.orders.legal_steps` for a turn given by its parts, as :data:`Choice` s in the
    same order (moves, boardings, ride, storm)."""
    if where in board.TRACK_BY_MOON:
        if moves >= 1:
            return ()
        return _leaves(where, sats[board.MOONS.index(where)]) + _RIDE
    if moves >= 1 and (psi < 1 or (limit and moves > limit)):
        steps: tuple[Choice, ...] = ()
    else:
        steps = _moves_and_boardings(where, sats)
    return steps if stormed else steps + _STORM


@cache
def _leaves(moon: str, seg: int) -> tuple[Choice, ...]:
    return tuple(("move", s, f"move {s}") for s in board.spaces_by_segment(moon, seg))


def _moves_and_boardings(where: str, sats: tuple[int, ...]) -> tuple[Choice, ...]:
    return _moves(where) + _boardings(boardings(sats).get(where, ()))


@lru_cache(maxsize=4096)
def _open(where: str, moons: tuple[str, ...], can_move: bool, stormed: bool) -> tuple[Choice, ...]:
    """:func:`_choices` off a satellite in ``where``: its moves and boardings of ``moons``
    (those whose segments border it) when it ``can_move``, and a storm unless ``stormed``.
    Few values (the board's spaces and the satellites that can border each)."""
    steps = _moves(where) + _boardings(moons) if can_move else ()
    return steps if stormed else steps + _STORM


@cache
def _unboardable(where: str) -> tuple[tuple[tuple[Choice, ...], ...], ...]:
    """:func:`_open` of ``where`` with no satellite to board, for each (can_move, stormed),
    indexed ``[can_move][stormed]``: most steps of the random bot are off every satellite's
    segment, and this answer is found by the space's name alone (its hash kept by the str),
    not by a key of four values made and hashed for every step.  One entry per space (a
    name not on the board raises KeyError in :func:`_moves` and is not kept)."""
    return tuple(
        tuple(_open(where, (), can_move, stormed) for stormed in (False, True)) for can_move in (False, True)
    )


@cache
def _moves(where: str) -> tuple[Choice, ...]:
    return tuple(("move", s, f"move {s}") for s in board.adjacency()[where])


@cache
def _boardings(moons: tuple[str, ...]) -> tuple[Choice, ...]:
    return tuple(("board", m, f"board {m}") for m in moons)


@cache
def _distances() -> dict[str, dict[str, int]]:
    """Shortest number of moves between spaces (breadth-first over the adjacency)."""
    adj = board.adjacency()
    out: dict[str, dict[str, int]] = {}
    for src in board.SPACE_NAMES:
        dist = {src: 0}
        queue = deque([src])
        while queue:
            here = queue.popleft()
            for nxt in adj[here]:
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        out[src] = dist
    return out


def _score(view: View, turn: Turn, spent: int) -> float:
    """How good ending the turn here looks: the coming award, or a discounted later chance."""
    return _scored(_place_value(view, turn.seat, turn.where), spent)


def _scored(place: tuple[bool, float], spent: int) -> float:
    """:func:`_score` from :func:`_place_value` (the same arithmetic, in the same order)."""
    riding, value = place
    return value - spent + 0.1 if riding else value - spent


def _place_value(view: View, seat: int, where: str) -> tuple[bool, float]:
    """What :func:`_score` makes of ending a turn at ``where``, before the Psi spent: (riding,
    the coming award) or (not riding, the best discounted later chance)."""
    return _valued(_outlook(view, seat), where)


Outlook = tuple[str | None, list[int], list[tuple[str, int, int]]]
"""What a seat's places are valued against: its last gain, the satellites after this round,
and each satellite's (moon, segment after this round, award the round after)."""


def _outlook(view: View, seat: int) -> Outlook:
    """The :data:`Outlook` of ``seat`` (the same for every place it might end its turn)."""
    last = view.public["last_gain"][seat]
    after = moved(list(view.public["sats"]))
    later = moved(after)
    chances = [
        (moon, seg, award_gain(later, moon, last)) for moon, seg in zip(board.MOONS, after, strict=True)
    ]
    return last, after, chances


def _valued(outlook: Outlook, where: str) -> tuple[bool, float]:
    """:func:`_place_value` from the seat's outlook."""
    last, after, chances = outlook
    if where in board.TRACK_BY_MOON:
        gain = award_gain(after, where, last)
        return True, gain
    best = 0.0
    for moon, seg, gain in chances:
        if gain:
            best = max(best, gain / (2.0 + _moves_to(where, moon, seg)))
    return False, best


@cache
def _moves_to(where: str, moon: str, seg: int) -> int:
    """The fewest moves from ``where`` to a space bordering ``moon``'s segment ``seg`` (99:
    none reachable); a fact of the board, worked out once."""
    return min(_distances()[where].get(s, 99) for s in board.spaces_by_segment(moon, seg))


def greedy_bot(game: Game, view: View, rng: Rng) -> list[str]:
    """Search plans of up to three moves for the best expected coming award.

    Psi spent counts against a plan; a move into a space with storms succeeds with chance
    1/2 per storm, and a wasted move leaves the bot where it was (it stops: no fallback).
    Makes a storm in the space it leaves, to slow whoever follows, unless it comes back.
    At setup it ranks the vacant corners by the value of the best plan from each.
    """
    if view.public.get("phase") == "corners":
        seat = view.seat
        if seat is None:
            raise ValueError("a bot needs a seat's view")
        opts = view.public["options"]
        value = {
            c: _best_plans(view, start_turn(seat, c, view.public["psi"][seat], opts))[0]
            for c in corners.vacant(view.public["where"])
        }
        ties = {c: rng.randbelow(1000) for c in value}
        return _corner_choice(view, sorted(value, key=lambda c: (-value[c], ties[c])))
    start = _turn(view)
    _top, choices = _best_plans(view, start)
    plan = rng.choice(choices)
    lines = [step_text(s) for s in plan]
    comes_back = any(s[0] == "move" and s[1] == start.where for s in plan)
    if start.where not in board.TRACK_BY_MOON and plan and plan[0][0] == "move" and not comes_back:
        lines.insert(0, "storm")
    return lines or ["pass"]


def _best_plans(view: View, start: Turn) -> tuple[float, list[Plan]]:
    """The best expected value of a plan of up to three moves from ``start``, and every plan
    that reaches it (in the order the search meets them).

    Plans are searched breadth first, each node's steps in :func:`.orders.legal_steps`' order
    (storms left out).  A node is a place, moves made, Psi left, chance no move was wasted yet
    and expected score of wastes; it keeps its parent and step, and only the best plans are
    spelt out at the end.  Each place is valued once a search (:func:`_score`'s arithmetic:
    a move ends off a satellite, boarding and riding on one)."""
    public = view.public
    sats = public["sats"]
    storms = public["storms"]
    psi0, limit = start.psi, start.extra_limit
    adjacency = board.adjacency()
    boards = boardings(tuple(sats))
    moons = board.TRACK_BY_MOON
    outlook = _outlook(view, start.seat)
    places: dict[str, float] = {}

    def value_of(where: str) -> float:
        value = places[where] = _valued(outlook, where)[1]
        return value

    def score(where: str, spent: int) -> float:
        value = places.get(where)
        if value is None:
            value = value_of(where)
        return value - spent + 0.1 if where in moons else value - spent

    values = [score(start.where, 0)]
    nodes: list[tuple[int, str, str]] = [(-1, "", "")]  # (parent, step kind, where to)
    # Frontier nodes: (index, place, moves, Psi left, reach, wasted).
    frontier: list[tuple[int, str, int, int, float, float]] = [(0, start.where, start.moves, psi0, 1.0, 0.0)]
    for depth in range(3):
        nxt: list[tuple[int, str, int, int, float, float]] = []
        last = depth == 2
        for node, where, moves, psi, reach, wasted in frontier:
            paid = moves >= 1
            if where in moons:
                if paid:
                    continue
                targets = board.spaces_by_segment(where, sats[board.MOONS.index(where)])
                boarded: tuple[str, ...] = ()
                rides = True
            elif paid and (psi < 1 or (limit and moves > limit)):
                continue
            else:
                targets = adjacency[where]
                boarded = boards.get(where, ())
                rides = False
            psi_after = psi - 1 if paid else psi
            spent = psi0 - psi_after
            grows = psi_after > 0 and not last
            for there in targets:  # spaces: the turn ends off a satellite
                value = places.get(there)
                if value is None:
                    value = value_of(there)
                success = 0.5 ** storms.get(there, 0)
                wasted_now = wasted + reach * (1 - success) * score(where, spent) if success < 1.0 else wasted
                values.append(wasted_now + reach * success * (value - spent))
                nodes.append((node, "move", there))
                if grows:
                    nxt.append((len(nodes) - 1, there, moves + 1, psi_after, reach * success, wasted_now))
            for moon in boarded:
                values.append(wasted + reach * 1.0 * score(moon, spent))
                nodes.append((node, "board", moon))
            if rides:
                values.append(wasted + reach * 1.0 * score(where, spent))
                nodes.append((node, "ride", ""))
        frontier = nxt
    top = max(values)
    return top, [_plan_of(i, nodes) for i, value in enumerate(values) if value >= top - 1e-9]


def _plan_of(node: int, nodes: list[tuple[int, str, str]]) -> Plan:
    """The plan (steps as the order rules write them) that leads to a search node."""
    plan: Plan = []
    while node > 0:
        node, kind, where = nodes[node]
        plan.append([kind, where] if where else [kind])
    plan.reverse()
    return plan


BOTS = {"random": random_bot, "greedy": greedy_bot}
