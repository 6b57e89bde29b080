"""Scenario tests: one position, one order file, the rulebook's (or our ruling's) result."""

from __future__ import annotations

import json

import pytest
from sym_helpers import all_cards, deck_of, make_state, step, texts, view_of

from pbem.game import OrderErrors
from pbem.rng import Rng
from pbem_games.symbiote import GAME

# ---------------------------------------------------------------------------- setting up


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("double", [False, True])
def test_setup_deals_three_each_and_turns_up_a_discard(players: int, double: bool) -> None:
    for seed in range(4):
        state = GAME.setup(players, {"all-night-lab": double}, Rng(b"setup%d" % seed))
        dealer = state["dealer"]
        assert state["seat"] == (dealer + 1) % players, "the player left of the dealer goes first"
        assert state["host"] == dealer and state["parasite"] is False
        assert [len(h) for h in state["hands"]] == [3] * players
        assert len(state["discard"]) == 1 and state["aside"] == []
        assert len(state["deck"]) == 52 * (2 if double else 1) - 3 * players - 1
        assert all_cards(state) == deck_of(state)
        assert GAME.to_act(state) == (state["seat"],)


def test_dealer_is_random_or_the_last_seat() -> None:
    dealers = {GAME.setup(4, {}, Rng(b"d%d" % i))["dealer"] for i in range(30)}
    assert dealers == {0, 1, 2, 3}
    state = GAME.setup(3, {"dealer": "last-seat"}, Rng(b"x"))
    assert state["dealer"] == 2 and state["seat"] == 0 and state["host"] == 2


@pytest.mark.parametrize("players", [1, 2, 5])
def test_three_or_four_players_only(players: int) -> None:
    with pytest.raises(ValueError, match="three or four"):
        GAME.setup(players, {}, Rng(b"x"))


def test_unknown_or_mistyped_options_are_refused() -> None:
    with pytest.raises(ValueError, match="no option"):
        GAME.setup(4, {"teachers-pet": True}, Rng(b"x"))
    with pytest.raises(ValueError, match="takes a bool"):
        GAME.setup(4, {"open-research": "yes"}, Rng(b"x"))
    with pytest.raises(ValueError, match="keep"):
        GAME.setup(4, {"last-taken-card": "burn"}, Rng(b"x"))


# ---------------------------------------------------------------------------- drawing up

QUIET = ["4D", "6C", "KH"]  # seat 1's hand: discarding 4D onto 2S moves nothing


def _after_seat1_takes(state: dict) -> dict:
    """Seat 1 takes the top discard and discards 4D onto what is below: no draw, no move."""
    return step(state, "take", "discard 4D").state


@pytest.mark.parametrize(
    ("host", "parasite", "start", "target"),
    [(0, False, 1, 3), (2, False, 1, 5), (2, True, 1, 2), (2, False, 4, 5), (0, False, 4, 4)],
)
def test_draw_up_to_three_five_with_the_symbiote_two_with_the_parasite(
    host: int, parasite: bool, start: int, target: int
) -> None:
    hand2 = ["AC", "3D", "5H", "7S"][:start]
    deck = ["2C", "3C", "4C", "6D", "8D"]
    state = make_state([["9S"], QUIET, hand2, ["QC"]], deck=deck, host=host, parasite=parasite)
    after = _after_seat1_takes(state)
    assert after["seat"] == 2
    drawn = max(0, target - start)
    assert sorted(after["hands"][2]) == sorted(hand2 + deck[:drawn])
    assert len(after["deck"]) == len(deck) - drawn


def test_the_draw_up_is_private_and_its_size_public() -> None:
    state = make_state([["9S"], QUIET, ["AC"], ["QC"]], deck=["2C", "3C", "4C"])
    result = step(state, "take", "discard 4D")
    public = " ".join(texts(result))
    assert "player 3 draws 2 cards" in public
    assert "2C" not in public and "3C" not in public
    private = [e for e in result.events if e.to == (2,)]
    assert private and "2C 3C" in private[0].text


def test_parasite_host_discards_at_random_down_to_two() -> None:
    hand2 = ["AC", "3D", "5H", "7S", "9D"]
    state = make_state([["9S"], QUIET, hand2, ["QC"]], host=2, parasite=True)
    before_deck = list(state["deck"])
    after = _after_seat1_takes(state)
    assert len(after["hands"][2]) == 2
    assert set(after["hands"][2]) <= set(hand2)
    thrown = (set(after["discard"]) | set(after["aside"])) & set(hand2)
    assert len(thrown) == 3
    assert after["deck"] == before_deck, "already at two: nothing to draw"
    # another seed picks other cards: the choice is random (from the rng), not fixed
    picks = {
        tuple(sorted(step(state, "take", "discard 4D", seed=b"s%d" % i).state["hands"][2])) for i in range(12)
    }
    assert len(picks) > 1


@pytest.mark.parametrize(("stop", "left"), [(False, 2), (True, 3)])
def test_random_parasite_discards_move_the_marker_and_go_on_or_stop(stop: bool, left: int) -> None:
    # Seat 1 takes 2H and discards 4H on 2C (no match).  Every heart matches the 4H then on
    # top, so the first random discard always moves the marker (6H -> seat 0, 7H -> 1,
    # 8H -> 2 but symbiote face up, 9H -> 3).
    state = make_state(
        [["9S"], ["4H", "KC"], ["6H", "7H", "8H", "9H"], ["QC"]],
        discard=["2C", "2H"],
        host=2,
        parasite=True,
        parasite_discards_stop=stop,
    )
    result = step(state, "take", "discard 4H")
    after = result.state
    assert len(after["hands"][2]) == left
    assert any("Sym-biote" in t for t in texts(result))
    assert (after["host"], after["parasite"]) != (2, True)


# ---------------------------------------------------------------------------- the marker


@pytest.mark.parametrize(
    ("card", "players", "host", "new_host"),
    [
        ("7S", 4, 0, 3),  # suit match: 7 clockwise
        ("2D", 4, 0, 2),  # rank match: 2 clockwise
        ("9S", 4, 0, 1),  # 9 around a table of 4: wraps twice
        ("AS", 4, 0, 1),  # an Ace moves 1
        ("JS", 4, 0, 3),  # Jack: 1 counter-clockwise
        ("QS", 4, 0, 2),  # Queen: 2 counter-clockwise
        ("KS", 4, 0, 1),  # King: 3 counter-clockwise
        ("KS", 3, 0, 0),  # King at a table of 3: all the way round to the same host
        ("3S", 4, 2, 1),  # counted from the current host, not from the discarder
        ("9S", 3, 1, 1),
    ],
)
def test_a_matching_discard_moves_the_symbiote(card: str, players: int, host: int, new_host: int) -> None:
    hands = [["5C"], [card, "4D"], ["6C"], ["8C"]][:players]
    state = make_state(hands, discard=["2S"], host=host, parasite=True)
    result = step(state, "draw", f"discard {card}")
    after = result.state
    assert after["host"] == new_host
    assert after["parasite"] is False, "a non-ten arrives symbiote face up"
    assert after["discard"][-1] == card
    assert any("Sym-biote!" in t for t in texts(result))


def test_a_discard_that_matches_nothing_leaves_the_marker() -> None:
    state = make_state([["5C"], ["4D", "7H"], ["6C"], ["8C"]], discard=["2S"], host=0, parasite=True)
    after = step(state, "draw", "discard 4D").state
    assert (after["host"], after["parasite"]) == (0, True)


def test_only_the_card_directly_below_counts() -> None:
    state = make_state([["5C"], ["4D", "7H"], ["6C"], ["8C"]], discard=["4S", "2S"], host=0)
    assert step(state, "draw", "discard 4D").state["host"] == 0


@pytest.mark.parametrize(("ten", "players", "new_host"), [("10D", 4, 2), ("10D", 3, 1), ("10S", 4, 2)])
def test_a_ten_is_set_aside_and_sends_the_parasite_ten_seats_clockwise(
    ten: str, players: int, new_host: int
) -> None:
    hands = [["5C"], [ten, "4D"], ["6C"], ["8C"]][:players]
    state = make_state(hands, discard=["2S"], host=0)
    result = step(state, "draw", f"discard {ten}")
    after = result.state
    assert after["aside"] == [ten] and after["discard"] == ["2S"]
    assert (after["host"], after["parasite"]) == (new_host, True)
    assert any("parasite moves 10 clockwise" in t for t in texts(result))


@pytest.mark.parametrize(
    ("ten", "top", "moves"), [("10D", "2S", False), ("10S", "2S", True), ("10D", "10C", True)]
)
def test_with_tens_always_move_off_a_ten_moves_only_when_it_matches(ten: str, top: str, moves: bool) -> None:
    state = make_state([["5C"], [ten, "4D"], ["6C"], ["8C"]], discard=[top], host=0, tens_always_move=False)
    after = step(state, "draw", f"discard {ten}").state
    assert after["aside"] == [ten]
    assert (after["host"], after["parasite"]) == ((2, True) if moves else (0, False))


def test_a_discard_onto_the_empty_pile_matches_nothing() -> None:
    state = make_state([["5C"], ["7S", "4D"], ["6C"], ["8C"]], discard=["2S"], host=0)
    after = step(state, "take", "discard 7S").state  # 2S taken: 7S lands on nothing
    assert after["discard"] == ["7S"] and after["host"] == 0


def test_a_ten_onto_the_empty_pile_still_moves_by_default() -> None:
    for always, host in ((True, 2), (False, 0)):
        state = make_state(
            [["5C"], ["10S", "4D"], ["6C"], ["8C"]], discard=["2S"], host=0, tens_always_move=always
        )
        after = step(state, "take", "discard 10S").state
        assert after["host"] == host


# ---------------------------------------------------------------------------- taking and drawing


def test_take_puts_the_top_discard_in_hand_and_it_may_be_played() -> None:
    state = make_state([["5C"], ["3H", "KD"], ["6C"], ["8C"]], discard=["5S", "7H"])
    result = step(state, "take", "pair 3H 7H", "discard KD")
    after = result.state
    assert after["sets"][1] == [["3H", "7H"]]
    assert after["discard"] == ["5S", "KD"]
    assert after["hands"][1] == []
    assert "player 2 takes 7H from the discard pile." in texts(result)


def test_the_taken_card_may_not_be_discarded() -> None:
    state = make_state([["5C"], ["3H", "KD"], ["6C"], ["8C"]], discard=["5S", "7H"])
    with pytest.raises(OrderErrors, match="took it from the discard pile"):
        step(state, "take", "discard 7H")


def test_a_duplicate_of_the_taken_card_may_be_discarded_in_the_double_deck() -> None:
    state = make_state([["5C"], ["7H", "KD"], ["6C"], ["8C"]], discard=["5S", "7H"], all_night_lab=True)
    after = step(state, "take", "discard 7H").state
    assert sorted(after["hands"][1]) == ["7H", "KD"]
    assert after["discard"] == ["5S", "7H"]


@pytest.mark.parametrize("rule", ["keep", "discard"])
def test_when_only_the_taken_card_is_left(rule: str) -> None:
    state = make_state([["5C"], ["3H", "7H"], ["6C"], ["8C"]], discard=["9D", "5S"], last_taken_card=rule)
    if rule == "keep":
        result = step(state, "take", "pair 3H 7H")
        assert result.state["hands"][1] == ["5S"]
        assert any("keeps the card taken" in t for t in texts(result))
        with pytest.raises(OrderErrors, match="all you have left"):
            step(state, "take", "pair 3H 7H", "discard 5S")
    else:
        with pytest.raises(OrderErrors, match="missing discard"):
            step(state, "take", "pair 3H 7H")
        after = step(state, "take", "pair 3H 7H", "discard 5S").state
        assert after["hands"][1] == [] and after["discard"] == ["9D", "5S"]


def test_draw_alone_asks_the_same_seat_again_with_the_card_shown() -> None:
    state = make_state([["5C"], ["3H", "KD"], ["6C"], ["8C"]], deck=["7H", "2C"], discard=["5S"])
    result = step(state, "draw")
    mid = result.state
    assert mid["phase"] == "play" and GAME.to_act(mid) == (1,)
    view = view_of(mid)
    assert view.private["drawn"] == "7H" and "7H" in view.private["hand"]
    assert "7H" not in json.dumps(view_of(mid, 0).public) + json.dumps(texts(result))
    assert [e.text for e in result.events if e.to == (1,)] == ["You drew 7H."]
    with pytest.raises(OrderErrors, match="already drew"):
        step(mid, "take", "discard KD")
    after = step(mid, "pair 3H 7H", "discard KD").state
    assert after["sets"][1] == [["3H", "7H"]] and after["seat"] == 2 and after["phase"] == "act"


def test_draw_with_the_rest_of_the_turn_is_one_file() -> None:
    state = make_state([["5C"], ["3H", "7H", "KD"], ["6C"], ["8C"]], deck=["4C", "2C"], discard=["5S"])
    after = step(state, "draw", "pair 3H 7H", "discard KD").state
    assert after["seat"] == 2
    assert after["hands"][1] == ["4C"], "the drawn card stays in the hand"
    with pytest.raises(OrderErrors, match="missing discard: after `draw`"):
        step(state, "draw", "pair 3H 7H")
    with pytest.raises(OrderErrors, match="not known yet"):
        step(state, "draw", "discard 4C")


def test_the_pile_running_out_mid_draw_up_ends_the_game_after_that_turn() -> None:
    state = make_state([["5C"], ["4D", "6C"], [], ["8C"]], deck=["AC"], discard=["2S", "9H"])
    mid = step(state, "take", "discard 4D").state
    assert mid["hands"][2] == ["AC"] and mid["deck"] == [] and mid["seat"] == 2
    view = view_of(mid)
    with pytest.raises(OrderErrors, match="the draw pile is empty") as info:
        step(mid, "draw", "discard AC")
    assert info.value.errors[0].suggestion == "take"
    assert GAME.outcome(mid) is None
    end = step(mid, "take", "discard AC").state
    assert view.public["deck"] == 0
    assert end["phase"] == "over" and GAME.to_act(end) == ()


def test_with_both_piles_empty_a_turn_is_only_sets_and_a_discard() -> None:
    state = make_state([["5C"], ["4D", "6C", "9S"], ["7C"], ["8C"]], deck=[], discard=[])
    state["deck"] = []
    with pytest.raises(OrderErrors, match="discard pile is empty"):
        step(state, "take", "discard 9S")
    after = step(state, "pair 4D 6C", "discard 9S").state
    assert after["phase"] == "over"


# ---------------------------------------------------------------------------- sets, the end, scoring


def test_sets_are_face_down_unless_open_research() -> None:
    for open_research in (False, True):
        state = make_state(
            [["5C"], ["3H", "7H", "JS", "QS", "KS", "4D"], ["6C"], ["8C"]], open_research=open_research
        )
        result = step(state, "draw", "pair 3H 7H", "royal JS QS KS", "discard 4D")
        other = view_of(result.state, 0).public
        public_text = json.dumps(other) + json.dumps(texts(result))
        assert other["set_sizes"][1] == [2, 3]
        assert ("3H" in public_text) is open_research
        assert ("sets" in other) is open_research
        assert view_of(result.state, 1).private["sets"] == [["3H", "7H"], ["JS", "QS", "KS"]]


def _final(sets: list[list[list[str]]], host: int, parasite: bool) -> dict:
    state = make_state(
        [["5C"], ["4D"], ["6C"], ["8C"]], deck=["2C"], discard=["9S"], host=host, parasite=parasite, sets=sets
    )
    return step(state, "draw", "discard 4D").state


PAIR, MPAIR = ["AH", "9C"], ["4S", "6S"]
ROYAL, MROYAL = ["JS", "QH", "KD"], ["JC", "QC", "KC"]


def test_scores_sets_plus_one_a_set_for_the_symbiote_minus_one_for_the_parasite() -> None:
    sets = [[PAIR, MPAIR], [ROYAL], [MROYAL, PAIR, PAIR], []]
    end = _final(sets, host=2, parasite=False)
    assert end["phase"] == "over"
    assert end["scores"] == [2 + 4, 3, 6 + 2 + 2 + 3, 0]
    outcome = GAME.outcome(end)
    assert outcome is not None and outcome.winners == (2,) and outcome.scores == (6, 3, 13, 0)
    end = _final(sets, host=2, parasite=True)
    assert end["scores"] == [6, 3, 10 - 3, 0]


def test_ties_go_to_the_symbiote_host() -> None:
    end = _final([[PAIR, PAIR, PAIR], [], [MPAIR], []], host=2, parasite=False)
    assert end["scores"] == [6, 0, 5, 0]
    outcome = GAME.outcome(end)
    assert outcome is not None and outcome.winners == (0,), "the symbiote only breaks ties"
    end = _final([[PAIR, PAIR, PAIR, PAIR], [], [MPAIR, PAIR], []], host=2, parasite=False)
    assert end["scores"] == [8, 0, 8, 0]
    outcome = GAME.outcome(end)
    assert outcome is not None and outcome.winners == (2,)


def test_ties_go_against_the_parasite_host_and_other_ties_stand() -> None:
    end = _final([[PAIR, PAIR], [PAIR, PAIR], [MPAIR, MPAIR], []], host=2, parasite=True)
    assert end["scores"] == [4, 4, 6, 0]
    end = _final([[PAIR, PAIR, PAIR], [PAIR, PAIR, PAIR], [MPAIR, MPAIR], []], host=2, parasite=True)
    assert end["scores"] == [6, 6, 6, 0]
    outcome = GAME.outcome(end)
    assert outcome is not None and outcome.winners == (0, 1)
    end = _final([[PAIR], [PAIR], [], []], host=3, parasite=False)
    outcome = GAME.outcome(end)
    assert outcome is not None and outcome.winners == (0, 1)


def test_the_end_reveals_every_set_publicly() -> None:
    end = _final([[PAIR], [ROYAL], [], []], host=0, parasite=False)
    public = view_of(end, None).public
    assert public["sets"][1] == [ROYAL] and public["scores"] == [3, 3, 0, 0]
    assert public["winners"] == [0]
    assert GAME.to_act(end) == ()


def test_resolve_does_not_change_its_input() -> None:
    state = make_state([["5C"], ["3H", "7H", "KD", "10S"], ["6C", "2D", "8H"], ["8C"]], host=2, parasite=True)
    frozen = json.dumps(state, sort_keys=True)
    for orders in (["take", "pair 3H 7H", "discard 10S"], ["draw"], ["draw", "discard KD"]):
        step(state, *orders)
        assert json.dumps(state, sort_keys=True) == frozen


def test_a_ten_turned_up_as_the_first_discard_stays_there_and_moves_nothing() -> None:
    seed = next(i for i in range(500) if GAME.setup(4, {}, Rng(b"ten%d" % i))["discard"][0].startswith("10"))
    state = GAME.setup(4, {}, Rng(b"ten%d" % seed))
    assert state["aside"] == [] and state["host"] == state["dealer"] and not state["parasite"]
    ten = state["discard"][0]
    seat = state["seat"]
    keep = next(c for c in state["hands"][seat] if not c.startswith("10"))
    after = step(state, "take", f"discard {keep}").state
    assert ten in after["hands"][seat], "the ten can be taken like any discard"
