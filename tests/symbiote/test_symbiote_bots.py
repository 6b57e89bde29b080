"""The bots: legal always (see the property tests), and the greedy one plays sensibly."""

from __future__ import annotations

from sym_helpers import lines, make_state, view_of

from pbem.rng import Rng
from pbem_games.symbiote import GAME

GREEDY = GAME.bots["greedy"]


def _greedy(state: dict) -> list[str]:
    view = view_of(state)
    out = GREEDY(GAME, view, Rng(b"g"))
    GAME.validate(view, lines(*out))
    return out


def test_greedy_takes_the_discard_that_completes_a_set() -> None:
    state = make_state([["5C"], ["3H", "KD", "2C"], ["6C"], ["8C"]], discard=["4S", "7H"])
    out = _greedy(state)
    assert out[0] == "take" and "pair 3H 7H" in out


def test_greedy_draws_and_looks_when_the_discard_does_not_help() -> None:
    state = make_state([["5C"], ["3H", "KD", "2C"], ["6C"], ["8C"]], discard=["4S", "QH"])
    assert _greedy(state) == ["draw"]


def test_greedy_plays_the_most_points_matched_first() -> None:
    state = make_state(
        [["5C"], ["3H", "7H", "7C", "JS", "QS", "KS", "4D"], ["6C"], ["8C"]],
        phase="play",
        drawn="4D",
        discard=["2C"],
    )
    out = _greedy(state)
    assert "pair 3H 7H" in out and "royal JS QS KS" in out and "pair 3H 7C" not in out


def test_greedy_pulls_the_symbiote_to_itself() -> None:
    # AS on 2S moves the symbiote 1 seat, from seat 0 to the bot (seat 1).
    state = make_state(
        [["5C"], ["AS", "4D", "7C"], ["6C"], ["8C"]], phase="play", drawn="7C", discard=["2S"], host=0
    )
    assert _greedy(state)[-1] == "discard AS"


def test_greedy_sends_the_parasite_to_the_leader() -> None:
    # A ten moves the marker 10 seats: from seat 0 to seat 2, who leads with two sets.
    sets = [[], [], [["AH", "9H"], ["4C", "6C"]], []]
    state = make_state(
        [["5C"], ["10S", "4D", "7C"], ["6C"], ["8C"]],
        phase="play",
        drawn="7C",
        discard=["2S"],
        host=0,
        sets=sets,
    )
    assert _greedy(state)[-1] == "discard 10S"
    # ... but never onto itself: from seat 3 a ten lands on seat 1, the bot.
    state = make_state(
        [["5C"], ["10S", "4D", "7C"], ["6C"], ["8C"]],
        phase="play",
        drawn="7C",
        discard=["2S"],
        host=3,
        sets=sets,
    )
    assert _greedy(state)[-1] != "discard 10S"


def test_random_bot_is_reproducible_and_varied() -> None:
    state = make_state([["5C"], ["3H", "7H", "KD", "10S", "5S"], ["6C"], ["8C"]], discard=["4S", "7C"])
    view = view_of(state)
    bot = GAME.bots["random"]
    assert bot(GAME, view, Rng(b"a")) == bot(GAME, view, Rng(b"a"))
    seen = {tuple(bot(GAME, view, Rng(b"%d" % i))) for i in range(60)}
    assert len(seen) > 10
    for out in seen:
        GAME.validate(view, lines(*out))


def test_bots_have_nothing_to_say_out_of_turn() -> None:
    state = make_state([["5C"], ["3H"], ["6C"], ["8C"]])
    for name in ("random", "greedy"):
        assert GAME.bots[name](GAME, view_of(state, 0), Rng(b"x")) == []
