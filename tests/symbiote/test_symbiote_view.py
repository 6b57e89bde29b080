"""What each reader sees: the allow-list view and the report text."""

from __future__ import annotations

import json

from sym_helpers import lines, make_state, step, view_of

from pbem.rng import Rng
from pbem_games.symbiote import GAME

SECRET = ["3H", "7H", "JS", "QD"]


def _state() -> dict:
    return make_state(
        [["5C", "8S"], list(SECRET), ["6C"], ["8C"]],
        deck=["AD", "2D", "9C"],
        discard=["2S", "4C"],
        aside=["10H"],
        host=3,
        parasite=True,
        sets=[[["AH", "9H"]], [], [], [["JC", "QC", "KC"]]],
    )


def test_an_opponent_never_sees_your_hand_the_deck_or_face_down_sets() -> None:
    state = _state()
    for seat in (0, 2, 3, None):
        view = view_of(state, seat)
        public, private = GAME.describe(view)
        text = json.dumps(view.public) + json.dumps(view.private) + public + private
        for card in [*SECRET, "AD", "2D", "9C"]:
            assert card not in text, (seat, card)
        if seat != 0:
            assert "AH" not in text and "9H" not in text
        if seat != 3:
            assert "KC" not in text


def test_the_public_part_shows_the_table() -> None:
    state = _state()
    public = view_of(state, None).public
    assert public["hands"] == [2, 4, 1, 1]
    assert public["deck"] == 3
    assert public["discard"] == ["2S", "4C"] and public["aside"] == ["10H"]
    assert public["set_sizes"] == [[2], [], [], [3]]
    assert (public["host"], public["parasite"], public["seat"]) == (3, True, 1)
    assert "scores" not in public and "sets" not in public
    assert all(view_of(state, s).public == public for s in range(4))


def test_the_private_part_is_your_hand_and_sets() -> None:
    state = _state()
    assert view_of(state, 1).private == {"hand": ["3H", "7H", "JS", "QD"], "drawn": None, "sets": []}
    assert view_of(state, 0).private["sets"] == [["AH", "9H"]]
    assert view_of(state, None).private == {}


def test_a_view_is_a_copy() -> None:
    state = _state()
    view = view_of(state, 1)
    view.private["hand"].append("KS")
    view.public["discard"].clear()
    assert state["hands"][1] == SECRET and state["discard"] == ["2S", "4C"]


def test_the_report_reads_well_in_mail() -> None:
    state = _state()
    result = step(state, "draw", "pair 3H 7H", "discard JS")
    view = view_of(result.state, 1)
    public, private = GAME.describe(view)
    assert "SYMBIOTE - round 2: player 3 to take or draw" in public
    assert "player 2 plays a set of 2 cards face down." in view.public["last"]
    assert "The parasite is with player 4." in public
    assert "Tens set aside: 10H" in public
    assert "player 2: 2 in hand; 1 set face down (2 cards)" in public
    assert "For player 2 only." in private and "pair 3H 7H (4)" in private
    assert "Your hand: AD QD" in private
    assert all(len(line) < 72 for line in (public + private).splitlines())
    assert GAME.describe(view_of(result.state, None))[1] == ""


def test_the_final_report_names_the_winners() -> None:
    state = GAME.setup(3, {}, Rng(b"final"))
    steps = 0
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        view = GAME.observe(state, seat)
        orders = GAME.validate(view, lines(*GAME.bots["greedy"](GAME, view, Rng(b"%d" % steps))))
        state = GAME.resolve(state, {seat: orders}, Rng(b"r%d" % steps)).state
        steps += 1
    public, _ = GAME.describe(GAME.observe(state, None))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores is not None
    assert "final position" in public and "Winner" in public
    for seat in range(3):
        assert f"score {outcome.scores[seat]}" in public
    assert GAME.pictures(GAME.observe(state, None)) == {}
