"""The Symbioz bots: they read their own view and write an order file, as a player would.

``random`` writes random legal orders (random purchases, placements and meal choices);
``greedy`` plays sensibly: it completes a Symbioz by purchase when its points and the
purchase limit allow, defends (Crapits after rivals' big groups and after rival Zerbs that
block its own, newborns into a rival's lone group near 12), builds its biggest lone group,
spreads the other newborns, and feeds its animals on the leader's colour first.
"""

from __future__ import annotations

from typing import Any

from pbem.game import Game, View
from pbem.rng import Rng

from .board import BY_NAME, adjacency
from .state import (
    COLOURS,
    PAWNS,
    PHASE_VERBS,
    SATURATION,
    buy_limit,
    buyable_squares,
    cost,
    symbioz_counts,
)


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
        self.zerbs_bought: dict[str, int] = {}

    def mine(self, sq: str) -> int:
        return self.zerbs[sq][self.seat]

    def buyable(self, pawn: str = "zerb") -> list[str]:
        if self.pub["turn"] == 1 or self.pub.get("phase", 1) != 1:
            return []
        return buyable_squares(self.pub, self.seat, pawn)

    def room(self, sq: str) -> int:
        return SATURATION - sum(self.zerbs[sq])

    def limit(self, sq: str) -> int:
        """Zerbs that may still be bought into ``sq`` this turn (purchase limit and room)."""
        most = buy_limit(self.pub["options"], sq, self.mine(sq))
        left = max(self.room(sq), 0) if most is None else min(most, max(self.room(sq), 0))
        return max(left - self.zerbs_bought.get(sq, 0), 0)

    def bought_zerbs(self, sq: str, n: int) -> None:
        self.zerbs_bought[sq] = self.zerbs_bought.get(sq, 0) + n

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


def _this_phase(view: View, lines: list[str]) -> list[str]:
    """The lines of the phase whose orders are awaited (``order-rounds=phase``); all of them
    when a file holds the whole turn."""
    phase = view.public.get("phase")
    if phase is None:
        return lines
    return [line for line in lines if line.split()[0] == PHASE_VERBS[phase - 1]]


def random_bot(game: Game, view: View, rng: Rng) -> list[str]:
    """Random legal orders: random purchases, then random placement and meal choices."""
    ctx = _Ctx(view)
    lines: list[str] = []
    bought: dict[str, set[str]] = {"crapit": set(), "krogul": set()}
    points = ctx.points
    squares = ctx.buyable("crapit")  # every square something may be bought into
    while squares and rng.randbelow(3):
        pawn = rng.choice(PAWNS)
        price = cost(ctx.pub["options"], pawn)
        most = min(points // price, ctx.supply[pawn])
        if most < 1:
            break
        into = ctx.buyable(pawn)
        if not into:
            continue
        sq = rng.choice(into)
        limit = buy_limit(ctx.pub["options"], sq, ctx.mine(sq))
        if pawn == "zerb" and limit is not None:
            most = min(most, limit - ctx.zerbs_bought.get(sq, 0))
            if most < 1:
                continue
        n = rng.randint(1, most)
        if pawn == "zerb":
            ctx.bought_zerbs(sq, n)
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
    return _this_phase(view, lines)


GUARD = 8
"""A group of ours this big is worth a Krogul (5 points) against each Crapit in it: a
Crapit eats one Zerb a turn after multiplication, so the group never stays at 12."""
RIVAL_GROUP = 5
"""A rival's group this big in a square we share gets one of our Crapits."""
BLOCK_GROWTH = (5, 6, 7)
"""A rival's lone group this big next to ours gets one of our newborns (a mixed square
never makes a Symbioz); the threshold is drawn from these each turn (6 can complete by
purchase and growth at the end of the next turn, 7 sooner), so that greedy bots do not all
play the same game."""


def greedy_bot(game: Game, view: View, rng: Rng) -> list[str]:
    """Sensible orders that play the whole game, not only the race: complete Symbioz by
    purchase when the purchase limit allows; defend (Kroguls against the Crapits in our big
    groups, newborns into a rival's lone group before it reaches 12, Crapits after a rival's
    big group in a square we share, their newborns sent towards rivals' Zerbs, never left
    among ours); build the biggest lone group; spread the other newborns into open squares.
    Ties are broken at random, so that games between greedy bots differ."""
    ctx = _Ctx(view)
    opts = ctx.pub["options"]
    lines: list[str] = []
    points = ctx.points
    block_at = rng.choice(BLOCK_GROWTH)
    if ctx.pub["first"] == ctx.seat:  # rivals play before us next turn: block sooner
        block_at = min(BLOCK_GROWTH)
    squares = rng.sample(ctx.buyable(), len(ctx.buyable()))
    zc, cc, kc = cost(opts, "zerb"), cost(opts, "crapit"), cost(opts, "krogul")
    crapits: dict[str, list[int]] = ctx.pub["crapits"]
    kroguls: dict[str, list[int]] = ctx.pub["kroguls"]

    def pests(sq: str) -> int:
        """Crapits in ``sq`` that no Krogul of ours there will eat."""
        return sum(crapits[sq]) - kroguls[sq][ctx.seat]

    # 1. Kroguls against the Crapits in our big groups, biggest group first: a Crapit eats
    # one Zerb a turn after multiplication, so the group would never stay at 12.
    guarded: dict[str, list[int]] = {}
    cleared: set[str] = set()
    krogul_into = ctx.buyable("krogul")
    for sq in sorted(rng.sample(krogul_into, len(krogul_into)), key=lambda t: -ctx.mine(t)):
        want = min(pests(sq), points // kc, ctx.supply["krogul"])
        if ctx.mine(sq) >= GUARD and want > 0:
            lines.append(f"buy {want} krogul {sq}")
            points -= want * kc
            ctx.supply["krogul"] -= want
            guarded[sq] = [o for o in ctx.others() if crapits[sq][o]]
            if want == pests(sq):
                cleared.add(sq)
    # 2. Symbioz within reach: squares holding only our Zerbs and no Crapit left uneaten,
    # cheapest first.
    reach = sorted(
        ((SATURATION - ctx.mine(sq), sq) for sq in squares if sum(ctx.zerbs[sq]) == ctx.mine(sq)),
        key=lambda x: x[0],
    )
    filled: set[str] = set()
    for need, sq in reach:
        if pests(sq) > 0 and sq not in cleared:
            continue
        if need * zc <= points and need <= ctx.supply["zerb"] and need <= ctx.limit(sq):
            lines.append(f"buy {need} zerb {sq} else none")
            filled.add(sq)
            ctx.bought_zerbs(sq, need)
            points -= need * zc
            ctx.supply["zerb"] -= need
    # 3. Crapits: one into our big group to eat the one or two rival Zerbs that block it (a
    # mixed square never makes a Symbioz; a Krogul clears the Crapit once they are eaten),
    # and after a rival's big group in a square we share.
    bought: set[str] = set()
    prey: dict[str, int] = {}
    for sq in rng.sample(ctx.buyable("crapit"), len(ctx.buyable("crapit"))):
        rival = max(ctx.others(), key=lambda o: ctx.zerbs[sq][o])
        theirs = sum(ctx.zerbs[sq]) - ctx.mine(sq)
        blocked = (
            ctx.mine(sq) >= GUARD and 0 < theirs <= 2 and not crapits[sq][ctx.seat] + kroguls[sq][ctx.seat]
        )
        big_rival = ctx.zerbs[sq][rival] >= max(RIVAL_GROUP, ctx.mine(sq))
        if (blocked or big_rival) and cc <= points and ctx.supply["crapit"] and sq not in guarded:
            lines.append(f"buy crapit {sq}")
            points -= cc
            ctx.supply["crapit"] -= 1
            bought.add(sq)
            prey[sq] = rival

    # 4. The rest as Zerbs into our biggest groups, lone ones first.
    def rank(sq: str) -> tuple[bool, int]:
        return (sum(ctx.zerbs[sq]) != ctx.mine(sq), -ctx.mine(sq))

    for sq in sorted(squares, key=rank):
        n = min(points // zc, ctx.supply["zerb"], ctx.limit(sq))
        if n > 0 and sq not in filled:
            lines.append(f"buy {n} zerb {sq}")
            ctx.bought_zerbs(sq, n)
            points -= n * zc
            ctx.supply["zerb"] -= n
    # Growth: block a rival's lone group first, then keep the newborns of our biggest lone
    # group at home; other groups spread to fertile, then empty squares.
    mine = [sq for sq in ctx.squares if ctx.mine(sq)]
    home = min(mine, key=rank, default=None)
    for sq in rng.sample(mine, len(mine)):
        near = [t for t in ctx.open_near(sq) if t != sq and ctx.room(t) > 0]
        block = sorted(
            (t for t in near if _lone_rival(ctx, t) >= block_at), key=lambda t: -_lone_rival(ctx, t)
        )
        if sq == home and not block:
            continue
        fertile = [t for t in near if BY_NAME[t].fertile and t not in block]
        empty = [t for t in near if not sum(ctx.zerbs[t]) and t not in fertile]
        spread = [] if sq == home else fertile + empty
        if block or spread:
            lines.append(f"grow {sq} prefer {' '.join(block[:1] + spread)} {sq}")
    # Animals eat the colour they were bought for, then the leader's colour first; Crapits'
    # newborns go where rivals' Zerbs outnumber ours, Krogul clones to rival Crapits.
    counts = symbioz_counts(ctx.pub)
    others = ctx.others()
    rivals = sorted(rng.sample(others, len(others)), key=lambda s: -counts[s])

    def rival_zerbs(t: str) -> int:
        return sum(ctx.zerbs[t]) - 2 * ctx.mine(t)

    for sq in ctx.animal_squares("crapit", bought):
        order = ([prey[sq]] if sq in prey else []) + [r for r in rivals if r != prey.get(sq)]
        to = sorted((t for t in ctx.open_near(sq) if rival_zerbs(t) > 0), key=lambda t: -rival_zerbs(t))
        where = f" prefer {' '.join(to[:3])}" if to else ""
        lines.append(f"crapit {sq} eat {' '.join(COLOURS[s] for s in order)}{where}")
    for sq in ctx.animal_squares("krogul", set(guarded)):
        order = guarded.get(sq, []) + [r for r in rivals if r not in guarded.get(sq, [])]
        to = [t for t in ctx.open_near(sq) if ctx.mine(t) >= GUARD and pests(t) > 0 and t != sq]
        where = f" prefer {' '.join(to[:3])} {sq}" if to else ""
        lines.append(f"krogul {sq} eat {' '.join(COLOURS[s] for s in order)}{where}")
    return _this_phase(view, lines)
