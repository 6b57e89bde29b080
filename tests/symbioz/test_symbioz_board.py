"""The planet's geometry and the adjacency derived from it."""

from __future__ import annotations

import pytest

from pbem_games.symbioz.board import (
    BY_NAME,
    SQUARES,
    adjacency,
    full_adjacency,
    shares_edge,
    squares_in_play,
    start_squares,
)


def rotate(name: str, quarters: int) -> str:
    """The square a quarter turn (or several) clockwise from ``name``."""
    ring, number = name[0], int(name[1:])
    size = {"A": 4, "B": 8, "C": 12}[ring]
    return f"{ring}{(number - 1 + quarters * size // 4) % size + 1}"


def test_rings_and_quarters() -> None:
    assert [sq.name for sq in SQUARES if sq.ring == "A"] == ["A1", "A2", "A3", "A4"]
    assert len([sq for sq in SQUARES if sq.ring == "B"]) == 8
    assert len([sq for sq in SQUARES if sq.ring == "C"]) == 12
    for q in range(4):
        in_quarter = [sq for sq in SQUARES if sq.quarter == q]
        assert sorted(sq.ring for sq in in_quarter) == ["A", "B", "B", "C", "C", "C"]
    assert [sq.name for sq in SQUARES if sq.fertile] == ["A1", "A2", "A3", "A4"]


def test_adjacency_is_symmetric_and_irreflexive() -> None:
    adj = full_adjacency()
    for a, near in adj.items():
        assert a not in near
        for b in near:
            assert a in adj[b]


def test_quarter_rotation_maps_the_graph_onto_itself() -> None:
    adj = full_adjacency()
    edges = {frozenset((a, b)) for a, near in adj.items() for b in near}
    for q in range(1, 4):
        assert {frozenset(rotate(x, q) for x in e) for e in edges} == edges


def test_degrees() -> None:
    adj = full_adjacency()
    degrees = {name: len(near) for name, near in adj.items()}
    assert all(degrees[f"A{i}"] == 4 for i in range(1, 5))
    assert all(degrees[f"B{i}"] == 5 for i in range(1, 9))
    # In each quarter the middle outer square touches both B squares, the others one.
    assert [degrees[f"C{i}"] for i in range(1, 13)] == [3, 4, 3] * 4
    assert sum(degrees.values()) == 2 * 48  # 48 shared edges


def test_no_lake_crossing_and_no_diagonals() -> None:
    adj = full_adjacency()
    assert "A3" not in adj["A1"] and "A4" not in adj["A2"]  # across the lake
    # B2 ends where C4 starts (one corner at the quarter line): diagonal, not adjacent.
    assert "C4" not in adj["B2"] and "B3" not in adj["C3"]
    assert "B3" in adj["C4"] and "C4" in adj["C3"]
    # A fertile square touches the outer ring nowhere.
    assert not any(n.startswith("C") for i in range(1, 5) for n in adj[f"A{i}"])


def test_shares_edge_is_derived_from_angles() -> None:
    b1, c2, c3 = BY_NAME["B1"], BY_NAME["C2"], BY_NAME["C3"]
    assert b1.end == 45 and c2.start == 30 and c3.start == 60
    assert shares_edge(b1, c2)  # 30-45 overlap
    assert not shares_edge(b1, c3)  # 45 vs 60: no overlap
    assert shares_edge(BY_NAME["C12"], BY_NAME["C1"])  # the ring closes at 0/360


def test_two_player_half_board() -> None:
    half = squares_in_play(2)
    assert half == ("A1", "A2", "B1", "B2", "B3", "B4", "C1", "C2", "C3", "C4", "C5", "C6")
    adj = adjacency(half)
    assert adj["A1"] == ("A2", "B1", "B2")
    assert adj["C1"] == ("B1", "C2") and adj["C6"] == ("B4", "C5")
    assert all(set(near) <= set(half) for near in adj.values())
    assert squares_in_play(2, "full") == tuple(sq.name for sq in SQUARES)
    assert len(squares_in_play(3)) == len(squares_in_play(4)) == 24


@pytest.mark.parametrize("players", [1, 5])
def test_unsupported_player_counts(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 4"):
        squares_in_play(players)


def test_start_squares() -> None:
    assert [start_squares(4, s) for s in range(4)] == [
        ("C1", "C2", "C3"),
        ("C4", "C5", "C6"),
        ("C7", "C8", "C9"),
        ("C10", "C11", "C12"),
    ]
    assert start_squares(2, 1) == ("C4", "C5", "C6")
    three = [start_squares(3, s) for s in range(3)]
    assert three == [("C1", "C2", "C3"), ("C5", "C6", "C7"), ("C9", "C10", "C11")]
    # An empty square lies between every two colours.
    taken = {sq: s for s, group in enumerate(three) for sq in group}
    adj = full_adjacency()
    for sq, seat in taken.items():
        assert all(taken.get(n, seat) == seat for n in adj[sq])
