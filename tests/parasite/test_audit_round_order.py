"""Rules audit: the order of the phases of a round (the rulebook, "Round Sequence" and the
Mission card's text).

The rulebook's round diagram runs clockwise from the start of the round: the Game Phase, the
Escape Phase, the Infection Phase; and of a Mission: "After the card has been resolved, players
will remain on the card until the start of the next Game Phase.  For the remainder of the
current Round's Escape and Infection Phase, the temporary Location stays in play" - the
Infection Phase comes after the Escape Phase.  pbem played the Infection Phase first; games
saved before the audit keep that order (option ``round-order=infection-first``).
"""

from __future__ import annotations

from typing import Any

from para_helpers import asked, edit, file, new_game, texts

from pbem.rng import Rng
from pbem_games.parasite import GAME, rules

State = dict[str, Any]


def _on_the_mission(s: State) -> None:
    """Everyone stands on an active Fuel Run; the next Helipad card is a Mission (no question)."""
    s["mission"] = "fuel-run"
    s["loc"] = ["mission"] * 4
    s["health"] = ["distressed", "healthy", "healthy", "healthy"]
    s["decks"]["helipad"] = ["whiteout", "radio-mast"]
    s["reactions"] = [[] for _ in range(4)]


def _one_round(s: State) -> tuple[State, list[str]]:
    """Every player stays (the Mission draws nothing); the events of the round's end."""
    events: list[str] = []
    for seat in range(4):
        assert asked(s) == ((seat,), "turn")
        result = file(s, {seat: ["stay"]})
        events += texts(result)
        s = result.state
    return s, events


def test_the_escape_phase_comes_before_the_infection_phase() -> None:
    """ "Round Sequence": the Game Phase, then the Escape Phase, then the Infection Phase."""
    s = edit(new_game(4), _on_the_mission)
    s, events = _one_round(s)
    escape = events.index("Escape Phase of round 1.")
    infection = events.index("Infection Phase of round 1.")
    assert escape < infection
    assert asked(s) == ((1,), "turn"), "round 2 begins with the new Leader's Turn"


def test_the_leader_of_the_game_phase_resolves_the_escape_phase_then_passes_the_token() -> None:
    """ "The Leader has the most power and responsibilities when resolving cards during the
    Escape Phase"; "The Leader token is passed to the next player during the Infection Phase"."""
    s = edit(new_game(4), _on_the_mission)
    s, events = _one_round(s)
    reveal = next(i for i, t in enumerate(events) if t.startswith("The Leader reveals"))
    passes = events.index("The Leader token passes to player 2.")
    assert reveal < passes, "player 1, the round's Leader, reveals the Helipad card"
    assert s["leader"] == 1


def test_players_on_a_resolved_mission_exchange_tokens_there_in_the_infection_phase() -> None:
    """ "For the remainder of the current Round's Escape and Infection Phase, the temporary
    Location stays in play": the Mission resolves first (PASS: all four Healthy), then the
    players still on it exchange tokens, then at the start of the next Round they go back."""
    s = edit(new_game(4), _on_the_mission)
    s, events = _one_round(s)
    assert "The Mission Fuel Run: 4 on it, 2 needed: PASS." in events
    passed = events.index("The Mission Fuel Run: 4 on it, 2 needed: PASS.")
    exchange = events.index("player 1 and player 2 exchange tokens.")
    assert passed < exchange
    assert sorted(s["tokens"][0]) == [1, 2, 3]
    assert s["health"] == ["healthy"] * 4
    assert s["loc"] == ["helipad"] * 4, "back to the starting Location at the start of the next Round"


def test_a_game_saved_before_the_audit_keeps_the_infection_phase_first() -> None:
    """A save holds every option its game was created with; one from before the audit has no
    round-order: it re-plays (pbem verify) and goes on in the order it was played."""
    old = {v.name: v.default for v in GAME.info.variants if v.name != "round-order"}
    s = rules.setup(4, {**old, "characters": "seat-order"}, Rng(b"scenario"))
    assert "round-order" not in s["opt"], "its public options stay as they were saved"
    s, events = _one_round(edit(s, _on_the_mission))
    assert events.index("Infection Phase of round 1.") < events.index("Escape Phase of round 1.")
    chosen = rules.setup(4, {**old, "round-order": "infection-first"}, Rng(b"scenario"))
    assert chosen["opt"]["round-order"] == "infection-first"
    assert rules.setup(4, {}, Rng(b"scenario"))["opt"]["round-order"] == "rulebook"
