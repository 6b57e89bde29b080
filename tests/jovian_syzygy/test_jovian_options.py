"""Option names: kebab-case like Click's flags; old snake_case spellings still read, with a note."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from jov_helpers import make_state, play_round

from pbem.cli import main
from pbem.engine import parse_options
from pbem.errors import UsageError
from pbem.registry import get_game
from pbem.rng import Rng
from pbem_games.jovian_syzygy import GAME


@pytest.mark.parametrize("game", ["jovian-syzygy", "symbioz", "symbiote"])
def test_every_option_name_is_kebab_case(game: str) -> None:
    for variant in get_game(game).info.variants:
        assert variant.name == variant.name.lower() and "_" not in variant.name, variant.name


def test_old_spelling_is_read_as_the_kebab_case_option() -> None:
    options = parse_options(GAME, {"max_rounds": "7", "setup-check": "centres"})
    assert options["max-rounds"] == 7 and options["setup-check"] == "centres"
    assert "max_rounds" not in options


def test_an_option_given_in_both_spellings_is_refused() -> None:
    with pytest.raises(UsageError, match="given twice"):
        parse_options(GAME, {"max_rounds": "7", "max-rounds": "8"})


def test_unknown_option_still_lists_the_new_names() -> None:
    with pytest.raises(UsageError, match="max-rounds"):
        parse_options(GAME, {"max_roundz": "7"})


def test_setup_reads_old_names_and_refuses_unknown_ones() -> None:
    assert GAME.setup(2, {"max_rounds": 5}, Rng(b"o"))["options"]["max-rounds"] == 5
    with pytest.raises(ValueError, match="no option"):
        GAME.setup(2, {"max_roundz": 5}, Rng(b"o"))


def test_a_game_saved_with_old_option_names_plays_on() -> None:
    """A state written before the rename (snake_case keys) keeps its cap and extra-move limit."""
    state = make_state(["NE", "SW"], psi=[5, 7], rounds_played=9)
    state["options"] = {
        "solo": "timed",
        "max_rounds": 10,
        "ride": "stay",
        "max_extra_moves": 0,
        "setup_check": "slide",
    }
    res = play_round(state, {0: ["move D-1"]})
    assert res.state["over"] and "max-rounds" in res.state["options"]
    assert GAME.outcome(res.state) is not None


@pytest.mark.parametrize("spelling", ["max-rounds", "max_rounds"])
def test_demo_takes_the_option_in_either_spelling(spelling: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "demo",
            "jovian-syzygy",
            "--players",
            "2",
            "--out",
            str(tmp_path / "d"),
            "--option",
            f"{spelling}=2",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "round cap of 2" in result.output or "above 15" in result.output
    note = "note: option max_rounds is now spelled max-rounds"
    assert (note in result.stderr) == (spelling == "max_rounds")
