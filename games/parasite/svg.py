"""A plain SVG board of Parasite: the Locations and who stands there (public facts only)."""

from __future__ import annotations

from html import escape

from pbem.game import View

PLACES = ("office", "storehouse", "laboratory", "helipad", "mission")


def board(view: View) -> str:
    """The board as SVG text: one box per Location, a marker per living seat."""
    pub = view.public
    n = pub["players"]
    height = 150 + 14 * len(pub["loc"])
    head = f'<svg xmlns="http://www.w3.org/2000/svg" width="500" height="{height}"'
    parts = [head + ' font-family="sans-serif" font-size="11">']
    for k, place in enumerate(PLACES):
        if place == "mission" and not pub["mission"]:
            continue
        x = 5 + k * 99
        parts.append(f'<rect x="{x}" y="5" width="94" height="120" fill="none" stroke="black"/>')
        parts.append(f'<text x="{x + 4}" y="20">{escape(place.capitalize())}</text>')
        row = 0
        for seat, loc in enumerate(pub["loc"]):
            if loc != place:
                continue
            label = "Dog" if seat == n else f"P{seat + 1}"
            mark = "*" if pub["health"][seat] == "distressed" else ""
            parts.append(f'<text x="{x + 6}" y="{38 + 14 * row}">{escape(label + mark)}</text>')
            row += 1
    for seat in range(len(pub["loc"])):
        label = "the Dog" if seat == n else f"player {seat + 1}"
        where = (pub["loc"][seat] or "dead").capitalize()
        line = f"{label}: {pub['health'][seat]}, {where}"
        parts.append(f'<text x="8" y="{145 + 14 * seat}">{escape(line)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
