"""The order file: forgiving syntax, every error with its line, suggestions, fallbacks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from symbioz_helpers import RED, YELLOW, lines, orders_for, play, position, texts

from pbem.game import AmbiguousOrderError, IllegalOrderError, InvalidOrderError, OrderErrors
from pbem.rng import Rng
from pbem_games.symbioz import GAME


@pytest.fixture
def state() -> dict:
    return position(
        zerbs={"C2": {YELLOW: 6}, "C3": {YELLOW: 4, RED: 2}, "C5": {RED: 4}},
        crapits={"C3": {YELLOW: 1}},
        kroguls={"C3": {YELLOW: 1}},
    )


def test_empty_file_and_defaults_are_legal(state: dict) -> None:
    assert orders_for(state, YELLOW) == {"buy": [], "grow": [], "krogul": [], "crapit": []}
    view = GAME.observe(state, YELLOW)
    GAME.validate(view, [line for line in lines(*GAME.default_orders(view)) if not line.text.startswith("#")])


def test_forgiving_spelling(state: dict) -> None:
    out = orders_for(
        state,
        YELLOW,
        "BUY 1 Zerbs c2 else any",
        "buy c3 crapit",
        "Grow C2->B1, C2",
        "g c3 to b2 else c3 none",
        "Krogul C3 EAT Red -> c4",
        "crapits c3 eat r prefer C3 B2",
    )
    assert out["buy"][0] | {} == {
        "line": 1,
        "pawn": "zerb",
        "count": 1,
        "square": "C2",
        "targets": ["C2"],
        "mode": "prefer",
        "else": [],
        "fallback": "any",
    }
    assert out["buy"][1]["pawn"] == "crapit" and out["buy"][1]["count"] == 1
    assert out["grow"][0]["targets"] == ["B1", "C2"] and out["grow"][0]["mode"] == "each"
    assert out["grow"][1]["else"] == ["C3"] and out["grow"][1]["fallback"] == "none"
    assert out["krogul"][0]["eat"] == [RED] and out["krogul"][0]["targets"] == ["C4"]
    assert out["crapit"][0]["mode"] == "prefer" and out["crapit"][0]["eat"] == [RED]


def test_every_bad_line_is_reported_with_its_number(state: dict) -> None:
    with pytest.raises(OrderErrors) as err:
        orders_for(
            state,
            YELLOW,
            "grwo C2 -> B1",  # 1 unknown verb
            "grow C2 -> D4",  # 2 not a square
            "grow C2 -> C5",  # 3 not adjacent
            "grow C2 -> B1",  # 4 fine
            "grow C2 -> C2",  # 5 second line for C2
            "krogul C3 eat grey",  # 6 no such colour
            "crapit C5",  # 7 no Crapit there
            "buy 4 krogul C2",  # 8 too dear
        )
    errors = err.value.errors
    assert [e.line.number for e in errors if e.line] == [1, 2, 3, 5, 6, 7, 8]
    kinds = [type(e) for e in errors]
    assert kinds == [
        InvalidOrderError,
        InvalidOrderError,
        IllegalOrderError,
        AmbiguousOrderError,
        InvalidOrderError,
        IllegalOrderError,
        IllegalOrderError,
    ]
    assert errors[0].suggestion == "grow C2 -> B1"
    assert (
        "is not C2 nor adjacent" in errors[2].message and errors[2].suggestion == "grow C2 -> B2"
    )  # two steps from C5
    assert errors[5].suggestion == "crapit C3"
    assert errors[6].suggestion == "buy 2 krogul C2"
    assert "line 8" in errors[6].describe("yellow.txt")


def test_squares_not_in_play_on_the_half_board() -> None:
    two = position(2, zerbs={"C6": {YELLOW: 4}})
    with pytest.raises(OrderErrors, match="C7 is not in play"):
        orders_for(two, YELLOW, "grow C6 -> C7")


def test_fallback_is_reported(state: dict) -> None:
    # C3 holds 4 Yellow: a newborn of C2 (6) may go there; of C3 (4) into C2 (6) it may not.
    result = play(state, {YELLOW: ["grow C3 -> C2 else B2"]})
    assert "C2 refused: holds 6 Yellow Zerbs, not fewer than the 4 of C3" in texts(result)
    assert result.state["zerbs"]["B2"][YELLOW] == 1


def test_order_form_examples_validate(state: dict) -> None:
    view = GAME.observe(state, YELLOW)
    form = GAME.order_form(view)
    assert all(line.startswith("#") for line in form)
    examples = [line[2:] for line in form if line.startswith("# ") and line[2:].split(" ")[0] in GAME_VERBS]
    assert examples
    GAME.validate(view, lines(*examples))


GAME_VERBS = {"buy", "grow", "krogul", "crapit"}


def test_orders_after_the_end_are_refused() -> None:
    over = dict(position(), over=True)
    view = GAME.observe(over, YELLOW)
    assert GAME.validate(view, []) == {"buy": [], "grow": [], "krogul": [], "crapit": []}
    with pytest.raises(OrderErrors, match="over"):
        GAME.validate(view, lines("grow C1 -> C2"))


def test_else_keywords_come_last(state: dict) -> None:
    with pytest.raises(OrderErrors, match="'any' must come last"):
        orders_for(state, YELLOW, "grow C2 -> B1 else any C1")


WORDS = [
    "buy",
    "grow",
    "krogul",
    "crapit",
    "eat",
    "->",
    "to",
    "prefer",
    "else",
    "any",
    "none",
    "zerb",
    "3",
    "0",
]
WORDS += ["red", "yellow", "x", "C2", "c3", "B1", "A1", "C13", "D4", "-", ",", "99", "crapits", "k"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8), max_size=5))
def test_any_text_is_accepted_or_refused_cleanly(texts_: list[list[str]]) -> None:
    state = position(zerbs={"C2": {YELLOW: 6}, "C3": {YELLOW: 4}}, crapits={"C3": {YELLOW: 1}})
    view = GAME.observe(state, YELLOW)
    written = lines(*(" ".join(words) for words in texts_))
    try:
        orders = GAME.validate(view, written)
    except OrderErrors as err:
        assert err.errors and all(e.line in written for e in err.errors)
        return
    GAME.resolve(state, {YELLOW: orders}, Rng(b"t"))  # whatever validates also resolves


def test_order_form_fits_mail_and_skips_closed_squares() -> None:
    state = position(zerbs={"C2": {YELLOW: 6}}, kroguls={"C2": {YELLOW: 1}}, symbioz={"B1": RED, "C1": RED})
    form = GAME.order_form(GAME.observe(state, YELLOW))
    assert all(len(line) <= 72 for line in form)
    assert "# grow C2 prefer B2 C3 C2" in form
    assert any("Your Krogul" in line for line in form)
