"""The Parasite board picture: an SVG drawing of the public view (pure; pictures are not
encrypted, so it reads nothing else).

Four boxes for the Office, Storehouse, Laboratory and Helipad (deck and discard pile sizes in
the title), a fifth for the Mission card while one is in play (its name and how many players
it needs), and one for the dead.  In each box, one row per marker: a disc of the character's
colour (a red ring when Distressed), the player's name ("player N", named by the engine), the
Leader's star, and the tokens the player carries as small discs of their colours (hidden
under Unknown Infections until the end).  Under the boxes, a legend naming every player with
character, condition and any revealed Infection card.
"""

from __future__ import annotations

from html import escape
from typing import Any

from pbem.game import View

from .cards import CardSet, load_cards

WIDTH = 672
BOX_W = 320
ROW = 32
GAP = 10
HEAD = 26
FILL = {
    "red": "#d62728",
    "white": "#f4f4f4",
    "green": "#2ca02c",
    "yellow": "#e0b800",
    "orange": "#ff7f0e",
    "blue": "#1f5fd6",
    "black": "#222222",
    "purple": "#8e44ad",
    "brown": "#8c564b",
}
DOG_FILL = "#c8b89a"
GROUND = {
    "office": "#e8eef7",
    "storehouse": "#f3ead6",
    "laboratory": "#e6f4ea",
    "helipad": "#eeeeee",
    "mission": "#fdf2d0",
    "dead": "#e0e0e0",
}


def _name(seat: int, n: int, cards: CardSet) -> str:
    return f"{cards.dog.name} the Dog" if seat == n else f"player {seat + 1}"


def _fill(pub: dict[str, Any], seat: int, cards: CardSet) -> str:
    if seat == pub["players"]:
        return DOG_FILL
    return FILL.get(cards.character(pub["chars"][seat]).colour, "#999999")


def _marker(pub: dict[str, Any], seat: int, x: float, y: float, cards: CardSet) -> list[str]:
    """One row: disc, name, Leader star, condition and tokens."""
    n = pub["players"]
    health = pub["health"][seat]
    ring = ' stroke="#c00000" stroke-width="3"' if health == "distressed" else ' stroke="#333"'
    out = [f'<circle cx="{x + 12}" cy="{y + 10}" r="8" fill="{_fill(pub, seat, cards)}"{ring}/>']
    label = _name(seat, n, cards)
    if seat == pub["leader"]:
        label += " \u2605 Leader"
    out.append(f'<text x="{x + 26}" y="{y + 14}" class="n">{escape(label)}</text>')
    note = health.capitalize()
    out.append(f'<text x="{x + 26}" y="{y + 27}" class="s">{escape(note)}</text>')
    tokens = pub["tokens"]
    if tokens is not None:
        for k, colour in enumerate(sorted(tokens[seat])):
            cx = x + 100 + 11 * k
            out.append(
                f'<circle cx="{cx}" cy="{y + 23}" r="4.5" fill="{_fill(pub, colour, cards)}" stroke="#333"/>'
            )
    return out


def _box(
    pub: dict[str, Any],
    title: str,
    ground: str,
    seats: list[int],
    x: float,
    y: float,
    h: float,
    cards: CardSet,
) -> list[str]:
    out = [
        f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{h}" rx="6" fill="{ground}" stroke="#5a4a30"/>',
        f'<text x="{x + 8}" y="{y + 18}" class="t">{escape(title)}</text>',
    ]
    if not seats:
        out.append(f'<text x="{x + 26}" y="{y + HEAD + 14}" class="s">nobody</text>')
    for k, seat in enumerate(seats):
        out += _marker(pub, seat, x + 4, y + HEAD + ROW * k, cards)
    return out


def _legend_line(pub: dict[str, Any], seat: int, cards: CardSet) -> str:
    n = pub["players"]
    if seat == n:
        role = "the Dog"
    else:
        char = cards.character(pub["chars"][seat])
        role = f"{char.role}, {char.colour}"
    loc = pub["loc"][seat]
    if loc is None:
        where = "Dead"
    else:
        where = (
            pub["health"][seat].capitalize()
            + ", "
            + ("on the Mission" if loc == "mission" else loc.capitalize())
        )
    text = f"{_name(seat, n, cards)}: {role}; {where}"
    if seat in pub.get("escaped", ()):
        text += "; Escaped"
    revealed = pub["revealed"][seat]
    if pub["over"] and "infection" in pub:
        held = max(pub["infection"][seat], key=lambda c: cards.infections[c].priority)
        inf = cards.infections[held]
        text += f"; {inf.name} ({inf.side.capitalize()})"
    elif revealed:
        inf = cards.infections[revealed]
        text += f"; revealed {inf.name} ({inf.side.capitalize()})"
    return text


def board(view: View) -> str:
    """The board as SVG text, from ``view.public`` only."""
    cards = load_cards()
    pub = view.public
    n = pub["players"]
    count = len(pub["health"])
    groups: dict[str, list[int]] = {k: [] for k in GROUND}
    for seat in range(count):
        loc = pub["loc"][seat]
        groups["dead" if loc is None else loc].append(seat)
    rows = max(3, *(len(v) for v in groups.values()))
    box_h = HEAD + ROW * rows + 6
    boxes: list[tuple[str, str, list[int]]] = []
    for loc in ("office", "storehouse", "laboratory", "helipad"):
        deck, gone = pub["decks"][loc], pub["discards"][loc]
        boxes.append((f"{loc.capitalize()} (deck {deck}, discards {gone})", loc, groups[loc]))
    if pub["mission"]:
        card = cards.cards[pub["mission"]]
        need = "resolved" if pub["mission_done"] else f"needs {card.needed(n)}"
        boxes.append((f"Mission: {card.name} ({need})", "mission", groups["mission"]))
    if groups["dead"]:
        boxes.append(("Dead", "dead", groups["dead"]))
    grid_rows = (len(boxes) + 1) // 2
    top = 40
    legend_top = top + grid_rows * (box_h + GAP) + 6
    height = legend_top + 18 * count + 28
    over = "final position" if pub["over"] else f"round {pub['round']}"
    heading = (
        f"Parasite, {over}; Leader: {_name(pub['leader'], n, cards)}; Infection deck {pub['infection_deck']}"
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif">',
        "<style>.n{font-size:12px;fill:#111}.s{font-size:10px;fill:#444}"
        ".t{font-size:13px;fill:#111;font-weight:bold}.h{font-size:15px;fill:#111}</style>",
        f"<title>Parasite, {over}</title>",
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
        f'<text x="{GAP}" y="24" class="h">{escape(heading)}</text>',
    ]
    for k, (title, ground, seats) in enumerate(boxes):
        x = GAP + (k % 2) * (BOX_W + GAP)
        y = top + (k // 2) * (box_h + GAP)
        parts += _box(pub, title, GROUND[ground], seats, x, y, box_h, cards)
    for seat in range(count):
        y = legend_top + 18 * seat
        parts.append(
            f'<circle cx="{GAP + 6}" cy="{y + 6}" r="6" fill="{_fill(pub, seat, cards)}" stroke="#333"/>'
        )
        parts.append(
            f'<text x="{GAP + 18}" y="{y + 10}" class="n">{escape(_legend_line(pub, seat, cards))}</text>'
        )
    key = "ring: Distressed; small discs: tokens carried"
    if pub["tokens"] is None:
        key = "ring: Distressed; tokens hidden (Unknown Infections)"
    parts.append(f'<text x="{GAP}" y="{height - 10}" class="s">{escape(key)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
