"""The speed shortcuts answer exactly as the long way: validate's quick path for the commonest
files against the full reading, and could_hold_set against legal_sets."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sym_helpers import lines

from pbem.game import OrderErrors
from pbem.rng import Rng
from pbem_games.symbiote import GAME, orders
from pbem_games.symbiote.cards import DECK, could_hold_set, legal_sets

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0")) or 150
CARDS = st.sampled_from(DECK)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(CARDS, max_size=9))
def test_could_hold_set_is_exactly_whether_there_is_a_set(hand: list[str]) -> None:
    assert could_hold_set(hand) == bool(legal_sets(hand))


def test_one_five_is_no_set_and_two_are() -> None:
    assert not could_hold_set(["5H", "KD", "2C"])
    assert could_hold_set(["5H", "KD", "5C"])
    assert could_hold_set(["5H", "5H"])


def _answer(view, texts):  # type: ignore[no-untyped-def]
    try:
        return GAME.validate(view, lines(*texts))
    except OrderErrors as exc:
        return [str(e) for e in exc.errors]


WORDS = st.sampled_from(["take", "draw", "discard", "pair", "royal", "draw now", "take 7H"])


@settings(max_examples=EXAMPLES, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40), data=st.data())
def test_the_quick_path_answers_as_the_full_reading(seed: int, steps: int, data: st.DataObject) -> None:
    state = GAME.setup(4, {}, Rng(b"quick/%d" % seed))
    for k in range(steps):
        if state["phase"] == "over":
            break
        view = GAME.observe(state, state["seat"])
        texts = GAME.bots["random"](GAME, view, Rng(b"quick/%d/%d" % (seed, k)))
        state = GAME.resolve(
            state, {state["seat"]: GAME.validate(view, lines(*texts))}, Rng(b"q%d" % k)
        ).state
    if state["phase"] == "over":
        return
    view = GAME.observe(state, state["seat"])
    hand = (
        view.private["hand"] + [view.public["discard"][-1]]
        if view.public["discard"]
        else view.private["hand"]
    )
    line = st.one_of(WORDS, st.builds(lambda c: f"discard {c}", st.sampled_from(hand or ["AS"])))
    texts = data.draw(st.lists(line, min_size=1, max_size=3))
    quick = _answer(view, texts)
    full = pytest.MonkeyPatch()
    full.setattr(orders, "_plain", lambda sit, lines: None)
    orders._last = (None, None)
    try:
        assert _answer(view, texts) == quick
    finally:
        full.undo()
