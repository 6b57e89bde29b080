"""The board: geometry-derived adjacency checked against point location, and the design numbers."""

from __future__ import annotations

import math
from collections import deque
from pathlib import Path

from pbem_games.jovian_syzygy import board

PERIODS = {"io": 1.769, "europa": 3.551, "ganymede": 7.155, "callisto": 16.69}
DISTANCES = {"io": 421_800, "europa": 671_100, "ganymede": 1_070_400, "callisto": 1_882_700}


def test_tracks_follow_the_real_moons() -> None:
    radii = [t.radius for t in board.TRACKS]
    assert radii == sorted(radii)
    for track in board.TRACKS:
        ratio = track.radius / board.TRACKS[0].radius
        real = DISTANCES[track.moon] / DISTANCES["io"]
        assert abs(ratio - real) / real < 0.01, track.moon
        # Days per round implied by Io's period, applied to the others: within 1.5 %.
        day = PERIODS["io"] / board.TRACKS[0].segments
        assert abs(track.segments * day - PERIODS[track.moon]) / PERIODS[track.moon] < 0.015, track.moon
    assert board.TRACKS[0].radius - board.TOKEN_RADIUS > board.JUPITER_RADIUS


def test_spaces_and_names() -> None:
    names = board.SPACE_NAMES
    assert len(names) == len(set(names)) == 3 + 6 + 6 + 12 + 4
    assert {"NE", "SE", "SW", "NW"} <= set(names)
    assert "D-12" in names and "A-1" in names


def _boundary_samples() -> list[tuple[float, float, float, float]]:
    """Pairs of points just either side of every line on the board (circles and radial lines)."""
    out = []
    eps = 0.5
    radii = sorted({s.inner for s in board.SPACES} | {s.outer for s in board.SPACES if s.outer})
    for r in radii:
        for k in range(720):
            angle = (k + 0.5) / 2
            out.append((*board.point(r - eps, angle), *board.point(r + eps, angle)))
    angles = {round(a, 6) for s in board.SPACES for a in (s.start, s.end)}
    for angle in angles:
        for r in range(board.JUPITER_RADIUS + 1, 720, 2):
            out.append((*board.point(r, angle - 0.05), *board.point(r, angle + 0.05)))
    return out


def test_adjacency_matches_the_geometry() -> None:
    """Two spaces are adjacent exactly when stepping across some line goes from one to the other."""
    seen: set[frozenset[str]] = set()
    for x0, y0, x1, y1 in _boundary_samples():
        a, b = board.locate(x0, y0), board.locate(x1, y1)
        if a and b and a != b:
            seen.add(frozenset((a, b)))
    claimed = {frozenset((a, b)) for a, ns in board.adjacency().items() for b in ns}
    assert claimed == seen


def test_adjacency_is_symmetric_and_connected() -> None:
    adj = board.adjacency()
    for a, ns in adj.items():
        assert a not in ns
        for b in ns:
            assert a in adj[b]
    seen = {"NE"}
    queue = deque(["NE"])
    while queue:
        for b in adj[queue.popleft()]:
            if b not in seen:
                seen.add(b)
                queue.append(b)
    assert seen == set(board.SPACE_NAMES)


def test_corners_touch_each_other_and_the_outer_ring() -> None:
    adj = board.adjacency()
    assert set(adj["NE"]) == {"SE", "NW", "D-1", "D-2", "D-3"}
    assert "SW" not in adj["NE"]
    # Spaces meeting only at a point (where a radial line meets a track) are not adjacent.
    assert "B-6" not in adj["C-1"] and "C-6" in adj["C-1"]


def test_segment_borders_match_the_geometry() -> None:
    """A space borders a segment iff points just inside and outside the track's arc there lie in it."""
    for track in board.TRACKS:
        for seg in range(track.segments):
            lo, hi = track.segment_arc(seg)
            found = set()
            for k in range(1, 40):
                angle = lo + (hi - lo) * k / 40
                for dr in (-0.5, 0.5):
                    name = board.locate(*board.point(track.radius + dr, angle))
                    if name:
                        found.add(name)
            assert set(board.spaces_by_segment(track.moon, seg)) == found, (track.moon, seg)


def test_allowed_arc_keeps_the_token_off_the_bars() -> None:
    for track in board.TRACKS:
        lo, hi = board.allowed_arc(track.moon, 0)
        bar = board.point(track.radius, 0)
        centre = board.point(track.radius, lo)
        # The token's centre is exactly one token radius from the bar line (the radius at 0 deg).
        assert math.isclose(abs(centre[0] * 1 - centre[1] * 0), board.TOKEN_RADIUS)
        assert hi > lo and bar == (0.0, float(track.radius))


def test_locate() -> None:
    assert board.locate(0, 0) is None  # Jupiter
    assert board.locate(480, 480) == "NE"
    assert board.locate(-480, -480) == "SW"
    assert board.locate(*board.point(300, 15)) == "D-1"
    assert board.locate(*board.point(70, 130)) == "A-2"


def test_readme_prints_the_adjacency_data() -> None:
    readme = (Path(__file__).parents[2] / "games" / "jovian_syzygy" / "README.md").read_text()
    assert "\n".join(board.adjacency_table()) in readme
