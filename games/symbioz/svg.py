"""The board picture: an SVG drawing of the round planet from a public view (pure).

Each square is drawn as the annular sector the geometry module gives it; quarter 1 faces
the bottom of the picture.  In every square: its name, then one line per colour present
with a disc and the Zerb count, a triangle and the Crapit count, a small square and the
Krogul count.  Closed squares show a Symbioz marker (a large green disc with a dot of its
owner's colour).  Squares not in play (2-player half board) are grey and empty.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from .board import SQUARES, Square
from .state import colour_name, symbioz_counts

SIZE = 640
BELOW = 90
"""Height of the strip under the board: status line, then the players two to a row."""
CENTRE = SIZE / 2
RADII = {"lake": 62.0, "A": 132.0, "B": 218.0, "C": 305.0}
INNER = {"A": RADII["lake"], "B": RADII["A"], "C": RADII["B"]}
OFFSET = 135.0
"""Degrees added to the geometry's angles so that quarter 1 is at the bottom."""

FILL = {"yellow": "#e0b800", "red": "#d62728", "blue": "#1f5fd6", "purple": "#8e44ad"}
GROUND = {"A": "#9fd17f", "B": "#eadfc4", "C": "#f3ead6"}
LINE = 13.0


def _point(radius: float, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees + OFFSET)
    return CENTRE + radius * math.sin(angle), CENTRE - radius * math.cos(angle)


def _f(value: float) -> str:
    return f"{value:.1f}"


def _sector(sq: Square) -> str:
    r0, r1 = INNER[sq.ring], RADII[sq.ring]
    a0, a1 = float(sq.start), float(sq.end)
    large = 1 if a1 - a0 > 180 else 0
    p = [_point(r0, a0), _point(r1, a0), _point(r1, a1), _point(r0, a1)]
    return (
        f"M{_f(p[0][0])},{_f(p[0][1])} L{_f(p[1][0])},{_f(p[1][1])} "
        f"A{_f(r1)},{_f(r1)} 0 {large} 1 {_f(p[2][0])},{_f(p[2][1])} "
        f"L{_f(p[3][0])},{_f(p[3][1])} A{_f(r0)},{_f(r0)} 0 {large} 0 {_f(p[0][0])},{_f(p[0][1])} Z"
    )


def _pawns(x: float, y: float, colour: str, z: int, c: int, k: int) -> list[str]:
    """One line of counts for one colour, centred on (x, y)."""
    items: list[tuple[str, int]] = [(kind, n) for kind, n in (("z", z), ("c", c), ("k", k)) if n]
    width = 26.0 * len(items)
    left = x - width / 2
    fill = FILL[colour]
    out = []
    for i, (kind, n) in enumerate(items):
        cx = left + 26.0 * i + 5
        if kind == "z":
            shape = (
                f'<circle cx="{_f(cx)}" cy="{_f(y - 4)}" r="4.5" fill="{fill}" '
                'stroke="#333" stroke-width="0.6"/>'
            )
        elif kind == "c":
            shape = (
                f'<polygon points="{_f(cx - 5)},{_f(y)} {_f(cx + 5)},{_f(y)} {_f(cx)},{_f(y - 9)}" '
                f'fill="{fill}" stroke="#333" stroke-width="0.6"/>'
            )
        else:
            shape = (
                f'<rect x="{_f(cx - 4.5)}" y="{_f(y - 8.5)}" width="9" height="9" '
                f'fill="{fill}" stroke="#333" stroke-width="0.6"/>'
            )
        out.append(shape)
        out.append(f'<text x="{_f(cx + 7)}" y="{_f(y)}" class="n">{n}</text>')
    return out


def board_svg(pub: dict[str, Any]) -> str:
    """The SVG text of the board in the public view ``pub``."""
    colours: list[str] = pub["colours"]
    in_play = set(pub["squares"])
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE + BELOW}" '
        f'viewBox="0 0 {SIZE} {SIZE + BELOW}" font-family="sans-serif">',
        "<style>.n{font-size:11px;fill:#111}.lbl{font-size:10px;fill:#555;font-weight:bold}"
        ".t{font-size:14px;fill:#111}</style>",
        f"<title>Symbioz board, turn {pub['turn']}</title>",
        f'<rect width="{SIZE}" height="{SIZE + BELOW}" fill="white"/>',
    ]
    for sq in SQUARES:
        ground = GROUND[sq.ring] if sq.name in in_play else "#d0d0d0"
        parts.append(f'<path d="{_sector(sq)}" fill="{ground}" stroke="#5a4a30" stroke-width="1.5"/>')
    parts.append(
        f'<circle cx="{_f(CENTRE)}" cy="{_f(CENTRE)}" r="{_f(RADII["lake"])}" '
        'fill="#6fa8dc" stroke="#5a4a30" stroke-width="1.5"/>'
    )
    parts.append(f'<text x="{_f(CENTRE)}" y="{_f(CENTRE + 4)}" text-anchor="middle" class="lbl">lake</text>')
    for sq in SQUARES:
        if sq.name not in in_play:
            continue
        mid_r = (INNER[sq.ring] + RADII[sq.ring]) / 2
        mid_a = float(sq.start + sq.end) / 2
        x, y = _point(mid_r, mid_a)
        owner = pub["symbioz"].get(sq.name)
        if owner is not None:
            parts.append(
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="24" fill="#2e8b2e" stroke="#145214" stroke-width="2"/>'
            )
            parts.append(
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="9" fill="{FILL[colours[owner]]}" stroke="#111"/>'
            )
            parts.append(
                f'<text x="{_f(x)}" y="{_f(y - 27)}" text-anchor="middle" class="lbl">{sq.name}</text>'
            )
            continue
        present = [
            s
            for s in range(pub["players"])
            if pub["zerbs"][sq.name][s] or pub["crapits"][sq.name][s] or pub["kroguls"][sq.name][s]
        ]
        total = sum(pub["zerbs"][sq.name])
        height = LINE * (len(present) + 1)
        top = y - height / 2 + 9
        label = sq.name + (f" ({total})" if total else "")
        parts.append(f'<text x="{_f(x)}" y="{_f(top)}" text-anchor="middle" class="lbl">{label}</text>')
        for i, s in enumerate(present):
            parts.extend(
                _pawns(
                    x,
                    top + LINE * (i + 1),
                    colours[s],
                    pub["zerbs"][sq.name][s],
                    pub["crapits"][sq.name][s],
                    pub["kroguls"][sq.name][s],
                )
            )
    counts = symbioz_counts(pub)
    status = (
        "game over"
        if pub["over"]
        else f"turn {pub['turn']} of {pub['turns']}, {colour_name(pub['first'])} first"
    )
    parts.append(
        f'<text x="10" y="{SIZE + 20}" class="t">Symbioz, {status}; {pub["target"]} Symbioz to win</text>'
    )
    for s, colour in enumerate(colours):
        # Two players to a row: room for a colour, a name of up to 32 characters and a count.
        x, y = 10.0 + 315 * (s % 2), SIZE + 40 + 22 * (s // 2)
        parts.append(f'<circle cx="{_f(x + 6)}" cy="{y}" r="6" fill="{FILL[colour]}" stroke="#333"/>')
        text = escape(f"{colour_name(s)} (player {s + 1}): {counts[s]} Symbioz")
        parts.append(f'<text x="{_f(x + 16)}" y="{y + 5}" class="n">{text}</text>')
    parts.append(
        f'<text x="{SIZE - 10}" y="{SIZE + 20}" text-anchor="end" class="n">'
        "disc Zerbs, triangle Crapits, square Kroguls</text>"
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
