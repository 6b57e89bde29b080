"""Resolution of one Symbioz turn: the four phases, the end of the turn and the win check.

A turn is resolved from every player's order file at once.  The phases run in order and,
inside each phase, the players act in play order, each using what they wrote at the start
of the turn; a written choice that an earlier event made illegal falls back to the line's
``else`` squares and then to the automatic default (``policy``), and the turn's events say
which square was refused and why.  The input state is never changed: :class:`Turn` copies
the counts it works on.

Validated orders (see ``orders``) are JSON::

    {"buy":    [{"line", "pawn", "count", "square", "else", "fallback"}],
     "grow":   [{"line", "square", "mode", "targets", "else", "fallback"}],
     "krogul": [{"line", "square", "eat", "mode", "targets", "else", "fallback"}],
     "crapit": [ same as krogul ]}

``mode`` "each" sends the i-th newborn to the i-th target, "prefer" sends every newborn to
the first legal target; ``fallback`` "any" uses the automatic default after the ``else``
squares, "none" gives the pawn up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.game import Event, Resolution

from . import policy
from .board import ORDER, adjacency
from .state import (
    SATURATION,
    TURNS,
    State,
    births,
    buy_limit,
    colour_name,
    cost,
    may_buy_into,
    options_of,
    phase_rounds,
    play_order,
    symbioz_counts,
    symbioz_to_win,
    zerbs_on_board,
)

Order = Mapping[str, Any]
Counts = dict[str, list[int]]

EMPTY_ORDERS: dict[str, list[Any]] = {"buy": [], "grow": [], "krogul": [], "crapit": []}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _candidates(order: Order | None, i: int) -> tuple[list[str], str]:
    """The squares to try, in order, for the i-th pawn of a line, and its final fallback."""
    if order is None:
        return [], "any"
    targets = list(order["targets"])
    first = targets[i : i + 1] if order["mode"] == "each" else targets
    return first + list(order["else"]), order["fallback"]


class _Placement:
    """Where each pawn of one line went, and why a written square was passed over."""

    def __init__(self) -> None:
        self.placed: dict[str, int] = {}
        self.lost = 0
        self.refused: dict[str, str] = {}
        self.auto = 0

    def text(self) -> str:
        parts = [
            f"{sq} x{n}" if n > 1 else sq for sq, n in sorted(self.placed.items(), key=lambda p: ORDER[p[0]])
        ]
        if self.lost:
            parts.append(f"{self.lost} lost")
        out = ", ".join(parts) if parts else "nothing"
        notes = [f"{sq} refused: {why}" for sq, why in self.refused.items()]
        if self.auto:
            notes.append(f"{self.auto} placed by the automatic default")
        if notes:
            out += " (" + "; ".join(notes) + ")"
        return out


class Turn:
    """A working copy of the counts of one state, changed phase by phase."""

    def __init__(self, state: State) -> None:
        self.players: int = state["players"]
        self.options: Mapping[str, Any] = options_of(state)
        self.squares: tuple[str, ...] = tuple(state["squares"])
        self.adj = adjacency(self.squares)
        self.zerbs: Counts = {sq: list(row) for sq, row in state["zerbs"].items()}
        self.crapits: Counts = {sq: list(row) for sq, row in state["crapits"].items()}
        self.kroguls: Counts = {sq: list(row) for sq, row in state["kroguls"].items()}
        self.closed: dict[str, int] = dict(state["symbioz"])
        self.supply: Counts = {pawn: list(row) for pawn, row in state["supply"].items()}
        self.events: list[str] = []
        # What players call the game's turn (the pbem turn counts phases with order-rounds=phase).
        self.unit = "round" if phase_rounds(state) else "turn"

    # -- helpers ------------------------------------------------------------------------

    def room(self, sq: str) -> int:
        """How many more Zerbs ``sq`` can take (0 when saturated or closed)."""
        if sq in self.closed:
            return 0
        return SATURATION - sum(self.zerbs[sq])

    def _ordered(
        self, lines: Sequence[Order], present: Callable[[str], bool]
    ) -> list[tuple[str, Order | None]]:
        """Squares to process: those named in ``lines`` (in line order), then every other
        square where ``present`` holds, in board order."""
        out: list[tuple[str, Order | None]] = []
        seen = set()
        for line in lines:
            if present(line["square"]):
                out.append((line["square"], line))
            seen.add(line["square"])
        out.extend((sq, None) for sq in self.squares if sq not in seen and present(sq))
        return out

    def _place(
        self,
        order: Order | None,
        i: int,
        why_not: Callable[[str], str | None],
        auto: Callable[[], str | None],
        result: _Placement,
    ) -> str | None:
        """Pick the square for the i-th pawn of ``order``; record it in ``result``."""
        candidates, fallback = _candidates(order, i)
        for sq in candidates:
            reason = why_not(sq)
            if reason is None:
                result.placed[sq] = result.placed.get(sq, 0) + 1
                return sq
            result.refused.setdefault(sq, reason)
        chosen = auto() if fallback == "any" else None
        if chosen is None:
            result.lost += 1
            return None
        result.placed[chosen] = result.placed.get(chosen, 0) + 1
        if order is not None:
            result.auto += 1
        return chosen

    # -- phase 1: introduction ----------------------------------------------------------

    def introduction(self, seat: int, buys: Sequence[Order]) -> None:
        """Place the pawns ``seat`` bought, only into squares holding its Zerbs, never into
        closed squares, Zerbs never into saturated ones, fertile squares as the
        ``buy-in-fertile`` option allows (by default animals only)."""
        start = {sq: self.zerbs[sq][seat] for sq in self.squares}
        mine = {sq for sq in self.squares if start[sq] > 0}
        zerbs_in: dict[str, int] = {}
        budget: int = self.options["points"]
        who = colour_name(seat)
        for buy in buys:
            pawn, count = buy["pawn"], buy["count"]
            price = cost(self.options, pawn)
            table = {"zerb": self.zerbs, "crapit": self.crapits, "krogul": self.kroguls}[pawn]
            result = _Placement()
            bought = 0

            def why_not(sq: str, pawn: str = pawn) -> str | None:
                if sq in self.closed:
                    return "closed by a Symbioz"
                if sq not in mine:
                    return f"no {who} Zerb there"
                if not may_buy_into(self.options, sq, pawn):
                    return "fertile: Zerbs reach it by growth only" if pawn == "zerb" else "fertile"
                if pawn == "zerb" and self.room(sq) == 0:
                    return "saturated (12 Zerbs)"
                limit = buy_limit(self.options, sq, start[sq])
                if pawn == "zerb" and limit is not None and zerbs_in.get(sq, 0) >= limit:
                    return _limit_reason(sq, start[sq], limit, who, self.unit)
                return None

            def auto(why_not: Callable[[str], str | None] = why_not) -> str | None:
                legal = [sq for sq in self.squares if why_not(sq) is None]
                return policy.buy_square(legal, self.zerbs, seat)

            for i in range(count):
                if budget < price or self.supply[pawn][seat] == 0:
                    result.lost += count - i
                    break
                sq = self._place(buy, i, why_not, auto, result)
                if sq is None:
                    continue
                table[sq][seat] += 1
                if pawn == "zerb":
                    zerbs_in[sq] = zerbs_in.get(sq, 0) + 1
                self.supply[pawn][seat] -= 1
                budget -= price
                bought += 1
            self.events.append(
                f"{who} buys {_plural(count, pawn.capitalize())} for {buy['square']}: {result.text()}"
                + (f"; {bought} bought" if bought != count else "")
            )

    # -- phase 2: multiplication --------------------------------------------------------

    def multiplication(self, seat: int, grows: Sequence[Order]) -> None:
        """Each 4 Zerbs of ``seat`` in a square (3 in a fertile one) give one newborn,
        placed in that square or an adjacent one that is neither closed nor saturated and
        holds fewer Zerbs of the colour than the parent square had; newborns do not breed."""
        parents = {sq: self.zerbs[sq][seat] for sq in self.squares if sq not in self.closed}
        who = colour_name(seat)
        for sq, order in self._ordered(grows, lambda s: parents.get(s, 0) > 0):
            born = births(sq, parents[sq])
            if born == 0:
                if order is not None:
                    n = parents[sq]
                    self.events.append(
                        f"{who} {sq}: {_plural(n, 'Zerb')} {'gives' if n == 1 else 'give'} no newborn"
                    )
                continue
            result = _Placement()

            def why_not(t: str, parent: str = sq) -> str | None:
                if t not in self.adj[parent] and t != parent:
                    return f"not adjacent to {parent}"
                if t in self.closed:
                    return "closed by a Symbioz"
                if self.room(t) == 0:
                    return "saturated (12 Zerbs)"
                if t != parent and self.zerbs[t][seat] >= parents[parent]:
                    have, limit = self.zerbs[t][seat], parents[parent]
                    return f"holds {have} {who} Zerbs, not fewer than the {limit} of {parent}"
                return None

            def auto(parent: str = sq, why_not: Callable[[str], str | None] = why_not) -> str | None:
                legal = [t for t in (parent, *self.adj[parent]) if why_not(t) is None]
                return policy.newborn_zerb_square(legal, parent, self.zerbs, seat)

            no_supply = 0
            for i in range(born):
                if self.supply["zerb"][seat] == 0:
                    no_supply = born - i
                    break
                t = self._place(order, i, why_not, auto, result)
                if t is not None:
                    self.zerbs[t][seat] += 1
                    self.supply["zerb"][seat] -= 1
            text = f"{who} {sq} ({parents[sq]} Zerbs, {_plural(born, 'newborn')}): {result.text()}"
            if no_supply:
                text += f"; {no_supply} not born: no Zerb left in supply"
            self.events.append(text)

    # -- phases 3 and 4: Kroguls and Crapits --------------------------------------------

    def animals(self, seat: int, kind: str, lines: Sequence[Order]) -> None:
        """Kroguls (kind "krogul", eating Crapits) or Crapits (kind "crapit", eating Zerbs).

        Every animal of ``seat`` eats one prey in its square (the owner's colour choice,
        its own included; unless told, its own only when nothing else is there) or is
        removed.  Then each Krogul that ate clones once, and each pair of Crapits that ate
        gives one newborn, placed in the same or an adjacent open square, while the supply
        lasts.  Newborns do not eat or breed in the phase they are born.
        """
        herd = self.kroguls if kind == "krogul" else self.crapits
        prey_kind = "crapit" if kind == "krogul" else "zerb"
        prey = self.crapits if kind == "krogul" else self.zerbs
        who = colour_name(seat)
        name = kind.capitalize()
        todo = self._ordered(lines, lambda s: herd[s][seat] > 0)
        for line in lines:
            if herd[line["square"]][seat] == 0:
                self.events.append(
                    f"{who} {kind} order for {line['square']} unused: no {who} {name} there now"
                )
        fed: list[tuple[str, Order | None, int]] = []
        for sq, order in todo:
            eaters = herd[sq][seat]
            eaten = [0] * self.players
            starved = 0
            for _ in range(eaters):
                colour = policy.food_colour(prey[sq], seat, order["eat"] if order else ())
                if colour is None:
                    starved += 1
                    continue
                prey[sq][colour] -= 1
                self.supply[prey_kind][colour] += 1
                eaten[colour] += 1
            herd[sq][seat] -= starved
            self.supply[kind][seat] += starved
            ate = eaters - starved
            meal = ", ".join(
                _plural(n, f"{colour_name(c)} {prey_kind.capitalize()}") for c, n in enumerate(eaten) if n
            )
            text = f"{who} {_plural(eaters, name)} in {sq}"
            if ate:
                text += f" {'eats' if eaters == 1 else 'eat'} {meal}"
            if starved:
                text += f"{';' if ate else ':'} {starved} removed, nothing left to eat"
            self.events.append(text)
            young = ate if kind == "krogul" else ate // 2
            if young:
                fed.append((sq, order, young))
        for sq, order, young in fed:
            result = _Placement()

            def why_not(t: str, parent: str = sq) -> str | None:
                if t not in self.adj[parent] and t != parent:
                    return f"not adjacent to {parent}"
                if t in self.closed:
                    return "closed by a Symbioz"
                return None

            def auto(parent: str = sq, why_not: Callable[[str], str | None] = why_not) -> str | None:
                legal = [t for t in (parent, *self.adj[parent]) if why_not(t) is None]
                return policy.newborn_animal_square(legal, parent, prey, seat)

            short = 0
            for i in range(young):
                if self.supply[kind][seat] == 0:
                    short = young - i
                    break
                t = self._place(order, i, why_not, auto, result)
                if t is not None:
                    herd[t][seat] += 1
                    self.supply[kind][seat] -= 1
            verb = "clone" if kind == "krogul" else "breed"
            text = f"{who} {name}s of {sq} {verb} ({_plural(young, 'newborn')}): {result.text()}"
            if short:
                text += f"; {short} not born: every {who} {name} is on the board"
            self.events.append(text)

    # -- end of the turn ----------------------------------------------------------------

    def end_of_turn(self) -> None:
        """12 Zerbs of one colour in a square make a Symbioz: the square closes for good,
        its animals and all but one Zerb (kept in the marker) go back to their supplies."""
        for sq in self.squares:
            if sq in self.closed:
                continue
            row = self.zerbs[sq]
            owner = next((c for c, n in enumerate(row) if n >= SATURATION), None)
            if owner is None:
                continue
            self.closed[sq] = owner
            for c in range(self.players):
                self.supply["zerb"][c] += row[c] - (1 if c == owner else 0)
                self.supply["crapit"][c] += self.crapits[sq][c]
                self.supply["krogul"][c] += self.kroguls[sq][c]
            self.zerbs[sq] = [0] * self.players
            self.crapits[sq] = [0] * self.players
            self.kroguls[sq] = [0] * self.players
            self.events.append(f"Symbioz! {colour_name(owner)} closes {sq}")

    def state(self, base: State) -> State:
        """A new state: ``base``'s settings with this turn's counts."""
        out = dict(base)
        out.update(
            options=dict(self.options),
            zerbs=self.zerbs,
            crapits=self.crapits,
            kroguls=self.kroguls,
            symbioz=self.closed,
            supply=self.supply,
        )
        return out


def _limit_reason(sq: str, mine: int, limit: int, who: str, unit: str) -> str:
    """Why a bought Zerb may not enter ``sq``: the purchase limit, in words (``unit``: what
    players call the game's turn, "turn" or "round")."""
    return f"at most {limit} Zerb(s) bought into {sq} a {unit} ({mine} {who} Zerbs there)"


def _ranking(state: State) -> tuple[list[int], list[int]]:
    """(Symbioz, Zerbs on the board) per seat."""
    return symbioz_counts(state), zerbs_on_board(state)


def finish(state: State) -> tuple[State, str | None]:
    """Check the win after a turn: the target reached, or turn 12 played.  Returns the
    state (over, winners, result set when the game ends; else turn advanced and the first
    player moved one seat clockwise) and the closing line for the report, if any."""
    players = state["players"]
    symbioz, zerbs = _ranking(state)
    target = symbioz_to_win(players, options_of(state))
    reached = [s for s in range(players) if symbioz[s] >= target]
    if not reached and state["turn"] < TURNS:
        out = dict(state)
        out["turn"] = state["turn"] + 1
        out["first"] = (state["first"] + 1) % players
        return out, None
    pool = reached or list(range(players))
    best = max((symbioz[s], zerbs[s]) for s in pool)
    winners = [s for s in pool if (symbioz[s], zerbs[s]) == best]
    # "player N" after a colour: the engine puts the player's name in, so that an archived
    # report says who won, not only which colour.
    names = " and ".join(f"{colour_name(s)} (player {s + 1})" for s in winners)
    unit = "round" if phase_rounds(state) else "turn"
    why = f"{target} Symbioz reached" if reached else f"{unit} {TURNS} played"
    result = f"{names} {'wins' if len(winners) == 1 else 'share the win'} ({why}; " + ", ".join(
        f"{colour_name(s)} (player {s + 1}) {symbioz[s]} Symbioz/{zerbs[s]} Zerbs" for s in range(players)
    )
    result += ")"
    out = dict(state)
    out.update(over=True, winners=winners, result=result)
    return out, result


def play_phase(turn: Turn, phase: int, seats: Sequence[int], orders: Mapping[int, Any]) -> None:
    """Play phase ``phase`` (1 introduction, 2 multiplication, 3 Kroguls, 4 Crapits) for
    ``seats`` in play order, each from its validated orders (missing: every choice automatic)."""
    mine = {seat: orders.get(seat) or EMPTY_ORDERS for seat in seats}
    for seat in seats:
        if phase == 1:
            turn.introduction(seat, mine[seat]["buy"])
        elif phase == 2:
            turn.multiplication(seat, mine[seat]["grow"])
        else:
            turn.animals(
                seat, "krogul" if phase == 3 else "crapit", mine[seat]["krogul" if phase == 3 else "crapit"]
            )


def resolve_turn(state: State, orders: Mapping[int, Any]) -> Resolution:
    """Play one whole turn from every seat's validated orders (a missing seat's orders
    count as empty: every choice automatic).  Pure: ``state`` is not changed.

    Raises ValueError when the game is already over.
    """
    if state["over"]:
        raise ValueError("the game is over: there is no turn to resolve")
    turn = Turn(state)
    seats = play_order(state["players"], state["first"])
    turn.events.append(f"Turn {state['turn']}: play order " + ", ".join(colour_name(s) for s in seats))
    for phase in (1, 2, 3, 4) if state["turn"] > 1 else (2, 3, 4):
        play_phase(turn, phase, seats, orders)
    turn.end_of_turn()
    new, closing = finish(turn.state(state))
    if closing:
        turn.events.append(closing)
    return Resolution(new, tuple(Event(text) for text in turn.events))
