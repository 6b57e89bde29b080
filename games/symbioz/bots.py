"""The Symbioz bots: they read their own view and write an order file, as a player would.

``random`` writes random legal orders (random purchases, placements and meal choices);
``greedy`` plays sensibly: it completes a Symbioz by purchase when its points allow, sends
Crapits after rivals' big groups, breeds towards the fertile squares, and feeds its
animals on the leader's colour first.
"""

from __future__ import annotations

from typing import Any

from pbem.game import Game, View
from pbem.rng import Rng
from pbem_games.symbioz.board import BY_NAME, adjacency
from pbem_games.symbioz.state import COLOURS, PAWNS, SATURATION, buyable_squares, cost, symbioz_counts


class _Ctx:
    """What both bots need from a view: the seat, budget, supply and legal squares."""

    def __init__(self, view: View) -> None:
        if view.seat is None:
            raise ValueError("a bot needs a seat's view")
        self.seat: int = view.seat
        self.pub: dict[str, Any] = view.public
        self.squares: list[str] = [sq for sq in self.pub["squares"] if sq not in self.pub["symbioz"]]
        self.adj = adjacency(tuple(self.pub["squares"]))
        self.points: int = self.pub["options"]["points"]
        self.supply = {p: self.pub["supply"][p][self.seat] for p in PAWNS}
        self.zerbs: dict[str, list[int]] = self.pub["zerbs"]

    def mine(self, sq: str) -> int:
        return self.zerbs[sq][self.seat]

    def buyable(self) -> list[str]:
        if self.pub["turn"] == 1:
            return []
        return buyable_squares(self.pub, self.seat)

    def room(self, sq: str) -> int:
        return SATURATION - sum(self.zerbs[sq])

    def open_near(self, sq: str) -> list[str]:
        return [t for t in (sq, *self.adj[sq]) if t not in self.pub["symbioz"]]

    def others(self) -> list[int]:
        return [s for s in range(self.pub["players"]) if s != self.seat]

    def animal_squares(self, kind: str, bought: set[str]) -> list[str]:
        return [sq for sq in self.squares if self.pub[kind + "s"][sq][self.seat] or sq in bought]


def _lone_rival(ctx: _Ctx, sq: str) -> int:
    """Zerbs of the only colour in ``sq`` when it is a rival's; 0 otherwise."""
    row = ctx.zerbs[sq]
    present = [s for s, n in enumerate(row) if n]
    return row[present[0]] if len(present) == 1 and present[0] != ctx.seat else 0


def random_bot(game: Game, view: View, rng: Rng) -> list[str]:
    """Random legal orders: random purchases, then random placement and meal choices."""
    ctx = _Ctx(view)
    lines: list[str] = []
    bought: dict[str, set[str]] = {"crapit": set(), "krogul": set()}
    points = ctx.points
    squares = ctx.buyable()
    while squares and rng.randbelow(3):
        pawn = rng.choice(PAWNS)
        price = cost(ctx.pub["options"], pawn)
        most = min(points // price, ctx.supply[pawn])
        if most < 1:
            break
        n = rng.randint(1, most)
        sq = rng.choice(squares)
        lines.append(f"buy {n} {pawn} {sq}")
        points -= n * price
        ctx.supply[pawn] -= n
        if pawn != "zerb":
            bought[pawn].add(sq)
    for sq in ctx.squares:
        if ctx.mine(sq) and rng.coin():
            near = ctx.open_near(sq)
            arrow = rng.choice(("->", "prefer"))
            picks = rng.sample(near, rng.randint(1, min(len(near), 4)))
            lines.append(f"grow {sq} {arrow} {' '.join(picks)}" + rng.choice(("", " else any", " else none")))
    for kind in ("krogul", "crapit"):
        for sq in ctx.animal_squares(kind, bought[kind]):
            if rng.coin():
                eat = rng.sample(ctx.others(), rng.randint(1, len(ctx.others())))
                words = " ".join(COLOURS[c] for c in eat)
                lines.append(f"{kind} {sq} eat {words} -> {rng.choice(ctx.open_near(sq))}")
    return lines


def greedy_bot(game: Game, view: View, rng: Rng) -> list[str]:
    """Sensible orders: complete Symbioz by purchase, attack rivals' big groups, grow."""
    ctx = _Ctx(view)
    opts = ctx.pub["options"]
    lines: list[str] = []
    points = ctx.points
    squares = ctx.buyable()
    zc, cc = cost(opts, "zerb"), cost(opts, "crapit")
    # 1. Symbioz within reach: squares holding only our Zerbs, cheapest first.
    reach = sorted((SATURATION - ctx.mine(sq), sq) for sq in squares if sum(ctx.zerbs[sq]) == ctx.mine(sq))
    filled: set[str] = set()
    for need, sq in reach:
        if need * zc <= points and need <= ctx.supply["zerb"]:
            lines.append(f"buy {need} zerb {sq} else none")
            filled.add(sq)
            points -= need * zc
            ctx.supply["zerb"] -= need
    # 2. A Crapit where a rival's group is big and shares a square with us.
    bought: set[str] = set()
    threats = sorted(((max(ctx.zerbs[sq][o] for o in ctx.others()), sq) for sq in squares), reverse=True)
    for rival, sq in threats:
        if rival >= 6 and cc <= points and ctx.supply["crapit"]:
            lines.append(f"buy crapit {sq}")
            points -= cc
            ctx.supply["crapit"] -= 1
            bought.add(sq)
    # 3. The rest as Zerbs where they bring a group up to a multiple of 4.
    for sq in sorted(squares, key=lambda s: -ctx.mine(s)):
        gap = -ctx.mine(sq) % 4 or 4
        n = min(gap, points // zc, ctx.supply["zerb"], max(ctx.room(sq), 0))
        if n > 0 and sq not in filled:
            lines.append(f"buy {n} zerb {sq}")
            points -= n * zc
            ctx.supply["zerb"] -= n
    # Growth: first block a rival's lone big group (a square of one colour can make a
    # Symbioz, a mixed one cannot), then the fertile neighbours, then the parent square.
    for sq in ctx.squares:
        if ctx.mine(sq):
            near = [t for t in ctx.open_near(sq) if t != sq]
            block = [t for t in near if ctx.room(t) > 0 and _lone_rival(ctx, t) >= 6]
            fertile = [t for t in near if BY_NAME[t].fertile and t not in block]
            if block or fertile:
                lines.append(f"grow {sq} prefer {' '.join(block + fertile)} {sq}")
    # Animals eat the leader's colour first.
    counts = symbioz_counts(ctx.pub)
    rivals = sorted(ctx.others(), key=lambda s: -counts[s])
    words = " ".join(COLOURS[s] for s in rivals)
    for sq in ctx.animal_squares("crapit", bought):
        lines.append(f"crapit {sq} eat {words}")
    for sq in ctx.animal_squares("krogul", set()):
        lines.append(f"krogul {sq} eat {words}")
    return lines
