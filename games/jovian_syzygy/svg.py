"""The board as an SVG picture: a pure function of the public view (as python-chess's svg.py).

Jupiter at the centre, the four tracks with their bars and segment numbers, the named spaces,
satellites with their riders, players, storms, and the syzygies scored at the last round's end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape  # not xml.sax.saxutils: it imports urllib.request, http and email (start-up)
from typing import Any

from . import board
from .rules import best_line_at, player

SIZE = 1000
PANEL = 260
"""Width of the legend panel right of the board."""
CENTRE = SIZE // 2
PLAYER_COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231")
MOON_COLOURS = {"io": "#f2d13a", "europa": "#d9c7a3", "ganymede": "#a39c8e", "callisto": "#6d6a66"}
RING_FILLS = {"A": "#1d2748", "B": "#1a2240", "C": "#1d2748", "D": "#1a2240", "corner": "#151b33"}


def _xy(radius: float, angle: float) -> tuple[float, float]:
    """Screen coordinates (y down) of a board point at ``radius`` and ``angle`` (degrees)."""
    x, y = board.point(radius, angle)
    return CENTRE + x, CENTRE - y


def _f(value: float) -> str:
    return f"{value:.1f}"


def _line(x0: float, y0: float, x1: float, y1: float, stroke: str, width: float, extra: str = "") -> str:
    return (
        f'<line x1="{_f(x0)}" y1="{_f(y0)}" x2="{_f(x1)}" y2="{_f(y1)}" stroke="{stroke}" '
        f'stroke-width="{width}"{extra}/>'
    )


def _circle(x: float, y: float, r: float, fill: str, stroke: str, extra: str = "") -> str:
    return f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{r}" fill="{fill}" stroke="{stroke}"{extra}/>'


def _annulus_sector(inner: float, outer: float, start: float, end: float) -> str:
    """SVG path of the polar rectangle between two radii and two angles."""
    large = 1 if end - start > 180 else 0
    x0, y0 = _xy(outer, start)
    x1, y1 = _xy(outer, end)
    x2, y2 = _xy(inner, end)
    x3, y3 = _xy(inner, start)
    return (
        f"M{_f(x0)},{_f(y0)} A{outer},{outer} 0 {large} 1 {_f(x1)},{_f(y1)} "
        f"L{_f(x2)},{_f(y2)} A{inner},{inner} 0 {large} 0 {_f(x3)},{_f(y3)} Z"
    )


@dataclass(frozen=True)
class _Layout:
    """Where a space's label, pawns and storms go (screen coordinates)."""

    label: tuple[float, float]
    pawns: tuple[tuple[float, float], ...]
    storms: tuple[tuple[float, float], ...]


def _row(x: float, y: float, count: int, step: float) -> tuple[tuple[float, float], ...]:
    return tuple((x + (i - (count - 1) / 2) * step, y) for i in range(count))


def _arc(radius: float, mid: float, count: int, step: float) -> tuple[tuple[float, float], ...]:
    """``count`` points along the circle of ``radius`` centred on angle ``mid``, ``step`` apart."""
    deg = math.degrees(step / radius)
    return tuple(_xy(radius, mid + (i - (count - 1) / 2) * deg) for i in range(count))


def _layout(space: board.Space, pawns: int, storms: int) -> _Layout:
    """Big spaces stack label, pawns and storms vertically; the thin inner rings lay them out
    along the ring (label first, then pawns, then storms, clockwise)."""
    mid = (space.start + space.end) / 2
    if space.outer is None:
        x, y = _xy(math.hypot(430, 430), mid)
        return _Layout((x, y - 22), _row(x, y + 4, pawns, 20), _row(x, y + 26, storms, 14))
    if space.ring in ("C", "D"):
        radius = (space.inner + space.outer) / 2
        room = min((space.outer - space.inner) / 2, math.radians(space.end - space.start) * radius / 2)
        x, y = _xy(radius, mid)
        return _Layout((x, y - room * 0.45), _row(x, y + 4, pawns, 20), _row(x, y + room * 0.45, storms, 14))
    radius = (space.inner + space.outer) / 2 + (8 if space.ring == "A" else 0)
    span = space.end - space.start
    return _Layout(
        _xy(radius, space.start + 0.17 * span),
        _arc(radius, mid, pawns, 20),
        _arc(radius, space.end - 0.17 * span, storms, 14),
    )


def _text(
    x: float, y: float, body: str, size: int, fill: str, extra: str = "", anchor: str = "middle"
) -> str:
    return (
        f'<text x="{_f(x)}" y="{_f(y)}" font-size="{size}" fill="{fill}" text-anchor="{anchor}" '
        f'dominant-baseline="central" font-family="sans-serif"{extra}>{escape(body, quote=False)}</text>'
    )


def _spaces(public: dict[str, Any]) -> list[str]:
    out = [
        f'<rect x="0" y="0" width="{SIZE + PANEL}" height="{SIZE}" fill="#0b0f1e"/>',
        f'<rect x="0" y="0" width="{SIZE}" height="{SIZE}" fill="{RING_FILLS["corner"]}" stroke="#8892b0"/>',
    ]
    for space in board.SPACES:
        if space.outer is not None:
            d = _annulus_sector(space.inner, space.outer, space.start, space.end)
            out.append(f'<path d="{d}" fill="{RING_FILLS[space.ring]}" stroke="#8892b0" stroke-width="1.5"/>')
    for angle in (0, 90, 180, 270):
        x0, y0 = _xy(board.TRACKS[-1].radius, angle)
        x1, y1 = _xy(CENTRE, angle)
        out.append(_line(x0, y0, x1, y1, "#8892b0", 1.5))
    for space in board.SPACES:
        storms = public["storms"].get(space.name, 0)
        layout = _layout(space, 0, storms)
        size = 13 if space.ring not in ("A", "B") else 11
        out.append(_text(*layout.label, space.name, size, "#aab4d4"))
        for sx, sy in layout.storms:
            out.append(_circle(sx, sy, 6, "#c0c0c0", "#333") + _text(sx, sy, "~", 10, "#333"))
    return out


def _tracks() -> list[str]:
    out = []
    for track in board.TRACKS:
        out.append(
            f'<circle cx="{CENTRE}" cy="{CENTRE}" r="{track.radius}" fill="none" stroke="#3b4a7a" '
            f'stroke-width="{2 * board.TOKEN_RADIUS + 2}" stroke-opacity="0.75"/>'
        )
        out.append(_circle(CENTRE, CENTRE, track.radius, "none", "#c8d0f0", ' stroke-width="1.5"'))
        for seg in range(track.segments):
            lo, hi = track.segment_arc(seg)
            x0, y0 = _xy(track.radius - board.TOKEN_RADIUS - 1, lo)
            x1, y1 = _xy(track.radius + board.TOKEN_RADIUS + 1, lo)
            out.append(_line(x0, y0, x1, y1, "#ffffff", 3))
            nx, ny = _xy(track.radius + board.TOKEN_RADIUS + 7, (lo + hi) / 2)
            out.append(_text(nx, ny, str(seg + 1), 9, "#7f8ab0"))
        lx, ly = _xy(track.radius, 2.2 if track.moon != "callisto" else 1.3)
        out.append(_text(lx + 2, ly - board.TOKEN_RADIUS - 10, track.title, 11, "#c8d0f0", anchor="start"))
    return out


def _jupiter() -> list[str]:
    r = board.JUPITER_RADIUS
    out = [f'<circle cx="{CENTRE}" cy="{CENTRE}" r="{r}" fill="#d8a15d"/>']
    for offset, colour in ((-22, "#b5713a"), (-6, "#e9c08a"), (10, "#b5713a"), (24, "#c98b4e")):
        half = math.sqrt(max(0.0, r * r - offset * offset))
        out.append(
            f'<line x1="{_f(CENTRE - half)}" y1="{CENTRE + offset}" x2="{_f(CENTRE + half)}" '
            f'y2="{CENTRE + offset}" stroke="{colour}" stroke-width="5"/>'
        )
    out.append(f'<circle cx="{CENTRE + 14}" cy="{CENTRE + 12}" r="6" fill="#b0503a"/>')
    out.append(
        f'<circle cx="{CENTRE}" cy="{CENTRE}" r="{r}" fill="none" stroke="#5a3a1a" stroke-width="1.5"/>'
    )
    return out


def _players_in_spaces(public: dict[str, Any]) -> list[str]:
    out = []
    for space in board.SPACES:
        seats = [s for s, w in enumerate(public["where"]) if w == space.name]
        for (px, py), seat in zip(_layout(space, len(seats), 0).pawns, seats, strict=True):
            out.append(_pawn(px, py, seat))
    return out


def _pawn(x: float, y: float, seat: int) -> str:
    return _circle(x, y, 9, PLAYER_COLOURS[seat], "#fff", ' stroke-width="1.5"') + _text(
        x, y, str(seat + 1), 11, "#fff", ' font-weight="bold"'
    )


def _satellites(public: dict[str, Any]) -> list[str]:
    out = []
    for track, seg in zip(board.TRACKS, public["sats"], strict=True):
        angle = board.segment_centre(track.moon, seg)
        x, y = _xy(track.radius, angle)
        out.append(
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{board.TOKEN_RADIUS}" fill="{MOON_COLOURS[track.moon]}" '
            f'stroke="#000" stroke-width="1"/>'
            + _text(x, y, track.moon[0].upper(), 12, "#000", ' font-weight="bold"')
        )
        riders = [s for s, w in enumerate(public["where"]) if w == track.moon]
        for i, seat in enumerate(riders):
            rx, ry = _xy(track.radius + (i + 1) * 19 * (-1 if track.moon == "callisto" else 1), angle)
            out.append(_pawn(rx, ry, seat))
    return out


def _syzygies(public: dict[str, Any]) -> list[str]:
    """The lines scored at the end of the last round, through the satellites as slid."""
    out = []
    for seat, award in enumerate(public["awards"]):
        if award is None:
            continue
        line = best_line_at(list(public["sats"]), award["moons"][0])
        if line is None:
            continue
        pts = [
            _xy(board.TRACK_BY_MOON[m].radius, math.degrees(a))
            for m, a in zip(line.moons, line.angles, strict=True)
        ]
        if line.eclipse:
            # Continue past the last satellite to the foot of the perpendicular (inside Jupiter).
            x0, y0 = pts[0]
            x1, y1 = pts[-1]
            cx, cy = CENTRE, CENTRE
            dx, dy = x1 - x0, y1 - y0
            t = ((cx - x0) * dx + (cy - y0) * dy) / (dx * dx + dy * dy)
            pts.append((x0 + t * dx, y0 + t * dy))
        path = " ".join(f"{_f(x)},{_f(y)}" for x, y in pts)
        colour = PLAYER_COLOURS[seat]
        out.append(
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="3" '
            'stroke-dasharray="10 5" stroke-opacity="0.9"/>'
        )
        for x, y in pts[: len(line.moons)]:
            out.append(_circle(x, y, board.TOKEN_RADIUS, "none", colour, ' stroke-width="2"'))
    return out


def _legend(public: dict[str, Any]) -> list[str]:
    """The side panel: round, first player, each player's Psi and place, satellites, key."""
    left = SIZE + 16
    status = "final position" if public["over"] else f"round {public['round']}"
    if public.get("phase") == "corners":
        status = "setup: choosing corners"
    out = [
        _text(left, 30, "Jovian Syzygy", 22, "#ffffff", anchor="start"),
        _text(left, 58, status, 16, "#ffffff", anchor="start"),
    ]
    if not public["over"]:
        out.append(_text(left, 80, f"first: {player(public['first'])}", 14, "#c8d0f0", anchor="start"))
    y = 120
    for seat in range(public["players"]):
        where = public["where"][seat]
        where = (
            "no corner yet"
            if where is None
            else where.capitalize()
            if where in board.TRACK_BY_MOON
            else where
        )
        out.append(_pawn(left + 10, y, seat))
        # "Player N" becomes the player's name (the engine names every picture).
        out.append(_text(left + 26, y, player(seat), 14, "#ffffff", anchor="start"))
        out.append(
            _text(left + 26, y + 17, f"{public['psi'][seat]} Psi, {where}", 12, "#c8d0f0", anchor="start")
        )
        y += 42
    y += 20
    for track, seg in zip(board.TRACKS, public["sats"], strict=True):
        out.append(
            f'<circle cx="{left + 10}" cy="{y}" r="9" fill="{MOON_COLOURS[track.moon]}" stroke="#000"/>'
        )
        out.append(_text(left + 10, y, track.moon[0].upper(), 11, "#000", ' font-weight="bold"'))
        out.append(
            _text(
                left + 26,
                y,
                f"{track.title}: segment {seg + 1}/{track.segments}",
                14,
                "#ffffff",
                anchor="start",
            )
        )
        y += 24
    y += 20
    out.append(f'<circle cx="{left + 10}" cy="{y}" r="6" fill="#c0c0c0" stroke="#333"/>')
    out.append(_text(left + 26, y, "cosmic storm", 14, "#ffffff", anchor="start"))
    y += 24
    out.append(
        f'<line x1="{left}" y1="{y}" x2="{left + 20}" y2="{y}" stroke="#ffffff" stroke-width="3" '
        'stroke-dasharray="6 3"/>'
    )
    out.append(_text(left + 26, y, "syzygy scored last round", 14, "#ffffff", anchor="start"))
    return out


def board_svg(public: dict[str, Any]) -> str:
    """The whole picture for a public view, as SVG text."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE + PANEL} {SIZE}" '
        f'width="{SIZE + PANEL}" height="{SIZE}">',
        "<title>Jovian Syzygy board</title>",
        *_spaces(public),
        *_tracks(),
        *_jupiter(),
        *_syzygies(public),
        *_satellites(public),
        *_players_in_spaces(public),
        *_legend(public),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"
