"""Reading and checking a Symbioz order file (one per player per turn; with
``order-rounds=phase`` one per phase, holding only that phase's orders).

One file holds every choice of the turn; every line is optional, and what is not written
is chosen by the documented automatic defaults, so an empty file is always legal::

    buy 3 zerbs C3 else C2 any    # introduction (from turn 2): pawns, square, fallbacks
    buy crapit C5
    grow C3 -> B2 C3              # multiplication: 1st newborn of C3 to B2, 2nd to C3
    grow C2 prefer A1 B1 else none  # every newborn of C2 to the first legal square listed
    krogul B2 eat red blue -> C3  # Kroguls of B2: eat Red first, then Blue; clone to C3
    crapit C5 eat blue prefer C5 C4

Words are case-insensitive and may be shortened (``z``/``zerb``/``zerbs``, ``k``...);
``->`` may also be written ``to``.  ``else`` lists squares to try next, ending with ``any``
(the automatic default, assumed when left out) or ``none`` (give the pawn up).

Validation checks everything knowable from the view at the start of the turn (costs,
points, supply, squares holding the player's Zerbs and animals, adjacency, closed squares,
room for bought Zerbs); what depends on earlier players' moves in the same turn is settled
by the fallbacks at resolution.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game import (
    AmbiguousOrderError,
    IllegalOrderError,
    InvalidOrderError,
    OrderError,
    OrderErrors,
    OrderLine,
    View,
    checked_suggestions,
)
from pbem.wording import counted

from .board import ORDER, adjacency
from .state import (
    COLOURS,
    PAWNS,
    PHASE_VERBS,
    PHASES,
    SATURATION,
    buy_limit,
    buyable_squares,
    colour_name,
    cost,
    fertile,
    may_buy_into,
)

VERBS = {
    "buy": "buy",
    "b": "buy",
    "grow": "grow",
    "g": "grow",
    "multiply": "grow",
    "krogul": "krogul",
    "kroguls": "krogul",
    "k": "krogul",
    "crapit": "crapit",
    "crapits": "crapit",
    "c": "crapit",
}
PAWN_WORDS = {
    **{p: p for p in PAWNS},
    **{p + "s": p for p in PAWNS},
    "z": "zerb",
    "c": "crapit",
    "k": "krogul",
}
ARROWS = {"->": "each", "to": "each", "prefer": "prefer"}
MAX_NEWBORNS = 4
"""No square can give more: 12 Zerbs of a colour in a fertile square (12 // 3)."""
MAX_COUNT_DIGITS = 4
"""Digits read in a count: a supply holds far fewer pawns (longer numbers are refused unread)."""

_SQUARE = re.compile(r"^([abc])\s*(\d{1,2})$")


def _tokens(text: str) -> list[str]:
    text = text.lower().replace("->", " -> ").replace(",", " ")
    return text.split()


class _Checker:
    """Parses lines against one view, collecting every error."""

    def __init__(self, view: View) -> None:
        pub = view.public
        if view.seat is None:
            raise ValueError("orders need a seat's view")
        self.seat: int = view.seat
        self.pub = pub
        self.squares: tuple[str, ...] = tuple(pub["squares"])
        self.adj = adjacency(self.squares)
        self.closed: Mapping[str, int] = pub["symbioz"]
        self.colours = COLOURS[: pub["players"]]
        self.errors: list[OrderError] = []
        self.spent = 0
        self.bought = {p: 0 for p in PAWNS}
        self.zerbs_into: dict[str, int] = {}
        self.zerbs_bought: dict[str, int] = {}
        self.animals_bought: dict[str, set[str]] = {"krogul": set(), "crapit": set()}
        self.out: dict[str, list[dict[str, Any]]] = {"buy": [], "grow": [], "krogul": [], "crapit": []}

    # -- small readers ------------------------------------------------------------------

    def square(self, line: OrderLine, word: str) -> str:
        """The square named by ``word``.  Raises OrderError if it is not on this board."""
        match = _SQUARE.match(word)
        if match:
            name = f"{match.group(1).upper()}{int(match.group(2))}"
            if name in self.squares:
                return name
            if re.fullmatch(r"A[1-4]|B[1-8]|C([1-9]|1[0-2])", name):
                raise IllegalOrderError(line, f"{name} is not in play in this game")
        close = difflib.get_close_matches(word.upper(), self.squares, n=1)
        raise InvalidOrderError(
            line, f"{word!r} is not a square (A1-A4, B1-B8, C1-C12)", self._swap(line, word, close)
        )

    def nearest(self, sq: str, candidates: Sequence[str]) -> list[str]:
        """The candidate closest to ``sq`` on the board (fewest steps, then board order)."""
        if not candidates:
            return []
        if sq not in self.adj:
            return difflib.get_close_matches(sq, candidates, n=1)
        seen, frontier = {sq}, [sq]
        while frontier:
            hits = sorted((s for s in frontier if s in candidates), key=ORDER.__getitem__)
            if hits:
                return hits[:1]
            frontier = [n for s in frontier for n in self.adj[s] if n not in seen]
            seen.update(frontier)
        return []

    def _swap(self, line: OrderLine, word: str, close: Sequence[str]) -> str | None:
        if not close:
            return None
        return re.sub(rf"(?i)(?<!\w){re.escape(word)}(?!\w)", close[0], line.text, count=1)

    def open_square(self, line: OrderLine, word: str) -> str:
        sq = self.square(line, word)
        if sq in self.closed:
            raise IllegalOrderError(line, f"{sq} is closed by a {colour_name(self.closed[sq])} Symbioz")
        return sq

    def fallbacks(self, line: OrderLine, words: list[str]) -> tuple[list[str], str]:
        """The squares after ``else`` and the final any/none (default any)."""
        fallback = "any"
        if words and words[-1] in ("any", "none"):
            fallback = words.pop()
        for word in words:
            if word in ("any", "none", "else"):
                raise InvalidOrderError(line, f"{word!r} must come last, after the squares of 'else'")
        return [self.open_square(line, w) for w in words], fallback

    def split_else(self, words: list[str]) -> tuple[list[str], list[str] | None]:
        if "else" in words:
            i = words.index("else")
            return words[:i], words[i + 1 :]
        return words, None

    def my_zerbs(self, sq: str) -> int:
        count: int = self.pub["zerbs"][sq][self.seat]
        return count

    # -- one kind of line each ----------------------------------------------------------

    def buy(self, line: OrderLine, words: list[str]) -> None:
        if self.pub["turn"] == 1:
            raise IllegalOrderError(line, "turn 1 has no introduction phase: nothing can be bought")
        head, tail = self.split_else(words)
        count, pawn, where = None, None, None
        for word in head:
            if word.isascii() and word.isdigit():
                if count is not None:
                    raise InvalidOrderError(line, "two counts")
                if len(word) > MAX_COUNT_DIGITS:
                    raise InvalidOrderError(line, f"{word[:8]}... is more pawns than any supply holds")
                count = int(word)
            elif word in PAWN_WORDS and pawn is None:
                pawn = PAWN_WORDS[word]
            elif where is None:
                where = word
            else:
                raise InvalidOrderError(
                    line, f"unexpected {word!r}; write: buy [N] zerb|crapit|krogul SQUARE"
                )
        if pawn is None:
            close = difflib.get_close_matches(where or "", list(PAWN_WORDS), n=1)
            raise InvalidOrderError(
                line, "which pawn? zerb, crapit or krogul", self._swap(line, where or "", close)
            )
        if where is None:
            raise InvalidOrderError(line, "which square? write: buy [N] " + pawn + " SQUARE")
        count = 1 if count is None else count
        if count < 1:
            raise InvalidOrderError(line, "buy at least one pawn")
        sq = self.open_square(line, where)
        self.check_buy_square(line, sq, pawn)
        others, fallback = self.fallbacks(line, tail or [])
        for other in others:
            self.check_buy_square(line, other, pawn)
        price = cost(self.pub["options"], pawn)
        points: int = self.pub["options"]["points"]
        if self.spent + price * count > points:
            left = (points - self.spent) // price
            raise IllegalOrderError(
                line,
                f"{counted(count, pawn)} {'costs' if count == 1 else 'cost'} "
                f"{counted(price * count, 'point')}; "
                f"{points - self.spent} of {points} left",
                f"buy {left} {pawn} {sq}" if left else None,
            )
        supply: int = self.pub["supply"][pawn][self.seat]
        if self.bought[pawn] + count > supply:
            left = supply - self.bought[pawn]
            raise IllegalOrderError(
                line,
                f"only {counted(left, pawn)} left in your supply",
                f"buy {left} {pawn} {sq}" if left else None,
            )
        if pawn == "zerb":
            room = SATURATION - sum(self.pub["zerbs"][sq]) - self.zerbs_into.get(sq, 0)
            if count > room and not others and fallback == "none":
                raise IllegalOrderError(
                    line,
                    f"{sq} has room for {max(room, 0)} more {'Zerb' if room == 1 else 'Zerbs'}",
                    f"buy {room} zerb {sq}" if room > 0 else None,
                )
            self.check_buy_limit(line, sq, count, not others and (tail is None or fallback == "none"))
            self.zerbs_into[sq] = self.zerbs_into.get(sq, 0) + min(count, max(room, 0))
        else:
            self.animals_bought[pawn].add(sq)
        self.spent += price * count
        self.bought[pawn] += count
        self.out["buy"].append(
            {
                "line": line.number,
                "pawn": pawn,
                "count": count,
                "square": sq,
                "targets": [sq],
                "mode": "prefer",
                "else": others,
                "fallback": fallback,
            }
        )

    def check_buy_limit(self, line: OrderLine, sq: str, count: int, no_else: bool) -> None:
        """Refuse Zerbs beyond the purchase limit of ``sq`` on a line with no fallback square
        and no explicit ``else any`` (``no_else``; otherwise the rest go to the fallbacks at
        resolution); count those that fit."""
        mine = self.my_zerbs(sq)
        limit = buy_limit(self.pub["options"], sq, mine)
        if limit is None:
            return
        left = max(limit - self.zerbs_bought.get(sq, 0), 0)
        if count > left and no_else:
            rule = "1 per 3 of your Zerbs there" if fertile(sq) else "1 per 4 of your Zerbs there"
            if self.pub["options"]["purchase-limit"] == "double":
                rule = "as many as you have there"
            raise IllegalOrderError(
                line,
                f"at most {left} more {'Zerb' if left == 1 else 'Zerbs'} may be bought into {sq} this "
                f"{'round' if self.pub.get('phase') else 'turn'} ({rule}: "
                f"{mine}); add 'else any' to place the rest elsewhere",
                f"buy {left} zerb {sq}" if left else None,
            )
        self.zerbs_bought[sq] = self.zerbs_bought.get(sq, 0) + min(count, left)

    def check_buy_square(self, line: OrderLine, sq: str, pawn: str) -> None:
        if self.my_zerbs(sq) == 0:
            mine = buyable_squares(self.pub, self.seat, pawn)
            raise IllegalOrderError(
                line,
                f"you have no Zerb in {sq}: pawns are bought only into squares with your Zerbs",
                self._swap(line, sq, self.nearest(sq, mine)),
            )
        if not may_buy_into(self.pub["options"], sq, pawn):
            what = "Zerbs reach it by growth only" if pawn == "zerb" else "no pawn is bought into it"
            raise IllegalOrderError(line, f"{sq} is fertile: {what}")

    def placements(self, line: OrderLine, parent: str, words: list[str]) -> dict[str, Any]:
        """Parse ``[-> | to | prefer] T ... [else T ... any|none]`` for newborns of ``parent``."""
        head, tail = self.split_else(words)
        mode, targets = "each", []
        if head:
            if head[0] not in ARROWS:
                close = difflib.get_close_matches(head[0], list(ARROWS), n=1)
                raise InvalidOrderError(
                    line, f"expected '->' or 'prefer', not {head[0]!r}", self._swap(line, head[0], close)
                )
            mode = ARROWS[head[0]]
            targets = [self.open_square(line, w) for w in head[1:]]
            if not targets:
                raise InvalidOrderError(line, f"no square after {head[0]!r}")
        others, fallback = self.fallbacks(line, tail or [])
        for t in [*targets, *others]:
            if t != parent and t not in self.adj[parent]:
                near = ", ".join((parent, *self.adj[parent]))
                raise IllegalOrderError(
                    line,
                    f"{t} is not {parent} nor adjacent to it (possible: {near})",
                    self._swap(line, t.lower(), self.nearest(t, [parent, *self.adj[parent]])),
                )
        if mode == "each" and len(targets) > MAX_NEWBORNS:
            raise IllegalOrderError(line, f"a square never gives more than {MAX_NEWBORNS} newborns")
        return {
            "line": line.number,
            "square": parent,
            "mode": mode,
            "targets": targets,
            "else": others,
            "fallback": fallback,
        }

    def grow(self, line: OrderLine, words: list[str]) -> None:
        if not words:
            raise InvalidOrderError(line, "which square? write: grow SQUARE -> SQUARE ...")
        sq = self.open_square(line, words[0])
        if self.my_zerbs(sq) == 0:
            mine = [s for s in self.squares if self.my_zerbs(s) > 0 and s not in self.closed]
            raise IllegalOrderError(
                line,
                f"you have no Zerb in {sq}",
                self._swap(line, words[0], self.nearest(sq, mine)),
            )
        if any(o["square"] == sq for o in self.out["grow"]):
            raise AmbiguousOrderError(line, f"a second grow order for {sq}: write one line per square")
        self.out["grow"].append(self.placements(line, sq, words[1:]))

    def animal(self, line: OrderLine, kind: str, words: list[str]) -> None:
        if not words:
            raise InvalidOrderError(
                line, f"which square? write: {kind} SQUARE [eat COLOUR ...] [-> SQUARE ...]"
            )
        sq = self.open_square(line, words[0])
        here: int = self.pub[kind + "s"][sq][self.seat]
        if here == 0 and sq not in self.animals_bought[kind]:
            mine = [s for s in self.squares if self.pub[kind + "s"][s][self.seat] > 0] + sorted(
                self.animals_bought[kind]
            )
            raise IllegalOrderError(
                line,
                f"you have no {kind.capitalize()} in {sq}",
                self._swap(line, words[0], self.nearest(sq, mine)),
            )
        if any(o["square"] == sq for o in self.out[kind]):
            raise AmbiguousOrderError(line, f"a second {kind} order for {sq}: write one line per square")
        rest = words[1:]
        eat: list[int] = []
        if rest and rest[0] == "eat":
            rest = rest[1:]
            while rest and rest[0] not in ARROWS and rest[0] != "else":
                eat.append(self.colour(line, rest.pop(0)))
            if not eat:
                raise InvalidOrderError(line, "no colour after 'eat'")
        order = self.placements(line, sq, rest)
        order["eat"] = eat
        self.out[kind].append(order)

    def colour(self, line: OrderLine, word: str) -> int:
        names = list(self.colours)
        matches = [i for i, name in enumerate(names) if name.startswith(word)]
        if len(matches) != 1:
            close = difflib.get_close_matches(word, names, n=1)
            raise InvalidOrderError(
                line,
                f"{word!r} is not a colour in this game ({', '.join(names)})",
                self._swap(line, word, close),
            )
        return matches[0]

    def check_phase(self, line: OrderLine, verb: str) -> None:
        """With one order round per phase (``order-rounds=phase``), refuse an order of
        another phase: it would be lost, since that phase is written in its own round."""
        phase = self.pub.get("phase")
        if phase is None or verb == PHASE_VERBS[phase - 1]:
            return
        other = PHASE_VERBS.index(verb)
        raise IllegalOrderError(
            line,
            f"this order round is round {self.pub['turn']}, phase {phase} ({PHASES[phase - 1]}):"
            f" only {PHASE_VERBS[phase - 1]} orders; {verb} orders are written in the"
            f" {PHASES[other]} phase's own round",
        )

    def read(self, line: OrderLine) -> None:
        words = _tokens(line.text)
        verb = VERBS.get(words[0]) if words else None
        if verb is None:
            close = difflib.get_close_matches(
                words[0] if words else "", ["buy", "grow", "krogul", "crapit"], n=1
            )
            raise InvalidOrderError(
                line,
                "an order starts with buy, grow, krogul or crapit",
                self._swap(line, words[0], close) if words else None,
            )
        self.check_phase(line, verb)
        if verb == "buy":
            self.buy(line, words[1:])
        elif verb == "grow":
            self.grow(line, words[1:])
        else:
            self.animal(line, verb, words[1:])


def validate_orders(view: View, lines: Sequence[OrderLine]) -> dict[str, list[dict[str, Any]]]:
    """Parse and check a whole order file against ``view``; return the orders as JSON.

    Raises OrderErrors listing every bad line (Invalid: unreadable; Illegal: not allowed
    now; Ambiguous: two lines for the same square and phase).
    """
    try:
        return _validated(view, lines)
    except OrderErrors as exc:
        raise OrderErrors(checked_suggestions(_validated, view, lines, exc.errors)) from None


def _validated(view: View, lines: Sequence[OrderLine]) -> dict[str, list[dict[str, Any]]]:
    """:func:`validate_orders` without checking its suggestions (each names one wrong word)."""
    if view.public.get("over"):
        if lines:
            raise OrderErrors([IllegalOrderError(lines[0], "the game is over")])
        return {"buy": [], "grow": [], "krogul": [], "crapit": []}
    checker = _Checker(view)
    for line in lines:
        try:
            checker.read(line)
        except OrderError as exc:
            checker.errors.append(exc)
    if checker.errors:
        raise OrderErrors(checker.errors)
    return checker.out
