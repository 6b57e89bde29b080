"""Helpers for the Jovian Syzygy tests: positions by hand, coin-controlled rngs, a line re-checker."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pbem.game import OrderLine, Resolution, View
from pbem.rng import Rng
from pbem_games.jovian_syzygy import GAME, board
from pbem_games.jovian_syzygy.lines import Body, Line
from pbem_games.jovian_syzygy.rules import bodies_key

OPTIONS = {v.name: v.default for v in GAME.info.variants}


def make_state(
    where: Sequence[str],
    *,
    sats: Sequence[int] = (0, 0, 0, 0),
    psi: Sequence[int] | None = None,
    last_gain: Sequence[str | None] | None = None,
    storms: dict[str, int] | None = None,
    first: int = 0,
    rounds_played: int = 0,
    **options: Any,
) -> dict[str, Any]:
    """A position mid-game: seat i is at ``where[i]`` (a space name or a moon)."""
    n = len(where)
    return {
        "players": n,
        "options": {**OPTIONS, **options},
        "round": rounds_played + 1,
        "rounds_played": rounds_played,
        "first": first,
        "sats": list(sats),
        "where": list(where),
        "psi": list(psi) if psi is not None else [3] * n,
        "last_gain": list(last_gain) if last_gain is not None else [None] * n,
        "storms": dict(storms or {}),
        "awards": [None] * n,
        "over": False,
    }


def lines_of(*texts: str) -> list[OrderLine]:
    return [OrderLine(i, t) for i, t in enumerate(texts, start=1)]


def orders_for(state: dict[str, Any], seat: int, *texts: str) -> Any:
    """Validate ``texts`` as ``seat``'s orders against its own view."""
    return GAME.validate(GAME.observe(state, seat), lines_of(*texts))


def play_round(state: dict[str, Any], plans: dict[int, Sequence[str]], rng: Rng | None = None) -> Resolution:
    """Validate every seat's plan (missing seats pass) and resolve the round."""
    orders = {seat: orders_for(state, seat, *plans.get(seat, ())) for seat in GAME.to_act(state)}
    return GAME.resolve(state, orders, rng or Rng(b"round"))


def texts(resolution: Resolution) -> list[str]:
    return [e.text for e in resolution.events]


def rng_with_coins(*coins: bool) -> Rng:
    """A genuine Rng whose first coin flips are ``coins`` (found by trying labels in order)."""
    for i in range(100000):
        rng = Rng(f"coins/{i}".encode())
        probe = Rng(f"coins/{i}".encode())
        if all(probe.coin() == c for c in coins):
            return rng
    raise AssertionError("no seed gives these coins")


def view(state: dict[str, Any], seat: int | None) -> View:
    return GAME.observe(state, seat)


def bodies(sats: Sequence[int]) -> list[Body]:
    return [Body(*k) for k in bodies_key(list(sats))]


def narrow(**angles: float) -> list[Body]:
    """Bodies pinned (to within 0.1 degree) at the given angles, in degrees clockwise from north."""
    out = []
    for track in board.TRACKS:
        if track.moon in angles:
            a = math.radians(angles[track.moon])
            out.append(Body(track.moon, float(track.radius), a - math.radians(0.05), a + math.radians(0.05)))
    return out


def xy(radius: float, angle: float) -> tuple[float, float]:
    return radius * math.sin(angle), radius * math.cos(angle)


def in_arc(angle: float, lo: float, hi: float, tol: float = 1e-9) -> bool:
    return (angle - lo) % (2 * math.pi) <= (hi - lo) + tol or (lo - angle) % (2 * math.pi) <= tol


def recheck(line: Line, all_bodies: Sequence[Body], jupiter: float) -> None:
    """Check a reported line from its coordinates alone: raises AssertionError if it is wrong.

    Every satellite sits in its allowed arc; the points are collinear and in order from the
    start; Jupiter's disc does not touch the segment from first to last; the eclipse flag says
    whether the line continued past the last satellite hits the disc.
    """
    by_name = {b.name: b for b in all_bodies}
    assert len(line.moons) in (3, 4) and len(set(line.moons)) == len(line.moons)
    pts = []
    for moon, angle in zip(line.moons, line.angles, strict=True):
        body = by_name[moon]
        assert in_arc(angle, body.lo, body.hi, 1e-7), (moon, angle, body)
        pts.append(xy(body.radius, angle))
    (x0, y0), (x1, y1) = pts[0], pts[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    along = []
    for x, y in pts:
        assert abs((x - x0) * uy - (y - y0) * ux) < 1e-6, "not collinear"
        along.append((x - x0) * ux + (y - y0) * uy)
    assert along == sorted(along), "not in order from the start"
    # Closest approach of Jupiter's centre to the segment, and to the line beyond the last.
    t = -(x0 * ux + y0 * uy)
    foot = math.hypot(x0 + t * ux, y0 + t * uy)
    tc = min(max(t, 0.0), length)
    assert math.hypot(x0 + tc * ux, y0 + tc * uy) >= jupiter - 1e-9, "Jupiter blocks the line"
    hits_beyond = foot < jupiter and t > length
    assert line.eclipse == hits_beyond, "eclipse flag disagrees with the coordinates"
