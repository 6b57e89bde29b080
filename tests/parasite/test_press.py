"""Parasite and press (table talk): the phase a position stands in, read from the public view,
so that press rules can narrow talk in a phase (``phase.reaction-window=none``, say)."""

from __future__ import annotations

from typing import Any

from pbem.game import bot_orders
from pbem.press.rules import game_phase, parse_pairs
from pbem.rng import Rng
from pbem_games.parasite import GAME
from pbem_games.parasite.press import PHASES


def _phases_of_a_game(options: dict[str, Any], seed: int) -> list[tuple[str, str] | None]:
    state = GAME.setup(5, options, Rng(f"press{seed}".encode()))
    seen: list[tuple[str, str] | None] = []
    steps = 0
    while GAME.outcome(state) is None and steps < 2000:
        public = GAME.observe(state, None)
        phase = game_phase(GAME, public)
        # Only public facts decide the phase: every seat's view gives the same answer.
        assert all(game_phase(GAME, GAME.observe(state, s)) == phase for s in GAME.to_act(state))
        seen.append(phase)

        def rng_for(seat: int, step: int = steps) -> Rng:
            return Rng(f"b{seed}/{step}/{seat}".encode())

        orders = bot_orders(GAME, state, "random", rng_for)
        state = GAME.resolve(state, orders, Rng(f"r{seed}/{steps}".encode())).state
        steps += 1
    seen.append(game_phase(GAME, GAME.observe(state, None)))
    return seen


def test_phases_follow_the_round_and_close_at_the_end() -> None:
    seen = _phases_of_a_game({"reactions": "windows"}, 3)
    names = {p[0] for p in seen if p is not None}
    assert names <= set(PHASES)
    assert {"turn", "reaction-window"} <= names
    assert seen[-1] is None, "press is closed once the game is over"
    assert all(p is None or p[1] == "full" for p in seen), "Parasite narrows nothing itself"


def test_standing_reactions_never_open_a_reaction_window() -> None:
    assert all(p is None or p[0] != "reaction-window" for p in _phases_of_a_game({}, 4))


def test_press_rules_can_silence_the_reaction_window() -> None:
    rules = parse_pairs(["mode=full", "phase.reaction-window=none"])
    assert rules is not None
    assert rules.mode_in(("reaction-window", "full")) == "none"
    assert rules.mode_in(("turn", "full")) == "full"
