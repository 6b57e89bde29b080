"""The Symbioz planet: its squares, their geometry, and the adjacency derived from it.

The board is round.  Around the central lake lie three rings of squares: ring A, the four
fertile (green) squares; ring B, eight squares; ring C, twelve squares.  The board is
split into four quarters of 1 + 2 + 3 squares (one A, two B, three C), and each player
faces one quarter.  Squares are named by ring letter and a number counted clockwise from
the start of quarter 1: A1..A4, B1..B8, C1..C12.

Every square is an annular sector: a ring (inner and outer radius) and an angular span.
Two squares are adjacent when they share an edge of positive length: the same ring and
neighbouring spans, or neighbouring rings with overlapping spans (overlap of positive
length; touching at one corner is diagonal, not adjacent).  The lake is no square, so the
fertile squares across it are not adjacent.  Adjacency is computed from this geometry,
never typed in by hand.

Which squares are in play depends on the player count: 3 and 4 players use the whole board;
2 players use half of it (quarters 1 and 2) unless the ``two-player-board`` option says
"full".  Adjacency is restricted to the squares in play.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

RINGS = ("A", "B", "C")
"""Ring letters from the lake outward."""

RING_SIZES = {"A": 4, "B": 8, "C": 12}
QUARTERS = 4
FULL_TURN = Fraction(360)


@dataclass(frozen=True)
class Square:
    """One square of the planet: a sector of ring ``ring`` between two angles (degrees,
    clockwise from the start of quarter 1)."""

    name: str
    ring: str
    index: int
    start: Fraction
    end: Fraction

    @property
    def fertile(self) -> bool:
        """True for the four green squares around the lake (3 Zerbs breed there, not 4)."""
        return self.ring == "A"

    @property
    def quarter(self) -> int:
        """The quarter (0-3) the square lies in."""
        return int(self.start // (FULL_TURN / QUARTERS))


def _build_squares() -> tuple[Square, ...]:
    squares = []
    for ring in RINGS:
        size = RING_SIZES[ring]
        span = FULL_TURN / size
        for i in range(size):
            squares.append(Square(f"{ring}{i + 1}", ring, i, span * i, span * (i + 1)))
    return tuple(squares)


SQUARES: tuple[Square, ...] = _build_squares()
BY_NAME: dict[str, Square] = {sq.name: sq for sq in SQUARES}
ORDER: dict[str, int] = {sq.name: i for i, sq in enumerate(SQUARES)}
"""Board order (A1..A4, B1..B8, C1..C12): the tie-break order wherever one is needed."""


def _overlap(a: Square, b: Square) -> Fraction:
    """Length (degrees) of the overlap of two angular spans on the circle."""
    best = Fraction(0)
    for shift in (-FULL_TURN, Fraction(0), FULL_TURN):
        lo = max(a.start, b.start + shift)
        hi = min(a.end, b.end + shift)
        best = max(best, hi - lo)
    return best


def _touch(a: Square, b: Square) -> bool:
    """True when two spans of the same ring meet end to start (share a radial edge)."""
    return a.end % FULL_TURN == b.start % FULL_TURN or b.end % FULL_TURN == a.start % FULL_TURN


def shares_edge(a: Square, b: Square) -> bool:
    """True when squares ``a`` and ``b`` share an edge of positive length."""
    if a.name == b.name:
        return False
    ra, rb = RINGS.index(a.ring), RINGS.index(b.ring)
    if ra == rb:
        return _touch(a, b)
    if abs(ra - rb) == 1:
        return _overlap(a, b) > 0
    return False


@cache
def full_adjacency() -> dict[str, tuple[str, ...]]:
    """Adjacency of the whole board, derived from the geometry (board order in each list)."""
    return {a.name: tuple(b.name for b in SQUARES if shares_edge(a, b)) for a in SQUARES}


def squares_in_play(players: int, two_player_board: str = "half") -> tuple[str, ...]:
    """Names of the squares used with ``players`` players, in board order.

    Two players use quarters 1 and 2 only (A1-A2, B1-B4, C1-C6) unless the option says
    "full".  Raises ValueError for a player count the game does not support.
    """
    if players not in (2, 3, 4):
        raise ValueError(f"Symbioz is for 2 to 4 players, not {players}")
    if players == 2 and two_player_board == "half":
        return tuple(sq.name for sq in SQUARES if sq.quarter in (0, 1))
    return tuple(sq.name for sq in SQUARES)


@cache
def adjacency(squares: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Adjacency restricted to the squares in ``squares`` (a result of squares_in_play)."""
    inside = set(squares)
    full = full_adjacency()
    return {name: tuple(n for n in full[name] if n in inside) for name in squares}


def start_squares(players: int, seat: int) -> tuple[str, ...]:
    """The three outer squares where ``seat`` puts 4 Zerbs each at setup.

    With 2 or 4 players seat s takes the C squares of quarter s+1.  With 3 players each
    seat takes three C squares followed by one empty square, so an empty square lies
    between every two colours: seat 0 C1-C3, seat 1 C5-C7, seat 2 C9-C11 (C4, C8, C12
    stay empty).
    """
    step = 4 if players == 3 else 3
    first = step * seat
    return tuple(f"C{first + i + 1}" for i in range(3))
