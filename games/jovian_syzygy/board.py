"""The Jovian Syzygy board: tracks, segments, spaces and their adjacency, as data from geometry.

The printed board is not described by the rulebook, so this module *is* the board (see the
game's README, "The board").  Everything is in board units with Jupiter at the origin.  Angles
are in degrees measured clockwise from north (12 o'clock), the direction satellites travel.

* Four circular tracks (Io, Europa, Ganymede, Callisto) at the moons' real distance ratios,
  each cut into equal segments by bars; the first bar of every track is at north.
* Rings of spaces between consecutive tracks (ring A between Jupiter and Io, B between Io and
  Europa, C between Europa and Ganymede, D between Ganymede and Callisto), each cut into
  equal sectors by radial lines, plus four corner spaces outside Callisto cut at N/E/S/W.

Adjacency is computed from this description (shared border of positive length) and checked in
tests against a point-location sampler (:func:`locate`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Track:
    """One lunar track: the moon, its circle's radius and how many segments its bars make."""

    moon: str
    radius: int
    segments: int

    @property
    def title(self) -> str:
        return self.moon.capitalize()

    def segment_arc(self, index: int) -> tuple[int | float, int | float]:
        """Start and end angle (degrees, clockwise from north) of segment ``index`` (0-based)."""
        size = 360 / self.segments
        return index * size, (index + 1) * size


@dataclass(frozen=True)
class Space:
    """A region of the board bordered by lines.

    Ring spaces are polar rectangles (inner radius, outer radius, start/end angle); a corner
    space is the quarter of the square board outside the outer track (``inner`` is Callisto's
    radius and ``outer`` is None).
    """

    name: str
    ring: str
    inner: int
    outer: int | None
    start: float
    end: float


JUPITER_RADIUS = 40
"""Jupiter's disc: it blocks lines and is the target of an eclipse.  Drawn larger than scale
(the real planet would be 17 units) as on any orrery board."""

TOKEN_RADIUS = 12
"""A satellite token (a penny): its centre stays this far from every bar of its track."""

HALF_SIZE = 500
"""The board is the square [-500, 500]^2."""

TRACKS: tuple[Track, ...] = (
    Track("io", 100, 3),
    Track("europa", 159, 6),
    Track("ganymede", 254, 12),
    Track("callisto", 447, 28),
)
"""Radii in the real ratio of mean distances (421,800 : 671,100 : 1,070,400 : 1,882,700 km =
1 : 1.59 : 2.54 : 4.46).  Segment counts give periods (in rounds) 3 : 6 : 12 : 28, i.e.
1 : 2 : 4 : 9.33 against the real 1 : 2.01 : 4.04 : 9.43 (1.769 / 3.551 / 7.155 / 16.69 days)."""

MOONS: tuple[str, ...] = tuple(t.moon for t in TRACKS)
TRACK_BY_MOON: dict[str, Track] = {t.moon: t for t in TRACKS}

# Rings of spaces: (letter, inner radius, outer radius, number of sectors).
RINGS: tuple[tuple[str, int, int, int], ...] = (
    ("A", JUPITER_RADIUS, 100, 3),
    ("B", 100, 159, 6),
    ("C", 159, 254, 6),
    ("D", 254, 447, 12),
)
CORNERS: tuple[str, ...] = ("NE", "SE", "SW", "NW")
"""Corner spaces in clockwise order from north; corner i spans angles [90 i, 90 (i + 1)]."""


def _build_spaces() -> tuple[Space, ...]:
    spaces = []
    for letter, inner, outer, count in RINGS:
        size = 360 / count
        for i in range(count):
            spaces.append(Space(f"{letter}-{i + 1}", letter, inner, outer, i * size, (i + 1) * size))
    outer_r = TRACKS[-1].radius
    for i, name in enumerate(CORNERS):
        spaces.append(Space(name, "corner", outer_r, None, 90 * i, 90 * (i + 1)))
    return tuple(spaces)


SPACES: tuple[Space, ...] = _build_spaces()
SPACE_BY_NAME: dict[str, Space] = {s.name: s for s in SPACES}
SPACE_NAMES: tuple[str, ...] = tuple(s.name for s in SPACES)

_EPS = 1e-9


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    """Length of the overlap of two angular intervals (degrees, each within [0, 360])."""
    return max(0.0, min(a1, b1) - max(a0, b0))


def _touch(a0: float, a1: float, b0: float, b1: float) -> bool:
    """Whether two angular intervals share an end (mod 360) without overlapping."""
    ends_a = {round(a0 % 360, 6), round(a1 % 360, 6)}
    ends_b = {round(b0 % 360, 6), round(b1 % 360, 6)}
    return bool(ends_a & ends_b) and _overlap(a0, a1, b0, b1) <= _EPS


def _outer_radius(space: Space) -> int:
    return space.outer if space.outer is not None else 10**6


@cache
def adjacency() -> dict[str, tuple[str, ...]]:
    """Space -> spaces sharing a border of positive length (sorted by board order)."""
    result: dict[str, list[str]] = {s.name: [] for s in SPACES}
    for i, a in enumerate(SPACES):
        for b in SPACES[i + 1 :]:
            if _borders(a, b):
                result[a.name].append(b.name)
                result[b.name].append(a.name)
    order = {name: i for i, name in enumerate(SPACE_NAMES)}
    return {k: tuple(sorted(v, key=order.__getitem__)) for k, v in result.items()}


def _borders(a: Space, b: Space) -> bool:
    if a.inner == b.inner and a.outer == b.outer:
        # Same ring: neighbours share a radial line.
        return _touch(a.start, a.end, b.start, b.end)
    if _outer_radius(a) == b.inner or _outer_radius(b) == a.inner:
        # Consecutive rings: they share an arc of the circle between them.
        return _overlap(a.start, a.end, b.start, b.end) > _EPS
    return False


@cache
def segment_spaces() -> dict[tuple[str, int], tuple[str, ...]]:
    """(moon, segment) -> spaces bordering that segment's arc of the track (inside and out)."""
    result: dict[tuple[str, int], tuple[str, ...]] = {}
    for track in TRACKS:
        for seg in range(track.segments):
            lo, hi = track.segment_arc(seg)
            names = [
                s.name
                for s in SPACES
                if (s.inner == track.radius or s.outer == track.radius)
                and _overlap(lo, hi, s.start, s.end) > _EPS
            ]
            result[(track.moon, seg)] = tuple(names)
    return result


@cache
def space_segments() -> dict[str, tuple[tuple[str, int], ...]]:
    """Space -> (moon, segment) pairs whose arcs border it."""
    result: dict[str, list[tuple[str, int]]] = {s.name: [] for s in SPACES}
    for key, names in segment_spaces().items():
        for name in names:
            result[name].append(key)
    return {k: tuple(v) for k, v in result.items()}


def spaces_by_segment(moon: str, segment: int) -> tuple[str, ...]:
    """Spaces a rider of ``moon`` in ``segment`` may step into."""
    return segment_spaces()[(moon, segment)]


def bearing(x: float, y: float) -> float:
    """Angle of a point (board units, y up) in degrees clockwise from north, in [0, 360)."""
    return math.degrees(math.atan2(x, y)) % 360


def point(radius: float, angle: float) -> tuple[float, float]:
    """The point at ``radius`` and ``angle`` (degrees clockwise from north), y up."""
    rad = math.radians(angle)
    return radius * math.sin(rad), radius * math.cos(rad)


def locate(x: float, y: float) -> str | None:
    """The space containing a point (y up), or None for Jupiter, a line or off the board.

    Used by tests to check the adjacency data against the geometry.
    """
    if abs(x) > HALF_SIZE or abs(y) > HALF_SIZE:
        return None
    r = math.hypot(x, y)
    angle = bearing(x, y)
    for space in SPACES:
        if space.inner < r < _outer_radius(space) and space.start < angle < space.end:
            return space.name
    return None


def token_margin(track: Track) -> float:
    """Degrees a token's centre must keep from a bar so the token does not cover it."""
    return math.degrees(math.asin(TOKEN_RADIUS / track.radius))


def allowed_arc(moon: str, segment: int) -> tuple[float, float]:
    """Where the centre of ``moon``'s token may be slid to within ``segment`` (degrees)."""
    track = TRACK_BY_MOON[moon]
    lo, hi = track.segment_arc(segment)
    margin = token_margin(track)
    return lo + margin, hi - margin


def segment_centre(moon: str, segment: int) -> float:
    """Angle of the middle of a segment (where a token is drawn when no line moves it)."""
    lo, hi = TRACK_BY_MOON[moon].segment_arc(segment)
    return (lo + hi) / 2


def _ranges(numbers: list[int]) -> str:
    """1-based segment numbers as '3-5' when consecutive, else '1,4'."""
    numbers = sorted(numbers)
    if len(numbers) > 1 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}-{numbers[-1]}"
    return ",".join(map(str, numbers))


def adjacency_table() -> list[str]:
    """The adjacency data as a Markdown table (printed in the README; a test keeps them equal)."""
    rows = ["| space | adjacent spaces | bordering track segments |", "|---|---|---|"]
    for name in SPACE_NAMES:
        by_moon: dict[str, list[int]] = {}
        for moon, seg in space_segments()[name]:
            by_moon.setdefault(moon, []).append(seg + 1)
        segs = "; ".join(f"{moon.capitalize()} {_ranges(nums)}" for moon, nums in by_moon.items())
        rows.append(f"| {name} | {', '.join(adjacency()[name])} | {segs} |")
    return rows
