"""Counts and lists of names read as English: "1 point", not "1 points"; "alice, bob and
dave won", not "alice and bob and dave won" (pbem.wording.counted and join_names, used by
the games' events, reports and outcomes)."""

from __future__ import annotations

from typing import Any

from pbem.game import Event
from pbem.registry import get_game
from pbem.rng import Rng
from pbem.wording import counted, join_names, name_seats
from pbem_games.symbiote import rules as symbiote_rules

NAMES = ["alice", "bob", "carol", "dave"]


def test_counted_is_singular_for_one_only() -> None:
    assert counted(1, "point") == "1 point"
    assert counted(-1, "point") == "-1 point"
    assert [counted(n, "point") for n in (0, 2, 12)] == ["0 points", "2 points", "12 points"]
    assert counted(3, "Psi", "Psi") == "3 Psi"


def test_join_names_lists_with_commas_and_a_final_and() -> None:
    assert join_names([]) == "" and join_names([], "nobody") == "nobody"
    assert join_names(["alice"]) == "alice"
    assert join_names(["alice", "bob"]) == "alice and bob"
    assert join_names(iter(["alice", "bob", "dave"])) == "alice, bob and dave"


def _symbiote_over(sets: list[list[list[str]]], host: int, parasite: bool) -> dict[str, Any]:
    game = get_game("symbiote")
    state = dict(game.setup(4, {v.name: v.default for v in game.info.variants}, Rng(b"wording")))
    state.update(sets=sets, host=host, parasite=parasite)
    return state


def test_a_symbiote_score_of_one_reads_one_point() -> None:
    # Player 1 holds one unmatched pair (2 points) and hosts the parasite (-1 a set): 1 point.
    state = _symbiote_over([[["3H", "7S"]], [], [], []], host=0, parasite=True)
    events: list[Event] = []
    symbiote_rules.finish(state, events)
    texts = [e.text for e in events]
    assert "player 1: 3H 7S: 1 point." in texts, texts
    assert "player 2: no sets: 0 points." in texts, texts


def test_symbiote_winners_tied_three_ways_read_as_a_list() -> None:
    state = _symbiote_over([[["3H", "7H"]], [["4H", "6H"]], [], [["2S", "8S"]]], host=2, parasite=False)
    events: list[Event] = []
    symbiote_rules.finish(state, events)
    assert events[-1].text == "Winners: player 1, player 2 and player 4.", events[-1].text
    outcome = get_game("symbiote").outcome(state)
    assert outcome is not None
    summary = name_seats(outcome.summary, NAMES)
    assert summary.startswith("alice, bob and dave won (alice 4, bob 4, carol 0, dave 4)"), summary


def test_parasite_outcome_names_three_winners_as_a_list() -> None:
    game = get_game("parasite")
    state = {"over": True, "winners": [0, 1, 3], "why": "the helicopter left"}
    outcome = game.outcome(state)
    assert outcome is not None
    assert name_seats(outcome.summary, NAMES) == "alice, bob and dave won (the helicopter left)."
    nobody = game.outcome({"over": True, "winners": [], "why": "everyone died"})
    assert nobody is not None and nobody.summary == "nobody won (everyone died)."
