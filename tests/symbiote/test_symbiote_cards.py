"""Card arithmetic: ranks, sets and their values, finding sets in a hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem_games.symbiote.cards import (
    DECK,
    RANK,
    STEPS,
    best_sets,
    full_deck,
    legal_sets,
    set_kind,
    set_value,
    show,
)


def test_the_deck() -> None:
    assert len(DECK) == 52 and len(set(DECK)) == 52
    assert len(full_deck(True)) == 104 and set(full_deck(True)) == set(DECK)
    assert RANK["AS"] == 1 and RANK["10H"] == 10 and RANK["KD"] == 13
    assert [STEPS[c] for c in ("AS", "9S", "10S", "JS", "QS", "KS")] == [1, 9, 10, -1, -2, -3]


@pytest.mark.parametrize(
    ("cards", "kind", "value"),
    [
        (["AS", "9S"], "pair", 4),
        (["AS", "9H"], "pair", 2),
        (["5H", "5D"], "pair", 2),
        (["2C", "8C"], "pair", 4),
        (["JS", "QS", "KS"], "royal", 6),
        (["KS", "JH", "QS"], "royal", 3),
        (["10S", "10H"], None, None),
        (["JS", "QS"], None, None),
        (["JS", "JD", "KS"], None, None),
        (["3S", "6S"], None, None),
    ],
)
def test_set_kinds_and_values(cards: list[str], kind: str | None, value: int | None) -> None:
    assert set_kind(cards) == kind
    if value is None:
        with pytest.raises(ValueError, match="not a set"):
            set_value(cards)
    else:
        assert set_value(cards) == value


def test_legal_sets_lists_each_distinct_set_once() -> None:
    assert legal_sets(["3H", "7H", "7C", "JS", "QD", "KC", "KS"]) == [
        ("3H", "7C"),
        ("3H", "7H"),
        ("JS", "QD", "KC"),
        ("JS", "QD", "KS"),
    ]
    assert legal_sets(["5H", "5H", "5D"]) == [("5D", "5H"), ("5H", "5H")]
    assert legal_sets(["5H", "5D", "10S", "10C"]) == [("5D", "5H")]
    assert legal_sets(["7H", "7H", "3C"]) == [("3C", "7H")]


def test_best_sets_takes_the_most_points() -> None:
    # 3H 7H (matched, 4) rather than 3H 7C (2); the royal adds 3.
    points, chosen = best_sets(["3H", "7H", "7C", "JS", "QD", "KC"])
    assert points == 7 and sorted(chosen) == [("3H", "7H"), ("JS", "QD", "KC")]
    # Both pairs, the matched one (4) and the other (2).
    points, chosen = best_sets(["AS", "9S", "9H", "AD"])
    assert points == 6 and sorted(chosen) == [("AD", "9H"), ("AS", "9S")]
    assert best_sets(["10S", "KD"]) == (0, [])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=0, max_size=8))
def test_every_listed_set_is_a_set_from_the_hand(hand: list[str]) -> None:
    for cards in legal_sets(hand):
        assert set_kind(cards) is not None
        rest = list(hand)
        for c in cards:
            rest.remove(c)
    points, chosen = best_sets(hand)
    rest = list(hand)
    for cards in chosen:
        for c in cards:
            rest.remove(c)
    assert points == sum(set_value(c) for c in chosen)
    assert not legal_sets(rest) or points > 0


def test_show_sorts_by_rank_then_suit() -> None:
    assert show(["KS", "10C", "AH", "2D", "AC"]) == "AC AH 2D 10C KS"
    assert show([]) == "(none)"
