"""Issue 13, a fourth round: each shortcut gives exactly what the plain way gives (the plain way
kept here, or taken from the definition the shortcut is derived from)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jov_helpers import lines_of, make_state

from pbem.game import OrderErrors
from pbem.rng import Rng
from pbem_games.jovian_syzygy import GAME, board, bots, turns

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60"))


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(-(10**6), 10**6))
def test_a_seats_name_is_what_it_was(seat: int) -> None:
    assert turns.player(seat) == f"Player {seat + 1}"


def test_seat_names_are_remembered_in_bounded_memory() -> None:
    for seat in range(1000):
        turns.player(seat)
    info = turns.player.cache_info()
    assert info.maxsize == 64 and info.currsize <= 64


def test_a_spaces_neighbours_are_its_adjacency() -> None:
    adjacency = board.adjacency()
    for space in board.SPACE_NAMES:
        assert turns._neighbours(space) == set(adjacency[space])
        assert len(turns._neighbours(space)) == len(adjacency[space])  # no name twice
    with pytest.raises(KeyError):
        turns._neighbours("not a space")
    assert turns._neighbours.cache_info().currsize <= len(board.SPACE_NAMES)


def test_the_unboardable_choices_are_the_open_choices() -> None:
    for space in board.SPACE_NAMES:
        table = bots._unboardable(space)
        for can_move in (False, True):
            for stormed in (False, True):
                assert table[can_move][stormed] == bots._open(space, (), can_move, stormed)
    with pytest.raises(KeyError):
        bots._unboardable("not a space")


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.sampled_from(board.SPACE_NAMES),
    st.integers(0, 4),
    st.integers(0, 2),
    st.lists(
        st.sampled_from(["move D-3", "move A-1", "storm", "board io", "spend 1", "if wasted: stop"]),
        max_size=4,
    ),
)
def test_a_plans_verdict_depends_on_the_extra_move_limit_as_start_turn_reads_it(
    where: str, psi: int, limit: int, texts: list[str]
) -> None:
    """validate makes start_turn's Turn itself: the same limit (the option read as an int)."""
    options: dict[str, Any] = {"max-extra-moves": limit}
    state = make_state([where, "NE"], psi=[psi, 3], **options)
    v = GAME.observe(state, 0)
    made = turns.start_turn(0, where, psi, v.public["options"])
    assert made.extra_limit == limit
    as_text = dict(v.public["options"], **{"max-extra-moves": str(limit)})  # int() of a string
    assert turns.start_turn(0, where, psi, as_text).extra_limit == limit
    other = GAME.observe({**state, "options": as_text}, 0)

    def verdict(view: object) -> object:
        try:
            return GAME.validate(view, lines_of(*texts))
        except OrderErrors as errors:
            return [str(e) for e in errors.errors]

    assert verdict(v) == verdict(other)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.sampled_from([*board.SPACE_NAMES, *board.MOONS]),
    st.integers(0, 4),
    st.tuples(st.integers(0, 2), st.integers(0, 5), st.integers(0, 11), st.integers(0, 27)),
    st.integers(0, 2),
    st.binary(min_size=1, max_size=8),
)
def test_every_fallback_the_random_bot_writes_could_be_used(
    where: str, psi: int, sats: tuple[int, ...], limit: int, seed: bytes
) -> None:
    """The bot no longer asks fallback_problem before writing 'if wasted': its fallback is a
    step allowed after the very move it picked was wasted, so the checker accepts every plan
    (a refused fallback would raise here) and the fallback is usable after some move."""
    options: dict[str, Any] = {"max-extra-moves": limit}
    state = make_state([where, "NE"], sats=sats, psi=[psi, 3], **options)
    v = GAME.observe(state, 0)
    for n in range(6):
        texts = bots.random_bot(GAME, v, Rng(seed + bytes([n])))
        plan = GAME.validate(v, lines_of(*texts))
        if plan["fallback"] is not None:
            assert texts[-1].startswith("if wasted: try ")
            assert len(plan["fallback"]) == 1


_steps = st.one_of(
    st.tuples(st.just("move"), st.sampled_from(board.SPACE_NAMES)).map(list),
    st.tuples(st.just("board"), st.sampled_from(board.MOONS)).map(list),
    st.just(["storm"]),
    st.just(["ride"]),
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.lists(st.sampled_from([*board.SPACE_NAMES, *board.MOONS]), min_size=4, max_size=4),
    st.lists(st.integers(0, 3), min_size=4, max_size=4),
    st.lists(st.lists(_steps, max_size=4), min_size=4, max_size=4),
    st.integers(0, 2),
    st.binary(min_size=1, max_size=4),
)
def test_resolve_plays_each_seat_from_a_fresh_start(
    where: list[str], psi: list[int], plans: list[list[list[str]]], limit: int, seed: bytes
) -> None:
    """resolve sets one Turn to each seat's start: every seat plays as from a Turn made for it
    (places, Psi before the awards, and every turn's lines), whatever the seat before did."""
    options: dict[str, Any] = {"max-extra-moves": limit}
    state = make_state(where, psi=psi, storms={"D-3": 1, "A-1": 2}, **options)
    orders = {seat: {"steps": plans[seat], "fallback": [["storm"]]} for seat in range(4)}
    got = GAME.resolve(state, orders, Rng(seed))
    sats, places, left, storms = list(state["sats"]), list(where), list(psi), dict(state["storms"])
    rng, lines = Rng(seed), [f"Round 1: {turns.player(0)} goes first."]
    for seat in range(4):
        turn = turns.Turn(seat, places[seat], left[seat], 0, False, limit)
        lines += turns.play_turn(turn, orders[seat], sats, storms, rng, False) or [
            f"{turns.player(seat)} does nothing."
        ]
        places[seat], left[seat] = turn.where, turn.psi
    assert [e.text for e in got.events[: len(lines)]] == lines
    assert got.state["where"] == places
    gained = [0 if a is None else a["psi"] for a in got.state["awards"]]
    assert [p - g for p, g in zip(got.state["psi"], gained, strict=True)] == left
