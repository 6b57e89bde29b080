"""The speed shortcuts answer exactly as the long way: validate's quick path for the commonest
files against the full reading, and could_hold_set against legal_sets."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sym_helpers import lines

from pbem.game import OrderErrors, View
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


def _answer(view, texts):
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
    held = st.sampled_from(hand or ["AS"])
    sets = legal_sets(hand)
    set_line = st.one_of(
        # sets the hand (and the top discard) can make, under their word or the wrong one
        st.builds(
            lambda s, w: f"{w or orders.set_line(s).split()[0]} {' '.join(s)}",
            st.sampled_from(sets),
            st.sampled_from([None, "play", "pair", "royal"]),
        )
        if sets
        else st.just("pair 5H 5S"),
        # any cards held, a set or not
        st.builds(
            lambda cs, w: f"{w} {' '.join(cs)}",
            st.lists(held, min_size=0, max_size=3),
            st.sampled_from(["pair", "royal", "play"]),
        ),
    )
    line = st.one_of(WORDS, st.builds(lambda c: f"discard {c}", held), set_line)
    first = st.sampled_from(["take", "draw", "discard " + (hand or ["AS"])[0]])
    shaped = st.tuples(
        first, st.lists(set_line, min_size=1, max_size=2), st.builds(lambda c: f"discard {c}", held)
    )
    if data.draw(st.booleans()):
        texts = data.draw(st.lists(line, min_size=1, max_size=3))
    else:  # the shape of _plain_sets' files: take/draw (or not), sets, a discard
        head, middle, last = data.draw(shaped)
        texts = [head, *middle, last] if data.draw(st.booleans()) else [*middle, last]
    quick = _answer(view, texts)
    full = pytest.MonkeyPatch()
    full.setattr(orders, "_plain", lambda sit, lines: None)
    orders._last = (None, None)
    try:
        assert _answer(view, texts) == quick
    finally:
        full.undo()


def _views_with_sets(options: dict[str, object], wanted: int) -> list[View]:
    """Views of the acting seat, from random-bot games, whose hand and top discard make a set."""
    found: list[View] = []
    for seed in range(200):
        state = GAME.setup(4, options, Rng(b"sets/%d" % seed))
        step = 0
        while state["phase"] != "over" and len(found) < wanted:
            view = GAME.observe(state, state["seat"])
            if legal_sets(view.private["hand"] + view.public["discard"][-1:]):
                found.append(view)
            texts = GAME.bots["random"](GAME, view, Rng(b"sets/%d/%d" % (seed, step)))
            orders_ = GAME.validate(view, lines(*texts))
            state = GAME.resolve(state, {state["seat"]: orders_}, Rng(b"s%d" % step)).state
            step += 1
        if len(found) >= wanted:
            break
    return found


@pytest.mark.parametrize("options", [{}, {"all-night-lab": True}], ids=["one deck", "double deck"])
def test_files_with_sets_answer_as_the_full_reading(options: dict[str, object]) -> None:
    """Every file of the shape _plain_sets decides (take, draw or nothing; one or two set lines
    under each word; a discard of any card in sight), on views whose cards make sets: the
    quick path's answer (or its handing over to the full reading) is the full reading's."""
    compared = quick_files = 0
    for view in _views_with_sets(options, 25):
        sight = view.private["hand"] + view.public["discard"][-1:]
        sets = legal_sets(sight)
        set_lines = [f"{w} {' '.join(s)}" for s in sets for w in ("pair", "royal", "play")]
        set_lines[2] = f"play {' '.join(reversed(sets[0]))}"  # cards out of display order
        set_lines.append(f"pair {' '.join(sets[0])} {sight[0]}")  # not a set
        bodies = [[a] for a in set_lines] + [[a, b] for a in set_lines[:4] for b in set_lines[:4]]
        for head in ([], ["take"], ["draw"]):
            for body in bodies:
                for card in sorted(set(sight)):
                    texts = [*head, *body, f"discard {card}"]
                    sit = orders.situation(view)
                    if orders._plain(sit, lines(*texts)) is not None:
                        quick_files += 1
                    quick = _answer(view, texts)
                    with pytest.MonkeyPatch.context() as full:
                        full.setattr(orders, "_plain", lambda sit, lines: None)
                        assert _answer(view, texts) == quick, texts
                    compared += 1
    assert compared > 1000 and quick_files > 100
