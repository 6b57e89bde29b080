"""Syzygies: the exact search for straight lines through satellites (pure geometry, floats inside).

A satellite's token may sit anywhere on its track's circle within an *allowed arc* (its
segment minus the token's margin at each bar).  A line is written (phi, d): the points x with
x . n(phi) = d, d >= 0.  It meets the circle of radius R (when d <= R) at the angles
phi +- alpha(d), alpha(d) = acos(d / R), at signed distance t = +-sqrt(R^2 - d^2) along the
line from the foot of the perpendicular.  Choosing a sign per satellite therefore fixes the
order of the satellites along the line (by radius, independent of d), which satellite is at an
end, and whether Jupiter (the chord t in [-h_J, h_J] when d < R_J) lies between two of them.

For a choice of satellites and signs, a line exists iff some d admits a common phi.  For fixed d
each satellite admits an arc of phi, and because the allowed arcs together are shorter than a
full turn, the arcs have a common point iff every two of them meet (Helly on a cut circle).  Two
arcs meet iff g(d) = s_r alpha_r(d) - s_s alpha_s(d) lies in a fixed interval (mod 2 pi), and g
is monotone in d, with a closed-form inverse (the distance from Jupiter to the line through two
points at angular separation c on the two circles).  So the set of good d is a finite union of
intervals computed exactly up to floating-point rounding (about 1e-12 rad); no sampling.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

TWO_PI = 2 * math.pi

Interval = tuple[float, float]


@dataclass(frozen=True)
class Body:
    """A satellite for the line search: name, orbit radius, allowed arc of its centre (radians)."""

    name: str
    radius: float
    lo: float
    hi: float


@dataclass(frozen=True)
class Line:
    """A syzygy that begins with ``moons[0]``: the satellites in order along the line.

    ``angles`` (radians, same convention as the input arcs) place each satellite on the line
    (a witness); ``eclipse`` says the line, continued past the last satellite, hits Jupiter.
    """

    moons: tuple[str, ...]
    angles: tuple[float, ...]
    eclipse: bool
    d: float
    phi: float

    @property
    def value(self) -> int:
        """Psi the line is worth before the same-satellite rule: 2 or 3, plus 3 for an eclipse."""
        return line_value(len(self.moons), self.eclipse)


def line_value(count: int, eclipse: bool) -> int:
    """Psi for a line of ``count`` satellites (3 gives 2, 4 gives 3) and the eclipse bonus."""
    return (2 if count == 3 else 3) + (3 if eclipse else 0)


def _alpha(d: float, radius: float) -> float:
    return math.acos(min(1.0, max(-1.0, d / radius)))


def _inverse(c: float, r1: float, r2: float) -> float:
    """d of the line through points at angular separation c on circles r1 and r2."""
    chord = math.sqrt(max(0.0, r1 * r1 + r2 * r2 - 2 * r1 * r2 * math.cos(c)))
    return r1 * r2 * abs(math.sin(c)) / chord


Arc = tuple[float, float, float]
"""A body as the search needs it: (radius, lo, hi); equal arcs give equal answers."""

_PAIR_SETS: dict[tuple[Arc, int, Arc, int, float, float], tuple[Interval, ...]] = {}
_PAIR_SETS_MAX = 1 << 16
"""Memo of :func:`_pair_set`: a pair's answer depends on the two arcs alone, and the board's
few arcs meet in few ways (about 12,000 pair sets cover every position), so positions share
them.  Emptied when full, so odd inputs cannot grow it without bound."""


def _pair_set(s: Arc, ss: int, r: Arc, sr: int, lo: float, hi: float) -> tuple[Interval, ...]:
    """Values of d in [lo, hi] at which the phi-arcs of satellites s and r meet (memoised)."""
    key = (s, ss, r, sr, lo, hi)
    got = _PAIR_SETS.get(key)
    if got is None:
        if len(_PAIR_SETS) >= _PAIR_SETS_MAX:
            _PAIR_SETS.clear()
        got = _PAIR_SETS[key] = _pair_set_new(s, ss, r, sr, lo, hi)
    return got


def _pair_set_new(s: Arc, ss: int, r: Arc, sr: int, lo: float, hi: float) -> tuple[Interval, ...]:
    """:func:`_pair_set` worked out."""
    s_radius, s_lo, s_hi = s
    r_radius, r_lo, r_hi = r

    def g(d: float) -> float:
        return sr * _alpha(d, r_radius) - ss * _alpha(d, s_radius)

    j0, j1 = r_lo - s_hi, r_hi - s_lo
    g_lo, g_hi = g(lo), g(hi)
    increasing = g_hi >= g_lo
    gmin, gmax = (g_lo, g_hi) if increasing else (g_hi, g_lo)
    out: list[Interval] = []
    k = math.floor((gmin - j1) / TWO_PI)
    while j0 + TWO_PI * k <= gmax:
        c0, c1 = max(j0 + TWO_PI * k, gmin), min(j1 + TWO_PI * k, gmax)
        k += 1
        if c0 > c1:
            continue
        d0 = lo if c0 == gmin and increasing else hi if c0 == gmin else _inverse(c0, s_radius, r_radius)
        d1 = hi if c1 == gmax and increasing else lo if c1 == gmax else _inverse(c1, s_radius, r_radius)
        a, b = min(d0, d1), max(d0, d1)
        out.append((max(lo, a), min(hi, b)))
    return tuple(out)


def _intersect(a: Sequence[Interval], b: Sequence[Interval]) -> list[Interval]:
    out = []
    for a0, a1 in a:
        for b0, b1 in b:
            lo, hi = max(a0, b0), min(a1, b1)
            if lo <= hi:
                out.append((lo, hi))
    return out


_PAIRS = {n: tuple(combinations(range(n), 2)) for n in (3, 4)}


def _feasible(arcs: Sequence[Arc], signs: Sequence[int], lo: float, hi: float) -> list[Interval]:
    """The d in [lo, hi] for which one line meets every body (by its arc) on its chosen side."""
    ds: Sequence[Interval] = [(lo, hi)]
    for i, j in _PAIRS.get(len(arcs)) or combinations(range(len(arcs)), 2):
        ds = _intersect(ds, _pair_set(arcs[i], signs[i], arcs[j], signs[j], lo, hi))
        if not ds:
            return []
    return list(ds)


def _witness(bodies: Sequence[Body], signs: Sequence[int], d: float) -> tuple[float, tuple[float, ...]]:
    """A phi on which all bodies lie at distance d, and their angles."""
    starts, ends = [], []
    base = bodies[0].lo - signs[0] * _alpha(d, bodies[0].radius)
    for body, sign in zip(bodies, signs, strict=True):
        x = body.lo - sign * _alpha(d, body.radius)
        x = base + ((x - base + math.pi) % TWO_PI) - math.pi
        starts.append(x)
        ends.append(x + (body.hi - body.lo))
    phi = (max(starts) + min(ends)) / 2
    angles = tuple(
        (phi + sign * _alpha(d, body.radius)) % TWO_PI for body, sign in zip(bodies, signs, strict=True)
    )
    return phi % TWO_PI, angles


Candidate = tuple[int, tuple[Body, ...], tuple[int, ...], float, float, bool]


def _candidates(start: Body, others: Sequence[Body], jupiter: float) -> list[Candidate]:
    """Every (value, bodies along the line, signs, d range, eclipse) to try, best value first."""
    group = (start, *others)
    shape = _shape(tuple((b.name, b.radius) for b in group), jupiter)
    return [
        (value, tuple(group[i] for i in order), signs, lo, hi, ecl)
        for value, order, signs, lo, hi, ecl in shape
    ]


@lru_cache(maxsize=256)
def _shape(
    group: tuple[tuple[str, float], ...], jupiter: float
) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...], float, float, bool], ...]:
    """The candidates of :func:`_candidates` by position in ``group`` (the rider first, then
    the others): they depend only on the radii, never on where the satellites stand, so a
    board's few radii are worked out once per process."""
    radius = [r for _, r in group]
    start, others = 0, range(1, len(group))
    out = []
    for size in (3, 2):
        for chosen in combinations(others, size):
            members = (start, *chosen)
            r_min = min(radius[i] for i in members)
            for signs in product((1, -1), repeat=len(members)):
                t = [sg * radius[i] for sg, i in zip(signs, members, strict=True)]
                mine = t[0]
                if not (mine == max(t) or mine == min(t)):
                    continue
                order = sorted(range(len(members)), key=lambda k: abs(t[k] - mine))
                along = tuple(members[k] for k in order)
                sgn = tuple(signs[k] for k in order)
                value = line_value(len(members), False)
                if len(set(signs)) == 1:
                    if radius[start] == max(radius[i] for i in members):
                        out.append((line_value(len(members), True), along, sgn, 0.0, jupiter, True))
                        out.append((value, along, sgn, jupiter, r_min, False))
                    else:
                        out.append((value, along, sgn, 0.0, r_min, False))
                else:
                    out.append((value, along, sgn, jupiter, r_min, False))
    out.sort(key=lambda c: -c[0])
    return tuple(out)


_FEASIBLE3: dict[tuple[Arc, Arc, Arc, tuple[int, ...], float, float], tuple[Interval, ...]] = {}
"""Memo of :func:`_feasible` for three bodies: a line of three depends on three satellites'
segments only, so every position of the fourth satellite asks the same (emptied when it holds
:data:`_PAIR_SETS_MAX` entries)."""


def _feasible_any(arcs: list[Arc], signs: tuple[int, ...], lo: float, hi: float) -> Sequence[Interval]:
    """:func:`_feasible`, memoised for three bodies (as tuples: plain values the garbage
    collector need not follow)."""
    if len(arcs) != 3:
        # A line through four needs one through any three of them on the same sides and
        # for the same d (the same pair sets, intersected fewer times): the memoised three
        # rule most fours out at once.
        if not _feasible_any(arcs[:3], signs[:3], lo, hi) or not _feasible_any(arcs[1:], signs[1:], lo, hi):
            return ()
        return _feasible(arcs, signs, lo, hi)
    key = (arcs[0], arcs[1], arcs[2], signs, lo, hi)
    got = _FEASIBLE3.get(key)
    if got is None:
        if len(_FEASIBLE3) >= _PAIR_SETS_MAX:
            _FEASIBLE3.clear()
        got = _FEASIBLE3[key] = tuple(_feasible(arcs, signs, lo, hi))
    return got


@lru_cache(maxsize=256)
def _tries(
    group: tuple[tuple[str, float], ...], jupiter: float
) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...], float, float, bool], ...]:
    """The candidates of :func:`_shape` that can hold a line at all (a d range that is not empty)."""
    return tuple(c for c in _shape(group, jupiter) if not c[3] > c[4])


def best_line(bodies: Sequence[Body], start: str, jupiter: float) -> Line | None:
    """The most valuable line that begins with the satellite ``start``, or None.

    Ties are broken by a fixed order (more satellites first, then the order of ``bodies``).
    """
    by_name = {b.name: b for b in bodies}
    me = by_name[start]
    group = (me, *(b for b in bodies if b.name != start))
    arcs = [(b.radius, b.lo, b.hi) for b in group]
    for _value, order, signs, lo, hi, eclipse in _tries(tuple((b.name, b.radius) for b in group), jupiter):
        ds = _feasible_any([arcs[i] for i in order], signs, lo, hi)
        if eclipse:
            ds = [(a, b) for a, b in ds if a < jupiter]
        if not ds:
            continue
        a, b = max(ds, key=lambda iv: iv[1] - iv[0])
        d = (a + min(b, jupiter if eclipse else b)) / 2
        along = tuple(group[i] for i in order)
        phi, angles = _witness(along, signs, d)
        return Line(tuple(x.name for x in along), angles, eclipse, d, phi)
    return None


def any_syzygy(bodies: Sequence[Body]) -> bool:
    """Whether some straight line passes through three or more of the satellites (Jupiter ignored)."""
    for group in combinations(bodies, 3):
        r_min = min(b.radius for b in group)
        arcs = [(b.radius, b.lo, b.hi) for b in group]
        for signs in product((1, -1), repeat=3):
            if _feasible(arcs, signs, 0.0, r_min):
                return True
    return False


def bodies_for(arcs: Mapping[str, tuple[float, float]], radii: Mapping[str, float]) -> tuple[Body, ...]:
    """Bodies from allowed arcs given in degrees clockwise from north (any consistent rotation)."""
    return tuple(
        Body(name, float(radii[name]), math.radians(lo), math.radians(hi)) for name, (lo, hi) in arcs.items()
    )
