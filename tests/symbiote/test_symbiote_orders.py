"""Order files: forgiving reading, and clear line-numbered errors with suggestions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sym_helpers import lines, make_state, view_of

from pbem.game import (
    AmbiguousOrderError,
    IllegalOrderError,
    InvalidOrderError,
    OrderError,
    OrderErrors,
)
from pbem.rng import Rng
from pbem_games.symbiote import GAME
from pbem_games.symbiote.cards import CardSyntaxError, parse_cards

HAND = ["3H", "7H", "AS", "JS", "QD", "KC", "10C"]


def _state(**kw: object) -> dict:
    kw.setdefault("discard", ["2C", "9S"])
    return make_state([["5C"], list(HAND), ["6C"], ["8C"]], **kw)  # type: ignore[arg-type]


def _errors(*texts: str, **kw: object) -> list[OrderError]:
    state = _state(**kw)
    with pytest.raises(OrderErrors) as info:
        GAME.validate(view_of(state), lines(*texts))
    return list(info.value.errors)


def _ok(*texts: str, **kw: object) -> dict:
    result: dict = GAME.validate(view_of(_state(**kw)), lines(*texts))
    return result


# ---------------------------------------------------------------------------- reading


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("7H", ["7H"]),
        ("7h", ["7H"]),
        ("10H th TH", ["10H", "10H", "10H"]),
        ("as As aS", ["AS", "AS", "AS"]),
        ("7 of hearts", ["7H"]),
        ("ace of spades, nine of spades", ["AS", "9S"]),
        ("3h+7h", ["3H", "7H"]),
        ("jack queen? ", None),
        ("Q♦ K♣ J♠", ["QD", "KC", "JS"]),
        ("ten hearts", ["10H"]),
        ("1s 9s", ["AS", "9S"]),
    ],
)
def test_cards_are_read_forgivingly(text: str, cards: list[str] | None) -> None:
    if cards is None:
        with pytest.raises(CardSyntaxError):
            parse_cards(text)
    else:
        assert parse_cards(text) == cards


def test_a_whole_turn_in_mixed_case_and_spellings() -> None:
    orders = _ok("TAKE", "Pair 3 of hearts and seven of hearts", "royal js qd kc", "pair as 9s", "Discard TC")
    assert orders == {
        "action": "take",
        "wait": False,
        "plays": [["3H", "7H"], ["JS", "QD", "KC"], ["AS", "9S"]],
        "discard": "10C",
    }


def test_take_may_name_the_top_card_and_draw_alone_waits() -> None:
    assert _ok("take 9S", "discard 3H")["action"] == "take"
    assert _ok("draw") == {"action": "draw", "wait": True, "plays": [], "discard": None}
    assert _ok("draw", "discard 3H")["wait"] is False
    [err] = _errors("take 8H", "discard 3H")
    assert isinstance(err, IllegalOrderError) and "top card" in err.message and err.suggestion == "take"


# ---------------------------------------------------------------------------- errors


def test_an_unknown_card_is_invalid_with_a_suggestion() -> None:
    [err] = _errors("draw", "pair 3H 7X", "discard AS")
    assert isinstance(err, InvalidOrderError)
    assert err.line is not None and err.line.number == 2
    text = err.describe("orders.txt")
    assert "line 2" in text and "'pair 3H 7X'" in text and "'7x' is not a card" in text
    assert err.suggestion == "pair 3H 7H"


def test_an_unknown_word_suggests_the_order_meant() -> None:
    [err] = _errors("tkae", "discard AS")
    assert isinstance(err, InvalidOrderError) and err.suggestion == "take"
    [err] = _errors("draw", "3H 7H", "discard AS")
    assert isinstance(err, InvalidOrderError) and err.suggestion == "pair 3H 7H"
    [err] = _errors("draw", "3H")
    assert err.suggestion == "discard 3H"


def test_a_card_not_in_hand_is_illegal_and_the_hand_is_listed() -> None:
    [err] = _errors("draw", "pair 4H 6H", "discard AS")
    assert isinstance(err, IllegalOrderError)
    assert "you do not hold 4H" in err.message
    assert "your hand: AS 3H 7H 10C JS QD KC" in err.message
    [err] = _errors("draw", "discard 5D")
    assert "you do not hold 5D" in err.message and err.suggestion is not None
    err, _missing_take = _errors("pair AS 9S", "discard 3H")  # 9S is on the pile: take it
    assert isinstance(err, IllegalOrderError) and "add `take`" in err.message


@pytest.mark.parametrize(
    ("play", "why"),
    [
        ("pair 3H AS", "makes 4, a symbiotic pair must add up to 10"),
        ("pair 10C AS", "a ten is a parasite"),
        ("pair JS AS", "royal symbiote"),
        ("royal JS QD 7H", "one Jack, one Queen and one King"),
        ("play 3H", "not 1 cards"),
    ],
)
def test_a_set_that_is_not_a_set_says_why(play: str, why: str) -> None:
    [err] = _errors("draw", play, "discard KC")
    assert isinstance(err, IllegalOrderError) and why in err.message


def test_the_wrong_set_word_is_illegal_with_the_right_line() -> None:
    [err] = _errors("draw", "pair JS QD KC", "discard AS")
    assert isinstance(err, IllegalOrderError) and err.suggestion == "royal JS QD KC"


def test_missing_lines_are_errors_without_a_line() -> None:
    errs = _errors("pair 3H 7H")
    assert [e.line for e in errs] == [None, None]
    assert "missing a first line: take or draw (the top discard is 9S)" in errs[0].message
    assert "missing discard" in errs[1].message and errs[1].suggestion is not None


def test_duplicates_and_contradictions() -> None:
    [err] = _errors("take", "draw", "discard AS")
    assert isinstance(err, AmbiguousOrderError) and err.line is not None and err.line.number == 2
    [err] = _errors("draw", "discard AS", "discard 3H")
    assert isinstance(err, AmbiguousOrderError) and "line 2 already discards" in err.message
    [err] = _errors("draw", "pair 3H 7H", "pair 3H 7H", "discard AS")
    assert "3H is already played on line 2" in err.message
    [err] = _errors("draw", "pair 3H 7H", "discard 7H")
    assert "7H is already played on line 2" in err.message


def test_every_bad_line_is_reported_at_once_in_line_order() -> None:
    errs = _errors("tkae", "pair 3H 8H", "discard 7x", "pair 2C 8D")
    assert [e.line.number for e in errs if e.line] == [1, 2, 3, 4]
    assert len(errs) == 4, "after an unreadable line, no noise about what is missing"
    errs = _errors("pair 3H 8H", "discard JS", "discard 7H")
    assert [e.line.number if e.line else None for e in errs] == [1, 3, None]


def test_no_orders_out_of_turn() -> None:
    state = _state()
    with pytest.raises(OrderErrors, match="no orders to give"):
        GAME.validate(view_of(state, 0), lines("draw"))


def test_double_deck_duplicates_are_interchangeable() -> None:
    state = make_state([["5C"], ["5H", "5H", "5D", "3S"], ["6C"], ["8C"]], all_night_lab=True)
    orders = GAME.validate(view_of(state), lines("draw", "pair 5H 5H", "discard 5D"))
    assert orders["plays"] == [["5H", "5H"]]
    with pytest.raises(OrderErrors, match="already played"):
        GAME.validate(view_of(state), lines("draw", "pair 5H 5D", "pair 5H 5H", "discard 3S"))


# ---------------------------------------------------------------------------- forms and defaults


def test_the_order_form_shows_hand_pile_options_sets_and_discards() -> None:
    state = _state()
    form = GAME.order_form(view_of(state))
    text = "\n".join(form)
    assert "# Your hand: AS 3H 7H 10C JS QD KC" in text
    assert "Top discard: 9S" in text
    assert "take" in text and "draw" in text
    assert "#   pair 3H 7H" in text and "matched, 4 points" in text
    assert "#   royal JS QD KC" in text
    assert "after take 9S" in text and "#   pair AS 9S" in text
    assert "#   discard 10C" in text and "parasite goes to" in text
    assert [line for line in form if not line.startswith("#")] == ["draw"]
    assert all(len(line) < 72 for line in form)
    assert GAME.order_form(view_of(state, 0))[0].startswith("# Symbiote: no orders from you")


def test_the_blank_form_alone_is_a_legal_order() -> None:
    state = _state()
    form = GAME.order_form(view_of(state))
    assert GAME.validate(view_of(state), lines(*[x for x in form if not x.startswith("#")]))["wait"]


@pytest.mark.parametrize(
    ("kw", "expected"),
    [
        ({}, ["draw", "discard 3H"]),  # AS would match the 9S on top
        ({"deck": []}, ["take", "discard AS"]),
        ({"deck": [], "discard": []}, ["discard AS"]),
        ({"phase": "play", "drawn": "KC"}, ["discard 3H"]),
    ],
)
def test_default_orders_are_legal_and_quiet(kw: dict, expected: list[str]) -> None:
    state = _state(**kw)
    view = view_of(state)
    assert GAME.default_orders(view) == expected
    GAME.validate(view, lines(*expected))


def test_default_discard_avoids_moving_the_marker() -> None:
    # Everything but 4D matches the 4S on top (or is a ten): the quiet discard is 4D... no,
    # 4D matches by rank; the quiet one is 6C.
    state = make_state([["5C"], ["4H", "4D", "6C", "10S"], ["6D"], ["8C"]], discard=["4S"])
    assert GAME.default_orders(view_of(state)) == ["draw", "discard 6C"]


WORDS = ["take", "draw", "pair", "royal", "play", "discard", "of", "hearts", "ten", "and", "+", ","]
TOKENS = st.sampled_from([*WORDS, "3H", "7H", "AS", "JS", "QD", "KC", "10C", "9S", "5D", "7x", "TH", "♠"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.lists(TOKENS, max_size=5).map(" ".join), st.text(max_size=12)), max_size=6))
def test_any_text_is_either_accepted_or_refused_with_order_errors(texts: list[str]) -> None:
    state = _state()
    view = view_of(state)
    numbered = lines(*[t for t in texts if t.strip()])
    try:
        orders = GAME.validate(view, numbered)
    except OrderErrors as exc:
        assert exc.errors
        for err in exc.errors:
            assert err.message
            assert err.line is None or err.line in numbered
        return
    GAME.resolve(state, {1: orders}, Rng(b"fuzz"))
