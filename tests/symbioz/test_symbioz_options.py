"""Symbioz options: kebab-case names, old spellings and games saved before a rename."""

from __future__ import annotations

import pytest
from symbioz_helpers import YELLOW, play, position

from pbem.engine import parse_options
from pbem.rng import Rng
from pbem_games.symbioz import GAME
from pbem_games.symbioz.state import options_of


def test_old_snake_case_names_are_read() -> None:
    assert GAME.setup(2, {"two_player_board": "full"}, Rng(b"o"))["options"]["two-player-board"] == "full"
    assert parse_options(GAME, {"zerb_cost": "2"})["zerb-cost"] == 2
    with pytest.raises(ValueError, match="unknown Symbioz option"):
        GAME.setup(2, {"zerb_kost": 2}, Rng(b"o"))


def test_a_game_saved_with_old_option_names_plays_on() -> None:
    state = position(zerbs={"C2": {YELLOW: 4}})
    state["options"] = {k.replace("-", "_"): v for k, v in state["options"].items()}
    state["options"]["points"] = 4
    assert options_of(state)["points"] == 4 and "zerb-cost" in options_of(state)
    res = play(state, {YELLOW: ["buy 4 zerbs C2"]})
    assert res.state["zerbs"]["C2"][YELLOW] == 10  # 4 + 4 bought + 2 newborns
    assert "zerb-cost" in res.state["options"] and "zerb_cost" not in res.state["options"]
