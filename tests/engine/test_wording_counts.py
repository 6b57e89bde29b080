"""Counts and lists of names read as English: "1 point", not "1 points"; "alice, bob and
dave won", not "alice and bob and dave won" (pbem.wording.counted and join_names, used by
the games' reports and order forms, and by pbem's own messages).

Not by what the rules record: the texts of a game's events, its public position and its
outcome are part of every signed save, and ``pbem verify`` and ``pbem archive`` re-play a
game and compare those texts with the saves; a change of wording there would make every
game saved before it unverifiable (tests/engine/test_recorded_wording.py)."""

from __future__ import annotations

from pbem.wording import counted, join_names


def test_counted_is_singular_for_one_only() -> None:
    assert counted(1, "point") == "1 point"
    assert counted(-1, "point") == "-1 point"
    assert [counted(n, "point") for n in (0, 2, 12)] == ["0 points", "2 points", "12 points"]
    assert counted(3, "Psi", "Psi") == "3 Psi"


def test_join_names_lists_with_commas_and_a_final_and() -> None:
    assert join_names([]) == "" and join_names([], "nobody") == "nobody"
    assert join_names(["alice"]) == "alice"
    assert join_names(["alice", "bob"]) == "alice and bob"
    assert join_names(iter(["alice", "bob", "dave"])) == "alice, bob and dave"
