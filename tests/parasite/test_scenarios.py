"""Scenario tests: a position, order lines, the outcome (the rulebook's rules and FAQ)."""

from __future__ import annotations

import pytest
from para_helpers import asked, edit, file, lines, new_game, texts

from pbem.game import OrderErrors
from pbem.rng import Rng
from pbem_games.parasite import GAME
from pbem_games.parasite.cards import load_cards
from pbem_games.parasite.context import Ctx
from pbem_games.parasite.winning import wins_now


def _hands(**hands: list[str]):
    def change(s):
        for key, cards in hands.items():
            s["hands"][int(key[1:])] = list(cards)

    return change


def test_setup_follows_the_rulebook() -> None:
    cards = load_cards()
    for players, helipad in ((4, 10), (6, 10), (7, 12), (8, 12)):
        s = new_game(players)
        assert len(s["decks"]["helipad"]) + len(s["boxed"]) == 22
        # the first Turn's question comes before anything is revealed
        assert len(s["decks"]["helipad"]) == helipad
        assert all(len(i) == 1 for i in s["infection"])
        humans, parasites = cards.composition[players]
        assert len(s["infection_deck"]) == humans + parasites - players
        assert set(s["loc"]) == {"helipad"} and s["leader"] == 0
        for seat, char in enumerate(s["chars"]):
            assert len(s["hands"][seat]) == len(cards.character(char).starting)
            assert all(cards.cards[c].kind != "event" for c in s["hands"][seat])
        assert asked(s) == ((0,), "turn")


def test_the_faq_scalpel_example_the_attacker_dies_and_the_action_never_finishes() -> None:
    s = new_game(4)
    edit(s, _hands(p1=["scalpel"]))
    edit(s, lambda s: s["health"].__setitem__(0, "distressed"))
    edit(s, lambda s: s["reactions"].__setitem__(1, [{"card": "scalpel"}]))
    result = file(s, {0: ["distress player 2", "stay"]})
    state = result.state
    assert state["health"][0] == "dead"
    assert state["health"][1] == "healthy", "player A's Action never finishes: B stays Healthy"
    assert any("Scalpel" in t for t in texts(result))
    assert "scalpel" in state["discards"]["storehouse"]


def test_the_faq_scalpel_example_the_attacker_survives_and_the_action_finishes() -> None:
    s = new_game(4)
    edit(s, _hands(p1=["scalpel"]))
    edit(s, lambda s: s["reactions"].__setitem__(1, [{"card": "scalpel"}]))
    state = file(s, {0: ["distress player 2", "stay"]}).state
    assert state["health"][0] == "distressed"
    assert state["health"][1] == "distressed"


def test_ice_pick_strikes_the_attacker_of_someone_in_your_location() -> None:
    s = new_game(4)
    edit(s, _hands(p2=["ice-pick"]))
    edit(s, lambda s: s["health"].__setitem__(0, "distressed"))
    edit(s, lambda s: s["reactions"].__setitem__(2, [{"card": "ice-pick"}]))
    state = file(s, {0: ["distress player 2", "stay"]}).state
    assert state["health"][0] == "dead" and state["health"][1] == "healthy"


def test_a_standing_reaction_without_the_card_does_nothing_and_asks_nobody() -> None:
    s = new_game(4)
    edit(s, _hands(p1=["pep-talk"]))
    edit(s, lambda s: s["reactions"].__setitem__(1, [{"card": "scalpel"}]))
    state = file(s, {0: ["distress player 2", "stay"]}).state
    assert state["health"][1] == "distressed" and state["health"][0] == "healthy"


def test_reaction_windows_ask_every_living_seat_whoever_holds_the_card() -> None:
    s = new_game(4, reactions="windows")
    edit(s, _hands(p1=["scalpel"], p2=[], p3=[]))
    result = file(s, {0: ["distress player 2", "stay"]})
    seats, kind = asked(result.state)
    assert kind == "window" and seats == (0, 1, 2, 3)
    after = result.state
    triggers = []
    while asked(after)[1] == "window":
        question = after["pending"]["ask"]["question"]
        triggers.append(question["trigger"])
        scalpel = question["trigger"] == "distressed-by" and question["subject"] == 1
        after = file(
            after, {seat: ["play scalpel" if scalpel and seat == 1 else "pass"] for seat in asked(after)[0]}
        ).state
    assert triggers[:2] == ["targeted", "distressed-by"]
    assert after["health"][0] == "distressed" and after["health"][1] == "distressed"
    assert "scalpel" in after["discards"]["storehouse"]


def test_just_between_us_turns_a_revealed_card_face_down() -> None:
    s = new_game(4)
    edit(s, _hands(p0=["just-between-us"]))
    edit(s, lambda s: s["revealed"].__setitem__(2, True))
    view = GAME.observe(s, 1)
    assert view.public["revealed"][2] is not None
    state = file(s, {0: ["play just-between-us on player 3", "stay"]}).state
    assert state["revealed"][2] is False
    assert GAME.observe(state, 1).public["revealed"][2] is None


def test_hand_limit_discards_and_gifts_are_unseen_by_others() -> None:
    s = new_game(4, **{"hand-limit": "start-of-turn"})
    edit(s, _hands(p0=["pep-talk", "crowbar", "stitches", "blood-test", "sled"]))
    with pytest.raises(OrderErrors, match="discard or give 1 more"):
        GAME.validate(GAME.observe(s, 0), lines(["discard sled", "stay"]))
    result = file(s, {0: ["discard sled", "give crowbar to player 2", "stay"]})
    state = result.state
    assert "crowbar" in state["hands"][1] and len(state["hands"][0]) <= 3 + 1
    public = " ".join(texts(result))
    assert "Crowbar" not in public and "Sled" not in public
    assert any("Crowbar" in t for t in texts(result, 1))


def test_activation_draws_two_and_asks_which_to_keep_without_a_preference() -> None:
    s = new_game(4)
    edit(s, lambda s: s["decks"].__setitem__("office", ["pep-talk", "handshake", "buddy-system"]))
    result = file(s, {0: ["move office"]})
    seats, kind = asked(result.state)
    assert (seats, kind) == ((0,), "keep")
    assert GAME.observe(result.state, 0).private["ask"]["cards"] == ["buddy-system", "handshake"]
    assert "ask" not in GAME.observe(result.state, 1).private
    state = file(result.state, {0: ["keep handshake"]}).state
    assert "handshake" in state["hands"][0] and "buddy-system" in state["discards"]["office"]


def test_a_standing_keep_preference_skips_the_second_file() -> None:
    s = new_game(4)
    edit(s, lambda s: s["decks"].__setitem__("office", ["pep-talk", "handshake", "calm-down"]))
    state = file(s, {0: ["prefer interrupt", "move office"]}).state
    assert "calm-down" in state["hands"][0]
    assert asked(state) == ((1,), "turn")


def test_helipad_activation_looks_at_two_and_leaves_one() -> None:
    s = new_game(4)
    edit(s, lambda s: s["decks"].__setitem__("helipad", ["whiteout", "fuel-run", "outbreak"]))
    result = file(s, {0: ["stay"]})
    assert asked(result.state) == ((0,), "leave")
    state = file(result.state, {0: ["leave fuel-run"]}).state
    assert state["decks"]["helipad"] == ["whiteout", "fuel-run"]
    assert state["discards"]["helipad"] == ["outbreak"]


def test_a_mission_passes_with_enough_players_on_it() -> None:
    s = new_game(4)

    def change(s):
        s["mission"] = "fuel-run"
        s["loc"] = ["mission", "mission", "office", "office"]
        s["health"] = ["distressed", "distressed", "healthy", "healthy"]
        s["proc"] = {"kind": "escape"}
        s["decks"]["helipad"] = ["whiteout"]

    edit(s, change)
    s["pending"]["ask"] = {"seats": [0], "question": {"kind": "escape"}, "private": {}}
    from pbem_games.parasite import rules

    result = rules._advance(s["pending"]["base"], [], "00" * 16, 0, Rng(b"m"), [])
    state = result.state
    assert state["health"][:2] == ["healthy", "healthy"], "Fuel Run PASS: those on it become Healthy"
    assert state["mission_done"] is True


def test_dog_lover_wins_when_the_dog_escapes_and_no_parasite_does() -> None:
    s = new_game(4, dog=True)

    def change(s):
        s["infection"][0] = ["dog-lover"]
        s["infection"][1] = ["evacuee"]
        s["infection"][4] = ["immune"]
        s["escaped"] = [1, 4]

    edit(s, change)
    ctx = Ctx(s, load_cards(), [], Rng(b"x"))
    assert wins_now(ctx, 0)
    s["escaped"] = [1]
    assert not wins_now(ctx, 0)


def test_dead_players_have_no_turns_and_keep_their_cards_of_infection() -> None:
    s = new_game(4)
    edit(s, _hands(p0=["shotgun", "pep-talk"]))
    edit(s, lambda s: s["decks"].__setitem__("helipad", []))
    state = file(s, {0: ["play shotgun on player 2 with pep-talk", "stay"]}).state
    assert state["health"][1] == "dead" and state["hands"][1] == [] and state["infection"][1]
    assert asked(state)[0] == (2,), "the dead player's Turn is skipped"


def test_orders_are_refused_with_line_numbers() -> None:
    s = new_game(4)
    view = GAME.observe(s, 0)
    with pytest.raises(OrderErrors) as bad:
        GAME.validate(view, lines(["play scalpell", "mvoe office", "distress player 9"]))
    described = str(bad.value)
    assert "line 1" in described and "scalpel" in described
    assert "line 2" in described and "move" in described
    assert "line 3" in described
    with pytest.raises(OrderErrors, match="no orders are awaited"):
        GAME.validate(GAME.observe(s, 1), lines(["stay"]))
